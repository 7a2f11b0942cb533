// The guided first game, on the phone and the table screen, for any game whose view
// carries a lesson (``view.tutorial``: the step's catalog key and the values its words
// name). The phone says what to do next, each control it names in bold in the order it
// is tapped, and the rule the step teaches; the table screen shows that rule in big
// letters beside the game's own drawing, whose lamps the step picks out.
"use strict";

(() => {
  const { t, el } = Clacks;
  let shown = null; // the lesson the page shows now, for explaining a wrong tap or press

  // A value the words name: text as it is, or a catalog key whose own values may be
  // words too (a button's label with a word of its own in it).
  function wordValue(word) {
    if (word.text !== undefined) return String(word.text);
    const params = Object.fromEntries(Object.entries(word.params || {})
      .map(([name, value]) => [name, value && typeof value === "object" ? wordValue(value) : value]));
    return t(word.key, params);
  }

  // The step's words as nodes: each value it names (a control to tap) in bold.
  function wordNodes(key, words) {
    const names = Object.keys(words || {});
    const marks = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE001`]));
    const parts = t(key, marks).split(/\uE000(\d+)\uE001/);
    return parts.map((part, i) => (i % 2
      ? el("strong", { class: "tap" }, wordValue(words[names[Number(part)]]))
      : part)).filter((part) => part !== "");
  }

  function plainWords(key, words) {
    const values = Object.fromEntries(Object.entries(words || {}).map(([name, word]) => [name, wordValue(word)]));
    return t(key, values);
  }

  function lessonOf(state) {
    return state && state.view && state.view.tutorial ? state.view.tutorial : null;
  }

  function heading(lesson) {
    return t("tutorial.heading", { number: lesson.number, count: lesson.count });
  }

  // The phone's panel: what to do now and why; at the end, one tap into a real game.
  function phonePanel(state, seat, startNext) {
    const lesson = lessonOf(state);
    shown = lesson;
    if (!lesson || seat !== lesson.learner) return null;
    const box = el("section", { class: "lesson", "aria-labelledby": "lesson-title", "data-step": lesson.step ? lesson.step.key : "" });
    if (lesson.finished) {
      // the way into a real game: against a bot, or a table for the players present
      const label = lesson.next_label || { key: "tutorial.next_game" };
      const next = el("button", { type: "button", class: "primary", "data-action": "after-lesson", onclick: startNext },
        wordValue(label));
      box.append(el("h2", { id: "lesson-title" }, t("tutorial.done_title")),
        el("p", { class: "lesson-do", role: "status" }, ...wordNodes(lesson.finished_key, { next: label })),
        next);
      return box;
    }
    // how far along, as a short mark before the words: the turn keeps to one screen
    const step = lesson.step;
    const count = el("span", { class: "lesson-count", "aria-hidden": "true" },
      t("tutorial.count", { number: lesson.number, count: lesson.count }));
    box.append(el("h2", { id: "lesson-title", class: "visually-hidden" }, heading(lesson)));
    if (!step) {
      box.append(el("p", { class: "lesson-do", role: "status" }, count, " ", t("tutorial.opponent_turn")));
      return box;
    }
    box.append(el("p", { class: "lesson-do", role: "status" }, count, " ", ...wordNodes(step.key, step.words)),
      el("p", { class: "lesson-rule" }, t(`${step.key}.rule`)));
    return box;
  }

  // The table screen's panel: the rule being taught, readable from the sofa.
  function tablePanel(state) {
    const lesson = lessonOf(state);
    shown = lesson; // a box button pressed out of step is explained on this screen
    if (!lesson) return null;
    const step = lesson.step;
    const box = el("section", { class: "lesson table-lesson", "aria-labelledby": "table-lesson-title" });
    if (lesson.finished) {
      // and the way into the real game, as the learner's phone words its button
      const label = lesson.next_label || { key: "tutorial.next_game" };
      box.append(el("h2", { id: "table-lesson-title" }, t("tutorial.done_title")),
        el("p", { class: "lesson-rule" }, t("tutorial.done_table")),
        el("p", { class: "lesson-rule lesson-next" }, t("tutorial.done_next", { next: wordValue(label) })));
      return box;
    }
    box.append(el("h2", { id: "table-lesson-title" }, heading(lesson)));
    if (!step) {
      box.append(el("p", { class: "lesson-rule" }, t("tutorial.opponent_turn")));
      return box;
    }
    box.append(el("p", { class: "lesson-rule" }, t(`${step.key}.rule`)));
    return box;
  }

  // A tap the lesson does not take now, in words: the game's own reason where its rules
  // would refuse it too, and the step to take instead.
  function explain(error) {
    const params = error.params || {};
    return withStep(params.because ? Clacks.describeError(params.because) : t("tutorial.not_this_step"));
  }

  // ``because`` (why a tap does nothing), then the lesson's step to take instead.
  function withStep(because) {
    const step = shown && shown.step;
    const instead = step ? t("tutorial.instead", { step: plainWords(step.key, step.words) }) : t("tutorial.opponent_turn");
    return /[.!?…]$/.test(because.trim()) ? `${because.trim()} ${instead}` : `${because.trim()}. ${instead}`;
  }

  // The controls a step names are where a finger finds them: one in a strip that scrolls
  // sideways (a card at the end of the hand) is scrolled into the strip's view.
  function reveal(root) {
    const names = [...document.querySelectorAll("#lesson .lesson-do .tap")].map((e) => e.textContent.trim());
    for (const name of names) {
      const found = [...root.querySelectorAll("*")].filter((e) => e.textContent.trim() === name);
      const inner = found.find((e) => !found.some((other) => other !== e && e.contains(other)));
      const control = inner && inner.closest("button, [role=button], a");
      const scroller = control && ancestors(control).find((e) => e.scrollWidth > e.clientWidth + 1
        && ["auto", "scroll"].includes(getComputedStyle(e).overflowX));
      if (!scroller) continue;
      const box = control.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      if (box.right > view.right) scroller.scrollLeft += box.right - view.right + 4;
      else if (box.left < view.left) scroller.scrollLeft -= view.left - box.left + 4;
      return;
    }
  }

  function ancestors(node) {
    const found = [];
    for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) found.push(up);
    return found;
  }

  Clacks.tutorial = { phonePanel, tablePanel, explain, withStep, lessonOf, reveal };
})();
