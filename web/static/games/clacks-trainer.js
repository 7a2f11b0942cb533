// The alphabet trainer (game clacks-trainer): the table screen shows the exchange from the
// learner's seat with the tower in question picked out; the phone answers read questions
// from a keypad and sets symbols with free flips. Drawn with the Clacks parts.
"use strict";

(() => {
  const { t, el } = Clacks;
  const clacks = Clacks.games.clacks;
  const P = clacks.parts;

  function score(view) {
    const s = view.score;
    if (view.over) {
      return el("p", { class: "winner", role: "status" },
        t("trainer.finished", { correct: s.correct, asked: s.asked, best: s.best_streak }));
    }
    return el("div", { class: "turn" },
      el("strong", {}, t("trainer.question_of", { number: s.asked + 1, questions: s.questions })), " · ",
      t("trainer.score", { correct: s.correct, asked: s.asked }), " · ",
      t("trainer.streak", { streak: s.streak, best: s.best_streak }));
  }

  function question(view) {
    const q = view.question;
    if (!q) return null;
    const seat = t(`seat.${view.seat}`);
    if (q.kind === "read") {
      return el("p", { class: "question", "data-kind": "read" }, t("trainer.read", { tower: q.tower, seat }));
    }
    const word = P.symbolWord(q.symbol);
    return el("p", { class: "question", "data-kind": "set" }, t("trainer.set", { symbol: word, tower: q.tower, seat }), " ",
      P.glyph(q.pattern, `${word}: ${P.patternWords(q.pattern)}`));
  }

  function lastAnswer(view) {
    const last = view.last;
    if (!last) return null;
    const symbol = P.symbolWord(last.symbol);
    let text;
    if (last.correct) text = t("trainer.right", { symbol });
    else if (last.gave_up) text = t("trainer.gave_up", { symbol });
    else text = t("trainer.wrong", { symbol, answer: last.answer ? P.symbolWord(last.answer) : "none" });
    return el("p", { class: `last ${last.correct ? "right" : "wrong"}`, role: "status" },
      el("span", { "aria-hidden": "true" }, last.correct ? "✔ " : "✘ "), text);
  }

  function boardFor(state, ref, extra) {
    const view = state.view;
    const q = view.question;
    const seatRef = P.seatRef(ref, view.seat);
    const options = {
      lit: new Set(view.lit),
      accent: new Set((state.lamps ? state.lamps.accent : []).map((i) => ref.lamps[i])),
      frame: q ? new Set(seatRef.frames[q.tower] || []) : null,
      sideName: (seat) => (seat === view.seat ? P.seatName(state, seat) : ""),
      ...extra,
    };
    return P.drawBoard(ref, view.seat, options);
  }

  function table(ctx) {
    const { state, ref } = ctx;
    const view = state.view;
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange") },
      boardFor(state, ref, { onTower: view.question && view.question.kind === "set" ? ctx.press : null }));
    if (ctx.press && view.question && view.question.kind === "set") {
      boardBox.append(el("p", { class: "hint" }, t("trainer.hint.table_check", { tower: view.question.tower })));
    }
    return el("div", { class: "clacks-table trainer-table" },
      el("div", { class: "status", "aria-live": "polite" }, score(view), question(view), lastAnswer(view)),
      boardBox);
  }

  function phone(ctx) {
    const { state, ref } = ctx;
    const view = state.view;
    const q = view.question;
    const legal = view.over ? [] : ctx.legal();
    const can = (type) => (legal || []).some((a) => a.type === type);
    const root = el("div", { class: "clacks-phone trainer-phone" },
      el("div", { class: "status", "aria-live": "polite" }, score(view), question(view), lastAnswer(view)));
    const setting = q && q.kind === "set";
    const boardBox = el("section", { class: "board-box", "aria-label": t("clacks.exchange") },
      boardFor(state, ref, { onLamp: setting && can("flip") ? (lamp) => ctx.act({ type: "flip", lamps: [lamp] }) : null }));
    root.append(boardBox);
    if (!q) return root;
    const buttons = el("div", { class: "turn-buttons" });
    if (setting) {
      boardBox.append(el("p", { class: "hint" }, t("trainer.hint.set")));
      buttons.append(el("button", { type: "button", class: "primary", "data-action": "check", disabled: !can("check"),
        onclick: () => ctx.act({ type: "check" }) }, t("trainer.check")));
    } else {
      boardBox.append(el("p", { class: "hint" }, t("trainer.hint.read")));
      const answers = (legal || []).filter((a) => a.type === "answer").map((a) => a.symbol);
      root.append(el("section", { class: "keypad-box", "aria-label": t("trainer.keypad") },
        el("ul", { class: "keypad" }, answers.map((symbol) => el("li", { class: symbol.length > 1 ? "wide" : null },
          el("button", { type: "button", class: "secondary", "data-answer": symbol,
            onclick: () => ctx.act({ type: "answer", symbol }) }, P.symbolWord(symbol)))))));
    }
    buttons.append(el("button", { type: "button", class: "secondary", "data-action": "skip", disabled: !can("skip"),
      onclick: () => ctx.act({ type: "skip" }) }, t("trainer.skip")));
    root.append(buttons);
    return root;
  }

  function extras(ctx) {
    return {
      rules: el("div", { class: "rules-text" }, t("trainer.rules").split("\n\n").map((p) => el("p", {}, p))),
      alphabet: P.alphabetCard(ctx.ref),
      describe: (event) => P.describeEvent(ctx.state, event),
    };
  }

  Clacks.games["clacks-trainer"] = {
    title: () => t("game.clacks-trainer"),
    table,
    phone,
    extras,
    phoneController: (page) => ({ act: (action) => page.act(action), undo: () => page.undo() }),
    describeEvent: P.describeEvent,
  };
})();
