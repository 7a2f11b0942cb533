// Hints on a Clacks phone, in every mode: the Hint button (when the table allows hints
// and the game's rules do), the plan in words, its flips and tower on the phone's board,
// and the first step carried out with a tap. The plan is the engine's (POST .../hint),
// for this seat only; the table screen and the LED board show the same flips.
"use strict";

(() => {
  const { t, el } = Clacks;
  const clacks = Clacks.games.clacks;
  const P = clacks.parts;

  function cardName(view, id) {
    const you = view.you || {};
    const jacquard = (you.hand || []).find((c) => c.id === id);
    if (jacquard) return P.jacquardName(jacquard);
    const fault = (you.faults || []).find((c) => c.id === id);
    return fault ? P.faultName(fault) : id;
  }

  // The symbol the seat sends next: the team's in the co-op games, else its own.
  function nextSymbol(view, seat) {
    if (view.message && view.message.next_symbol) return view.message.next_symbol;
    const me = (view.players || []).find((p) => p.seat === seat);
    return (me && me.next_symbol) || "";
  }

  function stepWords(view, seat, plan, action) {
    const lamps = (action.lamps || []).join(" ");
    switch (action.type) {
      case "move":
        return t("hints.step.move", { tower: action.tower });
      case "play_jacquard":
        return t("hints.step.play_jacquard", { name: cardName(view, action.jacquard), lamps });
      case "play_fault":
        if (lamps) return t("hints.step.play_fault", { name: cardName(view, action.card), lamps });
        return action.tower
          ? t("hints.step.play_fault.tower", { name: cardName(view, action.card), tower: action.tower })
          : t("hints.step.play_fault.plain", { name: cardName(view, action.card) });
      case "discard":
        return t("hints.step.discard", { name: cardName(view, action.jacquard) });
      case "swap":
        return t("hints.step.swap", { name: cardName(view, action.jacquard), slot: t(`clacks.slot.${action.slot}`) });
      case "transmit":
        return t("hints.step.transmit", { symbol: P.symbolWord(nextSymbol(view, seat)), tower: action.tower || plan.tower });
      default:
        return t("hints.step.end_turn");
    }
  }

  function summary(view, seat, plan) {
    const params = { symbol: P.symbolWord(nextSymbol(view, seat)), tower: plan.tower, cost: plan.cost,
                     wrong: plan.wrong };
    if (plan.goal === "darken") return t(plan.complete ? "hints.darken" : "hints.partial_darken", params);
    if (plan.goal === "discard") return t(plan.complete ? "hints.discard" : "hints.discard_partial", params);
    return t(plan.complete ? "hints.complete" : "hints.partial", params);
  }

  // The Hint button in the seat's turn, or the plan once asked for; null without hints.
  function panel(ctx) {
    const { state, seat, hints } = ctx;
    if (!hints || !hints.on || state.over) return null;
    const plan = hints.current;
    if (!plan) {
      if (!(state.active || []).includes(seat)) return null;
      return el("div", { class: "hint-box" },
        el("button", { type: "button", class: "secondary", "data-action": "hint", onclick: () => hints.ask() },
          t("hints.ask")));
    }
    const view = state.view;
    const steps = plan.actions.map((action) => stepWords(view, seat, plan, action));
    return el("section", { class: "hint-box", "aria-label": t("hints.title"), "data-hint": plan.tower },
      el("h2", {}, t("hints.title")),
      el("p", { class: "hint-summary", role: "status" }, summary(view, seat, plan)),
      el("ol", { class: "hint-steps" }, steps.map((words) => el("li", {}, words))),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", "data-action": "hint-do", onclick: () => hints.doFirst() },
          t("hints.do_first", { step: steps[0] })),
        el("button", { type: "button", class: "secondary", "data-action": "hint-close", onclick: () => hints.dismiss() },
          t("hints.close"))));
  }

  // The phone's board with the plan on it: the lamps it flips and the tower it leads to.
  // Another seat's hint on the table is left off this phone, like its placements.
  function overlay(options, ctx) {
    const { state, ref } = ctx;
    options.accent = new Set((state.lamps ? state.lamps.accent : []).map((i) => ref.lamps[i]));
    const plan = ctx.hints && ctx.hints.current;
    if (!plan) return;
    // the lamps the plan changes, as the engine counts them: one its cards flip twice is
    // back as it was, unmarked (the same lamps as on the table screen and the LED board)
    const flipped = plan.flips.flat();
    options.preview = new Set(ctx.hints.changes ? ctx.hints.changes.map((i) => ref.lamps[i])
      : flipped.filter((lamp) => flipped.filter((x) => x === lamp).length % 2 === 1));
    const tower = ref.towers.find((x) => x.id === plan.tower);
    if (tower) tower.lamps.forEach((lamp) => options.accent.add(lamp));
    options.hinted = plan.tower;
  }

  clacks.hints = { panel, overlay };
})();
