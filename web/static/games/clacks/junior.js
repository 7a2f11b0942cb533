// The Junior Race on the table screen and on a phone: two children at right angles, each
// sending their own message and moving a pawn along their own route to Genua. A phone
// plays Jacquards and transmits from any tower of its colour, as the engine allows.
"use strict";

(() => {
  const { t, el } = Clacks;
  const clacks = Clacks.games.clacks;
  const P = clacks.parts;

  function status(state, ownSeat) {
    const view = state.view;
    if (state.over) {
      return el("p", { class: "winner", role: "status" },
        t("clacks.winner", { name: P.seatName(state, view.winner) }), " ", t(`clacks.reason.${view.end_reason}`));
    }
    const turn = view.turn;
    return el("div", { class: "turn" },
      turn.seat === ownSeat ? null : [P.turnOf(state, turn.seat), " · "],
      t("clacks.round", { round: turn.round }), " · ",
      P.jacquardsPlayed(turn));
  }

  // ``onTable``: on the table screen, its map's words read from a sofa.
  function racer(state, player, own, onTable) {
    const view = state.view;
    const route = view.routes[player.route];
    const active = (state.active || []).includes(player.seat);
    const seatInfo = state.room.seats.find((s) => s.id === player.seat) || {};
    const box = el("section", {
      class: `seat racer seat-${player.seat}${active ? " active" : ""}`,
      "data-seat": player.seat,
      "aria-label": seatName(state, player),
      "aria-current": active ? "true" : null,
    },
    el("h3", {}, el("span", { class: `shape ${player.colour}`, "aria-hidden": "true" }), seatName(state, player),
      active && !onTable ? el("span", { class: "badge" }, t("clacks.playing")) : null),
    // on the table whose phone is here is said beside the QR code already
    own || onTable ? null : el("p", { class: "presence" }, Clacks.presence(seatInfo)),
    P.messageLine(player),
    // (the table's map shows which route it is)
    el("p", { class: "counts" },
      onTable ? null : [t("clacks.route_of", { route: clacks.map.routeTitle(player.route) }), " · "],
      t("clacks.pawn_on", { place: P.placeName(player.route, player.progress, player.pawn_at) }),
      player.next_fault_tower ? ` · ${t("clacks.next_fault_tower", { number: player.next_fault_tower })}` : "",
      own ? "" : ` · ${t("clacks.hand_count", { count: player.hand_count })}`),
    clacks.map.routeMap(route, {
      lit: player.progress, symbols: player.message, pawn: player.progress, pawnSeat: player.seat,
      faults: route.fault_towers, table: onTable }));
    return box;
  }

  function seatName(state, player) {
    return P.seatName(state, player.seat);
  }

  function table(ctx) {
    const { state, ref } = ctx;
    const view = state.view;
    const root = el("div", { class: "clacks-table map-table junior" });
    // a mouse on the table screen transmits by clicking a tower: it says so where it points
    const pressHint = ctx.press && !state.over ? t("clacks.hint.table_transmit") : null;
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange"), title: pressHint },
      P.drawBoard(ref, "south", { ...P.boardOptions(state, ref), onTower: ctx.press }));
    root.append(
      el("div", { class: "status", "aria-live": "polite" }, status(state)),
      // the cards read out under the exchange; beside it each child's message and route
      el("div", { class: "map-column board-column" }, boardBox, clacks.map.cardsPanel(view, view.turn.number, true)),
      el("div", { class: "side-column" },
        el("div", { class: "map-column racers" }, view.players.map((p) => racer(state, p, false, true)))),
    );
    return root;
  }

  function phone(ctx) {
    const { state, ref, seat } = ctx;
    const view = state.view;
    const pick = P.pick;
    const { legal, myTurn, can } = clacks.coop.phoneTurn(ctx);
    const me = view.players.find((p) => p.seat === seat);

    const root = el("div", { class: `clacks-phone map-phone junior${myTurn ? " my-turn" : ""}` });
    root.append(el("div", { class: "status", "aria-live": "polite" }, status(state, seat)),
      el("p", { class: "prompt", tabindex: -1 }, hint(state, myTurn, legal, me)));
    const mine = el("section", { class: "mine", "aria-label": t("clacks.your_message") }, P.messageLine(me));
    if (me.next_symbol && !state.over) mine.append(P.nextSymbolLine(ref, me.next_symbol));

    const sends = clacks.coop.sendingTowers(legal);
    const options = clacks.coop.placingOptions(ctx);
    if (!pick.mode && !state.over) {
      // a tower that shows the symbol transmits it; any other says why not
      options.onTower = (tower) => (myTurn && sends.has(tower) ? ctx.tapTower(tower)
        : ctx.explain({ type: "transmit", tower }));
      options.towerEnabled = (tower) => myTurn && sends.has(tower.id);
      options.towersAnswer = true;
    }
    options.canSend = sends;
    options.sendSymbol = me.next_symbol;
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange") },
      P.drawBoard(ref, seat, options));

    const controls = clacks.coop.placingControls(ctx, can);

    const turnButtons = el("div", { class: "turn-buttons" });
    if (myTurn && !pick.mode && !state.over) {
      const first = (legal || []).find((a) => a.type === "transmit");
      turnButtons.append(
        P.control(ctx, Boolean(first), { action: { type: "transmit" } }, { class: "primary", "data-action": "transmit",
          onclick: () => ctx.act({ type: "transmit", tower: first.tower }) },
          first ? t("clacks.transmit_from", { symbol: P.symbolWord(me.next_symbol), tower: first.tower })
            : t("clacks.transmit", { symbol: P.symbolWord(me.next_symbol) })),
        P.control(ctx, can((a) => a.type === "end_turn"), { action: { type: "end_turn" } },
          { class: "secondary", "data-action": "end_turn", onclick: () => ctx.act({ type: "end_turn" }) }, t("clacks.end_turn")));
    }
    const openHint = P.undoAndHint(ctx, turnButtons);
    const others = view.players.filter((p) => p.seat !== seat);
    const own = racer(state, me, true);
    own.classList.add("own-route");
    root.append(...[mine, boardBox, pick.mode ? controls : turnButtons,
      openHint, clacks.coop.handBox(ctx, legal, myTurn),
      clacks.coop.moreFold(t("clacks.more_junior"), [own, el("div", { class: "racers" }, others.map((p) => racer(state, p, false))),
        clacks.map.cardsPanel(view, view.turn.number), clacks.map.recentPanel(state, ctx.log || [], 6)])]
      .filter(Boolean));
    return root;
  }

  function hint(state, myTurn, legal, me) {
    const pick = P.pick;
    if (state.over) return "";
    if (pick.mode === "jacquard") return pick.lamps.length ? t("clacks.hint.confirm") : t("clacks.hint.place");
    if (!myTurn) return t("clacks.hint.team_wait", { name: P.seatName(state, state.view.turn.seat) });
    if (legal === null) return t("clacks.hint.loading");
    const symbol = P.symbolWord(me.next_symbol);
    if (state.view.turn.jacquards_played === 0) return t("clacks.hint.junior_start", { symbol });
    return legal.some((a) => a.type === "transmit")
      ? t("clacks.hint.coop_send", { symbol })
      : t("clacks.hint.coop_not_yet", { symbol });
  }

  clacks.modes.table.junior = table;
  clacks.modes.phone.junior = phone;
})();
