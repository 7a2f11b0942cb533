// Klackers on the table screen and on a phone, drawn from the room's snapshot (the
// game's view, the lamps the box shows) and the game's reference. Registers itself in
// Clacks.games like every game's script; its styles are in games/klackers.css.
"use strict";

(() => {
  const { t, el, svg, lampName, seatName, boxPicture: boxSvg } = Clacks;
  const KEYPAD = [[7, 8, 9], [4, 5, 6], [1, 2, 3]]; // as the numbers sit on the box
  const PIPS = {
    1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [0, 2], [2, 0], [2, 2]],
    5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]], 6: [[0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2]],
  };

  document.head.append(el("link", { rel: "stylesheet", href: "/static/games/klackers.css" }));

  // ------------------------------------------------------------------ words

  function numbersWords(numbers) {
    return numbers && numbers.length ? numbers.join(" + ") : t("klackers.nothing");
  }

  function describeEvent(state, event) {
    const params = { ...event, seat: event.seat ? seatName(state, event.seat) : "" };
    if (Array.isArray(event.numbers)) params.numbers = numbersWords(event.numbers);
    if (Array.isArray(event.dice)) params.dice = event.dice.join(" + ");
    if (event.kind === "starter_rolled") params.rolls = openingWords(state, event.rolls);
    if (event.kind === "turn_ended") params.reason = t(`klackers.end.${event.reason}`);
    if (event.kind === "round_ended") return roundOutcome(state, event);
    const key = event.kind === "rolled" && event.one_die ? "klackers.event.rolled_one" : `klackers.event.${event.kind}`;
    return Clacks.has(key) ? t(key, params) : event.kind;
  }

  // The roll-off for the first turn: "Ann 5, Bob 5 · Ann 2, Bob 6".
  function openingWords(state, rolls) {
    return rolls.map((round) => Object.entries(round)
      .map(([seat, die]) => `${seatName(state, seat)} ${die}`).join(", ")).join(" · ");
  }

  function roundOutcome(state, result) {
    if (result.outcome === "won") {
      return t(`klackers.won.${result.reason}`, { name: seatName(state, result.winner), round: result.number,
                                                  value: result.value });
    }
    return t(`klackers.push.${result.reason}`, { round: result.number, value: result.value + 1 });
  }

  // ------------------------------------------------------------------ pieces

  function die(value) {
    const root = svg("svg", { viewBox: "0 0 60 60", class: "k-die", role: "img", "data-die": value,
                              "aria-label": t("klackers.die", { value }) });
    root.append(svg("rect", { x: 3, y: 3, width: 54, height: 54, rx: 10, class: "face" }));
    for (const [r, c] of PIPS[value] || []) {
      root.append(svg("circle", { cx: 15 + c * 15, cy: 15 + r * 15, r: 5.5, class: "pip" }));
    }
    return root;
  }

  function diceLine(turn) {
    if (!turn || !turn.dice.length) return null;
    return el("p", { class: "k-dice", "aria-label": t("klackers.rolled_label", { dice: turn.dice.join(" + "),
                                                                                  total: turn.total }) },
      turn.dice.map(die), el("span", { class: "k-total", "aria-hidden": "true" }, `= ${turn.total}`));
  }

  // The nine numbers of one player as the box shows them; ``chosen`` are blinking.
  function numberTiles(player, chosen) {
    const standing = new Set(player.standing);
    const grid = el("div", { class: "k-numbers", role: "img", "aria-label": t("klackers.standing_label", {
      numbers: numbersWords(player.standing), total: player.standing_total }) });
    for (const row of KEYPAD) {
      for (const n of row) {
        const up = standing.has(n);
        grid.append(el("span", { class: `k-tile ${up ? "up" : "down"}${chosen.has(n) ? " chosen" : ""}`,
                                 "data-number": n, "data-state": up ? "up" : "down", "aria-hidden": "true" }, String(n)));
      }
    }
    return grid;
  }

  // Numbers a phone or the box's buttons have picked for the pull, from the lamps.
  function pickedNumbers(state, seat) {
    const view = state.view;
    const chosen = new Set(view.marked || []);
    if (state.preview && state.preview.seat === seat && view.layout) {
      const lampOf = view.layout.numbers;
      const names = new Set(state.preview.preview.map((i) => lampName(i)));
      for (const [n, lamp] of Object.entries(lampOf)) if (names.has(lamp)) chosen.add(Number(n));
    }
    return chosen;
  }

  // A net balance of chips in words: what the player has won, or owes, on balance.
  function balanceWords(chips) {
    if (chips > 0) return t("klackers.balance.won", { chips });
    if (chips < 0) return t("klackers.balance.owes", { chips: -chips });
    return t("klackers.balance.even");
  }

  // The match's end: on the table who won; on a phone (``mine``: its seat) the
  // player's own result, so a losing player never sees the winner's banner as theirs.
  function matchResult(state, mine) {
    const view = state.view;
    const winner = view.winners[0];
    const name = seatName(state, winner);
    const chips = view.players.find((p) => p.seat === winner).chips;
    if (!mine || !view.players.some((p) => p.seat === mine)) {
      return el("p", { class: "winner", role: "status" }, t("klackers.match_won", { name, chips }));
    }
    if (view.winners.includes(mine)) {
      return el("p", { class: "winner won", role: "status" }, t("klackers.you_won", { chips }));
    }
    const own = view.players.find((p) => p.seat === mine).chips;
    const balance = own > 0 ? "won" : own < 0 ? "owes" : "even";
    return el("p", { class: "winner lost", role: "status" },
      t(`klackers.you_lost.${balance}`, { name, chips: Math.abs(own) }));
  }

  function turnSummary(state, mine) {
    const view = state.view;
    if (view.over) return matchResult(state, mine);
    const turn = view.turn;
    const round = view.round;
    const name = seatName(state, turn.seat);
    const lines = [el("p", { class: "k-round" }, el("strong", {}, t("klackers.round", { round: round.number })),
      " · ", t("klackers.worth", { value: round.value }))];
    const last = view.results[view.results.length - 1];
    if (last && round.played === 0 && turn.rolls === 0) {
      lines.push(el("p", { class: `k-outcome ${last.outcome}` }, roundOutcome(state, last)));
    } else if (!last && round.played === 0 && turn.rolls === 0 && view.opening.length) {
      lines.push(el("p", { class: "k-outcome k-opening" },
        t("klackers.opening", { rolls: openingWords(state, view.opening), name })));
    }
    const phase = turn.phase === "pull"
      ? t("klackers.phase.pull", { name, total: turn.total })
      : turn.rolls ? t("klackers.phase.roll_again", { name }) : t("klackers.phase.roll", { name });
    lines.push(el("p", { class: "phase" }, phase), diceLine(turn));
    return el("div", { class: "turn" }, lines);
  }

  function playerPanel(state, player, compact) {
    const view = state.view;
    const active = !view.over && view.turn.seat === player.seat;
    const seatInfo = state.room.seats.find((s) => s.id === player.seat) || {};
    const chosen = active ? pickedNumbers(state, player.seat) : new Set();
    const score = player.score === null
      ? t("klackers.standing_total", { total: player.standing_total })
      : player.score === 0 ? t("klackers.klack") : t("klackers.score", { score: player.score });
    return el("section", {
      class: `seat k-player${active ? " active" : ""}${compact ? " compact" : ""}`,
      "data-seat": player.seat,
      "aria-label": seatName(state, player.seat),
      "aria-current": active ? "true" : null,
    },
    el("h3", {}, seatName(state, player.seat), active ? el("span", { class: "badge" }, t("klackers.has_dice")) : null),
    compact ? null : el("p", { class: "presence" }, Clacks.presence(seatInfo)),
    numberTiles(player, chosen),
    el("p", { class: "k-score" }, score),
    el("p", { class: "k-chips" }, balanceWords(player.chips), " · ",
      t("klackers.rounds_won", { count: player.rounds_won }), player.klacks ? ` · ${t("klackers.klacks", { count: player.klacks })}` : ""));
  }

  function resultsTable(state) {
    const view = state.view;
    if (!view.results.length) return null;
    const seats = view.players.map((p) => p.seat);
    const head = el("tr", {}, el("th", { scope: "col" }, t("klackers.round_short")),
      el("th", { scope: "col" }, t("klackers.value_short")),
      seats.map((s) => el("th", { scope: "col" }, seatName(state, s))), el("th", { scope: "col" }, t("klackers.outcome")));
    const rows = view.results.map((r) => el("tr", { class: r.outcome },
      el("th", { scope: "row" }, String(r.number)), el("td", {}, String(r.value)),
      seats.map((s) => el("td", { class: r.winner === s ? "won" : null },
        r.scores[s] === undefined ? "–" : String(r.scores[s]),
        r.chips[s] ? el("span", { class: "k-delta" }, ` (${r.chips[s] > 0 ? "+" : ""}${r.chips[s]})`) : null)),
      el("td", {}, roundOutcome(state, r))));
    return el("section", { class: "k-results", "data-players-view": "", "aria-label": t("klackers.results") },
      el("h2", {}, t("klackers.results")),
      el("div", { class: "k-scroll" }, el("table", {}, el("thead", {}, head), el("tbody", {}, rows))));
  }

  // ------------------------------------------------------------------ the box

  function buttonWord(meaning) {
    return /^\d$/.test(meaning) ? meaning : t(`klackers.button.${meaning}`);
  }

  // The 4x4 lamps as the box shows them now, with its twelve buttons (clickable on the
  // table screen when ``press`` is given, like the real ones).
  function boxPicture(state, press) {
    const layout = state.view.layout;
    const frame = state.lamps || { lit: [], accent: [], preview: [] };
    const numberAt = {};
    for (const [n, lamp] of Object.entries(layout.numbers)) numberAt[lamp] = n;
    const bitAt = {};
    layout.dice.forEach((lamp, i) => { bitAt[lamp] = String(2 ** (layout.dice.length - 1 - i)); });
    return boxSvg({
      cls: "k-box",
      label: t("klackers.box"),
      frame,
      blinking: state.preview ? state.preview.preview : frame.preview,
      blinkClass: "flip",
      lamp: (group, name, p, on, blinking) => {
        group.append(svg("circle", { cx: p.x, cy: p.y, r: 34, class: "bulb" }));
        if (on) group.append(svg("circle", { cx: p.x, cy: p.y, r: 15, class: "glow" }));
        if (blinking) group.append(svg("circle", { cx: p.x, cy: p.y, r: 42, class: "flip-ring" }));
        const label = numberAt[name] || bitAt[name];
        if (label) {
          group.append(svg("text", { x: p.x, y: p.y + (numberAt[name] ? 13 : 9), class: numberAt[name] ? "k-lamp-number" : "k-lamp-bit",
                                     text: label }));
        }
        const words = [numberAt[name] ? t("klackers.lamp_number", { number: numberAt[name] })
          : bitAt[name] ? t("klackers.lamp_dice", { bit: bitAt[name] }) : t("klackers.lamp_spare")];
        words.push(t(on ? "clacks.lit" : "clacks.dark"));
        if (blinking) words.push(t("klackers.marked"));
        return words.join(", ");
      },
      buttons: layout.buttons,
      button: (meaning) => ({
        cls: `k-button ${/^\d$/.test(meaning) ? "number" : meaning}`,
        label: (button) => t("klackers.button_label", { button, meaning: buttonWord(meaning) }),
        short: /^\d$/.test(meaning) ? meaning : t(`klackers.button.${meaning}.short`),
        radius: 19,
        drop: 6,
        textClass: "k-button-text",
      }),
      press,
    });
  }

  function boxLegend(layout) {
    const list = el("ul", { class: "k-legend" });
    const byMeaning = Object.entries(layout.buttons).sort((a, b) => (a[1] < b[1] ? -1 : 1));
    for (const [button, meaning] of byMeaning) {
      const what = /^\d$/.test(meaning) ? t("klackers.legend.number", { number: meaning }) : t(`klackers.legend.${meaning}`);
      list.append(el("li", {}, el("strong", {}, button), " ", what));
    }
    return el("div", { class: "k-legend-box" },
      el("p", {}, t("klackers.legend.lamps", { dice: layout.dice.join(" ") })), list);
  }

  function rulesText() {
    return el("div", { class: "rules-text" }, t("klackers.rules").split("\n\n").map((para) => el("p", {}, para)));
  }

  // ------------------------------------------------------------------ table screen

  function table(ctx) {
    const { state } = ctx;
    const view = state.view;
    const players = el("div", { class: "k-players", "data-players-view": "" }, view.players.map((p) => playerPanel(state, p, false)));
    const box = el("section", { class: "board-box k-box-area", "aria-label": t("klackers.box") }, boxPicture(state, ctx.press));
    if (ctx.press && !view.over) box.append(el("p", { class: "hint" }, t("klackers.hint.box")));
    return el("div", { class: "klackers-table" },
      el("div", { class: "status", "aria-live": "polite" }, turnSummary(state)),
      players, box, resultsTable(state));
  }

  function extras(ctx) {
    return {
      rules: rulesText(),
      alphabet: boxLegend(ctx.state.view.layout),
      referenceTitle: t("klackers.legend.title"),
      describe: (event) => describeEvent(ctx.state, event),
    };
  }

  // ------------------------------------------------------------------ phone

  // The numbers chosen on this phone for the pull; forgotten when the roll changes.
  const pick = { key: null, numbers: [] };

  function turnKey(view) {
    const turn = view.turn;
    return turn ? `${view.round.number}:${turn.seat}:${turn.rolls}:${turn.phase}` : "over";
  }

  const othersOpen = { open: false };

  function phone(ctx) {
    const { state, seat } = ctx;
    const view = state.view;
    const me = view.players.find((p) => p.seat === seat);
    const turn = view.turn;
    const myTurn = Boolean(turn) && turn.seat === seat;
    const choosing = myTurn && turn.phase === "pull";
    if (pick.key !== turnKey(view)) Object.assign(pick, { key: turnKey(view), numbers: [] });
    const chosen = new Set(pick.numbers);
    const sum = pick.numbers.reduce((a, b) => a + b, 0);
    const advice = ctx.hints && ctx.hints.on && !view.over ? ctx.hints.current : null;
    const advised = advice ? advice.actions[0] : null;
    const hinted = new Set(advised && advised.type === "pull" ? advised.numbers : []);

    const root = el("div", { class: "klackers-phone" });
    root.append(el("div", { class: "status", "aria-live": "polite" }, turnSummary(state, seat)));

    const mine = el("section", { class: "k-mine", "aria-label": t("klackers.your_numbers") },
      el("h2", {}, t("klackers.your_numbers")));
    const pad = el("div", { class: "k-pad" });
    const standing = new Set(me.standing);
    for (const row of KEYPAD) {
      for (const n of row) {
        const up = standing.has(n);
        pad.append(el("button", {
          type: "button",
          class: `k-number ${up ? "up" : "down"}${chosen.has(n) ? " chosen" : ""}${hinted.has(n) ? " hinted" : ""}`,
          "data-number": n,
          "aria-pressed": String(chosen.has(n)),
          "aria-label": t(up ? "klackers.number_up" : "klackers.number_down", { number: n }),
          disabled: !(choosing && up) && !ctx.explain,
          onclick: () => ctx.toggle(n),
        }, String(n)));
        // a number out of reach says why when tapped (roll first, already down, not your turn)
        if (!(choosing && up) && ctx.explain) {
          Clacks.unavailable(pad.lastChild, () => ctx.explain({ type: "pull", numbers: [n] }));
        }
      }
    }
    mine.append(pad, el("p", { class: "k-score" }, me.score === null
      ? t("klackers.standing_total", { total: me.standing_total })
      : me.score === 0 ? t("klackers.klack") : t("klackers.score", { score: me.score })));

    const controls = el("div", { class: "turn-buttons" });
    // in a lesson the step names the numbers to tap: no list of combinations (nor the
    // hint that points to it), so the turn keeps to one phone screen
    const lesson = Boolean(view.tutorial);
    if (choosing) {
      // with nothing chosen, the way to choose: the lesson shows no list of combinations
      const choose = t(lesson ? "klackers.hint.choose_numbers" : "klackers.hint.choose", { total: turn.total });
      if (pick.numbers.length || !lesson) {
        mine.append(el("p", { class: pick.numbers.length ? "k-sum" : "k-sum k-how", role: "status" }, pick.numbers.length
          ? t("klackers.chosen", { numbers: numbersWords(pick.numbers), sum, total: turn.total })
          : choose));
      }
      // the pull is offered once the engine takes it (a lesson takes only its step's
      // numbers, so waits for the engine's answer); in a game, until the engine has
      // answered, once the numbers make the roll
      const legal = ctx.legal ? ctx.legal() : null;
      const sorted = (numbers) => [...numbers].sort((x, y) => x - y).join(",");
      const takes = sum === turn.total && (legal === null ? !lesson : legal.some((a) => a.type === "pull"
        && sorted(a.numbers) === sorted(pick.numbers)));
      const pull = el("button", { type: "button", class: "primary", "data-action": "pull",
                                  disabled: !takes && !ctx.explain, onclick: () => ctx.pull() },
        t("klackers.pull", { numbers: numbersWords(pick.numbers) }));
      // nothing chosen yet: the way to choose (in a lesson, with the step to take)
      const none = lesson && Clacks.tutorial ? Clacks.tutorial.withStep(choose) : choose;
      if (!takes && ctx.explain) {
        Clacks.unavailable(pull, () => (pick.numbers.length ? ctx.explain({ type: "pull", numbers: pick.numbers })
          : ctx.explain(null, none)));
      }
      // with nothing to clear, a tap on Clear says so the same way
      const clear = el("button", { type: "button", class: "secondary", "data-action": "clear",
                                   disabled: !pick.numbers.length && !ctx.explain, onclick: () => ctx.clear() },
        t("klackers.clear"));
      if (!pick.numbers.length && ctx.explain) Clacks.unavailable(clear, () => ctx.explain(null, none));
      controls.append(pull, clear);
      if (!lesson) {
        const combos = el("ul", { class: "k-combos", "aria-label": t("klackers.combinations") });
        for (const combo of turn.combinations) {
          combos.append(el("li", {}, el("button", { type: "button", class: "secondary", "data-combination": combo.join(","),
            onclick: () => ctx.choose(combo) }, combo.join(" + "))));
        }
        // the list says what it is to a screen reader; the buttons speak for themselves
        mine.append(el("p", { class: "visually-hidden" }, t("klackers.combinations")), combos);
      }
    } else if (myTurn) {
      controls.append(el("button", { type: "button", class: "primary", "data-action": "roll",
        onclick: () => ctx.act({ type: "roll", dice: 2 }) }, t("klackers.roll_two")));
      if (turn.one_die_allowed) {
        controls.append(el("button", { type: "button", class: "primary", "data-action": "roll_one",
          onclick: () => ctx.act({ type: "roll", dice: 1 }) }, t("klackers.roll_one")));
        mine.append(el("p", { class: "hint" }, t("klackers.hint.one_die", { total: me.standing_total })));
      }
    } else if (!view.over) {
      mine.append(el("p", { class: "hint" }, t("klackers.hint.wait", { name: seatName(state, turn.seat) })));
    }
    if (view.you && view.you.can_undo) {
      controls.append(el("button", { type: "button", class: "secondary", "data-action": "undo",
        onclick: () => ctx.undo() }, t("klackers.undo")));
    }
    mine.append(controls);
    const hintBox = hintPanel(ctx, myTurn, advice);
    if (hintBox) mine.append(hintBox);

    // the other players and the rounds so far, folded: the turn's screen is the numbers
    const others = el("details", { class: "k-others more", open: othersOpen.open },
      el("summary", { "data-action": "more" }, t("klackers.others")),
      view.players.filter((p) => p.seat !== seat).map((p) => playerPanel(state, p, true)),
      resultsTable(state));
    others.addEventListener("toggle", () => { othersOpen.open = others.open; });
    root.append(mine, others);
    return root;
  }

  function stepWords(action) {
    if (action.type === "pull") return t("hints.step.pull", { numbers: numbersWords(action.numbers) });
    return t(action.dice === 1 ? "hints.step.roll_one" : "hints.step.roll");
  }

  // The Hint button in the seat's turn (when the table allows hints), or the advice: what
  // to do next and what it leads to, with the first step a tap away.
  function hintPanel(ctx, myTurn, advice) {
    const hints = ctx.hints;
    if (!hints || !hints.on || ctx.state.view.over) return null;
    if (!advice) {
      if (!myTurn) return null;
      return el("div", { class: "hint-box" },
        el("button", { type: "button", class: "secondary", "data-action": "hint", onclick: () => hints.ask() },
          t("hints.ask")));
    }
    const step = stepWords(advice.actions[0]);
    const outlook = advice.objective === "klack"
      ? t("hints.k_klack", { chance: Math.round((1 - advice.expected) * 100) })
      : t("hints.k_score", { expected: Math.round(advice.expected * 10) / 10 });
    return el("section", { class: "hint-box", "aria-label": t("hints.title") },
      el("h2", {}, t("hints.title")),
      el("p", { class: "hint-summary", role: "status" }, step, ". ", outlook),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", "data-action": "hint-do", onclick: () => hints.doFirst() },
          t("hints.do_first", { step })),
        el("button", { type: "button", class: "secondary", "data-action": "hint-close", onclick: () => hints.dismiss() },
          t("hints.close"))));
  }

  // Wires the phone's taps to the API; ``page`` gives act/preview/undo and a redraw.
  function phoneController(page) {
    function chosenChanged() {
      page.preview(pick.numbers.length ? { type: "pull", numbers: [...pick.numbers] } : null);
      page.redraw();
    }
    return {
      toggle(n) {
        const i = pick.numbers.indexOf(n);
        if (i >= 0) pick.numbers.splice(i, 1);
        else pick.numbers.push(n);
        pick.numbers.sort((a, b) => a - b);
        chosenChanged();
      },
      choose(combo) {
        pick.numbers = [...combo];
        chosenChanged();
      },
      clear() {
        pick.numbers = [];
        chosenChanged();
      },
      async pull() {
        if (await page.act({ type: "pull", numbers: [...pick.numbers] })) pick.numbers = [];
        page.redraw();
      },
      act: (action) => page.act(action),
      undo: () => page.undo(),
    };
  }

  Clacks.games.klackers = {
    title: () => t("game.klackers"),
    table,
    phone,
    extras,
    phoneController,
    describeEvent,
  };
})();
