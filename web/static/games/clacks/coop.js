// The Co-operative Race to Genua and the solitaire game, on the table screen and on a
// phone. The team sends one message along the route while the Post Office runs for
// Genua; a phone plays its seat's Jacquards, swaps from the slots and transmits from any
// tower of its colour. What a phone may do comes from the engine's legal actions.
"use strict";

(() => {
  const { t, el } = Clacks;
  const clacks = Clacks.games.clacks;
  const P = clacks.parts;

  // ------------------------------------------------------------------ shared

  // The turn in a line or two; on the phone whose turn it is (``ownSeat``) the prompt
  // says "your turn" already.
  function status(state, ownSeat) {
    const view = state.view;
    if (state.over) {
      const won = view.result === "won";
      return el("div", { class: `winner ${won ? "won" : "lost"}`, role: "status" },
        t(won ? "clacks.team_won" : "clacks.team_lost", { mode: view.mode }), " ", t(`clacks.reason.${view.end_reason}`));
    }
    const turn = view.turn;
    if (turn.seat === ownSeat) {
      // the seat's own phone in its turn: the race in one line (the prompt says the rest)
      return el("div", { class: "turn" }, t("clacks.phone_race", { round: turn.round, spent: turn.stress_spent,
        position: view.post_office.position, track: view.post_office.track }),
      notesOf(view).length ? el("p", { class: "phase" }, notesOf(view).join(" · ")) : null);
    }
    const parts = [
      P.turnOf(state, turn.seat), " · ",
      t("clacks.round", { round: turn.round }), " · ",
      t("clacks.stress_spent", { spent: turn.stress_spent }), " · ",
      P.jacquardsPlayed(turn),
    ];
    const notes = notesOf(view);
    // (the table's route box shows the towers lit and the Post Office's step already)
    return el("div", { class: "turn" }, parts,
      ownSeat === undefined ? null : el("p", { class: "race" }, t("clacks.race_line", {
        lit: view.message.progress, count: view.message.symbols.length,
        position: view.post_office.position, track: view.post_office.track })),
      notes.length ? el("p", { class: "phase" }, notes.join(" · ")) : null);
  }

  // What holds this turn: a surcharge, the Post Office's cap, a swap made, a lifted card.
  function notesOf(view) {
    const turn = view.turn;
    const notes = [];
    if (turn.stress_surcharge) notes.push(t("clacks.surcharge", { amount: turn.stress_surcharge }));
    if (turn.post_office_cap !== null) {
      notes.push(t("clacks.post_office_cap", { cap: turn.post_office_cap, steps: turn.post_office_steps }));
    }
    if (turn.swapped) notes.push(swapNote(view));
    if (turn.lifted_pending) notes.push(t("clacks.lifted_pending"));
    return notes;
  }

  // The swap made this turn, named: the slot it emptied and the card read out from it (the
  // latest read, since a swap reads its card out at once).
  function swapNote(view) {
    const slot = (view.slots || []).find((s) => s.taken);
    const revealed = view.revealed || [];
    const card = revealed[revealed.length - 1];
    if (!slot || !card) return t("clacks.swapped_this_turn");
    return t("clacks.swapped_read", { slot: t(`clacks.slot.${slot.id}`), name: P.faultName(card) });
  }

  function teamMessage(view) {
    return P.messageLine({ message: view.message.symbols, progress: view.message.progress,
                           words: view.message.words, spelled: view.message.spelled });
  }

  // ``onTable``: the table screen's map, its words read from a sofa.
  function routeBox(view, onTable) {
    const next = view.message.progress + 1;
    const count = view.route.towers.length;
    // the table's map names only its ends: the tower lit next is named above it
    const nextTower = onTable && next <= count ? el("p", { class: "next-tower" }, t("clacks.map.next_tower", {
      number: next, name: P.placeName(view.route.id, next, view.route.towers[next - 1]) })) : null;
    return el("section", { class: "route-box", "aria-label": t("clacks.route_title") },
      // on the table the route's long name is left to screen readers: the map shows it
      el("h3", {}, clacks.map.routeTitle(view.route.id), onTable ? " " : " · ",
        el("span", { class: `route-name${onTable ? " visually-hidden" : ""}` }, P.routeName(view.route))), nextTower,
      clacks.map.routeMap(view.route, {
        lit: view.message.progress, symbols: view.message.symbols, postOffice: view.post_office, table: onTable }),
      teamMessage(view));
  }

  // Towers of the seat's colour that show the next symbol freshly, as the engine says.
  function sendingTowers(legal) {
    return new Set((legal || []).filter((a) => a.type === "transmit").map((a) => a.tower));
  }

  // ------------------------------------------------------------------ table screen

  function table(ctx) {
    const { state, ref } = ctx;
    const view = state.view;
    const root = el("div", { class: `clacks-table map-table ${view.mode}` });
    const options = P.boardOptions(state, ref);
    // a mouse on the table screen transmits by clicking a tower: it says so where it points
    const pressHint = ctx.press && !state.over ? t("clacks.hint.table_transmit") : null;
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange"), title: pressHint },
      P.drawBoard(ref, "south", { ...options, onTower: ctx.press }));
    // the exchange as tall as the screen leaves, the swap slots in a row under it; beside
    // it the route across two columns, then the team's hands and the cards read out, all
    // on the one screen
    root.append(
      el("div", { class: "status", "aria-live": "polite" }, status(state)),
      el("div", { class: "map-column board-column" }, boardBox, clacks.map.slotsPanel(view, { onTable: true })),
      el("div", { class: "side-column" }, routeBox(view, true),
        view.players.length > 1 ? clacks.map.teamPanel(state, null, true) : null,
        clacks.map.cardsPanel(view, view.turn.number, true)),
    );
    return root;
  }

  // ------------------------------------------------------------------ phone

  // Whether the phone's fold (route, swap slots, team, cards read out) is open: it stays
  // as the player left it from one drawing to the next.
  const fold = { open: false };

  // Everything a turn does not need on the first screen, folded under one line.
  function moreFold(summary, parts) {
    const box = el("details", { class: "more", open: fold.open },
      el("summary", { "data-action": "more" }, summary), ...parts.filter(Boolean));
    box.addEventListener("toggle", () => { fold.open = box.open; });
    return box;
  }

  function phone(ctx) {
    const { state, ref, seat } = ctx;
    const view = state.view;
    const you = view.you;
    const pick = P.pick;
    const { legal, known, myTurn, can } = phoneTurn(ctx);
    const hints = view.hints_allowed;
    if (pick.mode === "swap" && known && !legal.some((a) => a.type === "swap" && a.slot === pick.slot)) P.resetPick();

    // a lesson's step that names a tower keeps the board big enough to tap it
    const named = view.tutorial && view.tutorial.step && view.tutorial.step.tower;
    const towerStep = named ? " names-tower" : "";
    const root = el("div", { class: `clacks-phone map-phone ${view.mode}${myTurn ? " my-turn" : ""}${towerStep}` });
    root.append(el("div", { class: "status", "aria-live": "polite" }, status(state, seat)),
      el("p", { class: "prompt", tabindex: -1 }, hint(state, seat, myTurn, legal)));

    // the message the team is sending, and the next symbol
    const next = view.message.next_symbol;
    const mine = el("section", { class: "mine", "aria-label": t("clacks.team_message") },
      el("h2", {}, t("clacks.team_message")), teamMessage(view));
    if (next && !state.over) {
      // the next symbol's pattern beside the message, its words for a screen reader
      const pattern = ref.alphabet[next];
      mine.append(el("p", { class: "next compact" },
        P.glyph(pattern, `${t("clacks.next_symbol", { symbol: P.symbolWord(next) })}: ${P.patternWords(pattern)}`)));
    }

    // the board from this seat: lamps to place a Jacquard on, towers to transmit from
    const sends = sendingTowers(legal);
    const options = placingOptions(ctx);
    const mayFinish = can((a) => a.type === "end_turn");
    if (!pick.mode && !state.over) {
      // a tower of the seat's colour transmits; any other, or one that cannot, says why
      const colour = view.players.find((p) => p.seat === seat).colour;
      // with hints off a tower does not tell whether it sends, unless a lesson's step names it
      const shown = hints || Boolean(view.tutorial && view.tutorial.step && view.tutorial.step.tower);
      const open = (tower) => myTurn && (shown ? sends.has(tower.id) : tower.colour === colour && mayFinish);
      options.onTower = (tower) => {
        const found = ref.towers.find((x) => x.id === tower);
        if (open(found)) ctx.tapTower(tower);
        else ctx.explain({ type: "transmit", tower });
      };
      options.towerEnabled = open;
      options.towersAnswer = true;
    }
    if (hints) {
      options.canSend = sends;
      options.sendSymbol = next;
    }
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange") },
      P.drawBoard(ref, seat, options));

    const controls = placingControls(ctx, can);
    if (pick.mode === "swap") controls.append(P.cancelButton(ctx));

    const turnButtons = el("div", { class: "turn-buttons" });
    if (myTurn && !pick.mode && !state.over) {
      if (hints) {
        const first = (legal || []).find((a) => a.type === "transmit");
        turnButtons.append(P.control(ctx, Boolean(first), { action: { type: "transmit" } },
          { class: "primary", "data-action": "transmit", onclick: () => ctx.act({ type: "transmit", tower: first.tower }) },
          first ? t("clacks.transmit_from", { symbol: P.symbolWord(next), tower: first.tower })
            : t("clacks.transmit", { symbol: P.symbolWord(next) })));
      }
      turnButtons.append(P.control(ctx, mayFinish, { action: { type: "end_turn" } },
        { class: "secondary", "data-action": "end_turn", onclick: () => ctx.act({ type: "end_turn" }) }, t("clacks.end_turn")));
    }
    const openHint = P.undoAndHint(ctx, turnButtons);

    const swappable = myTurn && (legal || []).some((a) => a.type === "swap");
    // when a swap is all there is to do (a lesson's step), the slots take the turn
    // buttons' place on the first screen, two by two, instead of waiting in the fold
    const swapOnly = myTurn && !pick.mode && Boolean(legal && legal.length) && legal.every((a) => a.type === "swap");
    const slots = state.over ? null : clacks.map.slotsPanel(view, {
      onSwap: (slot) => ctx.chooseSwap(slot),
      enabled: (slot) => myTurn && can((a) => a.type === "swap" && a.slot === slot),
      explain: (slot) => ctx.explain({ type: "swap", slot, jacquard: (you.hand[0] || {}).id || "" }),
      chosen: pick.mode === "swap" ? pick.slot : null,
      inTurn: swapOnly,
    });
    const folded = [
      swapOnly ? null : slots,
      routeBox(view),
      view.players.length > 1 ? clacks.map.teamPanel(state, seat) : null,
      clacks.map.cardsPanel(view, view.turn.number),
      clacks.map.recentPanel(state, ctx.log || [], 6),
    ];
    const summary = [t(view.players.length > 1 ? "clacks.more_coop" : "clacks.more_solitaire"),
      swappable ? el("span", { class: "badge" }, t("clacks.swap_possible")) : null];
    // once a slot is chosen the decision is which Jacquard to give up: the fold closes,
    // so the prompt, the board, Cancel and the hand are one screen again
    if (pick.mode === "swap") fold.open = false;
    // (the hand comes back with the slot chosen: then it is which Jacquard to give up)
    root.append(...[mine, boardBox, pick.mode ? controls : swapOnly ? slots : turnButtons,
      openHint, swapOnly ? null : handBox(ctx, legal, myTurn),
      pick.mode === "swap" ? null : moreFold(summary, folded)].filter(Boolean));
    return root;
  }

  function sameLamps(a, b) {
    return a.length === b.length && a.every((lamp) => b.includes(lamp));
  }

  // The seat's Jacquards as one strip; while a swap is being made, the one to give up.
  // A card out of reach says why when tapped.
  function handBox(ctx, legal, myTurn) {
    const { state, ref, seat } = ctx;
    const you = state.view.you;
    const pick = P.pick;
    const list = el("ul", { class: "cards hand-strip", "aria-label": t("clacks.your_jacquards") });
    for (const card of you.hand) {
      const swapping = pick.mode === "swap";
      const chosen = pick.mode === "jacquard" && pick.card.id === card.id;
      const cells = chosen ? P.cellsOf(card.holes, pick.rotation, pick.mirror) : P.cellsOf(card.holes, 0, false);
      const usable = myTurn && (legal || []).some((a) => (swapping
        ? a.type === "swap" && a.slot === pick.slot && a.jacquard === card.id
        : a.type === "play_jacquard" && a.jacquard === card.id));
      const why = swapping ? { type: "swap", slot: pick.slot, jacquard: card.id } : P.sampleJacquard(ref, seat, card);
      const lifted = you.lifted === card.id;
      list.append(el("li", { class: `card jacquard${chosen ? " chosen" : ""}${lifted ? " lifted" : ""}`, "data-card": card.id },
        P.control(ctx, usable, { action: why }, {
          class: "card-button",
          "aria-pressed": String(chosen),
          onclick: () => (swapping ? ctx.giveUp(card) : ctx.chooseCard(card)),
        },
        P.cardPicture(cells, t("clacks.card_holes", { name: P.jacquardName(card), holes: card.holes.join(" ") })),
        el("span", { class: "card-name" }, P.jacquardName(card)),
        el("span", { class: "cost" }, t("clacks.cost", { cost: card.cost })),
        card.fault ? el("span", { class: "fault-stamp" }, t("clacks.fault_stamp")) : null,
        lifted ? el("span", { class: "badge" }, t("clacks.lifted")) : null,
        swapping && usable ? el("span", { class: "badge" }, t("clacks.give_up")) : null)));
    }
    if (!you.hand.length) list.append(el("li", { class: "empty" }, t("clacks.no_jacquards")));
    return el("section", { class: "hand", "aria-label": t("clacks.your_jacquards") }, list);
  }

  function hint(state, seat, myTurn, legal) {
    const view = state.view;
    const pick = P.pick;
    if (state.over) return "";
    if (pick.mode === "jacquard") return pick.lamps.length ? t("clacks.hint.confirm") : t("clacks.hint.place");
    if (pick.mode === "swap") return t("clacks.hint.swap", { slot: t(`clacks.slot.${pick.slot}`) });
    const noHints = view.hints_allowed ? "" : ` ${t("clacks.hint.no_hints")}`;
    if (!myTurn) return t("clacks.hint.team_wait", { name: P.seatName(state, view.turn.seat) }) + noHints;
    if (legal === null) return t("clacks.hint.loading");
    const you = view.you;
    if (you.lifted) {
      const card = you.hand.find((c) => c.id === you.lifted);
      return t("clacks.hint.play_lifted", { name: P.jacquardName(card || { id: you.lifted }) }) + noHints;
    }
    if (view.turn.jacquards_played === 0) return t("clacks.hint.coop_start") + noHints;
    const symbol = P.symbolWord(view.message.next_symbol);
    if (!view.hints_allowed) return t("clacks.hint.coop_send_blind", { symbol }) + noHints;
    return legal.some((a) => a.type === "transmit")
      ? t("clacks.hint.coop_send", { symbol })
      : t("clacks.hint.coop_not_yet", { symbol });
  }

  for (const mode of ["coop", "solitaire"]) {
    clacks.modes.table[mode] = table;
    clacks.modes.phone[mode] = phone;
  }
  // A phone's turn in the co-op modes: the legal actions (null until known), whether the
  // turn is the seat's, and a test of the legal actions. A chosen Jacquard that has left
  // the hand, or a turn that is no longer the seat's, lets go of what was being placed.
  function phoneTurn(ctx) {
    const { state, seat } = ctx;
    const pick = P.pick;
    const legal = state.over ? [] : ctx.legal();
    const known = legal !== null;
    const myTurn = (state.active || []).includes(seat);
    if (pick.mode === "jacquard" && !state.view.you.hand.some((c) => c.id === pick.card.id)) P.resetPick();
    if (state.over || !myTurn) P.resetPick();
    return { legal, known, myTurn, can: (test) => known && legal.some(test) };
  }

  // Under a co-op phone's board while a Jacquard is placed: turn it, confirm it (greyed
  // out, saying why, while the rules refuse it) or cancel.
  function placingControls(ctx, can) {
    const controls = el("div", { class: "controls" });
    const action = P.pendingAction(ctx.state.view);
    if (P.pick.mode === "jacquard") {
      const allowed = Boolean(action && can((a) => a.type === "play_jacquard" && a.jacquard === action.jacquard
        && sameLamps(a.lamps, action.lamps)));
      controls.append(...P.cardTurnButtons(ctx), ...P.confirmButtons(ctx, allowed, action, t("clacks.hint.place")));
    }
    return controls;
  }

  // The board's options on a phone of the co-op modes: the Jacquard being placed shown
  // before the server has it, another seat's placement not, and the hint's flips.
  function placingOptions(ctx) {
    const { state, ref, seat } = ctx;
    const pick = P.pick;
    const options = P.boardOptions(state, ref);
    if (pick.mode === "jacquard" && pick.lamps.length) options.preview = new Set(pick.lamps);
    else if (state.preview && state.preview.seat !== seat) options.preview = new Set();
    options.onLamp = pick.mode === "jacquard" ? (lamp) => ctx.tapLamp(lamp) : null;
    if (!pick.mode) clacks.hints.overlay(options, ctx);
    return options;
  }

  clacks.coop = { status, sendingTowers, sameLamps, handBox, moreFold, phoneTurn, placingOptions, placingControls };
})();
