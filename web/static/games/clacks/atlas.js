// The map games' atlas of shared pictures: the route from Ankh-Morpork to Genua with its twelve
// tower locations, the Post Office track, the swap slots, the cards read out and their
// lasting effects, the hands of a team. Used by the co-op, solitaire and junior modes.
"use strict";

(() => {
  const { t, el, svg } = Clacks;
  const clacks = Clacks.games.clacks;
  const P = clacks.parts;
  const { symbolWord, seatName, cellsOf, cardPicture } = P;

  const WIDTH = 720;
  const START = { x: 110, y: 120 };
  const GENUA = { x: 610, y: 120 };
  const CENTRE = { x: (START.x + GENUA.x) / 2, y: START.y };
  // the easy route winds anticlockwise (below), the hard one clockwise along the top edge
  const BENDS = { easy: [[170, 330], [550, 330]], hard: [[170, -90], [550, -90]] };
  // the table's map bends less: its words are bigger and the slots and the team share its column
  const TABLE_BENDS = { easy: [[170, 250], [550, 250]], hard: [[170, -10], [550, -10]] };
  const LABEL_GAP = 24;
  const TRACK_SPACE = 80; // below the route: the Post Office track

  function bezier(points, at) {
    const [p0, p1, p2, p3] = points;
    const u = 1 - at;
    const coord = (i) => u * u * u * p0[i] + 3 * u * u * at * p1[i] + 3 * u * at * at * p2[i] + at * at * at * p3[i];
    return { x: coord(0), y: coord(1) };
  }

  // Ankh-Morpork (index 0) and the route's tower locations (1..count, the last Genua),
  // evenly spaced along the road.
  function routePoints(routeId, count, flat) {
    const shapes = flat ? TABLE_BENDS : BENDS;
    const bends = shapes[routeId] || shapes.easy;
    const curve = [[START.x, START.y], bends[0], bends[1], [GENUA.x, GENUA.y]];
    const samples = Array.from({ length: 401 }, (_, i) => bezier(curve, i / 400));
    const lengths = [0];
    for (let i = 1; i < samples.length; i += 1) {
      lengths.push(lengths[i - 1] + Math.hypot(samples[i].x - samples[i - 1].x, samples[i].y - samples[i - 1].y));
    }
    const total = lengths[lengths.length - 1];
    return Array.from({ length: count + 1 }, (_, n) => {
      const want = (total * n) / count;
      const i = Math.max(0, lengths.findIndex((l) => l >= want - 1e-6));
      return samples[i];
    });
  }

  // A place name beside its tower, away from the middle of the map, on two lines if long.
  function placeName(point, name, cls, far) {
    const dx = point.x - CENTRE.x;
    const dy = point.y - CENTRE.y;
    const norm = Math.hypot(dx, dy) || 1;
    const ux = dx / norm;
    const uy = dy / norm;
    // along the bottom (or top) of the road towers stand close: every other name further out
    const gap = LABEL_GAP + (far && Math.abs(uy) > 0.5 ? 30 : 0);
    const x = point.x + ux * gap;
    const y = point.y + uy * gap;
    const anchor = ux > 0.45 ? "start" : ux < -0.45 ? "end" : "middle";
    const words = name.split(" ");
    let lines = [name];
    if (name.length > 11 && words.length > 1) {
      let best = 1;
      for (let i = 1; i < words.length; i += 1) {
        const a = words.slice(0, i).join(" ").length;
        const b = words.slice(i).join(" ").length;
        const bestA = words.slice(0, best).join(" ").length;
        const bestB = words.slice(best).join(" ").length;
        if (Math.max(a, b) < Math.max(bestA, bestB)) best = i;
      }
      lines = [words.slice(0, best).join(" "), words.slice(best).join(" ")];
    }
    const lineHeight = 14;
    // text grows away from the tower: downwards below it, upwards above it
    const first = uy > 0.3 ? y + 10 : uy < -0.3 ? y - (lines.length - 1) * lineHeight : y + 4 - ((lines.length - 1) * lineHeight) / 2;
    return svg("text", { x, y: first, class: cls, "text-anchor": anchor },
      lines.map((line, i) => svg("tspan", { x, dy: i ? lineHeight : 0, text: line })));
  }

  // On the table screen the map is read from a sofa: its words drawn this big (in the
  // map's units: at the width the table gives the map, at least body text), and only
  // the names of its ends.
  const TABLE_WORDS = 40; // as in app.css: .route-map.big-words
  // how far above its tower's centre a fault's ⚠ reaches on the table's map, as big as the
  // tower's number there (app.css); the symbols sent stand inside the road's bend
  const TABLE_FAULT = 44;
  const TABLE_MARGIN = 60;

  // The map's big names for the table: Ankh-Morpork over its square, Genua over its tower
  // (the tower lit next is named above the map, where a long name has room).
  function tableNames(route) {
    const count = route.towers.length;
    const group = svg("g", { class: "table-names", "aria-hidden": "true" });
    const line = (x, y, text, anchor) => svg("text", { x, y, class: "place city-name", "text-anchor": anchor, text });
    const y = tableNamesY(route.id);
    group.append(line(START.x - 20, y, P.cityName("start"), "start"));
    group.append(line(GENUA.x + 20, y, P.placeName(route.id, count, route.towers[count - 1]), "end"));
    return group;
  }

  // Where the ends' names stand on the table's map: over them, or under them when the road
  // climbs from them (the hard route), so that no name lies across the road.
  function tableNamesY(routeId) {
    const bends = TABLE_BENDS[routeId] || TABLE_BENDS.easy;
    return bends[0][1] < START.y ? START.y + 30 + TABLE_WORDS : START.y - 30;
  }

  // The route as an SVG. opts: lit (towers lit so far), symbols (the message, to write
  // each sent symbol by its tower), pawn (a junior pawn's place, 0 = Ankh-Morpork),
  // pawnSeat, faults (tower numbers that draw a Fault Report), postOffice {position, track},
  // table (the table screen's map: big words, only its ends named).
  function routeMap(route, opts) {
    const count = route.towers.length;
    const few = Boolean(opts.table);
    const points = routePoints(route.id, count, few);
    // room for the names outside the road's bend, and a little on the inside
    let top = Math.min(...points.map((p) => p.y - (p.y < CENTRE.y - 5 ? 86 : 34)));
    let bottom = Math.max(...points.map((p) => p.y + (p.y > CENTRE.y + 5 ? 86 : 40)));
    const faults = new Set(opts.faults || []);
    if (few) {  // only the ends are named, over or under them; room for a fault's ⚠ over its tower
      const namesY = tableNamesY(route.id);
      top = Math.min(...points.map((p, n) => p.y - (faults.has(n) ? TABLE_FAULT : 25)), namesY - TABLE_WORDS);
      bottom = Math.max(...points.map((p) => p.y + 25), namesY + 12);
    }
    // the Post Office's track under the road (on the table its words are bigger)
    const trackWords = few ? TABLE_WORDS : 0;
    const height = bottom - top + (opts.postOffice ? TRACK_SPACE + trackWords : 0);
    const left = few ? -TABLE_MARGIN : 0;
    const width = few ? WIDTH + 2 * TABLE_MARGIN : WIDTH;
    const lit = opts.lit || 0;
    const label = [t("clacks.map.label", { route: routeTitle(route.id), lit, count })];
    if (opts.postOffice) {
      label.push(t("clacks.map.post_office", { position: opts.postOffice.position, track: opts.postOffice.track }));
    }
    const root = svg("svg", { viewBox: `${left} ${top.toFixed(0)} ${width} ${height.toFixed(0)}`,
                              class: `route-map route-${route.id}${few ? " big-words" : ""}`, role: "group", "aria-label": label.join(". ") });
    const road = (upto) => points.slice(0, upto + 1)
      .map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
    root.append(svg("path", { d: road(count), class: "road" }));
    if (lit) root.append(svg("path", { d: road(lit), class: "road sent" }));
    const start = points[0];
    root.append(svg("g", { class: "city start", role: "img", "aria-label": t("clacks.map.start") },
      svg("rect", { x: start.x - 16, y: start.y - 16, width: 32, height: 32, rx: 4 }),
      few ? null : svg("text", { x: start.x - 20, y: start.y - 24, class: "place city-name",
                                 text: P.cityName("start") })));
    if (few) root.append(tableNames(route));
    route.towers.forEach((englishName, i) => {
      const number = i + 1;
      const name = P.placeName(route.id, number, englishName);
      const p = points[number];
      const on = number <= lit;
      const words = [t("clacks.map.tower", { number, name }), t(on ? "clacks.map.lit" : "clacks.map.dark")];
      if (on && opts.symbols) words.push(symbolWord(opts.symbols[i]));
      if (faults.has(number)) words.push(t("clacks.map.fault_tower"));
      const group = svg("g", {
        class: `site${on ? " on" : ""}${number === count ? " genua" : ""}${faults.has(number) ? " fault-site" : ""}`,
        role: "img",
        "aria-label": words.join(", "),
        "data-site": number,
      });
      // on the table a tower's number reads from a sofa (20 px and more): a bigger lamp holds it
      group.append(svg("circle", { cx: p.x, cy: p.y, r: few ? 18.5 : 15, class: "site-lamp" }));
      group.append(svg("text", { x: p.x, y: p.y + (few ? 9 : 5), class: "site-number", text: String(number) }));
      if (!few) group.append(placeName(p, name, "place", i % 2 === 1));
      if (on && opts.symbols) {
        const inward = p.y > CENTRE.y ? -1 : 1;
        // the text's baseline: on the table clear of the bigger lamp and the bigger letter
        const y = few ? p.y + (inward > 0 ? 48 : -24) : p.y + inward * 30 + 5;
        group.append(svg("text", { x: p.x, y, class: "sent-symbol", text: shortSymbol(opts.symbols[i]) }));
      }
      if (faults.has(number)) {
        group.append(svg("text", { x: p.x + (few ? 24 : 16), y: p.y - (few ? 18 : 12), class: "fault-mark", text: "⚠" }));
      }
      root.append(group);
    });
    if (opts.pawn !== undefined && opts.pawn !== null) {
      const p = points[opts.pawn];
      root.append(svg("g", { class: `map-pawn seat-${opts.pawnSeat}`, role: "img",
                             "aria-label": t("clacks.map.pawn", { seat: t(`seat.${opts.pawnSeat}`) }) },
        svg("circle", { cx: p.x, cy: p.y - 2, r: few ? 21 : 12, class: `pawn seat-${opts.pawnSeat}` }),
        svg("text", { x: p.x, y: p.y + (few ? 8 : 4), class: "pawn-text", text: t(`seat.${opts.pawnSeat}.initial`) })));
    }
    if (opts.postOffice) root.append(postOfficeTrack(opts.postOffice, bottom + 30 + trackWords, few));
    return root;
  }

  function shortSymbol(symbol) {
    return symbol === "SPACE" ? "␣" : symbol === "END" ? "■" : symbol;
  }

  function routeTitle(routeId) {
    return t(`clacks.route.${routeId}`);
  }

  // The Post Office's track: one pip per step from Ankh-Morpork to Genua, the marker on it.
  function postOfficeTrack(postOffice, y, big) {
    const { position, track } = postOffice;
    const left = START.x;
    const step = (GENUA.x - START.x) / track;
    const group = svg("g", { class: "post-office", role: "img",
      "aria-label": t("clacks.map.post_office", { position, track }) });
    group.append(svg("text", { x: left, y: y - 14, class: "track-label",
      text: t("clacks.post_office_at", { position, track }) }));
    for (let i = 0; i <= track; i += 1) {
      group.append(svg("rect", { x: left + i * step - 3, y: y - 3, width: 6, height: 6, rx: 1,
                                 class: i <= position ? "pip passed" : "pip" }));
    }
    const x = left + position * step;
    group.append(svg("path", { d: `M${x} ${y + 6} l-11 20 h22 z`, class: "marker" }));
    group.append(svg("text", { x, y: y + (big ? 52 : 42), class: "marker-label", text: "✉" }));
    if (!big) {
      group.append(svg("text", { x: GENUA.x, y: y - 14, class: "track-label", "text-anchor": "end",
                                 text: P.cityName("finish") }));
    }
    return group;
  }

  // ------------------------------------------------------------------ cards

  function jacquardTile(card, extra) {
    return el("div", { class: "mini-card", "data-jacquard": card.id },
      cardPicture(cellsOf(card.holes, 0, false), t("clacks.card_holes", { name: P.jacquardName(card), holes: card.holes.join(" ") })),
      el("span", { class: "card-name" }, P.jacquardName(card)),
      el("span", { class: "cost" }, t("clacks.cost", { cost: card.cost })),
      card.fault ? el("span", { class: "fault-stamp" }, t("clacks.fault_stamp")) : null,
      extra || null);
  }

  // The four swap slots. onSwap(slot) makes each a button (enabled(slot) says when). On
  // the table (``onTable``) a slot is its deck's mark and number over its card, a "?" or
  // an empty mark, so the four sit in one row read from a sofa; the words stay for a
  // screen reader. On a phone's first screen (``inTurn``) each is as short: its mark and
  // number, its card's picture and its Swap button in one line, two slots to a row.
  function slotsPanel(view, opts) {
    const onTable = Boolean(opts && (opts.onTable || opts.inTurn));
    const list = el("ul", { class: "slots" });
    for (const slot of view.slots) {
      const title = t(`clacks.slot.${slot.id}`);
      const body = [];
      if (slot.taken) {
        body.push(onTable
          ? el("p", { class: "taken", role: "img", "aria-label": t("clacks.slot_taken") },
            el("span", { class: "slot-icon", "aria-hidden": "true" }, "✕"))
          : el("p", { class: "taken" }, t("clacks.slot_taken")));
      } else if (slot.jacquard) {
        body.push(onTable ? tableJacquard(slot.jacquard) : jacquardTile(slot.jacquard));
      } else {
        body.push(el("div", { class: "mini-card face-down", role: "img", "aria-label": t("clacks.face_down") },
          el("span", { class: "back", "aria-hidden": "true" }, "?"),
          el("span", { class: onTable ? "visually-hidden" : "" }, t("clacks.face_down"))));
      }
      if (slot.lift_cost) {
        const words = t("clacks.lift_cost", { cost: slot.lift_cost });
        body.push(onTable ? el("p", { class: "slot-cost", role: "img", "aria-label": words }, `+${slot.lift_cost}`)
          : el("p", { class: "slot-cost" }, words));
      }
      const chosen = opts && opts.chosen === slot.id;
      const heading = onTable
        ? el("h4", { "aria-label": title },
          el("span", { class: `slot-number deck-${slot.kind}`, "aria-hidden": "true" }, slot.id.split("-").pop()))
        : el("h4", {}, el("span", { class: `deck-mark deck-${slot.kind}`, "aria-hidden": "true" }), title);
      const item = el("li", { class: `slot slot-${slot.kind}${slot.taken ? " empty" : ""}${chosen ? " chosen" : ""}`,
                              "data-slot": slot.id }, heading, ...body);
      if (opts && opts.onSwap && !slot.taken) {
        const allowed = opts.enabled(slot.id);
        const button = el("button", {
          type: "button",
          class: chosen ? "primary" : "secondary",
          "data-action": "swap",
          "aria-label": t("clacks.swap_for", { slot: title }),
          "aria-pressed": String(Boolean(chosen)),
          disabled: !allowed && !opts.explain,
          onclick: () => opts.onSwap(slot.id),
        }, t("clacks.swap"));
        // out of reach, it says why when tapped (the phones ask the engine)
        if (!allowed && opts.explain) Clacks.unavailable(button, () => opts.explain(slot.id));
        item.append(button);
      }
      list.append(item);
    }
    const inTurn = Boolean(opts && opts.inTurn);
    return el("section", { class: `slots-box${inTurn ? " in-turn" : ""}`, "aria-label": t("clacks.slots") },
      el("h3", { class: inTurn ? "visually-hidden" : null }, t("clacks.slots")), list);
  }

  // A Jacquard on the table screen: its holes, named for a screen reader, and the Fault
  // stamp when it has one; its cost is for the phone that plays it.
  function tableJacquard(card) {
    return el("div", { class: "mini-card table-card", "data-jacquard": card.id },
      cardPicture(cellsOf(card.holes, 0, false), t("clacks.card_holes", { name: P.jacquardName(card), holes: card.holes.join(" ") })),
      card.fault ? el("span", { class: "fault-stamp", role: "img", "aria-label": t("clacks.fault_stamp") }, "⚠") : null);
  }

  // A card's effect without its story: every card's text tells the story in its first
  // sentence and what happens in its last (the whole text stays as the line's title).
  function effectLine(text) {
    const sentences = text.split(/(?<=[.!?])\s+/);
    return sentences[sentences.length - 1];
  }

  // Cards read out so far (in co-op: Fault Reports in their Night Shift meaning) and the
  // effects that last a round. The table (``onTable``) shows the latest few, each as its
  // name and its effect in a line, and how many were read out before them.
  function cardsPanel(view, turnNumber, onTable) {
    // on the table the heading counts every card read out, the latest of which it shows
    const count = (view.revealed || []).length;
    const box = el("section", { class: "revealed-box", "aria-label": t("clacks.revealed") },
      el("h3", {}, t("clacks.revealed"), onTable && count ? el("span", { class: "count" }, ` · ${count}`) : null));
    const effects = (view.effects || []).filter((e) => e.active || e.first_turn > turnNumber);
    if (effects.length) {
      // (the table's banner says what the effects in force do; here, whose and how long)
      box.append(el("ul", { class: "effects" }, effects.map((e) => el("li", { class: e.active ? "active" : "coming" },
        el("strong", {}, P.faultName({ id: e.card, name: e.name })), onTable ? " " : [" — ", effectText(e), " "],
        el("span", { class: "turns" }, effectTurns(e, turnNumber))))));
    }
    if (view.emergency_repair) {
      box.append(el("p", { class: "repair" }, t("clacks.repair_waiting", {
        name: P.faultName({ id: view.emergency_repair.card, name: view.emergency_repair.name }),
        cards: view.emergency_repair.cancels.map((design) => P.faultName({ design, name: design })).join(", ") })));
    }
    const all = [...(view.revealed || [])].reverse();
    if (!all.length) box.append(el("p", { class: "hint" }, t("clacks.nothing_revealed")));
    // the table shows the effects in force and the latest card, the one the team acts on
    // (the game log beside it tells the earlier ones)
    const revealed = onTable ? all.slice(0, 1) : all;
    box.append(el("ol", { class: "revealed", reversed: true }, revealed.map((card) => {
      const text = P.cardText(card, P.readingOf(view.mode, card.deck));
      return el("li", { class: `read-card read-${card.deck}`, "data-revealed": card.id },
        el("span", { class: `deck-mark deck-${card.deck}`, "aria-hidden": "true" }),
        el("strong", {}, P.faultName(card)),
        onTable ? el("span", { class: "effect-line", title: text }, " ", effectLine(text))
          : [el("span", { class: "deck" }, ` (${t(`clacks.deck.${card.deck}`)})`), el("p", {}, text)]);
    })));
    return box;
  }

  // When an effect lasts, in words: this turn, one turn, or from one turn to another.
  function effectTurns(effect, turnNumber) {
    if (effect.first_turn !== effect.last_turn) {
      return t("clacks.effect_turns", { first: effect.first_turn, last: effect.last_turn });
    }
    return effect.first_turn === turnNumber ? t("clacks.effect_this_turn")
      : t("clacks.effect_one_turn", { turn: effect.first_turn });
  }

  function effectText(effect) {
    const key = `clacks.effect.${effect.effect}`;
    if (!Clacks.has(key)) return effect.effect;
    const words = t(key, effect.params);
    return /\{\w+\}/.test(words) ? t(`${key}.plain`) : words;
  }

  // Each seat of a team: who, connected, the hand when the view shows it (standard
  // co-op: open hands; Long Distance: only counts), stress spent on its last turn.
  // On the table (``onTable``) a seat is a line: its name and its Jacquards' holes (whose
  // phone is here is said beside the QR code already).
  function teamPanel(state, ownSeat, onTable) {
    const view = state.view;
    const box = el("section", { class: "team", "aria-label": t("clacks.team") }, el("h3", {}, t("clacks.team")));
    for (const player of view.players) {
      if (player.seat === ownSeat) continue;
      const active = (state.active || []).includes(player.seat);
      const seatInfo = state.room.seats.find((s) => s.id === player.seat) || {};
      const hidden = t("clacks.hand_hidden", { count: player.hand_count });
      const hand = player.hand
        ? el("div", { class: "team-hand" }, player.hand.map((c) => (onTable ? tableJacquard(c) : jacquardTile(c))))
        : onTable
          ? el("div", { class: "team-hand hidden-hand", role: "img", "aria-label": hidden },
            Array.from({ length: player.hand_count }, () => el("span", { class: "back", "aria-hidden": "true" }, "?")))
          : el("p", { class: "hidden-hand" }, hidden);
      box.append(el("div", { class: `seat seat-${player.seat}${active ? " active" : ""}`, "data-seat": player.seat,
                             "aria-current": active ? "true" : null },
        el("h4", {}, el("span", { class: `shape ${player.colour}`, "aria-hidden": "true" }), seatName(state, player.seat),
          active && !onTable ? el("span", { class: "badge" }, t("clacks.playing")) : null),
        onTable ? null : el("p", { class: "presence" }, Clacks.presence(seatInfo)),
        hand,
        onTable ? null : el("p", { class: "counts" }, t("clacks.last_turn_stress", { stress: player.last_turn_stress }))));
    }
    // the table shows the hidden hands as card backs; the phones say why
    if (view.options.long_distance && !onTable) box.append(el("p", { class: "hint" }, t("clacks.long_distance_note")));
    return box;
  }

  // The latest public events in words, newest first (phones have no game log of their own).
  function recentPanel(state, log, count) {
    const shown = log.filter((e) => !["drew_jacquards", "turn_ended", "game_started"].includes(e.kind))
      .slice(-count).reverse();
    return el("section", { class: "recent", "aria-label": t("clacks.recent") },
      el("h3", {}, t("clacks.recent")),
      el("ol", { class: "recent-list", "aria-live": "polite" },
        shown.map((e) => el("li", { class: `event-${e.kind}` }, clacks.parts.describeEvent(state, e)))));
  }

  clacks.map = { routeMap, postOfficeTrack, slotsPanel, cardsPanel, teamPanel, recentPanel, jacquardTile,
                 routeTitle, shortSymbol };
})();
