// Guards! Guards! report forms on the phone, drawn from the forms the engine offers the
// seat now (GET .../legal): each field by its kind (a choice, cards, a route of quadrants,
// a Volunteer known or typed...). What is typed is kept while the page redraws, so an
// update from the table never loses it. A test rolled as the report is sent shows its
// exact chance first.
"use strict";

(() => {
  const { t, el } = Clacks;
  const G = Clacks.guards;
  const drafts = {}; // form key -> field values typed so far
  let opened = null; // the form key shown open
  const NO_FIELDS = new Set(["roll", "end_turn", "call", "hospital", "let_pass", "miss_turn", "bribe", "decline"]);
  const VOLUNTEER_NUMBERS = [["charm", 1, 20, 5], ["bribe", 0, 30, 3], ["loyalty", 0, 12, 2], ["streetwise", 0, 12, 2],
    ["brawl", 0, 12, 2], ["toughness", 0, 12, 2], ["luggage", 0, 20, 0], ["dollars", 0, 20, 0], ["scrolls", 0, 3, 0],
    ["items", 0, 3, 0], ["anti_magic", 0, 3, 0]];
  const MAIN_NUMBERS = 6; // charm, bribe and the four skills: on every card
  const FLAGS = ["brethren", "wanted", "infectious", "fate"];
  const BONUSES = ["magic", "guild", "charm"];
  const SKILLS = ["loyalty", "streetwise", "brawl", "toughness"];

  function key(form) {
    return [form.type, form.buying, form.offer, form.type === "dealt" ? form.deck : null].filter(Boolean).join(":");
  }

  function draft(form) {
    const k = key(form);
    if (!drafts[k]) drafts[k] = {};
    return drafts[k];
  }

  function forget(form) {
    delete drafts[key(form)];
    if (opened === key(form)) opened = null;
  }

  // ------------------------------------------------------------------ option words

  function optionLabel(state, field, option) {
    const view = state.view;
    if (option && typeof option === "object") return cardLabel(option);
    const name = field.name;
    if (["quadrant", "route"].includes(name)) return G.word("quadrant", option);
    if (["deck"].includes(name)) return G.word("deck", option);
    if (name === "attribute") return G.word("attribute", option);
    if (name === "source") return G.word("source", option);
    if (name === "method") return G.word("method", option);
    if (name === "spell") return G.spellName(view, option);
    if (["target", "to", "other"].includes(name)) return G.seatName(state, option);
    if (name === "card" && field.kind === "guild_card") {
      return G.guildCardName(view.guild_cards.find((c) => c.id === option));
    }
    return String(option);
  }

  function cardLabel(option) {
    const bits = [option.name || t("guards.unnamed")];
    if (option.loyalty !== undefined) {
      bits.push(SKILLS.map((s) => `${G.word("skill_short", s)} ${option[s]}`).join(" "));
      if (option.brethren) bits.push(t("guards.mark.brethren"));
      if (option.wanted) bits.push(t("guards.mark.wanted"));
    }
    if (option.price !== undefined && option.price !== null) bits.push(`$${option.price}`);
    if (option.target) bits.push(t("guards.scroll_target", { target: option.target }));
    if (option.quadrant) bits.push(G.word("quadrant", option.quadrant));
    return bits.join(" · ");
  }

  function optionValue(option) {
    return option && typeof option === "object" ? option.uid : option;
  }

  // ------------------------------------------------------------------ inputs

  function labelled(text, input, extra) {
    return el("label", { class: "field" }, el("span", {}, text), input, extra || null);
  }

  // A field the report has one value for, said rather than asked.
  function given(text, value, id) {
    return el("div", { class: "field g-given", "data-given": id }, el("span", {}, text), el("strong", {}, value));
  }

  function numberInput(id, value, min, max, onchange) {
    return el("input", { type: "number", inputmode: "numeric", min, max, value, "data-focus": id,
                         oninput: (e) => onchange(e.target.value === "" ? null : Number(e.target.value)) });
  }

  function select(id, options, value, labelOf, onchange, optional) {
    const node = el("select", { "data-focus": id, onchange: (e) => onchange(e.target.value || null) },
      optional || value === undefined || value === null ? el("option", { value: "" }, t("guards.choose")) : null,
      options.map((o) => el("option", { value: optionValue(o), selected: optionValue(o) === value }, labelOf(o))));
    return node;
  }

  function check(id, checked, text, onchange) {
    return el("label", { class: "check" }, el("input", { type: "checkbox", checked, "data-focus": id,
      onchange: (e) => onchange(e.target.checked) }), el("span", {}, text));
  }

  // ------------------------------------------------------------------ fields

  function renderField(ctx, form, field, values, redraw) {
    const state = ctx.state;
    const id = `${key(form)}.${field.name}`;
    const label = fieldLabel(form, field.name);
    const set = (value) => { values[field.name] = value; redraw(); };
    const setQuiet = (value) => { values[field.name] = value; };
    switch (field.kind) {
      case "fixed":
        return null;
      case "choice":
      case "guild_card": {
        const options = field.options || [];
        if (values[field.name] === undefined && !field.optional && options.length === 1) values[field.name] = optionValue(options[0]);
        // the only choice there is (a lesson's step names it): said in words that wrap,
        // never a list cut off at a phone's width
        if (field.kind === "choice" && !field.optional && options.length === 1) {
          return given(label, optionLabel(state, field, options[0]), id);
        }
        if (values[field.name] === undefined && form.current && field.name === "card") values[field.name] = form.current;
        const node = labelled(label, select(id, options, values[field.name], (o) => optionLabel(state, field, o), set, field.optional),
          field.secret ? el("span", { class: "hint" }, t("guards.secret")) : null);
        if (field.kind === "guild_card" && values[field.name]) {
          const card = state.view.guild_cards.find((c) => c.id === values[field.name]);
          return el("div", {}, node, guildCardDetails(state, card));
        }
        return node;
      }
      case "cards": {
        // Volunteers the rules send at once (recruited for runners waiting at the Gate) come ticked
        if (values[field.name] === undefined && (field.must || []).length) values[field.name] = [...field.must];
        const chosen = new Set(values[field.name] || []);
        const boxes = (field.options || []).map((o) => check(`${id}.${o.uid}`, chosen.has(o.uid), cardLabel(o), (on) => {
          const list = (values[field.name] || []).filter((u) => u !== o.uid);
          if (on) list.push(o.uid);
          set(list);
        }));
        return el("fieldset", { class: "g-cards", "data-field": field.name }, el("legend", {}, label,
          " ", el("span", { class: "hint" }, t("guards.between", { min: field.min, max: field.max }))), boxes);
      }
      case "items": {
        const runners = values[field.runners] || [];
        if (!runners.length || !(field.options || []).length) return null;
        const pairs = values[field.name] || {};
        return el("fieldset", { class: "g-items", "data-field": field.name }, el("legend", {}, label),
          runners.map((r) => labelled(cardName(form, field.runners, r), select(`${id}.${r}`, field.options, pairs[r],
            (o) => cardLabel(o), (v) => { const next = { ...pairs }; if (v) next[r] = v; else delete next[r]; set(next); }, true))));
      }
      case "quadrants": {
        if (values[field.name] === undefined) values[field.name] = [...(state.view.marked || [])];
        const route = values[field.name];
        return el("fieldset", { class: "g-route", "data-field": field.name }, el("legend", {}, label),
          el("div", { class: "g-route-buttons" }, (field.options || []).map((q) => {
            const at = route.indexOf(q);
            return el("button", { type: "button", class: at >= 0 ? "primary" : "secondary", "data-quadrant": q,
                                  "aria-pressed": String(at >= 0),
                                  onclick: () => set(at >= 0 ? route.filter((x) => x !== q) : [...route, q]) },
              at >= 0 ? `${at + 1}. ` : "", G.word("quadrant", q));
          })), el("p", { class: "hint" }, t("guards.route_hint")));
      }
      case "int": {
        if (values[field.name] === undefined && field.default !== undefined) values[field.name] = field.default;
        return labelled(label, numberInput(id, values[field.name] ?? "", field.min, field.max, setQuiet));
      }
      case "bool":
        // a box the rules tick unless told otherwise (Fire Water explodes) starts ticked
        if (values[field.name] === undefined && field.default !== undefined) values[field.name] = field.default;
        return check(id, Boolean(values[field.name]), label, set);
      case "text":
        return labelled(label, el("input", { type: "text", maxlength: 60, value: values[field.name] || "", "data-focus": id,
                                             oninput: (e) => setQuiet(e.target.value) }));
      case "points": {
        const points = values[field.name] || {};
        return el("fieldset", { class: "g-points", "data-field": field.name },
          el("legend", {}, label, " ", el("span", { class: "hint" }, t("guards.points_hint", { price: field.price, most: field.most }))),
          el("div", { class: "g-number-row" }, ["magic", "guild", "charm"].map((a) => labelled(G.word("attribute", a),
            numberInput(`${id}.${a}`, points[a] || 0, 0, 2, (v) => { points[a] = v || 0; values[field.name] = points; })))));
      }
      case "volunteer":
        return volunteerField(ctx, form, field, values, redraw, id);
      case "dragon":
        return dragonField(field, values, redraw, id);
      case "guild_values":
        return guildValues(ctx, form, values, redraw, id);
      case "scroll_values":
        return scrollValues(ctx, form, values, id);
      case "card_values":
        return cardValues(ctx, form, values, id);
      default:
        return null;
    }
  }

  // A field's label, said for its form where the plain word would be vague ("Quadrant").
  function fieldLabel(form, name) {
    const own = `guards.field.${form.type}.${name}`;
    return Clacks.has(own) ? t(own) : t(`guards.field.${name}`);
  }

  function cardName(form, fieldName, uid) {
    const field = form.fields.find((f) => f.name === fieldName);
    const option = field && (field.options || []).find((o) => o.uid === uid);
    return option ? option.name || uid : uid;
  }

  function guildCardDetails(state, card) {
    if (!card) return null;
    return el("div", { class: "g-card-details" },
      el("p", {}, t("guards.card_spells", { spells: card.spells.map((s) => G.spellName(state.view, s)).join(", ") })),
      el("p", {}, t("guards.card_start", { magic: card.start.magic, guild: card.start.guild, charm: card.start.charm,
                                           tmagic: card.top.magic, tguild: card.top.guild, tcharm: card.top.charm })),
      el("p", {}, t("guards.card_ability", { ability: G.abilityName(card) }), " ", G.houseBadge(card.house)));
  }

  // Which Volunteer: the face-up one, one the game already knows, or a new one typed.
  function volunteerField(ctx, form, field, values, redraw, id) {
    const deck = (form.fields.find((f) => f.name === "deck" && f.kind === "fixed") || {}).value || values.deck || form.deck;
    if (!deck) return el("p", { class: "hint" }, t("guards.pick_deck_first"));
    const faceUp = (field.face_up || {})[deck];
    if ((values.source === "display" || form.type === "recruit_extra" && values.source === "display") && faceUp) {
      return el("p", { class: "g-face-up", "data-face-up": faceUp.uid }, t("guards.face_up_card", { name: faceUp.name, charm: faceUp.charm }));
    }
    const known = (field.known || {})[deck] || [];
    // a card the report names already (a lesson's step): picked, to be sent as it is
    if (field.pick && values.card_uid === undefined) values.card_uid = field.pick;
    const mode = values.card_mode || (known.length ? "known" : "typed");
    const parts = [];
    if (known.length && !field.pick) {
      parts.push(el("div", { class: "g-mode", role: "radiogroup" },
        el("button", { type: "button", class: mode === "known" ? "primary" : "secondary", "data-mode": "known",
                       onclick: () => { values.card_mode = "known"; redraw(); } }, t("guards.known_card")),
        el("button", { type: "button", class: mode === "typed" ? "primary" : "secondary", "data-mode": "typed",
                       onclick: () => { values.card_mode = "typed"; redraw(); } }, t("guards.new_card"))));
    }
    const picked = field.pick && known.find((o) => o.uid === field.pick);
    if (picked) {
      parts.push(given(t("guards.which_card"), knownLabel(picked), `${id}.known`));
    } else if (mode === "known" && known.length) {
      parts.push(labelled(t("guards.which_card"), select(`${id}.known`, known, values.card_uid, knownLabel,
        (v) => { values.card_uid = v; redraw(); }, true)));
    } else {
      parts.push(volunteerValues(values, id, deck));
    }
    return el("fieldset", { class: "g-volunteer-field", "data-field": "card" }, el("legend", {}, t("guards.field.card")), parts);
  }

  function knownLabel(card) {
    return `${card.name} · ${t("guards.charm_bribe", { charm: card.charm, bribe: card.bribe === null ? t("guards.bribe_x") : card.bribe })}`;
  }

  function volunteerValues(values, id, deck) {
    const typed = values.typed || (values.typed = {});
    typed.deck = deck;
    const number = ([name, min, max, fallback]) => {
      if (typed[name] === undefined) typed[name] = fallback;
      return labelled(t(`guards.vfield.${name}`), numberInput(`${id}.${name}`, typed[name] ?? "", min, max, (v) => { typed[name] = v; }));
    };
    // what most cards print comes first; the rest (luggage, bonuses, marks...) is folded
    // unless something in it is set, so the report fits one phone screen
    const extra = el("details", { class: "g-extra", open: typed.extra_open || extraSet(typed) },
      el("summary", { "data-action": "extra" }, t("guards.vfield.more")),
      el("div", { class: "g-number-row" }, VOLUNTEER_NUMBERS.slice(MAIN_NUMBERS).map(number)),
      check(`${id}.bribe_x`, Boolean(typed.bribe_x), t("guards.vfield.bribe_x"), (on) => { typed.bribe_x = on; }),
      el("div", { class: "g-number-row" }, BONUSES.map((a) => labelled(t("guards.vfield.bonus", { attribute: G.word("attribute", a) }),
        numberInput(`${id}.bonus.${a}`, (typed.bonus || {})[a] || 0, -3, 3, (v) => { typed.bonus = { ...(typed.bonus || {}), [a]: v || 0 }; })))),
      el("div", { class: "g-flags" }, FLAGS.map((f) => check(`${id}.${f}`, Boolean(typed[f]), t(`guards.vfield.${f}`), (on) => { typed[f] = on; }))));
    extra.addEventListener("toggle", () => { typed.extra_open = extra.open; });
    return el("div", { class: "g-typed", "data-typed": deck },
      labelled(t("guards.vfield.name"), el("input", { type: "text", maxlength: 60, value: typed.name || "", "data-focus": `${id}.name`,
                                                      "data-vfield": "name", oninput: (e) => { typed.name = e.target.value; } })),
      el("div", { class: "g-number-row" }, VOLUNTEER_NUMBERS.slice(0, MAIN_NUMBERS).map(number)), extra);
  }

  function extraSet(typed) {
    return VOLUNTEER_NUMBERS.slice(MAIN_NUMBERS).some(([name, , , fallback]) => typed[name] !== undefined && typed[name] !== fallback)
      || Boolean(typed.bribe_x) || Object.values(typed.bonus || {}).some(Boolean) || FLAGS.some((f) => typed[f]);
  }

  function volunteerValuesJson(typed) {
    const out = { name: (typed.name || "").trim(), deck: typed.deck };
    for (const [name] of VOLUNTEER_NUMBERS) if (typed[name] !== undefined && typed[name] !== null) out[name] = typed[name];
    if (typed.bribe_x) out.bribe = null;
    const bonus = Object.fromEntries(Object.entries(typed.bonus || {}).filter(([, v]) => v));
    if (Object.keys(bonus).length) out.bonus = bonus;
    for (const f of FLAGS) if (typed[f]) out[f] = true;
    return out;
  }

  function dragonField(field, values, redraw, id) {
    const known = field.known || [];
    const mode = values.dragon_mode || (known.length && !field.can_type ? "known" : known.length ? "known" : "typed");
    const parts = [];
    if (known.length && field.can_type) {
      parts.push(el("div", { class: "g-mode" },
        el("button", { type: "button", class: mode === "known" ? "primary" : "secondary", onclick: () => { values.dragon_mode = "known"; redraw(); } }, t("guards.known_dragon")),
        el("button", { type: "button", class: mode === "typed" ? "primary" : "secondary", onclick: () => { values.dragon_mode = "typed"; redraw(); } }, t("guards.new_dragon"))));
    }
    const picked = field.pick && known.find((o) => o.uid === field.pick);
    if (picked) {
      parts.push(given(t("guards.which_card"), knownLabel(picked), `${id}.known`));
    } else if (mode === "known" && known.length) {
      parts.push(labelled(t("guards.which_dragon"), select(`${id}.known`, known, values.dragon_uid, (o) => o.name, (v) => { values.dragon_uid = v; }, true)));
    } else {
      const typed = values.dragon_typed || (values.dragon_typed = { toughness: 20, brawl: 6 });
      parts.push(labelled(t("guards.vfield.name"), el("input", { type: "text", maxlength: 60, value: typed.name || "", "data-focus": `${id}.name`,
        oninput: (e) => { typed.name = e.target.value; } })),
      el("div", { class: "g-number-row" },
        labelled(t("guards.skill.toughness"), numberInput(`${id}.toughness`, typed.toughness, 1, 60, (v) => { typed.toughness = v; })),
        labelled(t("guards.skill.brawl"), numberInput(`${id}.brawl`, typed.brawl, 1, 30, (v) => { typed.brawl = v; }))));
    }
    return el("fieldset", { class: "g-dragon-field" }, el("legend", {}, t("guards.field.dragon")), parts);
  }

  function guildValues(ctx, form, values, redraw, id) {
    const card = ctx.state.view.guild_cards.find((c) => c.id === values.card);
    if (!card) return null;
    const on = Boolean(values.differs);
    const parts = [check(`${id}.differs`, on, t("guards.card_differs"), (v) => { values.differs = v; redraw(); })];
    if (on) {
      // six numbers as the card prints them: a row for the start, a row for the tops of
      // the tables, a column per attribute (each box still named in full for a reader)
      const typed = values.guild_typed || (values.guild_typed = { start: { ...card.start }, top: { ...card.top } });
      const attributes = ["magic", "guild", "charm"];
      const grid = el("div", { class: "g-values-grid", role: "group", "aria-label": t("guards.card_differs") },
        el("span", {}), attributes.map((a) => el("span", { class: "g-values-head", "aria-hidden": "true" }, G.word("attribute", a))));
      for (const part of ["start", "top"]) {
        grid.append(el("span", { class: "g-values-head", "aria-hidden": "true" }, t(`guards.values_row.${part}`)));
        for (const a of attributes) {
          const input = numberInput(`${id}.${part}.${a}`, typed[part][a], part === "top" ? 1 : 0, 20, (v) => { typed[part][a] = v; });
          input.setAttribute("aria-label", t(`guards.${part}_of`, { attribute: G.word("attribute", a) }));
          grid.append(input);
        }
      }
      parts.push(grid);
    }
    return el("div", { class: `g-guild-values${on ? " typed" : ""}` }, parts);
  }

  function scrollValues(ctx, form, values, id) {
    const scroll = ((form.fields.find((f) => f.name === "scroll") || {}).options || []).find((o) => o.uid === values.scroll);
    if (!scroll || scroll.target) return null;
    const typed = values.scroll_typed || (values.scroll_typed = {});
    return el("div", { class: "g-scroll-values" },
      labelled(t("guards.vfield.scroll_target"), numberInput(`${id}.target`, typed.target ?? "", 1, 30, (v) => { typed.target = v; })),
      scroll.name ? null : labelled(t("guards.vfield.name"), el("input", { type: "text", maxlength: 60, value: typed.name || "",
        "data-focus": `${id}.name`, oninput: (e) => { typed.name = e.target.value; } })));
  }

  function cardValues(ctx, form, values, id) {
    const option = ((form.fields.find((f) => f.name === "card") || {}).options || []).find((o) => o.uid === values.card);
    if (!option) return null;
    const typed = values.card_typed || (values.card_typed = {});
    const isScroll = option.target !== undefined;
    const parts = [labelled(t("guards.vfield.name"), el("input", { type: "text", maxlength: 60, value: typed.name ?? option.name ?? "",
      "data-focus": `${id}.name`, oninput: (e) => { typed.name = e.target.value; } }))];
    if (isScroll) {
      parts.push(labelled(t("guards.vfield.scroll_target"), numberInput(`${id}.target`, typed.target ?? option.target ?? "", 1, 30, (v) => { typed.target = v; })));
    } else {
      const bonus = typed.bonus || (typed.bonus = { ...(option.bonus || {}) });
      parts.push(el("div", { class: "g-number-row" }, SKILLS.map((s) => labelled(t("guards.vfield.item_bonus", { skill: G.word("skill", s) }),
        numberInput(`${id}.${s}`, bonus[s] || 0, -5, 5, (v) => { bonus[s] = v || 0; })))));
    }
    return el("div", { class: "g-card-values" }, parts);
  }

  // ------------------------------------------------------------------ chances

  // The exact chance of the roll this report makes (or leads to), once it can be known.
  function chanceNote(ctx, form, values) {
    if (form.chance) return el("p", { class: "g-chance-note", "data-chance": form.chance }, t("guards.form_chance", { chance: G.chanceText(form), base: form.base, target: form.target }));
    if (!form.chances) return null;
    let target = null;
    if (form.type === "cast") {
      const scroll = ((form.fields.find((f) => f.name === "scroll") || {}).options || []).find((o) => o.uid === values.scroll);
      const typed = values.scroll_typed && values.scroll_typed.target;
      const base = (scroll && scroll.target) || typed;
      if (base) target = base + ((form.defence || {})[values.target] || 0);
    } else {
      const field = form.fields.find((f) => f.kind === "volunteer");
      const deck = values.deck || form.deck;
      const faceUp = field && deck && (field.face_up || {})[deck];
      if (values.source === "display" && faceUp) target = faceUp.charm;
      else if (values.card_mode !== "typed" && values.card_uid) {
        const known = ((field.known || {})[deck] || []).find((o) => o.uid === values.card_uid);
        target = known ? known.charm : null;
      } else if (values.typed && values.typed.charm) target = values.typed.charm;
    }
    if (target === null || target === undefined) return null;
    const fraction = form.chances[Math.min(target, form.chances.length - 1)];
    const [a, b] = fraction.split("/").map(Number);
    const percent = b ? (100 * a) / b : a * 100;
    return el("p", { class: "g-chance-note", "data-chance": fraction },
      t("guards.form_chance_target", { target, chance: G.chanceText({ chance: fraction, percent: Math.round(percent * 10) / 10 }) }));
  }

  // ------------------------------------------------------------------ the action

  function actionOf(form, values) {
    const action = { type: form.type };
    for (const field of form.fields) {
      const value = values[field.name];
      switch (field.kind) {
        case "fixed":
          action[field.name] = field.value;
          break;
        case "volunteer": {
          const deck = (form.fields.find((f) => f.name === "deck" && f.kind === "fixed") || {}).value || values.deck || form.deck;
          const faceUp = (field.face_up || {})[deck];
          if (values.source === "display" && faceUp) break;
          const known = ((field.known || {})[deck] || []).length;
          const mode = values.card_mode || (known ? "known" : "typed");
          if (mode === "known" && known) action.card = values.card_uid || undefined;
          else action.values = volunteerValuesJson(values.typed || { deck });
          break;
        }
        case "dragon": {
          const mode = values.dragon_mode || ((field.known || []).length ? "known" : "typed");
          if (mode === "known" && (field.known || []).length) action.dragon = values.dragon_uid || undefined;
          else action.values = { ...(values.dragon_typed || {}), name: ((values.dragon_typed || {}).name || "").trim() };
          break;
        }
        case "guild_values":
          if (values.differs && values.guild_typed) action.values = values.guild_typed;
          break;
        case "scroll_values":
          if (values.scroll_typed && values.scroll_typed.target) {
            action.values = { target: values.scroll_typed.target };
            if (values.scroll_typed.name) action.values.name = values.scroll_typed.name;
          }
          break;
        case "card_values": {
          const typed = values.card_typed || {};
          const out = {};
          if (typed.name) out.name = typed.name;
          if (typed.target) out.target = typed.target;
          if (typed.bonus) out.bonus = Object.fromEntries(Object.entries(typed.bonus).filter(([, v]) => v));
          action.values = out;
          break;
        }
        case "items":
          if (value && Object.keys(value).length) action.items = value;
          break;
        case "points":
          if (value) action.points = Object.fromEntries(Object.entries(value).filter(([, v]) => v));
          break;
        case "cards":
          action[field.name] = value || [];
          break;
        case "quadrants":
          if (value && value.length) action[field.name] = value;
          else if (!field.optional) action[field.name] = [];
          break;
        default:
          if (value !== undefined && value !== null && value !== "") action[field.name] = value;
      }
    }
    return action;
  }

  // The required fields left empty, named, so nothing half-filled is sent.
  function missing(form, values) {
    const action = actionOf(form, values);
    return form.fields.filter((f) => !f.optional && ((f.kind === "choice" || f.kind === "guild_card")
      && (values[f.name] === undefined || values[f.name] === null || values[f.name] === "")
      || f.kind === "cards" && (values[f.name] || []).length < (f.min || 0)
      // a card named, or typed with at least its name
      || (f.kind === "volunteer" || f.kind === "dragon") && action.values === undefined
        && action.card === undefined && action.dragon === undefined && needsCard(form, f, values)
      || (f.kind === "volunteer" || f.kind === "dragon") && action.values && !action.values.name));
  }

  function needsCard(form, field, values) {
    if (field.kind === "dragon") return true;
    const deck = (form.fields.find((f) => f.name === "deck" && f.kind === "fixed") || {}).value || values.deck || form.deck;
    return !(values.source === "display" && deck && (field.face_up || {})[deck]);
  }

  async function send(ctx, form, values) {
    const empty = missing(form, values);
    values.missing = empty.map((f) => f.name);
    if (empty.length) {
      ctx.redraw();
      return;
    }
    const action = actionOf(form, values);
    if (await ctx.act(action)) forget(form);
    ctx.redraw();
  }

  // ------------------------------------------------------------------ a form

  function title(form) {
    if (form.type === "at_gate" && form.again) {
      return t("guards.form.at_gate_again", { rolls: t(`guards.final_rolls.${(form.left || []).join("_")}`) });
    }
    return t(`guards.form.${form.type}${form.buying ? `.${form.buying}` : ""}${form.offer ? `.${form.offer}` : ""}`);
  }

  // A report: a button that sends it at once (no fields), or opens its form.
  function renderForm(ctx, form, options) {
    const k = key(form);
    const values = draft(form);
    const primary = options && options.primary;
    if (form.out) {
      // out of reach now: greyed, and a tap asks the rules why (POST .../check) with the
      // report it stands for
      const button = el("button", { type: "button", class: "secondary", "data-form": k }, title(form));
      if (ctx.explain) Clacks.unavailable(button, () => ctx.explain(form.probe || actionOf(form, values)));
      return button;
    }
    if (!form.fields.length || NO_FIELDS.has(form.type) && !form.fields.some((f) => f.kind !== "fixed")) {
      return el("button", { type: "button", class: primary ? "primary big" : "secondary", "data-form": k,
                            onclick: () => send(ctx, form, values) }, title(form));
    }
    const open = opened === k || (options && options.open);
    if (!open) {
      const chosen = form.current && ctx.state.view.guild_cards.find((c) => c.id === form.current);
      return el("button", { type: "button", class: primary ? "primary big" : "secondary", "data-form": k, "aria-expanded": "false",
                            onclick: () => { opened = k; ctx.redraw(); } }, chosen ? `${title(form)}: ${G.guildCardName(chosen)}` : title(form));
    }
    const redraw = () => ctx.redraw();
    const body = el("form", { class: "g-form", "data-form": k, onsubmit: (e) => { e.preventDefault(); send(ctx, form, values); } },
      el("h3", {}, title(form),
        form.deck ? el("span", { class: "g-deck-note" }, t("guards.deck_of", { deck: G.word("deck", form.deck) })) : null),
      form.current ? el("p", { class: "g-chosen" }, t("guards.chosen", {
        card: G.guildCardName(ctx.state.view.guild_cards.find((c) => c.id === form.current)) })) : null,
      Clacks.has(`guards.help.${form.type}`) ? el("p", { class: "hint" }, t(`guards.help.${form.type}`)) : null,
      pairChoices(form.fields.map((f) => renderField(ctx, form, f, values, redraw))),
      chanceNote(ctx, form, values),
      (values.missing || []).length ? el("p", { class: "error", role: "alert", "data-missing": values.missing.join(",") },
        t("guards.missing", { fields: values.missing.map((n) => fieldLabel(form, n)).join(", ") })) : null,
      el("div", { class: "turn-buttons" },
        el("button", { type: "submit", class: "primary", "data-send": k }, t("guards.send")),
        options && options.open ? null : el("button", { type: "button", class: "secondary", "data-cancel": k,
          // what was picked goes with the form: opened again, it starts afresh
          onclick: () => { forget(form); ctx.redraw(); } }, t("guards.cancel"))));
    return body;
  }

  // Choices one after another side by side, two to a row: a report fits a phone's screen.
  function pairChoices(nodes) {
    const out = [];
    let row = null;
    for (const node of nodes) {
      const choice = node && node.matches && (node.matches(".g-given")
        || (node.matches("label.field") && node.querySelector("select")));
      if (!choice) { row = null; out.push(node); continue; }
      if (!row) { row = el("div", { class: "g-choices" }); out.push(row); }
      row.append(node);
    }
    return out;
  }

  Object.assign(G, { renderForm, formKey: key, forgetForm: forget, isOpen: (form) => opened === key(form) });
})();
