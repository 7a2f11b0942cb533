// Guards! Guards! on the table screen and the phones: the words, the pieces (the die, a
// Guild Card, the city's quadrants) and the table screen. The phone's page and its report
// forms are parts of their own (games/guards/*.js); they share Clacks.guards. Styles are
// in games/guards.css.
"use strict";

(() => {
  const { t, el, svg } = Clacks;
  const G = (Clacks.guards = Clacks.guards || {});
  const STEPS = ["start", "move", "pass", "stop", "free", "end"];
  const SEAT_KEYS = ["target", "victim", "to", "by", "source", "attacker", "current", "alchemist"];

  document.head.append(el("link", { rel: "stylesheet", href: "/static/games/guards.css" }));

  // ------------------------------------------------------------------ words

  function word(space, value) {
    const key = `guards.${space}.${value}`;
    return Clacks.has(key) ? t(key) : String(value);
  }

  // A player in a sentence: their name, or their colour when they gave none.
  function seatName(state, seatId) {
    if (!seatId) return t("guards.nobody");
    const seat = ((state.room && state.room.seats) || []).find((s) => s.id === seatId);
    return (seat && seat.name) || t(`seat.${seatId}`);
  }

  // A player in a heading: their name and their colour.
  function seatFull(state, seatId) {
    const seat = ((state.room && state.room.seats) || []).find((s) => s.id === seatId);
    const label = t(`seat.${seatId}`);
    const name = seat && seat.name;
    return name && name !== label ? `${name} (${label})` : label;
  }

  function spellName(view, id) {
    return Clacks.has(`guards.spell.${id}`) && view.options ? t(`guards.spell.${id}`) : (view.spells || {})[id] || id;
  }

  // A Guild Card's name: the house cards in the page's language, an owner's as written.
  function guildCardName(card) {
    if (!card) return t("guards.no_card");
    if (card.house) return t("guards.guild_card", { guild: word("guild", card.guild), letter: card.id.split("-").pop().toUpperCase() });
    return card.name;
  }

  function abilityName(card) {
    if (!card) return "";
    return card.house && Clacks.has(`guards.ability.${card.guild}`) ? t(`guards.ability.${card.guild}`) : card.ability;
  }

  const percentFormat = new Intl.NumberFormat(Clacks.lang, { maximumFractionDigits: 1 });

  function chanceText(test) {
    if (!test || test.chance === undefined) return "";
    return t("guards.chance", { chance: test.chance, percent: percentFormat.format(test.percent) });
  }

  // What a roll is for: the Final Spell's two rolls by name (its Magic roll, its Guild roll).
  function purposeWord(roll) {
    const named = `guards.purpose.${roll.purpose}_${roll.attribute}`;
    return roll.purpose === "final" && roll.attribute && Clacks.has(named) ? t(named) : word("purpose", roll.purpose);
  }

  function partsText(parts) {
    return (parts || []).map(([label, value]) => `${partLabel(label)} ${value}`).join(" + ") || "0";
  }

  function partLabel(label) {
    return ["magic", "guild", "charm"].includes(label) ? word("attribute", label)
      : ["pox", "lasting"].includes(label) ? word("part", label) : label;
  }

  // What a test needs, in words: "Red: Charm 3 + d8 ≥ 7".
  function testLine(state, test) {
    const who = seatName(state, test.seat);
    const what = test.card ? t("guards.test.card", { what: purposeWord(test), card: test.card }) : purposeWord(test);
    if (test.against !== null && test.against !== undefined) {
      return t("guards.test.attack", { who, what, parts: partsText(test.parts), base: test.base, against: test.against });
    }
    return t("guards.test.line", { who, what, parts: partsText(test.parts), base: test.base, target: test.target });
  }

  function eventParams(state, event) {
    const view = state.view;
    const params = { ...event, seat: seatName(state, event.seat) };
    for (const key of SEAT_KEYS) {
      // "source" names a seat, or where a card came from (the deck, the display)
      if (typeof event[key] === "string") {
        params[key] = Clacks.has(`seat.${event[key]}`) ? seatName(state, event[key]) : word(key, event[key]);
      }
    }
    if (event.quadrant) params.quadrant = word("quadrant", event.quadrant);
    if (event.origin) params.origin = word("quadrant", event.origin);
    if (event.deck) params.deck = word("deck", event.deck);
    if (event.attribute) params.attribute = word("attribute", event.attribute);
    if (event.purpose) params.purpose = purposeWord(event);
    if (event.card_kind) params.card_kind = word("kind", event.card_kind);
    if (event.spell) params.spell = spellName(view, event.spell);
    if (event.guild) params.guild = word("guild", event.guild);
    if (event.how) params.how = word("how", event.how);
    if (event.reason) params.reason = word("reason", event.reason);
    if (event.what) params.what = word("offer", event.what);
    if (event.place) params.place = word("place", event.place);
    if (event.kind === "ability_worked" || event.kind === "ability_failed") {
      const card = (view.players.find((p) => p.seat === event.seat) || {}).card;
      params.ability = abilityName(card) || event.ability;
    }
    if (Array.isArray(event.faces)) params.faces = event.faces.join(" + ");
    if (Array.isArray(event.left)) params.left = t(`guards.final_rolls.${event.left.join("_")}`);
    if (Array.isArray(event.runners)) params.runners = event.runners.join(", ");
    if (Array.isArray(event.route)) params.route = event.route.length ? event.route.map((q) => word("quadrant", q)).join(", ") : t("guards.no_route");
    if (Array.isArray(event.asked)) params.asked = event.asked.map((s) => seatName(state, s)).join(", ");
    for (const key of ["winners", "ranking"]) {
      if (Array.isArray(event[key])) params[key] = event[key].map((s) => seatName(state, s)).join(", ") || t("guards.nobody");
    }
    for (const key of ["counts", "paid"]) {
      if (event[key] && typeof event[key] === "object") {
        params[key] = Object.entries(event[key]).map(([s, n]) => `${seatName(state, s)} ${n}`).join(", ");
      }
    }
    if (Array.isArray(event.rounds)) {
      params.rounds = event.rounds.map((r) => Object.entries(r).map(([s, n]) => `${seatName(state, s)} ${n}`).join(", ")).join(" · ");
    }
    if (event.bribe === null) params.bribe = t("guards.bribe_x");
    if ("name" in event && !event.name) params.name = t("guards.unnamed");
    if (Array.isArray(event.rolls)) {
      params.rolls = event.rolls.map((r) => Object.entries(r).map(([s, n]) => `${seatName(state, s)} ${n}`).join(", ")).join(" · ");
    }
    if (event.kind === "guild_chosen") {
      const card = view.guild_cards.find((c) => c.id === event.card);
      params.name = card && event.house ? guildCardName(card) : event.name;
    }
    if (event.kind === "undone") params.action = Clacks.has(`guards.form.${event.action}`) ? t(`guards.form.${event.action}`) : event.action;
    if (Array.isArray(event.quadrants)) params.quadrants = event.quadrants.map((q) => word("quadrant", q)).join(", ") || t("guards.none");
    if (event.panel) params.panel = word("panel", event.panel);
    if (typeof event.passed === "boolean") params.verdict = t(`guards.verdict.${event.passed}`);
    return params;
  }

  // An event in words; some say it differently by how it happened (released.bail...).
  function describeEvent(state, event) {
    let key = `guards.event.${event.kind}`;
    if (event.kind === "rolled" && (event.passed === null || event.passed === undefined)) key = "guards.event.rolled_contest";
    const variant = event.how || (event.counter === true ? "counter" : event.counter === false ? "end" : null)
      || (event.kind === "released" ? "served" : null) || (event.victim ? "at" : event.victim === null ? "self" : null);
    if (variant && Clacks.has(`${key}.${variant}`)) key = `${key}.${variant}`;
    if (!Clacks.has(key)) return event.kind;
    return t(key, eventParams(state, event));
  }

  // ------------------------------------------------------------------ pieces

  // The eight-sided die: an octagon with its face; a natural 8 gold, a natural 1 red.
  function die(face) {
    const points = [];
    for (let i = 0; i < 8; i += 1) {
      const a = Math.PI / 8 + (i * Math.PI) / 4;
      points.push(`${30 + 26 * Math.cos(a)},${30 + 26 * Math.sin(a)}`);
    }
    const root = svg("svg", { viewBox: "0 0 60 60", class: `g-die${face === 8 ? " eight" : face === 1 ? " one" : ""}`,
                              role: "img", "data-die": face, "aria-label": t("guards.die", { face }) });
    root.append(svg("polygon", { points: points.join(" "), class: "face" }),
      svg("text", { x: 30, y: 40, class: "pip", text: String(face) }));
    return root;
  }

  function lastRoll(state) {
    const roll = state.view.last_roll;
    // a roll of an earlier turn is in the log, not on show
    if (!roll || (state.view.turn && roll.turn !== undefined && roll.turn !== state.view.turn.game_turn)) return null;
    const verdict = roll.passed === null || roll.passed === undefined ? "" : t(`guards.verdict.${roll.passed}`);
    const words = roll.purpose === "start"
      ? t("guards.roll.start", { who: seatName(state, roll.seat), faces: roll.faces.join(" + ") })
      : t("guards.roll.line", { who: seatName(state, roll.seat), what: purposeWord(roll),
                               faces: roll.faces.join(" + "), total: roll.total === null ? "—" : roll.total,
                               target: roll.target === null ? "—" : roll.target, verdict });
    return el("div", { class: `g-roll${roll.passed === true ? " passed" : roll.passed === false ? " failed" : ""}`,
                       "data-roll": roll.faces.join(",") },
      el("span", { class: "g-dice" }, roll.faces.map(die)), el("span", {}, words));
  }

  function houseBadge(house) {
    return house ? el("span", { class: "g-house", title: t("guards.house_about") }, t("guards.house")) : null;
  }

  function attributeRows(player) {
    return el("dl", { class: "g-attrs" }, ["magic", "guild", "charm"].map((a) => {
      const value = player.attributes[a];
      const changed = value.effective !== value.base;
      return el("div", { class: "g-attr", "data-attribute": a },
        el("dt", {}, word("attribute", a)),
        el("dd", {}, el("strong", {}, String(value.effective)),
          changed ? el("span", { class: "g-base" }, t("guards.base", { base: value.base })) : null,
          value.top !== null ? el("span", { class: "g-top" }, t("guards.of_top", { top: value.top })) : null));
    }));
  }

  function ailments(player) {
    const list = [];
    if (player.pox) list.push(t("guards.pox_badge"));
    if (player.injuries) list.push(t("guards.injuries", { count: player.injuries }));
    for (const curse of player.curses) list.push(curse);
    if (player.place !== "street") list.push(word("place", player.place));
    if (player.miss) list.push(t("guards.misses", { count: player.miss }));
    return list.length ? el("p", { class: "g-ailments" }, list.join(" · ")) : null;
  }

  function spellsLine(state, player) {
    return el("ul", { class: "g-spells", "aria-label": t("guards.spells") }, player.spells.map((s) =>
      el("li", { class: s.returned ? "returned" : "", "data-spell": s.id },
        el("span", { class: `g-spell-dot ${s.id}`, "aria-hidden": "true" }),
        spellName(state.view, s.id), s.returned ? ` ✓` : "")));
  }

  function challengeText(state, challenge) {
    if (!challenge) return t("guards.all_returned");
    const tests = challenge.tests.map(([skill, target]) => t("guards.test_target", { skill: word(challenge.final ? "attribute" : "skill", skill), target })).join(", ");
    return t("guards.next_challenge", { number: challenge.number, name: challengeName(challenge), tests });
  }

  function challengeName(challenge) {
    return Clacks.has(`guards.challenge.${challenge.number}`) ? t(`guards.challenge.${challenge.number}`) : challenge.name || "";
  }

  function runBlock(state, player) {
    const run = player.run;
    if (run) {
      return el("div", { class: "g-run", "data-run": run.stage },
        el("p", {}, el("strong", {}, t("guards.run_title", { spell: spellName(state.view, run.spell), number: run.challenge })),
          " · ", word("stage", run.stage)),
        el("p", { class: "hint" }, t("guards.route", { route: run.route.length ? run.route.map((q) => word("quadrant", q)).join(" → ") : t("guards.no_route") })),
        el("ul", { class: "g-runners" }, run.runners.map((r) => el("li", {}, volunteerLine(r)))));
    }
    if (player.final) {
      return el("div", { class: "g-run final" }, el("p", {}, el("strong", {}, t("guards.final_title", { spell: spellName(state.view, player.final.spell) })),
        player.final.passed.length ? ` · ${t("guards.final_passed", { passed: player.final.passed.map((a) => word("attribute", a)).join(", ") })}` : ""));
    }
    return null;
  }

  function volunteerLine(card) {
    const skills = ["loyalty", "streetwise", "brawl", "toughness"].map((s) => `${word("skill_short", s)} ${card[s]}`).join(" ");
    const marks = [card.brethren ? t("guards.mark.brethren") : null, card.wanted ? t("guards.mark.wanted") : null,
      card.infectious ? t("guards.mark.infectious") : null].filter(Boolean);
    return el("span", { class: "g-volunteer", "data-card": card.uid },
      el("strong", {}, card.name), " ", el("span", { class: "g-skills" }, skills),
      card.item ? el("span", { class: "g-item" }, ` + ${card.item.name || t("guards.an_item")}`) : null,
      marks.length ? el("span", { class: "g-marks" }, ` · ${marks.join(", ")}`) : null);
  }

  // Another player's card on a phone: the same facts in a few lines.
  function compactCard(state, player) {
    const view = state.view;
    const active = view.turn && view.turn.seat === player.seat;
    const attrs = ["magic", "guild", "charm"].map((a) => `${word("attribute", a)} ${player.attributes[a].effective}`).join(" · ");
    const returned = player.spells.filter((s) => s.returned).length;
    return el("section", { class: `seat g-card compact${active ? " active" : ""}`, "data-seat": player.seat,
                           "aria-label": seatName(state, player.seat) },
      el("h3", {}, el("span", { class: `shape ${player.seat}`, "aria-hidden": "true" }), seatFull(state, player.seat),
        active ? el("span", { class: "badge" }, t("guards.on_turn")) : null),
      el("p", {}, guildCardName(player.card)),
      el("p", { class: "g-dollars" }, t("guards.dollars", { count: player.dollars }), " · ", attrs),
      el("p", {}, t("guards.spells_returned", { count: returned, goal: player.spells.length ? view.options.spells : 0 })),
      ailments(player),
      el("p", { class: "g-counts" }, [t("guards.count.volunteers", { count: player.volunteers }),
        t("guards.count.saboteurs", { count: player.saboteurs })].join(" · ")),
      runBlock(state, player));
  }

  // One player's Guild Card as everyone may see it (and the hand counts).
  function guildCard(state, player, options) {
    if (options && options.compact) return compactCard(state, player);
    const view = state.view;
    const active = view.turn && view.turn.seat === player.seat;
    const card = player.card;
    const counts = [
      t("guards.count.volunteers", { count: player.volunteers }),
      t("guards.count.scrolls", { count: player.scrolls.length }),
      t("guards.count.items", { count: player.items.length }),
      t("guards.count.saboteurs", { count: player.saboteurs }),
    ];
    if (player.fire_water) counts.push(t("guards.count.fire_water", { count: player.fire_water }));
    if (player.fire_water_on) counts.push(t("guards.count.fire_water_on", { count: player.fire_water_on }));
    if (player.forced_home) counts.push(t("guards.count.forced_home", { count: player.forced_home }));
    const prices = [...player.scrolls, ...player.items].filter((p) => p !== null);
    return el("section", {
      class: `seat g-card${active ? " active" : ""}${options && options.compact ? " compact" : ""}`,
      "data-seat": player.seat, "aria-label": seatName(state, player.seat), "aria-current": active ? "true" : null,
    },
    el("h3", {}, el("span", { class: `shape ${player.seat}`, "aria-hidden": "true" }), seatFull(state, player.seat),
      active ? el("span", { class: "badge" }, t("guards.on_turn")) : null),
    el("p", { class: "g-guild" }, guildCardName(card), " ", houseBadge(card && card.house)),
    attributeRows(player),
    el("p", { class: "g-dollars", "data-dollars": player.dollars }, t("guards.dollars", { count: player.dollars })),
    ailments(player),
    card ? spellsLine(state, player) : null,
    el("p", { class: "g-counts" }, counts.join(" · "), prices.length ? ` (${t("guards.prices", { prices: prices.map((p) => `$${p}`).join(", ") })})` : ""),
    card ? el("p", { class: "g-next" }, challengeText(state, player.next_challenge), " ", houseBadge(player.next_challenge && player.next_challenge.house)) : null,
    runBlock(state, player));
  }

  // ------------------------------------------------------------------ the city

  const BLOCK_ORDER = ["nw", "ne", "sw", "se"];

  function cityMap(state) {
    const view = state.view;
    const blocks = view.board.blocks;
    const byBlock = {};
    for (const [q, b] of Object.entries(blocks)) byBlock[b] = q;
    const routes = {};
    for (const player of view.players) {
      if (player.run && player.run.stage !== "gate") for (const q of player.run.route) (routes[q] = routes[q] || []).push(player.seat);
    }
    const marked = new Set(view.marked || []);
    return el("div", { class: "g-map", role: "group", "aria-label": t("guards.city") }, BLOCK_ORDER.map((b) => {
      const q = byBlock[b];
      const dragon = view.dragons[q];
      const owners = view.players.filter((p) => p.card && p.card.guild === q).map((p) => seatName(state, p.seat));
      return el("div", { class: `g-quadrant${dragon ? " dragon" : ""}${routes[q] ? " route" : ""}${marked.has(q) ? " marked" : ""}`,
                         "data-quadrant": q },
        el("h4", {}, word("quadrant", q)),
        owners.length ? el("p", { class: "hint" }, t("guards.guild_house_of", { names: owners.join(", ") })) : null,
        dragon ? el("p", { class: "g-dragon" }, t("guards.dragon_here", { name: dragon.name, toughness: dragon.toughness, brawl: dragon.brawl })) : null,
        routes[q] ? el("p", { class: "g-route-note" }, t("guards.runners_pass", { names: routes[q].map((s) => seatName(state, s)).join(", ") })) : null,
        marked.has(q) ? el("p", { class: "g-marked" }, t("guards.marked")) : null);
    }));
  }

  function decksBlock(state) {
    const view = state.view;
    const rows = Object.entries(view.decks).map(([deck, d]) => el("li", { "data-deck": deck },
      el("strong", {}, word("deck", deck)), ": ",
      d.face_up ? t("guards.face_up", { name: d.face_up.name, charm: d.face_up.charm, bribe: d.face_up.bribe === null ? t("guards.bribe_x") : d.face_up.bribe })
        : t("guards.face_up_unknown"),
      " · ", t("guards.deck_left", { count: d.left }), " · ", t("guards.discards", { count: d.discards })));
    rows.push(el("li", {}, t("guards.supply", { scrolls: view.supply.scroll, items: view.supply.item })));
    rows.push(el("li", {}, t("guards.fate", { count: view.fate.left })));
    rows.push(el("li", {}, t("guards.dragon_pool", { count: view.dragon_pool })));
    if (view.lock) rows.push(el("li", { class: "g-lock" }, t("guards.locked", { name: seatName(state, view.lock) })));
    return el("ul", { class: "g-decks" }, rows);
  }

  function challengesTable(state) {
    const view = state.view;
    const rows = view.challenges.map((c) => el("tr", {},
      el("th", { scope: "row" }, String(c.number)), el("td", {}, challengeName(c)),
      el("td", {}, c.tests.map(([skill, target]) => t("guards.test_target", { skill: word("skill", skill), target })).join(", "),
        " ", houseBadge(c.house))));
    rows.push(el("tr", {}, el("th", { scope: "row" }, "5"), el("td", {}, t("guards.challenge.5")),
      el("td", {}, t("guards.final_tests"))));
    return el("table", { class: "g-challenges" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("guards.challenge_col")),
        el("th", { scope: "col" }, t("guards.target_col")))), el("tbody", {}, rows));
  }

  // ------------------------------------------------------------------ the turn

  function pendingLine(state, pending) {
    if (pending.kind === "test") {
      return el("p", { class: "g-pending", "data-pending": "test" }, testLine(state, pending.test), " — ",
        el("strong", { class: "g-chance" }, chanceText(pending.test)), " ", houseBadge(pending.test.house));
    }
    const names = pending.seats.map((s) => seatName(state, s)).join(", ");
    return el("p", { class: "g-pending", "data-pending": pending.kind }, t(`guards.waiting.${pending.kind}`, { names }));
  }

  // The turn guide: release or plant, move, pass through, stop, free actions, end.
  function turnGuide(state) {
    const turn = state.view.turn;
    if (!turn) return null;
    // while the game waits for an answer, the step is the one the answer belongs to
    const at = turn.step;
    const reached = STEPS.indexOf(at === "move" ? "pass" : at);
    return el("ol", { class: "g-guide", "aria-label": t("guards.guide") }, STEPS.map((step, i) => {
      const now = step === at || (at === "move" && step === "move");
      return el("li", { class: `${now ? "now" : ""}${i < reached && !now ? " done" : ""}`, "data-step": step,
                        "aria-current": now ? "step" : null },
        el("strong", {}, t(`guards.step.${step}`)), el("span", {}, t(`guards.step.${step}.about`, { move: turn.move })));
    }));
  }

  // The game's state in a few lines: whose turn, the guide (unless ``compact``), what the
  // game waits for (on a phone, not what the phone asks of its own player) and the last roll.
  function statusBlock(state, compact, seat) {
    const view = state.view;
    const lines = [];
    if (view.over) {
      const text = view.winners.length
        ? t(`guards.won.${view.ending}`, { names: view.winners.map((s) => seatName(state, s)).join(", ") })
        : t("guards.won.dragons", { names: seatName(state, view.ranking[0]) });
      lines.push(el("p", { class: "winner", role: "status" }, text));
      lines.push(el("ol", { class: "g-ranking" }, view.ranking.map((s) => {
        const p = view.players.find((x) => x.seat === s);
        return el("li", {}, t("guards.rank_line", { name: seatName(state, s), spells: p.returned.length, dollars: p.dollars }));
      })));
    } else if (view.phase === "setup") {
      lines.push(el("p", { class: "phase" }, t("guards.phase.setup")));
    } else if (view.phase === "start") {
      lines.push(el("p", { class: "phase" }, t("guards.phase.start")));
    } else {
      lines.push(el("p", { class: "phase" }, t("guards.phase.turn", { name: seatFull(state, view.turn.seat), number: view.turn.number })));
      if (!compact) lines.push(turnGuide(state));
    }
    for (const pending of view.pending) if (!seat || !pending.seats.includes(seat)) lines.push(pendingLine(state, pending));
    lines.push(lastRoll(state));
    return el("div", { class: "status", "aria-live": "polite" }, el("div", { class: "turn" }, lines));
  }

  function setupBlock(state) {
    const view = state.view;
    const items = ["luggage", "dragons", "fate", "items", "scrolls", "volunteers", "pieces"].map((k) =>
      el("li", {}, t(`guards.checklist.${k}`)));
    const ready = view.players.map((p) => el("li", { class: p.ready ? "done" : "", "data-ready": p.seat },
      seatFull(state, p.seat), ": ", p.card ? guildCardName(p.card) : t("guards.no_card"), " · ",
      t("guards.dealt_count", { count: p.dealt.length })));
    return el("section", { class: "g-setup", "aria-label": t("guards.checklist") },
      el("h2", {}, t("guards.checklist")), el("ol", { class: "g-checklist" }, items),
      el("h3", {}, t("guards.players_ready")), el("ul", { class: "g-ready" }, ready));
  }

  function table(ctx) {
    const { state } = ctx;
    const view = state.view;
    const panel = view.panel || "guide";
    const players = el("section", { class: `g-players${panel === "cards" ? " first" : ""}`, "data-panel": "cards", "aria-label": t("guards.players") },
      el("h2", {}, t("guards.players")), el("div", { class: "g-card-grid" }, view.players.map((p) => guildCard(state, p))));
    // every player's card in a few lines, for the players' view: six whole Guild Cards
    // would not fit one screen
    const everyone = el("section", { class: "g-players g-everyone", "aria-label": t("guards.players") },
      el("h2", {}, t("guards.players")),
      el("div", { class: "g-card-grid" }, view.players.map((p) => guildCard(state, p, { compact: true }))));
    const city = el("section", { class: `g-city${panel === "city" ? " first" : ""}`, "data-panel": "city", "aria-label": t("guards.city") },
      el("h2", {}, t("guards.city")), cityMap(state));
    // the decks and the challenges are the whole table's, a view of their own (named
    // here): beside every player's card they would not fit one screen
    const shared = t("guards.view_shared");
    const decks = el("section", { class: "g-decks-box", "data-shared-view": shared, "aria-label": t("guards.decks_title") },
      el("h2", {}, t("guards.decks_title")), decksBlock(state));
    const challenges = el("section", { class: "g-challenge-box", "data-shared-view": shared, "aria-label": t("guards.challenges") },
      el("h2", {}, t("guards.challenges")), challengesTable(state));
    // on a wide screen the city takes the height beside the rest, which scrolls together
    return el("div", { class: `guards-table panel-${panel}` }, statusBlock(state),
      view.phase === "setup" || view.phase === "start" ? setupBlock(state) : null,
      el("div", { class: "g-column", "data-players-view": "" }, players, everyone, decks, challenges), city);
  }

  // ------------------------------------------------------------------ reference

  function rulesText() {
    return el("div", { class: "rules-text" }, t("guards.rules").split("\n\n").map((para) => el("p", {}, para)));
  }

  function boxLegend(ref) {
    const list = el("ul", { class: "k-legend" }, Object.entries(ref.buttons || {}).map(([button, meaning]) =>
      el("li", {}, el("strong", {}, button), " ", t(`guards.button.${meaning.replace(":", "_")}`))));
    return el("div", { class: "k-legend-box" }, el("p", {}, t("guards.lamps_about")), list);
  }

  function extras(ctx) {
    return {
      rules: rulesText(),
      alphabet: boxLegend(ctx.ref || {}),
      referenceTitle: t("guards.box_title"),
      describe: (event) => describeEvent(ctx.state, event),
    };
  }

  Object.assign(G, { word, purposeWord, seatName, seatFull, spellName, guildCardName, abilityName, chanceText, testLine, partsText,
    describeEvent, die, lastRoll, guildCard, attributeRows, spellsLine, volunteerLine, houseBadge, challengeText,
    statusBlock, cityMap, pendingLine, turnGuide });

  Clacks.games.guards = {
    title: () => t("game.guards"),
    table,
    phone: (ctx) => G.phone(ctx),
    extras,
    phoneController: (page) => G.phoneController(page),
    describeEvent,
  };
})();
