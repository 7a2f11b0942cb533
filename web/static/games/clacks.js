// Clacks on the table screen and on a phone, drawn from the room's snapshot (the game's
// per-seat view) and the game's reference (geometry, alphabet). Other games and modes
// register their own module in Clacks.games the same way.
"use strict";

(() => {
  const { t, el, svg, pressable, seatName } = Clacks;
  const CELL = 100;
  const MARGIN = 36; // room for the seats' names around the exchange
  const CLOCKWISE = ["south", "west", "north", "east"];

  // ------------------------------------------------------------------ names and words

  function shapeWord(colour) {
    return t(`clacks.colour.${colour}`);
  }

  function describeEvent(state, event) {
    const params = { ...event };
    for (const key of ["seat", "target", "to"]) {
      if (event[key] && CLOCKWISE.includes(event[key])) params[key] = seatName(state, event[key]);
    }
    if (Array.isArray(event.lamps)) params.lamps = event.lamps.join(" ");
    // the end of a game in words; other reasons (why cards were drawn) are not said
    if (event.reason && Clacks.has(`clacks.reason.${event.reason}`)) params.reason = t(`clacks.reason.${event.reason}`);
    for (const key of ["symbol", "answer"]) {
      if (event[key]) params[key] = symbolWord(event[key]);
    }
    if (event.slot) params.slot = t(`clacks.slot.${event.slot}`);
    if (event.card) params.card = cardName(state, event.card);
    if (event.kind === "jacquard_played") params.name = jacquardName({ id: event.jacquard, name: event.name });
    if (event.kind === "fault_played") params.name = faultName({ id: event.card, name: event.name });
    if (event.kind === "card_revealed") {
      const card = { id: event.card, deck: event.deck, name: event.name, text: event.text };
      params.name = faultName(card);
      params.text = cardText(card, readingOf(state.view && state.view.mode, card.deck));
    }
    if (event.lit) params.lit = placeName(routeOf(state, event.seat), event.progress, event.lit);
    if (event.effect && event.kind === "effect_started") params.effect = effectWords(state, event);
    if (event.kind === "race_won" || event.kind === "race_lost") params.mode = state.view && state.view.mode;
    let key = `event.${event.kind}`;
    const variant = {
      moved: !event.from ? "event.placed" : null,
      transmitted: event.lit ? "event.transmitted.lit" : null,
      swapped: event.cost ? "event.swapped.cost" : null,
      jacquard_passed: event.drawn ? "event.jacquard_passed.drawn" : null,
      answered: event.correct ? "event.answered.right" : event.answer ? null : "event.answered.skipped",
    }[event.kind];
    if (variant) key = variant;
    if (event.own) {
      // what only this seat is told: the cards it drew or was handed, by name
      const names = [...(event.jacquards || []).map((id) => jacquardName({ id })),
                     ...(event.faults || []).map((id) => faultName({ id }))];
      params.names = names.join(", ");
      params.count = names.length;
      if (names.length && Clacks.has(`event.${event.kind}.own`)) key = `event.${event.kind}.own`;
    }
    if (event.kind === "post_office_moved") {
      if (event.steps < 0) {
        key = "event.post_office_moved.back";
        params.back = -event.steps;
      } else if (event.held) {
        key = "event.post_office_moved.held";
      }
    }
    return Clacks.has(key) ? t(key, params) : event.kind;
  }

  // ------------------------------------------------------------------ card words
  // A card or Jacquard design speaks from the catalog, keyed by its design id (a copy's
  // id is the design's id and a copy number: "overload-1"); the engine's own English
  // words stand in only for a design the catalog does not know.

  function designOf(card) {
    return card.design || String(card.id).replace(/-\d+$/, "");
  }

  function fromCatalog(key, fallback) {
    return Clacks.has(key) ? t(key) : fallback;
  }

  // A Fault Report, Incident Report or Operator's Log by name.
  function faultName(card) {
    return fromCatalog(`card.${designOf(card)}.name`, card.name || card.id);
  }

  function jacquardName(card) {
    return fromCatalog(`jacquard.${designOf(card)}.name`, card.name || card.id);
  }

  // A card's text as read out: "text" in the competitive game and on Incident Reports and
  // Operator's Logs; a Fault Report revealed in co-op or the junior race has its own.
  function cardText(card, reading) {
    return fromCatalog(`card.${designOf(card)}.${reading || "text"}`, card.text);
  }

  function readingOf(mode, deck) {
    if (deck !== "fault") return "text";
    return mode === "junior" ? "junior" : "night_shift";
  }

  // A card named in an event by its id, by its name when the view shows it face up.
  function cardName(state, cardId) {
    const view = state.view || {};
    const found = [...(view.revealed || []), ...((view.you && view.you.faults) || [])]
      .find((c) => c.id === cardId);
    return found ? faultName(found) : cardId;
  }

  // ------------------------------------------------------------------ route words
  // The map games' routes and their tower locations speak from the catalog too, keyed by
  // the route's id and the location's tower number (1 = the first after Ankh-Morpork, 0 =
  // Ankh-Morpork itself); the engine's English stands in for a route the catalog does not know.

  function routeName(route) {
    return fromCatalog(`route.${route.id}.name`, route.name || route.id);
  }

  function placeName(routeId, number, fallback) {
    return number ? fromCatalog(`route.${routeId}.place.${number}`, fallback) : cityName("start");
  }

  // Where every route starts ("start", Ankh-Morpork) or ends ("finish", Genua).
  function cityName(end) {
    return fromCatalog(`route.${end}`, end === "start" ? "Ankh-Morpork" : "Genua");
  }

  // The route a seat's message travels: the team's in co-op and solitaire, each racer's own
  // in the junior race.
  function routeOf(state, seat) {
    const view = state.view || {};
    if (view.route) return view.route.id;
    const player = (view.players || []).find((p) => p.seat === seat);
    return player ? player.route : null;
  }

  // A lasting effect in words, with its numbers from the view's list of effects.
  function effectWords(state, effect) {
    const lasting = ((state.view || {}).effects || []).find((e) => e.card === effect.card);
    const key = `clacks.effect.${effect.effect}`;
    if (!Clacks.has(key)) return effect.effect;
    const words = t(key, (lasting && lasting.params) || {});
    return /\{\w+\}/.test(words) ? t(`${key}.plain`) : words;
  }

  function symbolWord(symbol) {
    return symbol === "SPACE" || symbol === "END" ? t(`clacks.symbol.${symbol}`) : symbol;
  }

  // ------------------------------------------------------------------ the exchange

  function seatRef(ref, seatId) {
    return ref.seats.find((s) => s.id === seatId) || ref.seats[0];
  }

  // Where each lamp sits in the picture drawn from ``seatId``'s side.
  function layout(ref, seatId) {
    const positions = {};
    seatRef(ref, seatId).grid.forEach((row, r) =>
      row.forEach((lamp, c) => {
        positions[lamp] = { x: MARGIN + (c + 0.5) * CELL, y: MARGIN + (r + 0.5) * CELL, r, c };
      }),
    );
    return positions;
  }

  // The board as an SVG. opts: lit, preview, accent, frame, selected (Sets of lamp names);
  // pawns {seat: tower}; dwarf; onLamp(name); onTower(name); towerEnabled(tower).
  function drawBoard(ref, seatId, opts) {
    const pos = layout(ref, seatId);
    const size = CELL * 4 + MARGIN * 2;
    const root = svg("svg", {
      viewBox: `0 0 ${size} ${size}`,
      class: "exchange",
      role: "group",
      "aria-label": t("clacks.board_label", { seat: t(`seat.${seatId}`) }),
    });
    root.append(svg("rect", { x: 4, y: 4, width: size - 8, height: size - 8, rx: 18, class: "frame" }));
    if (opts.sideName) {
      // who sits at each edge, seen from this side: yourself at the bottom
      const here = CLOCKWISE.indexOf(seatId);
      const places = [
        [CLOCKWISE[here], size / 2, size - 10, 0],
        [CLOCKWISE[(here + 1) % 4], 22, size / 2, -90],
        [CLOCKWISE[(here + 2) % 4], size / 2, 28, 0],
        [CLOCKWISE[(here + 3) % 4], size - 22, size / 2, 90],
      ];
      for (const [seat, x, y, angle] of places) {
        const name = opts.sideName(seat);
        if (name) {
          root.append(svg("text", { x, y, class: "side-name", transform: `rotate(${angle} ${x} ${y})`,
                                    "aria-hidden": "true", text: name }));
        }
      }
    }
    for (const lamp of ref.lamps) {
      const p = pos[lamp];
      const lit = opts.lit.has(lamp);
      const flips = opts.preview && opts.preview.has(lamp);
      const selected = opts.selected && opts.selected.has(lamp);
      const inFrame = opts.frame && opts.frame.has(lamp);
      const words = [t("clacks.lamp", { lamp }), t(lit ? "clacks.lit" : "clacks.dark")];
      if (flips) words.push(t("clacks.will_flip"));
      if (selected) words.push(t("clacks.selected"));
      const classes = ["lamp", lit ? "on" : "off"];
      if (flips) classes.push("flip");
      if (selected) classes.push("chosen");
      if (inFrame) classes.push("inframe");
      if (opts.accent && opts.accent.has(lamp)) classes.push("accent");
      const group = svg("g", {
        class: classes.join(" "),
        "data-lamp": lamp,
        role: opts.onLamp ? "button" : "img",
        tabindex: opts.onLamp ? 0 : null,
        "aria-label": words.join(", "),
        "aria-pressed": opts.onLamp ? String(Boolean(flips || selected)) : null,
      });
      // a lamp to tap answers anywhere in its cell, not only on its bulb: a bigger target
      // for a finger where the board is drawn small
      if (opts.onLamp) {
        group.append(svg("rect", { x: p.x - CELL / 2, y: p.y - CELL / 2, width: CELL, height: CELL, class: "hit-area" }));
      }
      if (inFrame) {
        group.append(svg("rect", { x: p.x - CELL / 2 + 3, y: p.y - CELL / 2 + 3, width: CELL - 6,
                                   height: CELL - 6, rx: 10, class: "frame-cell" }));
      }
      group.append(svg("circle", { cx: p.x, cy: p.y, r: 31, class: "bulb" }));
      if (lit) group.append(svg("circle", { cx: p.x, cy: p.y, r: 14, class: "glow" }));
      if (flips) {
        group.append(svg("circle", { cx: p.x, cy: p.y, r: 40, class: "flip-ring" }));
        group.append(svg("text", { x: p.x, y: p.y + 12, class: "flip-mark", text: "⇅" }));
      }
      group.append(svg("text", { x: p.x - 40, y: p.y - 36, class: "lamp-name", text: lamp }));
      if (opts.onLamp) pressable(group, () => opts.onLamp(lamp));
      root.append(group);
    }
    const occupants = {};
    for (const [seat, tower] of Object.entries(opts.pawns || {})) {
      if (tower) (occupants[tower] = occupants[tower] || []).push(seat);
    }
    for (const tower of ref.towers) {
      const a = pos[tower.between[0]];
      const b = pos[tower.between[1]];
      const x = (a.x + b.x) / 2;
      const y = (a.y + b.y) / 2;
      const enabled = opts.onTower && (!opts.towerEnabled || opts.towerEnabled(tower));
      // a tower out of reach may still answer a tap, to say why (never a tab stop)
      const answers = opts.onTower && (enabled || opts.towersAnswer);
      const here = occupants[tower.id] || [];
      const sends = opts.canSend && opts.canSend.has(tower.id);
      const hinted = opts.hinted === tower.id;
      const words = [t("clacks.tower", { tower: tower.id, colour: shapeWord(tower.colour) })];
      if (sends) words.push(t("clacks.can_send", { symbol: symbolWord(opts.sendSymbol || "") }));
      if (hinted) words.push(t("hints.here"));
      for (const seat of here) words.push(t("clacks.pawn_here", { seat: t(`seat.${seat}`) }));
      if (opts.dwarf === tower.id) words.push(t("clacks.dwarf_here"));
      const group = svg("g", {
        class: `tower ${tower.colour}${enabled ? " enabled" : ""}${answers ? " answers" : ""}`
          + `${sends ? " can-send" : ""}${hinted ? " hinted" : ""}`,
        "data-tower": tower.id,
        role: answers ? "button" : "img",
        tabindex: enabled ? 0 : answers ? -1 : null,
        "aria-disabled": answers && !enabled ? "true" : null,
        "aria-label": words.join(", "),
      });
      // a finger's reach around the button, wider than its ring: on a phone the board may
      // shrink to 190 px, and the tap target stays 24 px or more (never over another tower)
      group.append(svg("circle", { cx: x, cy: y, r: 30, class: "reach" }));
      group.append(svg("circle", { cx: x, cy: y, r: 24, class: "hit" }));
      if (sends) group.append(svg("circle", { cx: x, cy: y, r: 30, class: "send-ring" }));
      if (hinted) group.append(svg("circle", { cx: x, cy: y, r: 36, class: "hint-ring" }));
      if (tower.shape === "square") {
        group.append(svg("rect", { x: x - 13, y: y - 13, width: 26, height: 26, rx: 3, class: "button" }));
      } else {
        group.append(svg("circle", { cx: x, cy: y, r: 14, class: "button" }));
      }
      here.forEach((seat, i) => {
        const px = x + 20 + i * 10;
        const py = y - 20;
        group.append(svg("circle", { cx: px, cy: py, r: 15, class: `pawn seat-${seat}` }));
        group.append(svg("text", { x: px, y: py + 6, class: "pawn-text", text: t(`seat.${seat}.initial`) }));
      });
      if (opts.dwarf === tower.id) {
        // big and bright beside the tower's button, readable across the room
        group.append(svg("rect", { x: x - 50, y: y + 4, width: 42, height: 42, rx: 8, class: "dwarf" }));
        group.append(svg("text", { x: x - 29, y: y + 35, class: "dwarf-text", text: "⛏" }));
      }
      // a lesson names the tower it asks for, so the words and the drawing agree
      if (opts.namedTower === tower.id) {
        // below a red button (between two rows), beside a green one (between two columns)
        const square = tower.shape === "square";
        group.append(svg("text", { x: square ? x : x + 27, y: square ? y + 44 : y + 6,
                                   class: `tower-name${square ? "" : " beside"}`, text: tower.id }));
      }
      if (answers) pressable(group, () => opts.onTower(tower.id));
      root.append(group);
    }
    return root;
  }

  function boardOptions(state, ref) {
    const view = state.view;
    const pawns = {};
    for (const p of view.players) pawns[p.seat] = p.pawn;
    const preview = new Set(state.preview ? state.preview.preview.map((i) => ref.lamps[i]) : []);
    const accent = new Set((state.lamps ? state.lamps.accent : []).map((i) => ref.lamps[i]));
    // a hint a player asked for also picks out the tower it leads to
    if (state.preview && state.preview.hint) state.preview.accent.forEach((i) => accent.add(ref.lamps[i]));
    const playing = new Set(view.players.map((p) => p.seat));
    const sideName = (seat) => (playing.has(seat) ? seatName(state, seat) : "");
    const lesson = view.tutorial;
    const lessonTower = lesson && lesson.step ? lesson.step.tower : null;
    return { lit: new Set(view.lit), preview, accent, pawns, dwarf: view.dwarf, sideName,
             namedTower: lessonTower, hinted: lessonTower || undefined };
  }

  // A symbol as its 2x3 pattern of lamps, as printed on the alphabet card.
  function glyph(pattern, label) {
    const root = svg("svg", { viewBox: "0 0 24 36", class: "glyph", role: "img", "aria-label": label });
    for (let i = 0; i < 6; i += 1) {
      const on = pattern[i] === "1";
      root.append(svg("circle", { cx: 6 + (i % 2) * 12, cy: 6 + Math.floor(i / 2) * 12, r: 5,
                                  class: on ? "on" : "off" }));
    }
    return root;
  }

  function patternWords(pattern) {
    const rows = [pattern.slice(0, 2), pattern.slice(2, 4), pattern.slice(4, 6)];
    return rows.map((r) => r.split("").map((b) => (b === "1" ? "●" : "○")).join("")).join(" ");
  }

  function alphabetCard(ref) {
    const list = el("ul", { class: "alphabet" });
    const symbols = Object.keys(ref.alphabet).sort((a, b) => (a.length - b.length) || (a < b ? -1 : 1));
    for (const symbol of symbols) {
      const pattern = ref.alphabet[symbol];
      const name = symbolWord(symbol);
      list.append(el("li", { class: symbol.length > 1 ? "wide" : null },
        glyph(pattern, `${name}: ${patternWords(pattern)}`), el("span", {}, name)));
    }
    return list;
  }

  function rulesText(mode) {
    const key = Clacks.has(`clacks.rules.${mode}`) ? `clacks.rules.${mode}` : "clacks.rules";
    return el("div", { class: "rules-text" },
      t(key).split("\n\n").map((para) => el("p", {}, para)));
  }

  function messageLine(player) {
    const line = el("ol", { class: "message", "aria-label": t("clacks.message_label", {
      done: player.progress, length: player.message.length }) });
    player.message.forEach((symbol, i) => {
      const done = i < player.progress;
      line.append(el("li", { class: done ? "sent" : i === player.progress ? "next" : "todo" },
        symbolWord(symbol), done ? el("span", { class: "tick", "aria-hidden": "true" }, "✓") : null));
    });
    // the words as written (KOČÁR) above the plain letters the lamps spell (KOCAR)
    const spelled = player.spelled || [];
    const plain = player.words || [];
    if (!spelled.some((word, i) => word !== plain[i])) return line;
    return el("div", { class: "message-words" },
      el("p", { class: "spelled" }, t("clacks.spelled", { words: spelled.join(" "), letters: plain.join(" ") })),
      line);
  }

  // Whose turn it is, in bold: the first thing a turn's line says.
  function turnOf(state, seatId) {
    return el("strong", {}, t("clacks.turn_of", { name: seatName(state, seatId) }));
  }

  // The Jacquards played this turn, and of how many where the mode limits them.
  function jacquardsPlayed(turn) {
    return turn.jacquard_limit === null
      ? t("clacks.jacquards_played", { played: turn.jacquards_played })
      : t("clacks.jacquards_played_of", { played: turn.jacquards_played, limit: turn.jacquard_limit });
  }

  function turnSummary(state) {
    const view = state.view;
    if (state.over) {
      return el("p", { class: "winner", role: "status" },
        t("clacks.winner", { name: seatName(state, view.winner) }),
        " ", t(`clacks.reason.${view.end_reason}`));
    }
    const turn = view.turn;
    const parts = [
      turnOf(state, turn.seat),
      " · ",
      t("clacks.stress", { spent: turn.stress_spent, limit: turn.stress_limit }),
    ];
    if (turn.phase === "sabotage" && view.sabotage) {
      parts.push(el("p", { class: "phase" }, t("clacks.phase.sabotage", {
        target: seatName(state, view.sabotage.target), tower: view.sabotage.tower })));
    } else if (turn.phase === "timeout_discard") {
      parts.push(el("p", { class: "phase" }, t("clacks.phase.timeout_discard")));
    }
    if (state.deadline) {
      const countdown = el("span", { class: "countdown", role: "timer", "aria-live": "off", "data-deadline": state.deadline });
      showCountdown(countdown);
      parts.push(" · ", countdown);
    } else if (view.options && view.options.express && turn.phase !== "timeout_discard") {
      parts.push(" · ", el("span", { class: "clock-waits" }, t("clacks.clock_waits")));
    }
    return el("div", { class: "turn" }, parts);
  }

  function showCountdown(node) {
    const left = Math.max(0, Math.ceil(Number(node.dataset.deadline) - Clacks.serverNow()));
    node.textContent = t("clacks.seconds_left", { seconds: left });
    node.classList.toggle("urgent", left <= 10);
  }

  function tickCountdowns() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(showCountdown);
  }
  setInterval(tickCountdowns, 250);

  // ------------------------------------------------------------------ table screen

  function table(ctx) {
    const { state, ref } = ctx;
    const view = state.view;
    const root = el("div", { class: "clacks-table" });
    const options = boardOptions(state, ref);
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange") },
      drawBoard(ref, "south", { ...options, onTower: ctx.press }));
    if (ctx.press && !state.over) boardBox.append(el("p", { class: "hint" }, t("ui.hardware_sim")));
    const seats = el("div", { class: "seats" });
    for (const player of view.players) {
      const active = (state.active || []).includes(player.seat);
      const seatInfo = state.room.seats.find((s) => s.id === player.seat) || {};
      seats.append(el("section", {
        class: `seat seat-${player.seat}${active ? " active" : ""}`,
        "aria-label": seatName(state, player.seat),
        "aria-current": active ? "true" : null,
      },
      el("h3", {},
        el("span", { class: `shape ${player.colour}`, "aria-hidden": "true" }),
        seatName(state, player.seat),
        active ? el("span", { class: "badge" }, t("clacks.playing")) : null),
      el("p", { class: "presence" }, Clacks.presence(seatInfo)),
      messageLine(player),
      el("p", { class: "counts" },
        t("clacks.counts", { hand: player.hand_count, faults: player.fault_count }), " · ",
        player.pawn ? t("clacks.pawn_at", { tower: player.pawn }) : t("clacks.start_button"),
        player.sabotaged ? ` · ${t("clacks.was_sabotaged")}` : ""),
      ));
    }
    root.append(el("div", { class: "status", "aria-live": "polite" }, turnSummary(state)), boardBox, seats);
    return root;
  }

  function extras(ctx) {
    return {
      rules: rulesText(ctx.state.view && ctx.state.view.mode),
      alphabet: alphabetCard(ctx.ref),
      describe: (event) => describeEvent(ctx.state, event),
    };
  }

  // ------------------------------------------------------------------ phone

  // What the phone is doing between taps; survives re-renders, reset after an action.
  // ``hole``: which hole of the card (as printed) sits on the tapped lamp, ``anchor``;
  // ``frame``: what the server says a chosen Fault Report would change.
  const pick = { mode: null, card: null, rotation: 0, mirror: false, lamps: [], tower: null, anchor: null,
                 hole: null, frame: null };

  function resetPick() {
    Object.assign(pick, { mode: null, card: null, rotation: 0, mirror: false, lamps: [], tower: null, anchor: null,
                          hole: null, frame: null, slot: null });
  }

  // The card's holes turned and mirrored as chosen, each with its index in the card as
  // printed (``hole``), top-left first.
  function orientedHoles(holes, rotation, mirror) {
    let cells = [];
    holes.forEach((row, r) => row.split("").forEach((ch, c) => {
      if (ch === "X") cells.push({ r, c, hole: cells.length });
    }));
    if (mirror) cells = cells.map((cell) => ({ ...cell, c: -cell.c }));
    for (let i = 0; i < rotation; i += 1) cells = cells.map((cell) => ({ ...cell, r: cell.c, c: -cell.r }));
    const minR = Math.min(...cells.map((cell) => cell.r));
    const minC = Math.min(...cells.map((cell) => cell.c));
    return cells.map((cell) => ({ ...cell, r: cell.r - minR, c: cell.c - minC }))
      .sort((a, b) => a.r - b.r || a.c - b.c);
  }

  function cellsOf(holes, rotation, mirror) {
    return orientedHoles(holes, rotation, mirror).map(({ r, c }) => [r, c]);
  }

  function cardPicture(cells, label) {
    const rows = Math.max(...cells.map(([r]) => r)) + 1;
    const cols = Math.max(...cells.map(([, c]) => c)) + 1;
    const root = svg("svg", { viewBox: `0 0 ${cols * 12 + 4} ${rows * 12 + 4}`, class: "card-picture",
                              role: "img", "aria-label": label });
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const hole = cells.some(([cr, cc]) => cr === r && cc === c);
        root.append(svg("rect", { x: 2 + c * 12, y: 2 + r * 12, width: 10, height: 10, rx: 2,
                                  class: hole ? "hole" : "blank" }));
      }
    }
    return root;
  }

  // The lamps the chosen card covers when laid on ``lamp``: the same hole of the card
  // stays on the tapped lamp through every turn and mirror (the first hole at each new
  // lamp tapped); when that hole would put the card off the board, the nearest hole that keeps
  // it on; when none can, the card is pushed back onto the board.
  function placeCard(ref, seatId, card, lamp) {
    const at = layout(ref, seatId)[lamp];
    const grid = seatRef(ref, seatId).grid;
    const cells = orientedHoles(card.holes, pick.rotation, pick.mirror);
    const rows = Math.max(...cells.map((cell) => cell.r)) + 1;
    const cols = Math.max(...cells.map((cell) => cell.c)) + 1;
    const kept = cells.find((cell) => cell.hole === pick.hole) || cells[0];
    const apart = (cell) => Math.abs(cell.r - kept.r) + Math.abs(cell.c - kept.c);
    const fits = (cell) => at.r - cell.r >= 0 && at.c - cell.c >= 0
      && at.r - cell.r + rows <= 4 && at.c - cell.c + cols <= 4;
    const chosen = [...cells].sort((a, b) => apart(a) - apart(b)).find(fits);
    if (pick.hole === null) pick.hole = (chosen || kept).hole;
    const under = chosen || kept;
    const dr = Math.min(Math.max(at.r - under.r, 0), 4 - rows);
    const dc = Math.min(Math.max(at.c - under.c, 0), 4 - cols);
    return cells.map((cell) => grid[cell.r + dr][cell.c + dc]);
  }

  function pendingAction() {
    if (pick.mode === "jacquard" && pick.lamps.length) {
      return { type: "play_jacquard", jacquard: pick.card.id, lamps: pick.lamps };
    }
    if (pick.mode === "fault") {
      const target = pick.card.target;
      if (target === "lamps") {
        if (pick.lamps.length !== Number(pick.card.params.count)) return null;
        return { type: "play_fault", card: pick.card.id, lamps: pick.lamps };
      }
      if (target === "tower" || target === "own_tower") {
        return pick.tower ? { type: "play_fault", card: pick.card.id, tower: pick.tower } : null;
      }
      return { type: "play_fault", card: pick.card.id };
    }
    return null;
  }

  function readAt(ref, seatId, lit, tower) {
    const frame = seatRef(ref, seatId).frames[tower];
    if (!frame) return null;
    const pattern = frame.map((lamp) => (lit.has(lamp) ? "1" : "0")).join("");
    const symbol = Object.keys(ref.alphabet).find((s) => ref.alphabet[s] === pattern);
    return { pattern, symbol };
  }

  // Whether ``action`` (as the phone would send it) is one of the engine's legal ones.
  function sameAction(legalAction, action) {
    const lamps = (list) => [...(list || [])].sort().join(" ");
    return legalAction.type === action.type
      && (legalAction.jacquard || null) === (action.jacquard || null)
      && (legalAction.card || null) === (action.card || null)
      && (legalAction.tower || null) === (action.tower || null)
      && lamps(legalAction.lamps) === lamps(action.lamps);
  }

  // A Jacquard laid as printed on the seat's first lamps: the action a greyed-out card
  // stands for when the engine is asked why it cannot be played (its cost, the turn).
  function sampleJacquard(ref, seatId, card) {
    const grid = seatRef(ref, seatId).grid;
    return { type: "play_jacquard", jacquard: card.id, lamps: cellsOf(card.holes, 0, false).map(([r, c]) => grid[r][c]) };
  }

  // A button the rules may keep out of reach: then tapping or focusing it says why.
  function control(ctx, allowed, why, attrs, ...children) {
    const node = el("button", { type: "button", ...attrs }, ...children);
    if (!allowed) Clacks.unavailable(node, () => ctx.explain(why.action, why.words));
    return node;
  }

  // What a Fault Report will do, in words, with its numbers and whom it hits.
  function faultDoes(state, card, frame) {
    const params = { ...card.params };
    params.name = seatName(state, state.view.turn.seat);
    if (card.effect === "set_tower") params.lit = card.params.lit ? "on" : "off";
    if (frame) params.changed = frame.preview.length;
    const key = `clacks.fault_does.${card.effect}`;
    if (!Clacks.has(key)) return cardText(card, "text");
    const words = t(key, params);
    return /\{\w+\}/.test(words) && Clacks.has(`${key}.plain`) ? t(`${key}.plain`) : words;
  }

  function phone(ctx) {
    const { state, ref, seat } = ctx;
    const view = state.view;
    const you = view.you;
    const me = view.players.find((p) => p.seat === seat);
    const myTurn = (state.active || []).includes(seat);
    const turn = view.turn;
    // what the engine allows this seat now: every button is enabled from it
    const legal = state.over ? [] : ctx.legal();
    const can = (test) => legal !== null && legal.some(test);
    // a card that left the hand (played, undone elsewhere) can no longer be placed
    if (pick.card && pick.mode === "jacquard" && !you.hand.some((c) => c.id === pick.card.id)) resetPick();
    if (pick.card && pick.mode === "fault" && !you.faults.some((c) => c.id === pick.card.id)) resetPick();
    if (state.over) resetPick();

    const root = el("div", { class: `clacks-phone${myTurn ? " my-turn" : ""}` });
    root.append(el("div", { class: "status", "aria-live": "polite" }, turnSummary(state)),
      el("p", { class: "prompt", tabindex: -1 }, prompt(state, myTurn, me)));

    // what the player must send, and what their tower shows now
    const mine = el("section", { class: "mine", "aria-label": t("clacks.your_message") }, messageLine(me));
    if (me.next_symbol) mine.append(nextSymbolLine(ref, me.next_symbol));
    if (me.pawn) {
      const shown = readAt(ref, seat, new Set(view.lit), me.pawn);
      if (shown) {
        mine.append(el("p", { class: "shows" }, t("clacks.tower_shows", {
          tower: me.pawn, symbol: shown.symbol ? symbolWord(shown.symbol) : "none" }), " ",
          glyph(shown.pattern, patternWords(shown.pattern))));
      }
    }

    // the board from this seat, with the local placement shown before the server's
    const options = boardOptions(state, ref);
    const mineFlips = pick.mode && pick.lamps.length;
    if (mineFlips) options.preview = new Set(pick.lamps);
    else if (state.preview && state.preview.seat !== seat) options.preview = new Set();
    if (me.pawn && seatRef(ref, seat).frames[me.pawn]) options.frame = new Set(seatRef(ref, seat).frames[me.pawn]);
    if (pick.mode === "fault") {
      // what the chosen Fault Report would change, as the engine says
      const changes = pick.frame ? pick.frame.preview.map((i) => ref.lamps[i]) : [];
      options.preview = new Set(pick.card.target === "lamps" ? pick.lamps : changes);
      if (pick.card.target === "lamps") options.selected = new Set(pick.lamps);
    }
    const lampTap = pick.mode === "jacquard" || (pick.mode === "fault" && pick.card.target === "lamps");
    options.onLamp = lampTap ? (lamp) => ctx.tapLamp(lamp) : null;
    const faultTowers = pick.mode === "fault" && ["tower", "own_tower"].includes(pick.card.target);
    const towers = new Set((legal || []).filter((a) => (faultTowers
      ? a.type === "play_fault" && a.card === pick.card.id : !pick.mode && a.type === "move"))
      .map((a) => a.tower));
    // every tower answers a tap: one the rules allow acts, any other says why not
    if (faultTowers || !pick.mode) {
      options.onTower = (tower) => (towers.has(tower) ? ctx.tapTower(tower)
        : ctx.explain(faultTowers ? { type: "play_fault", card: pick.card.id, tower } : { type: "move", tower }));
      options.towerEnabled = (tower) => towers.has(tower.id);
      options.towersAnswer = true;
    }
    if (faultTowers && pick.tower) options.hinted = pick.tower;
    if (!pick.mode) Clacks.games.clacks.hints.overlay(options, ctx);
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange") },
      drawBoard(ref, seat, options));

    // placement controls
    const controls = el("div", { class: "controls" });
    const action = pendingAction();
    if (pick.mode === "fault") controls.append(faultDetail(state, pick.card));
    if (pick.mode === "jacquard") controls.append(...cardTurnButtons(ctx));
    if (pick.mode) {
      const allowed = Boolean(action && can((a) => sameAction(a, action)));
      controls.append(...confirmButtons(ctx, allowed, action, placeFirst()));
    }

    // turn buttons
    const turnButtons = el("div", { class: "turn-buttons" });
    if (myTurn && turn.phase !== "timeout_discard" && !pick.mode) {
      if (turn.phase === "play" && me.next_symbol) {
        const transmit = { type: "transmit" };
        turnButtons.append(control(ctx, can((a) => a.type === "transmit"), { action: transmit },
          { class: "primary", "data-action": "transmit", onclick: () => ctx.act(transmit) },
          t("clacks.transmit", { symbol: symbolWord(me.next_symbol) })));
      }
      const end = { type: "end_turn" };
      turnButtons.append(control(ctx, can((a) => a.type === "end_turn"), { action: end },
        { class: "secondary", "data-action": "end_turn", onclick: () => ctx.act(end) },
        t(turn.phase === "sabotage" ? "clacks.end_sabotage" : "clacks.end_turn")));
    }
    const openHint = undoAndHint(ctx, turnButtons);

    root.append(...[mine, boardBox, pick.mode ? controls : turnButtons, openHint, handStrip(ctx, legal, can)]
      .filter(Boolean));
    return root;
  }

  // The symbol a seat sends next, in words and as its pattern.
  function nextSymbolLine(ref, symbol) {
    const pattern = ref.alphabet[symbol];
    return el("p", { class: "next" }, t("clacks.next_symbol", { symbol: symbolWord(symbol) }), " ",
      glyph(pattern, `${symbolWord(symbol)}: ${patternWords(pattern)}`));
  }

  // Turning the chosen Jacquard before it is placed.
  function cardTurnButtons(ctx) {
    return [
      el("button", { type: "button", class: "secondary", "data-action": "rotate", onclick: () => ctx.turn(1) }, t("clacks.rotate")),
      el("button", { type: "button", class: "secondary", "data-action": "mirror", onclick: () => ctx.mirror() }, t("clacks.mirror")),
    ];
  }

  function cancelButton(ctx) {
    return el("button", { type: "button", class: "secondary", "data-action": "cancel", onclick: () => ctx.cancel() }, t("ui.cancel"));
  }

  // Confirm the chosen card's action (greyed out and saying why while the rules refuse it),
  // or cancel it.
  function confirmButtons(ctx, allowed, action, words) {
    return [
      control(ctx, allowed, { action, words }, { class: "primary", "data-action": "confirm",
                                                 onclick: () => ctx.confirm() }, t("clacks.confirm")),
      cancelButton(ctx),
    ];
  }

  // Undo while the seat may, then the hints' own buttons beside the turn's; the hint panel
  // to show under them while a hint is open (else null).
  function undoAndHint(ctx, turnButtons) {
    if (ctx.state.view.you.can_undo && !pick.mode) {
      turnButtons.append(el("button", { type: "button", class: "secondary", "data-action": "undo",
        onclick: () => ctx.undo() }, t("clacks.undo")));
    }
    const hintBox = pick.mode ? null : Clacks.games.clacks.hints.panel(ctx);
    if (hintBox && !ctx.hints.current) turnButtons.append(...hintBox.childNodes);
    return hintBox && ctx.hints.current ? hintBox : null;
  }

  // The hand as one strip: the Jacquards, then the Fault Reports (red). A card the
  // rules keep out of reach says why when tapped: its cost, the turn, the phase.
  function handStrip(ctx, legal, can) {
    const { state, ref, seat } = ctx;
    const you = state.view.you;
    const list = el("ul", { class: "cards hand-strip", "aria-label": t("clacks.your_cards") });
    for (const card of you.hand) {
      const chosen = pick.mode === "jacquard" && pick.card.id === card.id;
      const cells = chosen ? cellsOf(card.holes, pick.rotation, pick.mirror) : cellsOf(card.holes, 0, false);
      const discard = can((a) => a.type === "discard" && a.jacquard === card.id);
      const usable = can((a) => a.type === "play_jacquard" && a.jacquard === card.id);
      list.append(el("li", { class: `card jacquard${chosen ? " chosen" : ""}`, "data-card": card.id },
        control(ctx, usable || discard, { action: sampleJacquard(ref, seat, card) }, {
          class: "card-button",
          "aria-pressed": String(chosen),
          onclick: () => (discard ? ctx.act({ type: "discard", jacquard: card.id }) : ctx.chooseCard(card)),
        },
        cardPicture(cells, t("clacks.card_holes", { name: jacquardName(card), holes: card.holes.join(" ") })),
        el("span", { class: "card-name" }, jacquardName(card)),
        el("span", { class: "cost" }, t("clacks.cost", { cost: card.cost })),
        card.fault ? el("span", { class: "fault-stamp" }, t("clacks.fault_stamp")) : null,
        discard ? el("span", { class: "badge" }, t("clacks.discard")) : null)));
    }
    for (const card of you.faults) {
      const chosen = pick.mode === "fault" && pick.card.id === card.id;
      const usable = can((a) => a.type === "play_fault" && a.card === card.id);
      list.append(el("li", { class: `card fault${chosen ? " chosen" : ""}`, "data-card": card.id },
        control(ctx, usable, { action: { type: "play_fault", card: card.id } }, {
          class: "card-button", "aria-pressed": String(chosen), onclick: () => ctx.chooseFault(card) },
        el("span", { class: "fault-back", "aria-hidden": "true" }, "⚠"),
        el("span", { class: "card-name" }, faultName(card)),
        el("span", { class: "cost" }, t("clacks.fault_report")))));
    }
    if (!you.hand.length && !you.faults.length) list.append(el("li", { class: "empty" }, t("clacks.no_jacquards")));
    return el("section", { class: "hand", "aria-label": t("clacks.your_cards") }, list);
  }

  // The chosen Fault Report: when it may be played and what it will do now (its
  // printed words are its title: the screen keeps to the decision).
  function faultDetail(state, card) {
    return el("section", { class: "fault-detail", "aria-label": faultName(card), "data-fault": card.id,
                           title: cardText(card, "text") },
      el("h3", {}, faultName(card), " ", el("span", { class: "when" }, t(`clacks.when.${card.when}`))),
      el("p", { class: "does" }, faultDoes(state, card, pick.frame)));
  }

  function placeFirst() {
    if (pick.mode === "jacquard") return t("clacks.hint.place");
    if (pick.mode === "fault" && pick.card.target === "lamps") return t("clacks.hint.lamps", { count: pick.card.params.count });
    if (pick.mode === "fault") return t("clacks.hint.tower");
    return "";
  }

  // The turn's prompt: what to do now, in the order the rules impose (move first;
  // once a Jacquard is played the pawn stays where it is this turn).
  function prompt(state, myTurn, me) {
    const view = state.view;
    const turn = view.turn;
    if (state.over) return "";
    if (pick.mode === "jacquard") {
      return pick.lamps.length ? t("clacks.hint.confirm", { name: jacquardName(pick.card) }) : t("clacks.hint.place");
    }
    if (pick.mode === "fault") {
      const target = pick.card.target;
      if (target === "lamps") {
        return t("clacks.hint.lamps", { count: pick.card.params.count, chosen: pick.lamps.length });
      }
      if (target === "tower") return t("clacks.hint.tower");
      if (target === "own_tower") return t("clacks.hint.own_tower");
      return t("clacks.hint.fault_confirm");
    }
    if (!myTurn) return t("clacks.hint.wait", { name: seatName(state, turn.seat) });
    // the turn's status line already says time is up: here only what to do
    if (turn.phase === "timeout_discard") return t("clacks.hint.discard");
    if (turn.phase === "sabotage") return t("clacks.hint.sabotage", { tower: view.sabotage ? view.sabotage.tower : "" });
    const symbol = symbolWord(me.next_symbol || "");
    if (turn.can_move) return t(me.pawn ? "clacks.hint.turn_move" : "clacks.hint.turn_place", { symbol });
    return t("clacks.hint.turn_stay", { tower: me.pawn || "", symbol });
  }

  // Wires the phone's taps to the API; ``page`` gives act/preview/undo, a redraw and
  // where the keyboard goes next.
  function phoneController(page) {
    function sendPreview() {
      const action = pendingAction();
      if (pick.mode === "fault") {
        page.preview(action, (frame) => {
          if (pick.mode === "fault") {
            pick.frame = frame;
            page.redraw();
          }
        });
      } else page.preview(action);
    }
    return {
      chooseCard(card) {
        if (pick.mode === "jacquard" && pick.card.id === card.id) resetPick();
        else {
          resetPick();
          Object.assign(pick, { mode: "jacquard", card });
          page.focus(".board-box [data-lamp]");
        }
        sendPreview();
        page.redraw();
      },
      chooseFault(card) {
        if (pick.mode === "fault" && pick.card.id === card.id) resetPick();
        else {
          resetPick();
          Object.assign(pick, { mode: "fault", card });
          page.focus(card.target === "lamps" ? ".board-box [data-lamp]"
            : card.target === "none" ? "[data-action=confirm]" : ".board-box .tower.enabled");
        }
        sendPreview();
        page.redraw();
      },
      tapLamp(lamp) {
        if (pick.mode === "jacquard") {
          // another lamp lays the card afresh, as a first tap there would: the hole kept
          // from a tap elsewhere (a near corner, say) would put it somewhere else
          if (lamp !== pick.anchor) pick.hole = null;
          pick.anchor = lamp;
          pick.lamps = placeCard(page.ref(), page.seat(), pick.card, lamp);
          page.focus("[data-action=confirm]");
        } else if (pick.mode === "fault") {
          const i = pick.lamps.indexOf(lamp);
          if (i >= 0) pick.lamps.splice(i, 1);
          else if (pick.lamps.length < Number(pick.card.params.count)) pick.lamps.push(lamp);
          if (pick.lamps.length === Number(pick.card.params.count)) page.focus("[data-action=confirm]");
          else page.focus(`[data-lamp="${lamp}"]`);
        }
        sendPreview();
        page.redraw();
      },
      tapTower(tower) {
        if (pick.mode === "fault") {
          pick.tower = tower;
          page.focus("[data-action=confirm]");
          sendPreview();
          page.redraw();
          return;
        }
        // a pawn moves in the competitive game; on the map games a tower transmits
        const mode = page.state().view.mode;
        page.act(mode === "competitive" ? { type: "move", tower } : { type: "transmit", tower });
      },
      chooseSwap(slot) {
        if (pick.mode === "swap" && pick.slot === slot) resetPick();
        else {
          resetPick();
          Object.assign(pick, { mode: "swap", slot });
          page.focus(".hand-strip .card-button:not([aria-disabled])");
        }
        page.preview(null);
        page.redraw();
      },
      async giveUp(card) {
        // the Jacquard handed in for the slot's: the swap is made at once
        const slot = pick.slot;
        if (await page.act({ type: "swap", jacquard: card.id, slot })) resetPick();
        page.redraw();
      },
      turn(step) {
        pick.rotation = (pick.rotation + step) % 4;
        if (pick.anchor) pick.lamps = placeCard(page.ref(), page.seat(), pick.card, pick.anchor);
        sendPreview();
        page.redraw();
      },
      mirror() {
        pick.mirror = !pick.mirror;
        if (pick.anchor) pick.lamps = placeCard(page.ref(), page.seat(), pick.card, pick.anchor);
        sendPreview();
        page.redraw();
      },
      async confirm() {
        const action = pendingAction();
        if (!action) return;
        if (await page.act(action)) resetPick();
        page.redraw();
      },
      cancel() {
        resetPick();
        page.preview(null);
        page.focus(".hand-strip .card-button");
        page.redraw();
      },
      act: (action) => page.act(action),
      undo: () => page.undo(),
    };
  }

  // Each mode of the game draws its own table and phone; a mode's module adds itself
  // here (modes.table.coop = ...). A mode without one is drawn as the competitive game.
  const modes = { table: { competitive: table }, phone: { competitive: phone } };
  const byMode = (kind) => (ctx) => (modes[kind][ctx.state.view.mode] || modes[kind].competitive)(ctx);

  Clacks.games.clacks = {
    title: () => t("clacks.title"),
    table: byMode("table"),
    phone: byMode("phone"),
    extras,
    phoneController,
    describeEvent,
    modes,
    parts: {
      drawBoard, boardOptions, seatName, messageLine, turnSummary, alphabetCard, glyph,
      symbolWord, patternWords, rulesText, describeEvent, seatRef, readAt, cellsOf,
      cardPicture, pendingAction, pick, resetPick, CLOCKWISE, control, sampleJacquard, orientedHoles, faultName, jacquardName, cardText, readingOf,
      routeName, placeName, cityName, turnOf, jacquardsPlayed, nextSymbolLine, cardTurnButtons,
      cancelButton, confirmButtons, undoAndHint,
    },
  };
})();
