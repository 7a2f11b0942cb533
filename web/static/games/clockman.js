// Clockman on the table screen, drawn from the room's snapshot (the game's view, the
// lamps the box shows) and the game's reference (the house data, the box map). Registers
// itself in Clacks.games like every game's script; the phone is drawn by
// games/clockman/phone.js, the styles are in games/clockman.css.
"use strict";

(() => {
  const { t, el, svg, boxPicture: boxSvg } = Clacks;
  const PIPS = {
    1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [0, 2], [2, 0], [2, 2]],
    5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]], 6: [[0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2]],
  };
  const DOTS_AFTER = [1, 3]; // 01.01.2000: a dot after the 2nd and the 4th digit

  document.head.append(el("link", { rel: "stylesheet", href: "/static/games/clockman.css" }));

  // ------------------------------------------------------------------ words

  function seatName(state, seatId) {
    if (!seatId) return "";
    const seat = (state.room.seats || []).find((s) => s.id === seatId);
    const label = t(`seat.${seatId}`);
    const name = seat && seat.name;
    return name && name !== label ? `${name} (${label})` : label;
  }

  function shortName(state, seatId) {
    const seat = (state.room.seats || []).find((s) => s.id === seatId);
    return (seat && seat.name) || t(`seat.${seatId}`);
  }

  function poseName(pose) {
    return t("clockman.pose_named", { pose, name: t(`clockman.pose.${pose}`) });
  }

  function digitWord(digit) {
    return digit === "X" ? t("clockman.joker") : digit;
  }

  function digitsWords(digits) {
    return digits && digits.length ? digits.map(digitWord).join(", ") : t("clockman.nothing");
  }

  function placeWords(player) {
    if (player.status === "won") return t("clockman.place.won");
    if (player.status === "out") return t("clockman.place.out");
    if (player.ring === 0) return t("clockman.place.start");
    if (player.ring === 5) return t("clockman.place.straight", { field: player.field });
    return t("clockman.place.circle", { ring: player.ring });
  }

  function ringWords(ring) {
    return ring === 0 ? t("clockman.place.start") : t("clockman.place.circle", { ring });
  }

  function describeEvent(state, event) {
    const params = { ...event };
    for (const key of ["seat", "victim", "by", "winner", "to", "target"]) {
      // "by" names a seat in some events and how a Whytooki was paid in others
      if (event[key] && Clacks.has(`seat.${event[key]}`)) params[key] = seatName(state, event[key]);
    }
    if (event.digit) params.digit = digitWord(event.digit);
    for (const key of ["digits", "give", "get", "choices"]) {
      if (Array.isArray(event[key])) params[key] = digitsWords(event[key]);
    }
    if (event.pose) params.pose = poseName(event.pose);
    if (event.card_kind) params.card_kind = t(`clockman.kind.${event.card_kind}`);
    if (event.effect) params.effect = t(`clockman.effect.${event.effect}`);
    if (event.ring !== undefined) params.ring = ringWords(event.ring);
    if (event.kind === "starter_rolled") params.rolls = openingWords(state, event.rolls);
    if (!params.label) params.label = "";
    let key = `clockman.event.${event.kind}`;
    if (event.kind === "forfeited" || event.kind === "game_won") key = `${key}.${event.reason}`;
    if (event.kind === "event_drawn" && event.label) key = `${key}.labelled`;
    if (event.kind === "card_played" && event.label) key = `${key}.labelled`;
    if (event.kind === "inspected") params.misplayed = event.misplayed;
    return Clacks.has(key) ? t(key, params) : event.kind;
  }

  function openingWords(state, rolls) {
    return (rolls || []).map((round) => Object.entries(round)
      .map(([seat, die]) => `${shortName(state, seat)} ${die}`).join(", ")).join(" · ");
  }

  // What the game waits for now, in one sentence; on a phone (``mine``: its seat) the
  // seat's own turn is said to the player.
  function nowWords(state, mine) {
    const view = state.view;
    if (view.over) return t(`clockman.over.${view.reason}`, { name: seatName(state, view.winners[0]) });
    if (view.check) {
      return t(view.check.stage === "check" ? "clockman.now.check" : "clockman.now.verdict",
        { name: seatName(state, view.check.winner), count: view.check.cards.length });
    }
    if (view.hit) {
      return view.hit.stage === "defence"
        ? t("clockman.now.defence", { name: seatName(state, view.hit.victim), hitter: seatName(state, view.hit.hitter) })
        : t("clockman.now.take", { name: seatName(state, view.hit.hitter), victim: seatName(state, view.hit.victim) });
    }
    const turn = view.turn;
    const name = seatName(state, turn.seat);
    const player = view.players.find((p) => p.seat === turn.seat);
    const you = mine && mine === turn.seat ? ".you" : "";
    if (turn.phase === "roll") return t(`clockman.now.roll${you}`, { name });
    if (turn.phase === "done" || player.ring === 5) return t(`clockman.now.done${you}`, { name });
    return t(`clockman.now.report${you}`, { name, die: turn.die, place: placeWords(player) });
  }

  // ------------------------------------------------------------------ pieces

  function die(value, big) {
    const root = svg("svg", { viewBox: "0 0 60 60", class: `cm-die${big ? " big" : ""}`, role: "img", "data-die": value,
                              "aria-label": t("clockman.die_label", { value }) });
    root.append(svg("rect", { x: 3, y: 3, width: 54, height: 54, rx: 10, class: "face" }));
    for (const [r, c] of PIPS[value] || []) {
      root.append(svg("circle", { cx: 15 + c * 15, cy: 15 + r * 15, r: 5.5, class: "pip" }));
    }
    return root;
  }

  // The date key 01.01.2000 of one player, one tile per digit, as the lamps show it.
  function dateKey(ref, player) {
    const key = ref.date_key;
    const held = player.slots.filter((s) => s !== "missing").length;
    const row = el("div", { class: "cm-key", role: "img", "data-key": player.seat,
      "aria-label": t("clockman.key_label", { held, length: key.length, missing: player.missing }) });
    player.slots.forEach((slot, i) => {
      const joker = slot.startsWith("joker");
      row.append(el("span", { class: `cm-digit ${slot}`, "data-slot": slot, "aria-hidden": "true" },
        joker ? "X" : key[i]));
      if (DOTS_AFTER.includes(i)) row.append(el("span", { class: "cm-dot", "aria-hidden": "true" }, "."));
    });
    return row;
  }

  // Start, the four circles, the straight's fields and the Clockman field, with the
  // player's place marked and the innermost ring reached underlined.
  function ringTrack(ref, player) {
    const stops = [["start", 0], ["1", 1], ["2", 2], ["3", 3], ["4", 4]];
    for (let f = 1; f <= ref.straight_fields; f += 1) stops.push([`z${f}`, 5, f]);
    stops.push(["centre", 6]);
    const here = player.status === "won" ? 6 : player.ring;
    const list = el("ol", { class: "cm-track", "aria-label": t("clockman.track_label", { place: placeWords(player) }) });
    for (const [id, ring, field] of stops) {
      const at = ring === here && (ring !== 5 || field === player.field);
      const reached = ring <= Math.max(player.furthest, here) && ring !== 0;
      const text = id === "start" ? "S" : id === "centre" ? "★" : id.startsWith("z") ? `→${field}` : id;
      list.append(el("li", { class: `${at ? "at" : ""}${reached ? " reached" : ""}`, "data-stop": id, "aria-hidden": "true" }, text));
    }
    return list;
  }

  // How far the date key is: complete, or how many digits it misses (and how many are
  // set aside for a transfer field).
  function keyWords(player) {
    if (player.complete) return el("strong", { class: "cm-complete" }, t("clockman.complete"));
    const aside = Object.values(player.pending).reduce((a, b) => a + b, 0);
    const missing = t("clockman.missing", { count: player.missing });
    return aside ? `${missing} (${t("clockman.set_aside", { count: aside })})` : missing;
  }

  function heldCards(player) {
    if (!player.cards.length) return null;
    return el("ul", { class: "cm-cards" }, player.cards.map((card) => el("li", { class: `cm-card ${card.kind}`, "data-card": card.id },
      t(`clockman.kind.${card.kind}`), card.label ? `: ${card.label}` : "")));
  }

  function playerPanel(state, ref, player) {
    const view = state.view;
    const active = (view.active || []).includes(player.seat);
    const turn = view.turn;
    const seatInfo = state.room.seats.find((s) => s.id === player.seat) || {};
    const badge = turn && turn.seat === player.seat ? t("clockman.badge.turn") : active ? t("clockman.badge.answers") : null;
    const spare = player.spares.length ? t("clockman.spares", { digits: digitsWords(player.spares) }) : null;
    return el("section", {
      class: `seat cm-player${active ? " active" : ""} ${player.status}`,
      "data-seat": player.seat,
      "aria-label": seatName(state, player.seat),
      "aria-current": active ? "true" : null,
    },
    el("h3", {}, seatName(state, player.seat), badge ? el("span", { class: "badge" }, badge) : null),
    el("p", { class: "presence" }, Clacks.presence(seatInfo)),
    el("p", { class: "cm-place" }, el("strong", {}, placeWords(player)),
      player.furthest > 0 && player.status === "playing" ? ` · ${t("clockman.furthest", { place: ringWords(Math.min(player.furthest, 4)) })}` : ""),
    ringTrack(ref, player),
    dateKey(ref, player),
    el("p", { class: "cm-counts" },
      keyWords(player),
      spare ? ` · ${spare}` : "",
      ` · ${t("clockman.symbol_count", { count: player.symbols })}`,
      ` · ${t("clockman.straight_pose", { pose: poseName(player.straight_pose) })}`),
    heldCards(player));
  }

  function turnOrder(state) {
    const view = state.view;
    const turn = view.turn;
    return el("ol", { class: "cm-order", "aria-label": t("clockman.order") },
      view.order.map((seat) => {
        const player = view.players.find((p) => p.seat === seat);
        return el("li", { class: `${turn && turn.seat === seat ? "now" : ""} ${player.status}`, "data-order": seat },
          shortName(state, seat));
      }));
  }

  function statusPanel(state) {
    const view = state.view;
    const turn = view.turn;
    const lines = [el("p", { class: "phase" }, nowWords(state, null))];
    if (turn && turn.die) lines.unshift(el("div", { class: "cm-rolled" }, die(turn.die, true)));
    if (view.offer) {
      lines.push(el("p", { class: "cm-offer", role: "status" }, t("clockman.offer_open", {
        name: seatName(state, view.offer.seat), to: seatName(state, view.offer.to),
        give: digitsWords(view.offer.give), get: digitsWords(view.offer.get) })));
    }
    if (!view.over && turn && turn.number === 1 && turn.rolls === 1 && view.opening.length) {
      lines.push(el("p", { class: "hint" }, t("clockman.opening", { rolls: openingWords(state, view.opening),
        name: seatName(state, turn.seat) })));
    }
    return el("div", { class: `turn cm-status${view.over ? " over" : ""}`, role: view.over ? "status" : null }, lines);
  }

  function whytookis(state) {
    const view = state.view;
    const house = el("span", { class: "cm-house" }, t("clockman.house_values"));
    const rings = view.whytookis.rings.map((ring) => el("li", { "data-ring": ring.between[0] },
      el("strong", {}, t("clockman.between", { outer: ring.between[0], inner: ring.between[1] })), " ",
      ring.poses.map((p) => el("span", { class: "cm-pose", title: t(`clockman.pose.${p}`) }, p))));
    const straights = Object.entries(view.whytookis.straights).map(([seat, pose]) => el("li", {},
      el("strong", {}, t("clockman.straight_of", { name: shortName(state, seat) })), " ",
      el("span", { class: "cm-pose", title: t(`clockman.pose.${pose}`) }, pose)));
    const poses = ["A", "B", "C", "D", "E"].map((p) => el("li", {}, el("span", { class: "cm-pose" }, p), " ", t(`clockman.pose.${p}`)));
    return el("section", { class: "cm-whytookis", "aria-label": t("clockman.whytookis") },
      el("h2", {}, t("clockman.whytookis"), " ", house),
      el("ul", { class: "cm-rings" }, rings, straights),
      el("ul", { class: "cm-pose-names" }, poses));
  }

  function supplies(state) {
    const view = state.view;
    const s = view.supply;
    return el("ul", { class: "cm-supply", "aria-label": t("clockman.supply") },
      el("li", { "data-deck": "symbols" }, t("clockman.deck.symbols", { count: view.decks.symbols })),
      el("li", { "data-deck": "events" }, t("clockman.deck.events", { count: view.decks.events })),
      el("li", { "data-supply": "digits" }, t("clockman.on_board", { zeros: s["0"], ones: s["1"], twos: s["2"], jokers: s.X, lifts: s.L })),
      el("li", { "data-rules": "" }, rulesInPlay(view)));
  }

  function rulesInPlay(view) {
    const o = view.options;
    const on = [];
    if (o.transfer) on.push(t("choice.transfer"));
    if (o.hamster !== "off") on.push(t(`choice.hamster.${o.hamster}`));
    if (o.robbery) on.push(t("choice.robbery"));
    if (o.swap) on.push(t("choice.swap"));
    return t("clockman.rules_in_play", { rules: on.length ? on.join(", ") : t("clockman.none") });
  }

  // ------------------------------------------------------------------ the box

  // The 4x4 lamps as the box shows them now, with its twelve buttons (clickable on the
  // table screen when ``press`` is given, like the real ones).
  function boxPicture(state, ref, press) {
    const frame = state.lamps || { lit: [], accent: [], preview: [] };
    const labels = {};
    if (state.view.lamp_view !== "race") {
      ref.lamps.die.forEach((lamp, i) => { labels[lamp] = String(i + 1); });
      ref.lamps.date.forEach((lamp, i) => { labels[lamp] = ref.date_key[i]; });
    }
    return boxSvg({
      cls: "cm-box",
      label: t("clockman.box"),
      frame,
      blinking: frame.preview,
      blinkClass: "blink",
      lamp: (group, name, p, on, blinking) => {
        group.append(svg("circle", { cx: p.x, cy: p.y, r: 28, class: "bulb" }));
        if (blinking) group.append(svg("circle", { cx: p.x, cy: p.y, r: 34, class: "blink-ring" }));
        if (labels[name]) group.append(svg("text", { x: p.x, y: p.y + 10, class: "cm-lamp-text", text: labels[name] }));
        return t(on ? "clockman.lamp_lit" : "clockman.lamp_dark", { lamp: name });
      },
      buttons: ref.buttons,
      button: (meaning) => ({
        cls: `cm-button ${meaning}`,
        label: (button) => t("clockman.button_label", { button, meaning: t(`clockman.button.${meaning}`) }),
        short: t(`clockman.button.${meaning}.short`),
        radius: 17,
        drop: 5,
        textClass: "cm-button-text",
      }),
      press,
    });
  }

  function boxLegend(ref) {
    const list = el("ul", { class: "cm-legend" });
    for (const [button, meaning] of Object.entries(ref.buttons)) {
      list.append(el("li", {}, el("strong", {}, `${button} ${t(`clockman.button.${meaning}.short`)}`), " ",
        t(`clockman.button.${meaning}`)));
    }
    return el("div", { class: "cm-legend-box" }, el("p", {}, t("clockman.legend.lamps")),
      el("p", {}, t("clockman.legend.race")), list);
  }

  function rulesText() {
    return el("div", { class: "rules-text" }, t("clockman.rules").split("\n\n").map((para) => el("p", {}, para)));
  }

  // ------------------------------------------------------------------ table screen

  function table(ctx) {
    const { state, ref } = ctx;
    const view = state.view;
    const box = el("section", { class: "board-box cm-box-area", "aria-label": t("clockman.box") },
      el("h2", {}, t(view.lamp_view === "race" ? "clockman.box_race" : "clockman.box_turn")),
      boxPicture(state, ref, ctx.press));
    if (ctx.press && !view.over) box.append(el("p", { class: "hint" }, t("clockman.hint.box")));
    return el("div", { class: "clockman-table" },
      el("div", { class: "status", "aria-live": "polite" }, statusPanel(state),
        el("div", { class: "cm-facts" }, turnOrder(state))),
      // the players, then the decks and the Whytookis, beside the box on a wide screen:
      // the player to move first, so their date key is on the first screen
      el("div", { class: "cm-column", "data-players-view": "" }, el("div", { class: "cm-players" }, view.players.map((p) => playerPanel(state, ref, p))),
        supplies(state), whytookis(state)),
      box);
  }

  function extras(ctx) {
    return {
      rules: rulesText(),
      alphabet: boxLegend(ctx.ref),
      referenceTitle: t("clockman.legend.title"),
      describe: (event) => describeEvent(ctx.state, event),
    };
  }

  Clacks.games.clockman = {
    title: () => t("game.clockman"),
    table,
    extras,
    describeEvent,
    // the phone's parts (games/clockman/phone.js) add phone and phoneController
    parts: { seatName, shortName, poseName, digitWord, digitsWords, placeWords, ringWords, nowWords, die,
             dateKey, ringTrack, heldCards, keyWords, playerPanel, statusPanel, turnOrder },
  };
})();
