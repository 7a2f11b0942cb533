// Clockman on a phone: report where the piece landed (or roll, or end the turn), answer
// what the game asks of this seat (a knock's defence, a digit to take, a trade, the
// check of a winner's cards), see the private symbol hand, the event cards and the exact
// chance of the next roll. A report needing a choice (which digit, which pose, which
// player) opens one small step; the phone enables only what the engine allows now, and a
// greyed-out control says why when tapped or focused, in the engine's words.
"use strict";

(() => {
  const { t, el } = Clacks;
  const game = Clacks.games.clockman;
  const P = game.parts;
  const POSES = ["A", "B", "C", "D", "E"];

  // What this phone is in the middle of choosing; forgotten when the game moves on.
  const pick = { key: null, step: null, kind: null, label: "", faces: [], inspect: [] };

  function momentKey(view) {
    const turn = view.turn;
    if (!turn) return "over";
    // a knock or a passage outward keeps the phase: the step that reported it is over too
    return JSON.stringify([turn.number, turn.rolls, turn.phase, turn.knocked, turn.outward, view.hit, view.check,
      view.offer]);
  }

  function go(ctx, step, extra) {
    Object.assign(pick, { step, ...(extra || {}) });
    ctx.redraw();
  }

  function button(label, attrs, onclick) {
    return el("button", { type: "button", class: "secondary", ...attrs, onclick }, label);
  }

  // A button the rules may keep out of reach: then it is greyed, and tapping or focusing
  // it asks the engine why not for the action it stands for (``why``).
  function control(ctx, allowed, why, label, attrs, onclick) {
    if (allowed) return button(label, attrs, onclick);
    return Clacks.unavailable(button(label, attrs, null), () => ctx.explain(why));
  }

  // The digits a digit field on the player's circle may hold: the circle's own, a joker.
  function circleDigits(ctx, me) {
    const own = Object.keys(ctx.ref.circles).filter((d) => ctx.ref.circles[d] === me.ring);
    return [...own, "X"];
  }

  // The action a report button stands for, as the engine is asked about it: the digit of
  // the player's circle, a Whytooki of a pose on it, the first field of the straight.
  function sampleReport(ctx, me, type) {
    const view = ctx.state.view;
    switch (type) {
      case "event":
        return { type, kind: "now" };
      case "digit":
        return { type, digit: circleDigits(ctx, me)[0] };
      case "blockade": {
        const ring = (view.whytookis.rings[me.ring - 1] || { poses: [] }).poses;
        return { type, pose: ring[0] || POSES[0] };
      }
      case "lift":
        return { type, use: true };
      case "straight":
        return { type, field: 1 };
      default:
        return { type };
    }
  }

  function legalOf(ctx) {
    const legal = ctx.legal() || [];
    return {
      list: legal,
      has: (type, test) => legal.some((a) => a.type === type && (!test || test(a))),
      all: (type) => legal.filter((a) => a.type === type),
    };
  }

  // The action without the seat, as the phone sends it.
  function bare(action) {
    const { seat, ...rest } = action;
    return rest;
  }

  // ------------------------------------------------------------------ my turn

  const REPORTS = [
    ["plain", "clockman.report.plain"],
    ["symbol", "clockman.report.symbol"],
    ["event", "clockman.report.event"],
    ["digit", "clockman.report.digit"],
    ["blockade", "clockman.report.blockade"],
    ["lift", "clockman.report.lift"],
    ["transfer", "clockman.report.transfer"],
    ["straight", "clockman.report.straight"],
    ["forfeit", "clockman.report.forfeit"],
    ["knock", "clockman.report.knock"],
    ["outward", "clockman.report.outward"],
  ];
  const STEPS = new Set(["event", "digit", "blockade", "lift", "straight", "knock"]);

  function reportGrid(ctx, me, legal) {
    const view = ctx.state.view;
    const shown = REPORTS.filter(([type]) => {
      if (type === "transfer") return view.options.transfer;
      if (type === "straight" || type === "forfeit") return me.ring === 4;
      if (type === "outward") return me.ring > 1 && !view.turn.outward;
      if (type === "knock") return !view.turn.knocked && legal.has("knock");
      return true;
    });
    return el("div", { class: "cm-reports" }, shown.map(([type, key]) => control(ctx, legal.has(type),
      sampleReport(ctx, me, type), t(key), { class: `secondary cm-report ${type}`, "data-report": type },
      () => (STEPS.has(type) ? go(ctx, type) : ctx.act({ type })))));
  }

  function stepPanel(ctx, me, legal) {
    const view = ctx.state.view;
    const back = button(t("clockman.back"), { "data-action": "back" }, () => go(ctx, null));
    // each choice names what it chooses (data-value) for people's tools and tests
    const choices = (actions, words, value) => el("div", { class: "cm-choices" }, actions.map((a) => button(words(a), {
      class: "primary", "data-value": String(value(a)) }, () => ctx.act(bare(a)))));
    // every choice the board may show, those the rules keep out of reach greyed with why
    const offered = (type, candidates, words, value) => el("div", { class: "cm-choices" }, candidates.map((params) => {
      const action = { type, ...params };
      const allowed = legal.has(type, (a) => Object.entries(params).every(([name, v]) => a[name] === v));
      return control(ctx, allowed, action, words(action), { class: "primary", "data-value": String(value(action)) },
        () => ctx.act(action));
    }));
    let title;
    let body;
    switch (pick.step) {
      case "digit":
        title = t("clockman.step.digit");
        body = offered("digit", circleDigits(ctx, me).map((digit) => ({ digit })), (a) => P.digitWord(a.digit), (a) => a.digit);
        break;
      case "lift":
        title = t("clockman.step.lift");
        body = offered("lift", [{ use: true }, { use: false }], (a) => t(a.use ? "clockman.lift.take" : "clockman.lift.leave"),
          (a) => a.use);
        break;
      case "straight": {
        title = t("clockman.step.straight", { die: view.turn.die });
        const fields = Array.from({ length: ctx.ref.straight_fields }, (_, i) => ({ field: i + 1 }));
        body = offered("straight", fields, (a) => t("clockman.field", { field: a.field }), (a) => a.field);
        break;
      }
      case "knock":
        title = t("clockman.step.knock");
        body = choices(legal.all("knock"), (a) => P.seatName(ctx.state, a.victim), (a) => a.victim);
        break;
      case "blockade": {
        title = t("clockman.step.blockade", { ring: me.ring, inner: me.ring + 1 });
        const ring = (view.whytookis.rings[me.ring - 1] || { poses: [] }).poses;
        const poses = POSES.filter((p) => ring.includes(p));
        body = el("div", { class: "cm-choices" }, poses.flatMap((pose) => {
          const ways = legal.all("blockade").filter((a) => a.pose === pose);
          if (!ways.length) {
            return [control(ctx, false, { type: "blockade", pose }, t("clockman.pose_no_card", { pose: P.poseName(pose) }),
              { "data-pose": pose })];
          }
          return ways.map((a) => button(a.card ? t("clockman.pose_with_event", { pose: P.poseName(pose), card: cardName(me, a.card) })
            : t("clockman.pose_with_symbol", { pose: P.poseName(pose) }), { class: "primary", "data-pose": pose,
            "data-card": a.card || null }, () => ctx.act(bare(a))));
        }));
        break;
      }
      case "event": {
        title = t("clockman.step.event");
        if (!pick.kind) {
          body = el("div", { class: "cm-choices" }, ["now", "hidden", "open"].map((kind) => button(
            t(`clockman.kind.${kind}.long`), { class: "primary", "data-kind": kind }, () => go(ctx, "event", { kind }))));
          break;
        }
        const label = el("input", { name: "label", maxlength: 40, autocomplete: "off", value: pick.label,
          placeholder: t("clockman.label_placeholder"), oninput: (e) => { pick.label = e.target.value; } });
        const withLabel = (a) => ({ ...bare(a), ...(pick.label.trim() ? { label: pick.label.trim() } : {}) });
        const made = legal.all("event").filter((a) => a.kind === pick.kind);
        body = el("div", {},
          el("label", { class: "field" }, el("span", {}, t("clockman.label")), label),
          pick.kind === "now" ? el("p", { class: "cm-ask" }, t("clockman.ask_effect")) : null,
          el("div", { class: "cm-choices" }, made.map((a) => button(pick.kind === "now" ? effectWords(ctx, a) : t("clockman.report_card"),
            { class: "primary", "data-effect": a.effect || "board", "data-target": a.target || null },
            () => ctx.act(withLabel(a))))));
        break;
      }
      default:
        if (pick.step && pick.step.startsWith("play:")) {
          const id = pick.step.slice(5);
          title = t("clockman.step.play", { card: cardName(me, id) });
          body = choices(legal.all("play").filter((a) => a.card === id), (a) => effectWords(ctx, a),
            (a) => `${a.effect}${a.target ? `:${a.target}` : ""}`);
        }
    }
    return el("div", { class: "cm-step", "data-step": pick.step }, el("p", { class: "cm-ask" }, title), body, back);
  }

  function effectWords(ctx, action) {
    const effect = action.effect || "board";
    const words = t(`clockman.effect.${effect}`);
    return action.target && action.target !== ctx.seat ? t("clockman.effect_on", { effect: words, name: P.shortName(ctx.state, action.target) }) : words;
  }

  function cardName(me, id) {
    const card = me.cards.find((c) => c.id === id);
    return card && card.label ? card.label : t(`clockman.kind.${card ? card.kind : "hidden"}`);
  }

  function myTurn(ctx, me, legal) {
    const view = ctx.state.view;
    const turn = view.turn;
    const parts = [];
    if (pick.step) return [stepPanel(ctx, me, legal)];
    if (turn.phase === "roll") {
      parts.push(control(ctx, legal.has("roll"), { type: "roll" }, t("clockman.roll"),
        { class: "primary big", "data-action": "roll" }, () => ctx.act({ type: "roll" })));
    } else if (turn.phase === "report") {
      // after a knock or a passage outward the landing is still to report: say so
      if (turn.knocked || turn.outward) {
        parts.push(el("p", { class: "cm-ask", "data-next": "landing" }, t("clockman.now_landing")));
      }
      parts.push(reportGrid(ctx, me, legal));
    } else {
      parts.push(control(ctx, legal.has("end_turn"), { type: "end_turn" }, t("clockman.end_turn"),
        { class: "primary big", "data-action": "end_turn" }, () => ctx.act({ type: "end_turn" })));
      if (legal.has("roll")) {
        parts.unshift(el("button", { type: "button", class: "primary big", "data-action": "roll",
          onclick: () => ctx.act({ type: "roll" }) }, t("clockman.roll_again")));
      }
      if (!turn.knocked && legal.has("knock")) {
        parts.push(button(t("clockman.report.knock"), { "data-report": "knock" }, () => go(ctx, "knock")));
      }
    }
    return parts;
  }

  // ------------------------------------------------------------------ answers

  function answers(ctx, me, legal) {
    const { state, seat } = ctx;
    const view = state.view;
    if (view.check && me.status === "playing" && view.check.winner !== seat) {
      const winner = view.players.find((p) => p.seat === view.check.winner);
      if (view.check.stage === "verdict") {
        return [el("p", { class: "cm-ask" }, t("clockman.ask_verdict", { name: P.seatName(state, winner.seat) })),
          el("div", { class: "cm-choices" },
            button(t("clockman.revoke"), { class: "primary", "data-action": "revoke" }, () => ctx.act({ type: "revoke" })),
            button(t("clockman.confirm"), { "data-action": "confirm" }, () => ctx.act({ type: "confirm" })))];
      }
      const faceDown = view.check.cards;
      if (pick.inspect.length !== faceDown.length) pick.inspect = faceDown.map(() => "hidden");
      const rows = faceDown.map((id, i) => el("label", { class: "field" },
        el("span", {}, t("clockman.card_n", { n: i + 1 })),
        el("select", { "data-inspect": id, onchange: (e) => { pick.inspect[i] = e.target.value; } },
          ["hidden", "open", "now"].map((k) => el("option", { value: k, selected: pick.inspect[i] === k }, t(`clockman.inspect.${k}`))))));
      return [el("p", { class: "cm-ask" }, t("clockman.ask_check", { name: P.seatName(state, winner.seat), count: faceDown.length })),
        ...rows,
        el("div", { class: "cm-choices" },
          button(t("clockman.inspect"), { class: "primary", "data-action": "inspect" }, () => ctx.act({ type: "inspect", kinds: [...pick.inspect] })),
          button(t("clockman.confirm"), { "data-action": "confirm" }, () => ctx.act({ type: "confirm" })))];
    }
    const hit = view.hit;
    if (hit && hit.stage === "defence" && hit.victim === seat) {
      const options = [el("option", { value: "" }, t("clockman.no_card")),
        ...me.cards.map((c) => el("option", { value: c.id }, cardName(me, c.id)))];
      const digitCard = el("select", { name: "protect-digit" }, options.map((o) => o.cloneNode(true)));
      const knockCard = el("select", { name: "protect-knock" }, options.map((o) => o.cloneNode(true)));
      return [el("p", { class: "cm-ask" }, t("clockman.ask_defence", { name: P.seatName(state, hit.hitter) })),
        el("label", { class: "field" }, el("span", {}, t("clockman.protect_digit")), digitCard),
        el("label", { class: "field" }, el("span", {}, t("clockman.protect_knock")), knockCard),
        el("div", { class: "cm-choices" },
          button(t("clockman.defend"), { class: "primary", "data-action": "defend" }, () => {
            const action = { type: "defend" };
            if (digitCard.value) action.digit = digitCard.value;
            if (knockCard.value) action.knock = knockCard.value;
            ctx.act(action);
          }),
          button(t("clockman.no_defence"), { "data-action": "no-defence" }, () => ctx.act({ type: "defend" })))];
    }
    if (hit && hit.stage === "take" && hit.hitter === seat) {
      return [el("p", { class: "cm-ask" }, t("clockman.ask_take", { name: P.seatName(state, hit.victim) })),
        el("div", { class: "cm-choices" }, legal.all("take").map((a) => button(P.digitWord(a.digit),
          { class: "primary", "data-choice": a.digit }, () => ctx.act(bare(a)))))];
    }
    const offer = view.offer;
    if (offer && offer.to === seat) {
      return [el("p", { class: "cm-ask" }, t("clockman.ask_offer", { name: P.seatName(state, offer.seat),
        give: P.digitsWords(offer.give), get: P.digitsWords(offer.get) })),
      el("div", { class: "cm-choices" },
        control(ctx, legal.has("accept"), { type: "accept" }, t("clockman.accept"), { class: "primary", "data-action": "accept" },
          () => ctx.act({ type: "accept" })),
        button(t("clockman.decline"), { "data-action": "decline" }, () => ctx.act({ type: "decline" })))];
    }
    return null;
  }

  // ------------------------------------------------------------------ my things

  function mine(ctx, me, legal) {
    const { state, ref } = ctx;
    const you = state.view.you;
    const hand = Object.entries(you.hand);
    const cards = me.cards.map((card) => el("li", { class: `cm-card ${card.kind}`, "data-card": card.id },
      el("span", {}, t(`clockman.kind.${card.kind}`), card.label ? `: ${card.label}` : ""),
      control(ctx, legal.has("play", (a) => a.card === card.id), { type: "play", card: card.id, effect: "board" },
        t("clockman.play"), { "data-play": card.id }, () => go(ctx, `play:${card.id}`))));
    return el("section", { class: "cm-mine", "aria-label": t("clockman.yours") },
      el("p", { class: "cm-place" }, el("strong", {}, P.placeWords(me)), " · ", P.keyWords(me)),
      P.dateKey(ref, me),
      me.complete ? null : el("p", { class: "hint cm-where" }, t("clockman.where_digits")),
      el("p", { class: "cm-hand", "data-hand": "" }, el("strong", {}, t("clockman.hand")), " ",
        hand.length ? hand.map(([pose, n]) => el("span", { class: "cm-pose", "data-pose": pose },
          n > 1 ? t("clockman.pose_count", { pose: P.poseName(pose), times: n }) : P.poseName(pose))) : t("clockman.no_symbols"),
        me.spares.length ? ` · ${t("clockman.spares", { digits: P.digitsWords(me.spares) })}` : ""),
      cards.length ? el("ul", { class: "cm-cards mine" }, cards) : null);
  }

  function chances(ctx) {
    const next = ctx.state.view.you.next_roll;
    if (!next) return null;
    const percent = (k, n) => Math.round((100 * k) / n);
    const box = el("section", { class: "cm-chance", "aria-label": t("clockman.chance.title") },
      el("h2", {}, t("clockman.chance.title")));
    if (next.where !== "circle") {
      for (const goal of next.goals) {
        const [k, n] = goal.chance;
        box.append(el("p", { "data-goal": goal.goal }, t(`clockman.goal.${goal.goal}`, {
          faces: goal.faces.length ? goal.faces.join(", ") : "–", count: k, sides: n, percent: percent(k, n),
          pose: next.pose ? P.poseName(next.pose) : "" })));
      }
      if (next.where === "straight" && !next.has_card && next.pose) {
        box.append(el("p", { class: "hint" }, t("clockman.chance.need_card", { pose: P.poseName(next.pose) })));
      }
      return box;
    }
    const faces = new Set(pick.faces);
    const row = el("div", { class: "cm-faces", role: "group", "aria-label": t("clockman.chance.faces") });
    for (let f = 1; f <= next.sides; f += 1) {
      row.append(el("button", { type: "button", class: `cm-face${faces.has(f) ? " on" : ""}`, "aria-pressed": String(faces.has(f)),
        "data-face": f, onclick: () => {
          pick.faces = faces.has(f) ? pick.faces.filter((x) => x !== f) : [...pick.faces, f];
          ctx.redraw();
        } }, P.die(f)));
    }
    const k = faces.size;
    box.append(el("p", { class: "hint" }, t("clockman.chance.tap")), row);
    if (k) {
      box.append(el("p", { class: "cm-odds", role: "status", "data-odds": `${k}/${next.sides}` },
        t("clockman.chance.result", { count: k, sides: next.sides, percent: percent(k, next.sides) })));
    }
    const facts = [];
    if (next.whytookis.length) {
      facts.push(next.may_pass.length ? t("clockman.chance.may_pass", { poses: next.may_pass.map(P.poseName).join(", ") })
        : t("clockman.chance.no_pass"));
    }
    if (next.may_take.length) facts.push(t("clockman.chance.may_take", { digits: P.digitsWords(next.may_take) }));
    if (next.straight) facts.push(t("clockman.chance.straight"));
    if (facts.length) box.append(el("p", { class: "hint" }, facts.join(" · ")));
    return box;
  }

  function tradePanel(ctx, me) {
    const { state, seat } = ctx;
    const view = state.view;
    if (!view.options.swap || view.over || view.turn.seat !== seat || view.hit || view.check) return null;
    const digits = ["0", "1", "2", "X"];
    const own = (p) => digits.filter((d) => p.date[d] + p.pending[d] > 0);
    const others = view.players.filter((p) => p.seat !== seat && p.status === "playing");
    const to = el("select", { name: "trade-to" }, others.map((p) => el("option", { value: p.seat }, P.shortName(state, p.seat))));
    const give = el("select", { name: "trade-give" }, own(me).map((d) => el("option", { value: d }, P.digitWord(d))));
    const get = el("select", { name: "trade-get" }, digits.map((d) => el("option", { value: d }, P.digitWord(d))));
    const open = view.offer && view.offer.seat === seat;
    return el("details", { class: "cm-trade", open: open || null },
      el("summary", {}, t("clockman.trade")),
      open ? el("p", {}, t("clockman.offer_yours", { to: P.seatName(state, view.offer.to), give: P.digitsWords(view.offer.give),
        get: P.digitsWords(view.offer.get) }), " ",
      button(t("clockman.withdraw"), { "data-action": "withdraw" }, () => ctx.act({ type: "withdraw" }))) : null,
      el("div", { class: "cm-trade-form" },
        el("label", { class: "field" }, el("span", {}, t("clockman.trade_give")), give),
        el("label", { class: "field" }, el("span", {}, t("clockman.trade_get")), get),
        el("label", { class: "field" }, el("span", {}, t("clockman.trade_to")), to)),
      control(ctx, own(me).length && others.length, { type: "offer", to: others.length ? others[0].seat : seat, give: ["0"],
        get: ["1"] }, t("clockman.offer"), { class: "primary", "data-action": "offer" },
      () => ctx.act({ type: "offer", to: to.value, give: [give.value], get: [get.value] })));
  }

  function lampsChoice(ctx) {
    const view = ctx.state.view.lamp_view;
    return el("details", { class: "cm-lamps" }, el("summary", {}, t("clockman.lamps")),
      el("div", { class: "cm-choices" }, ["turn", "race"].map((v) => button(t(`clockman.lamps.${v}`), {
        "aria-pressed": String(view === v), "data-lamps": v }, () => ctx.act({ type: "lamps", view: v })))));
  }

  // ------------------------------------------------------------------ the phone

  // The game's end as this player lived it: their own win, or the winner's name on a
  // banner that says the game is lost, never the winner's green banner as if theirs.
  function ownResult(state, seat) {
    const won = state.view.winners.includes(seat);
    return el("p", { class: `winner ${won ? "won" : "lost"}`, role: "status" },
      won ? t("clockman.you_won") : t("clockman.you_lost", { name: P.seatName(state, state.view.winners[0]) }));
  }

  function phone(ctx) {
    const { state, seat } = ctx;
    const view = state.view;
    const me = view.players.find((p) => p.seat === seat);
    if (pick.key !== momentKey(view)) Object.assign(pick, { key: momentKey(view), step: null, kind: null, label: "", inspect: [] });
    const legal = legalOf(ctx);
    const root = el("div", { class: "clockman-phone" });
    const status = el("section", { class: "cm-now", "aria-live": "polite" },
      view.turn && view.turn.die ? P.die(view.turn.die) : null,
      view.over ? ownResult(state, seat) : null,
      el("p", { class: "phase" }, P.nowWords(state, seat)));
    root.append(status);
    const asked = view.over ? null : answers(ctx, me, legal);
    const turnMine = !view.over && !view.hit && !view.check && view.turn.seat === seat && me.status === "playing";
    const act = el("section", { class: "cm-act" });
    if (asked) act.append(...asked);
    else if (turnMine) act.append(...myTurn(ctx, me, legal));
    else if (!view.over) {
      const waitingFor = (view.active || []).filter((s) => s !== seat);
      act.append(el("p", { class: "hint" }, view.turn.seat === seat && waitingFor.length
        ? t("clockman.wait_answer", { name: P.seatName(state, waitingFor[0]) }) : t("clockman.wait")));
    }
    if (view.you && view.you.can_undo) {
      act.append(button(t("clockman.undo"), { "data-action": "undo" }, () => ctx.undo()));
    }
    if (act.childNodes.length) root.append(act);
    root.append(mine(ctx, me, legal));
    if (turnMine && view.turn.phase === "roll") root.append(chances(ctx) || "");
    const trade = tradePanel(ctx, me);
    if (trade) root.append(trade);
    root.append(el("details", { class: "cm-others" }, el("summary", {}, t("clockman.others")),
      P.turnOrder(state), view.players.filter((p) => p.seat !== seat).map((p) => P.playerPanel(state, ctx.ref, p))));
    if (!view.over) root.append(lampsChoice(ctx));
    return root;
  }

  function phoneController(page) {
    return {
      act: (action) => page.act(action),
      undo: () => page.undo(),
      redraw: () => page.redraw(),
    };
  }

  game.phone = phone;
  game.phoneController = phoneController;
})();
