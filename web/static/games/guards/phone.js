// Guards! Guards! on a phone: what the game waits for from this player (a roll with its
// exact chance, a choice), what they may do in another player's turn (their Guild
// Ability, a Scroll), the reports of their own turn along the turn guide, their Guild
// Card and hand (Volunteers, Scrolls, Items, and where their Saboteurs hide: for this
// phone only), the trackers, and the others' public cards.
"use strict";

(() => {
  const { t, el } = Clacks;
  const G = Clacks.guards;
  const GROUPS = ["start", "pass", "stop", "free"];
  let focusKey = null;

  function section(cls, heading, ...children) {
    return el("section", { class: `g-panel ${cls}`, "aria-label": heading }, el("h2", {}, heading), ...children);
  }

  function byGroup(forms, group) {
    return (forms || []).filter((f) => f.group === group);
  }

  // The roll the game waits for, as one big button with the test and its exact chance.
  function rollButton(ctx, form) {
    const state = ctx.state;
    const test = form.test;
    return el("div", { class: "g-roll-now" },
      test ? el("p", {}, G.testLine(state, test), " ", G.houseBadge(test.house)) : null,
      test ? el("p", { class: "g-chance", "data-chance": test.chance }, G.chanceText(test)) : null,
      el("button", { type: "button", class: "primary big", "data-form": "roll",
                     onclick: async () => { await ctx.act({ type: "roll" }); ctx.redraw(); } },
        test ? t("guards.roll_for", { what: G.word("purpose", test.purpose) }) : t("guards.roll_start")));
  }

  function nowPanel(ctx, forms) {
    const now = byGroup(forms, "now");
    if (!now.length) return null;
    const state = ctx.state;
    const mine = state.view.pending.find((p) => p.seats.includes(ctx.seat));
    const children = now.map((form) => (form.type === "roll" ? rollButton(ctx, form)
      : G.renderForm(ctx, form, { primary: true, open: form.fields.length > 0 && now.length <= 2 })));
    return section("g-now", t("guards.now_title"),
      mine && mine.kind !== "test" ? el("p", { class: "g-now-what" }, t(`guards.ask.${mine.kind}`, askParams(state, mine))) : null,
      ...children);
  }

  function askParams(state, pending) {
    const out = { ...pending };
    if (pending.target) out.target = G.seatName(state, pending.target);
    if (pending.deck) out.deck = G.word("deck", pending.deck);
    if (pending.quadrant) out.quadrant = G.word("quadrant", pending.quadrant);
    if (pending.price === null) out.price = t("guards.bribe_x");
    return out;
  }

  function reactPanel(ctx, forms) {
    const react = byGroup(forms, "react");
    const view = ctx.state.view;
    if (!react.length || !view.turn) return null;
    return section("g-react", t("guards.react_title", { name: G.seatName(ctx.state, view.turn.seat) }),
      el("p", { class: "hint" }, t("guards.react_hint")),
      react.map((f) => (f.type === "guild_ability" ? abilityButton(ctx, f) : G.renderForm(ctx, f))));
  }

  // The Guild Ability at a tap, its exact chance shown on it.
  function abilityButton(ctx, form) {
    const button = el("button", { type: "button", class: "primary", "data-form": "guild_ability",
                                  onclick: async () => { await ctx.act({ type: "guild_ability", target: form.fields[0].value }); ctx.redraw(); } },
      t("guards.form.guild_ability"));
    // no Fire Water left to throw: greyed, a tap asks the rules why
    if (form.out && ctx.explain) Clacks.unavailable(button, () => ctx.explain({ type: "guild_ability", target: form.fields[0].value }));
    return el("div", { class: "g-ability" },
      el("p", {}, el("strong", {}, form.ability ? G.abilityName(ctx.state.view.players.find((p) => p.seat === ctx.seat).card) : ""),
        " · ", t("guards.form_chance", { chance: G.chanceText(form), base: form.base, target: form.target })),
      button);
  }

  function turnPanel(ctx, forms) {
    const view = ctx.state.view;
    if (!view.turn || view.turn.seat !== ctx.seat) return null;
    // a report opened is the decision now: it alone, until it is sent or cancelled
    const opened = (forms || []).find((f) => GROUPS.includes(f.group) && G.isOpen(f));
    if (opened) return section("g-turn", t("guards.your_turn", { number: view.turn.number }), G.renderForm(ctx, opened));
    const parts = [G.turnGuide(ctx.state)];
    for (const group of GROUPS) {
      const list = byGroup(forms, group);
      if (!list.length) continue;
      parts.push(el("div", { class: "g-group", "data-group": group }, el("h3", {}, t(`guards.group.${group}`)),
        el("div", { class: "g-buttons" }, list.map((f) => G.renderForm(ctx, f)))));
    }
    const free = byGroup(forms, "free").length;
    const end = byGroup(forms, "end").filter((f) => f.type === "end_turn");
    if (end.length) parts.push(el("div", { class: "turn-buttons" }, G.renderForm(ctx, end[0], { primary: !free })));
    return section("g-turn", t("guards.your_turn", { number: view.turn.number }), parts);
  }

  function setupPanel(ctx, forms) {
    const list = byGroup(forms, "setup");
    const view = ctx.state.view;
    if (view.phase !== "setup") return null;
    if (!list.length) return section("g-setup-phone", t("guards.setup_title"), el("p", { class: "hint" }, t("guards.setup_waiting")));
    // one step at a time: the Guild Card, then each dealt card; a chosen card may still change
    const guild = list.find((f) => f.type === "choose_guild");
    const dealt = list.filter((f) => f.type === "dealt");
    const first = guild && !guild.current ? guild : dealt[0];
    // the status line says what set-up is; the steps not open wait as buttons in a row
    const open = list.filter((f) => f === first || G.isOpen(f));
    return section("g-setup-phone", t("guards.setup_title"),
      el("div", { class: "g-buttons" }, list.filter((f) => !open.includes(f)).map((f) => G.renderForm(ctx, f))),
      open.map((f) => G.renderForm(ctx, f, { open: f === first, primary: f === first })));
  }

  function handPanel(ctx) {
    const you = ctx.state.view.you;
    if (!you) return null;
    const parts = [];
    parts.push(el("h3", {}, t("guards.hand", { count: you.hand.length })),
      you.hand.length ? el("ul", { class: "g-hand" }, you.hand.map((c) => el("li", {}, G.volunteerLine(c))))
        : el("p", { class: "hint" }, t("guards.empty_hand")));
    if (you.scrolls.length || you.items.length) {
      parts.push(el("h3", {}, t("guards.scrolls_items")), el("ul", { class: "g-hand" },
        [...you.scrolls, ...you.items].map((c) => el("li", { "data-card": c.uid },
          el("strong", {}, c.name || t(c.kind === "scroll" ? "guards.a_scroll" : "guards.an_item")),
          c.price !== null ? ` · $${c.price}` : "", c.kind === "scroll" && c.target ? ` · ${t("guards.scroll_target", { target: c.target })}` : "",
          c.kind === "item" && c.bonus ? ` · ${Object.entries(c.bonus).map(([s, v]) => `${G.word("skill", s)} ${v > 0 ? "+" : ""}${v}`).join(", ")}` : ""))));
    }
    if (you.saboteurs.length) {
      parts.push(el("h3", {}, t("guards.your_saboteurs")), el("ul", { class: "g-hand g-saboteurs" }, you.saboteurs.map((s) =>
        el("li", { "data-quadrant": s.quadrant }, el("strong", {}, G.word("quadrant", s.quadrant)), ": ", G.volunteerLine(s.card)))),
      el("p", { class: "hint" }, t("guards.secret")));
    }
    return section("g-hand-panel", t("guards.your_hand"), parts);
  }

  function trackersPanel(ctx, forms) {
    const list = byGroup(forms, "track");
    if (!list.length) return null;
    const details = el("details", { class: "g-trackers" }, el("summary", {}, el("h2", {}, t("guards.trackers"))),
      el("p", { class: "hint" }, t("guards.trackers_hint")), el("div", { class: "g-buttons" }, list.map((f) => G.renderForm(ctx, f))));
    if (list.some((f) => G.isOpen && G.isOpen(f))) details.open = true;
    return details;
  }

  function endPanel(ctx, forms) {
    const stop = byGroup(forms, "end").find((f) => f.type === "stop_game");
    if (!stop) return null;
    return el("details", { class: "g-stop" }, el("summary", {}, t("guards.stop_title")),
      el("p", { class: "hint" }, t("guards.stop_hint")), G.renderForm(ctx, stop));
  }

  function phone(ctx) {
    const { state, seat } = ctx;
    const view = state.view;
    const me = view.players.find((p) => p.seat === seat);
    const forms = ctx.legal ? ctx.legal() : null;
    rememberFocus();
    const root = el("div", { class: "guards-phone" });
    root.append(G.statusBlock(state, true, seat));
    if (forms === null && !view.over) root.append(el("p", { class: "hint", "data-loading": "forms" }, t("guards.loading")));
    for (const part of [setupPanel(ctx, forms), nowPanel(ctx, forms), reactPanel(ctx, forms), turnPanel(ctx, forms)]) {
      if (part) root.append(part);
    }
    if (view.you && view.you.can_undo) {
      root.append(el("div", { class: "turn-buttons" }, el("button", { type: "button", class: "secondary", "data-action": "undo",
        onclick: () => ctx.undo() }, t("guards.undo"))));
    }
    // the card, the hand, the trackers, the others and the city, folded under one line: the
    // screen is the decision the game waits for
    const folded = [section("g-mine", t("guards.your_card"), G.guildCard(state, me)), handPanel(ctx),
      trackersPanel(ctx, forms), section("g-others", t("guards.others"), el("div", { class: "g-card-grid" },
        view.players.filter((p) => p.seat !== seat).map((p) => G.guildCard(state, p, { compact: true })))),
      section("g-city-phone", t("guards.city"), G.cityMap(state)), endPanel(ctx, forms)].filter(Boolean);
    const tracking = (forms || []).some((f) => f.group === "track" && G.isOpen && G.isOpen(f));
    root.append(moreFold(summaryOf(state, me), folded, tracking));
    queueMicrotask(restoreFocus);
    return root;
  }

  // Whether the fold is open stays as the player left it from one drawing to the next.
  const fold = { open: false };

  function moreFold(summary, parts, forced) {
    const box = el("details", { class: "more g-more", open: fold.open || forced },
      el("summary", { "data-action": "more" }, summary), ...parts);
    box.addEventListener("toggle", () => { fold.open = box.open; });
    return box;
  }

  // The fold's one line: what it holds, and the player's dollars at a glance.
  function summaryOf(state, me) {
    return el("span", { class: "g-more-line" }, el("span", {}, t("guards.more")),
      el("span", { class: "badge" }, t("guards.dollars", { count: me.dollars })));
  }

  // A redraw replaces the inputs: the one being typed in gets the focus back.
  function rememberFocus() {
    const active = document.activeElement;
    focusKey = active && active.dataset ? active.dataset.focus || null : null;
  }

  function restoreFocus() {
    if (!focusKey) return;
    const again = document.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
    if (again && document.activeElement !== again) again.focus();
  }

  function phoneController(page) {
    return {
      act: (action) => page.act(action),
      undo: () => page.undo(),
      redraw: () => page.redraw(),
    };
  }

  Object.assign(G, { phone, phoneController });
})();
