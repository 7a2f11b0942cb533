// Shared by every page: the message catalog, the JSON API, the event stream, and small
// DOM helpers. No build step: plain script, one global (Clacks).
"use strict";

const Clacks = (() => {
  const catalog = JSON.parse(document.getElementById("catalog").textContent);
  const lang = document.documentElement.lang || "en";
  const games = {}; // game name -> {table(ctx), phone(ctx)}, registered by games/*.js
  let clockOffset = 0; // server time minus this device's time, in seconds
  let tablePin = null; // the table screen's PIN, sent with every request it makes
  // on the companion's own screen, the key that lets its table page past the PIN locks
  const screenKey = (document.body && document.body.dataset.screenKey) || null;

  // Catalog texts are ICU messages (see web/messages.py, which formats the same texts on
  // the server): {name}, {n, plural, one {# step} other {# steps}} with "=N" branches
  // first and then the language's CLDR category from Intl.PluralRules, and
  // {v, select, a {...} other {...}}. Braces are always syntax.
  const pluralRules = new Intl.PluralRules(lang);
  const parsed = new Map();

  function parseMessage(text) {
    let at = 0;
    const fail = (why) => new Error(`${why} at ${at} in ${JSON.stringify(text)}`);
    const space = () => { while (at < text.length && /\s/.test(text[at])) at += 1; };
    const word = () => {
      space();
      const start = at;
      while (at < text.length && /[\p{L}\p{N}_=-]/u.test(text[at])) at += 1;
      if (start === at) throw fail("a name was expected");
      return text.slice(start, at);
    };
    const expect = (char) => {
      space();
      if (text[at] !== char) throw fail(`${char} was expected`);
      at += 1;
    };
    function message(inPlural, nested) {
      const parts = [];
      let literal = "";
      while (at < text.length) {
        const char = text[at];
        if (char === "}") {
          if (!nested) throw fail("unmatched }");
          break;
        }
        if (char === "{") {
          if (literal) parts.push(literal);
          literal = "";
          parts.push(placeholder());
        } else if (char === "#" && inPlural) {
          if (literal) parts.push(literal);
          literal = "";
          parts.push({ hash: true });
          at += 1;
        } else {
          literal += char;
          at += 1;
        }
      }
      if (nested && at >= text.length) throw fail("a branch is not closed");
      if (literal) parts.push(literal);
      return parts;
    }
    function placeholder() {
      expect("{");
      const name = word();
      space();
      if (text[at] === "}") {
        at += 1;
        return { arg: name };
      }
      expect(",");
      const kind = word();
      expect(",");
      const branches = {};
      for (;;) {
        space();
        if (text[at] === "}") {
          at += 1;
          break;
        }
        const key = word();
        expect("{");
        branches[key] = message(kind === "plural", true);
        at += 1;
      }
      return { choice: name, kind, branches };
    }
    return message(false, false);
  }

  // A number as the language writes it: a decimal comma in Czech ("11,1"), a point in
  // English; whole numbers as they are (no grouping: step numbers, years, codes).
  const decimals = new Intl.NumberFormat(lang, { maximumFractionDigits: 2, useGrouping: false });
  function numberText(value) {
    return typeof value === "number" && !Number.isInteger(value) ? decimals.format(value) : String(value);
  }

  function fill(text, params) {
    let missing = false;
    if (!parsed.has(text)) parsed.set(text, parseMessage(text));
    function render(parts, number) {
      let out = "";
      for (const part of parts) {
        if (typeof part === "string") out += part;
        else if (part.hash) out += number === null ? "#" : numberText(number);
        else {
          const name = part.arg || part.choice;
          const value = params ? params[name] : undefined;
          if (value === undefined || value === null) {
            missing = true;
            out += `{${name}}`;
          } else if (part.arg) out += numberText(value);
          else if (part.kind === "select") {
            out += render(part.branches[String(value)] || part.branches.other, number);
          } else if (typeof value !== "number") {
            missing = true;
            out += render(part.branches.other, null);
          } else {
            const branch = part.branches[`=${value}`] || part.branches[pluralRules.select(value)];
            out += render(branch || part.branches.other, value);
          }
        }
      }
      return out;
    }
    return { out: render(parsed.get(text), null), missing };
  }

  // t("key", {name: value}): the catalog's text with the values filled in. A key no
  // catalog has would reach the page raw: it is said once on the console, where the
  // browser tests look for it (tests/browser_support.py).
  const missingKeys = new Set();
  function t(key, params) {
    const text = catalog[key];
    if (text === undefined) {
      if (!missingKeys.has(key)) {
        missingKeys.add(key);
        console.warn(`missing message: ${key}`);
      }
      return key;
    }
    return fill(text, params).out;
  }

  function has(key) {
    return catalog[key] !== undefined;
  }

  // A refused request in words: the catalog's sentence for the rule with the values the
  // engine gave, or the rule's plain sentence when a value is withheld. An English message
  // the server sends is that same sentence (web/refusals.py), or the engine's own for a
  // game whose refusals are not yet worded only by the catalog.
  // values that are a card's id, said as the card's name (web/refusals.py)
  const NAMED_PARAMS = {
    design: (id) => `jacquard.${id}.name`,
    fault: (id) => `card.${id}.name`,
    quadrant: (id) => `guards.quadrant.${id}`,
    deck: (id) => `guards.deck.${id}`,
    wanted_deck: (id) => `guards.deck.${id}`,
    attribute: (id) => `guards.attribute.${id}`,
    spell: (id) => `guards.spell.${id}`,
    place: (id) => `guards.place.${id}`,
  };
  const SEAT_LISTS = ["players"];  // a list of seats, said as their names

  function describeError(error) {
    if (!error) return "";
    const code = error.rule || error.error;
    // a tap a lesson does not take: the game's reason, then the step to take instead
    if (code === "tutorial_off_script" && Clacks.tutorial) return Clacks.tutorial.explain(error);
    if (lang === "en" && error.message) return error.message;
    // seats, cards and lamp lists in the engine's values, as the page says them
    const params = { ...(error.params || {}) };
    for (const [name, value] of Object.entries(params)) {
      if (SEAT_LISTS.includes(name) && Array.isArray(value)) params[name] = value.map((seat) => (has(`seat.${seat}`) ? t(`seat.${seat}`) : seat)).join(", ");
      else if (Array.isArray(value)) params[name] = value.join(" ");
      else if (["current", "seat", "target"].includes(name) && has(`seat.${value}`)) params[name] = t(`seat.${value}`);
      else if (name in NAMED_PARAMS && has(NAMED_PARAMS[name](value))) params[name] = t(NAMED_PARAMS[name](value));
    }
    for (const key of [`rule.${code}`, `api.${code}`]) {
      if (has(key)) {
        const filled = fill(catalog[key], params);
        if (!filled.missing) return filled.out;
        if (has(`${key}.plain`)) return catalog[`${key}.plain`];
      }
    }
    return error.message || t("ui.refused");
  }

  class ApiFailure extends Error {
    constructor(status, body) {
      super(body && body.message ? body.message : `HTTP ${status}`);
      this.status = status;
      this.body = body || { error: "network", message: "" };
    }
  }

  async function api(method, path, body, token, extraHeaders) {
    const headers = { Accept: "application/json", ...(extraHeaders || {}) };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["X-Seat-Token"] = token;
    if (tablePin) headers["X-Table-Pin"] = tablePin;
    if (screenKey) headers["X-Screen-Key"] = screenKey;
    let response;
    try {
      response = await fetch(`/api${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      // the companion is out of reach: the page says so once, in its banner
      connection.lost();
      throw new ApiFailure(0, { error: "network", message: t("ui.offline"), params: {} });
    }
    let data;
    try {
      data = await response.json();
    } catch {
      data = null; // a reply with no JSON body: the status alone says what happened
    }
    if (!response.ok) throw new ApiFailure(response.status, data);
    return data;
  }

  // Whether the page is in touch with the companion. While it is not, one banner (the
  // page's #live) says so and every control is out of reach ([data-online] parts of the
  // page are inert), so nothing is tapped into the void; the stream coming back ends it.
  const connection = (() => {
    let live = true;
    function show() {
      const banner = document.getElementById("live");
      if (banner) {
        banner.textContent = live ? "" : t("ui.offline");
        banner.hidden = live;
      }
      document.body.classList.toggle("offline-mode", !live);
      for (const part of document.querySelectorAll("[data-online]")) part.inert = !live;
    }
    const watchers = new Set();
    return {
      get live() { return live; },
      // a request found the companion out of reach: streams look again at once
      lost() {
        if (live) { live = false; show(); }
        for (const watcher of watchers) watcher();
      },
      back() { if (!live) { live = true; show(); } },
      watch(watcher) { watchers.add(watcher); return () => watchers.delete(watcher); },
    };
  })();

  // Follow a room: onState(snapshot) for the first snapshot and after every change, and
  // with ``options.onBoard`` the board's LEDs as lit (``board`` messages). When the
  // stream drops (the companion restarted, the Wi-Fi blinked) the page reconnects by
  // itself after a short backoff (EventSource's own retrying can take many seconds), so
  // it is live again within a second or so of the companion answering.
  const RECONNECT_MS = [250, 500, 1000];
  function follow(code, seat, token, onState, options = {}) {
    const query = new URLSearchParams();
    if (seat) query.set("seat", seat);
    if (token) query.set("token", token);
    if (options.onBoard) query.set("board", "1");
    let source = null;
    let stopped = false;
    let failures = 0;
    let timer = null;
    // a request that failed while the stream seemed open: reopen it now (its first
    // message, or its failing, settles whether the companion is there)
    const unwatch = connection.watch(() => {
      if (!stopped && source && source.readyState === source.OPEN) {
        source.close();
        clearTimeout(timer);
        open();
      }
    });
    function open() {
      timer = null;
      source = new EventSource(`/api/rooms/${encodeURIComponent(code)}/stream?${query}`);
      source.addEventListener("state", (message) => {
        const state = JSON.parse(message.data);
        clockOffset = state.server_time - Date.now() / 1000;
        failures = 0;
        connection.back();
        onState(state);
      });
      if (options.onBoard) {
        source.addEventListener("board", (message) => options.onBoard(JSON.parse(message.data)));
      }
      source.onerror = () => {
        if (stopped) return;
        source.close();
        if (!timer) {
          timer = setTimeout(open, RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]);
          failures += 1;
          if (options.onRetry) options.onRetry(failures);
        }
        if (connection.live) connection.lost();
      };
    }
    open();
    return {
      close() {
        stopped = true;
        unwatch();
        clearTimeout(timer);
        if (source) source.close();
      },
    };
  }

  function serverNow() {
    return Date.now() / 1000 + clockOffset;
  }

  // el("div", {class: "x", onclick: f, "aria-label": "..."}, child, "text", ...)
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const SVG_NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, value);
    }
    for (const child of children.flat()) {
      if (child) node.append(child);
    }
    return node;
  }

  // A control the rules keep out of reach now still answers: tapping or focusing it
  // says why (``explain``, e.g. the engine's reason) instead of doing nothing. It is
  // marked aria-disabled rather than disabled, so a keyboard can reach it and a tap
  // lands; its own click handler never runs while it is out of reach.
  function unavailable(node, explain) {
    node.setAttribute("aria-disabled", "true");
    node.classList.add("unavailable");
    node.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopImmediatePropagation();
      explain(node);
    }, true);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopImmediatePropagation();
        explain(node);
      }
    }, true);
    node.addEventListener("focus", () => explain(node));
    return node;
  }

  function languageSwitcher() {
    const nav = el("nav", { class: "languages", "aria-label": t("ui.language") });
    for (const code of ["en", "cs"]) {
      const url = new URL(window.location.href);
      url.searchParams.set("lang", code);
      nav.append(
        el("a", { href: url.toString(), hreflang: code, "aria-current": code === lang ? "true" : null,
                  lang: code }, t(`lang.${code}`)),
      );
    }
    return nav;
  }

  function setTablePin(pin) {
    tablePin = pin || null;
  }

  // A bot level in words ("Planner"), and a bot's name where a seat has no player's name.
  function botLevel(level) {
    return has(`bots.level.${level}`) ? t(`bots.level.${level}`) : level;
  }

  function botName(level) {
    return t("bots.name", { level: botLevel(level) });
  }

  // A seat in a sentence: its player's name (or its bot's) and the seat ("Ann (South)"),
  // or the seat alone while nobody has named it.
  function seatName(state, seatId) {
    const seat = (state.room.seats || []).find((s) => s.id === seatId);
    const label = t(`seat.${seatId}`);
    const name = seat && (seat.name || (seat.bot ? botName(seat.bot) : ""));
    return name && name !== label ? `${name} (${label})` : label;
  }

  // Who holds a seat of the room, in words: a bot, a person (with a phone connected or
  // not), or nobody yet.
  function presence(seat) {
    if (seat && seat.bot) return t("bots.presence", { level: botLevel(seat.bot) });
    if (seat && seat.claimed) return t(seat.connected ? "ui.connected" : "ui.not_connected");
    return t("ui.free");
  }

  // The box's 4x4 lamps as the pictures of it draw them: a lamp's name from its index (a1
  // to d4, row by row from the bottom), and where a lamp, or a button between two lamps
  // ("b2c2"), stands in a 400 x 400 picture.
  function lampName(index) {
    return `${"abcd"[index % 4]}${Math.floor(index / 4) + 1}`;
  }

  function lampAt(name) {
    return { x: 50 + "abcd".indexOf(name[0]) * 100, y: 50 + (4 - Number(name[1])) * 100 };
  }

  function buttonAt(button) {
    const a = lampAt(button.slice(0, 2));
    const b = lampAt(button.slice(2));
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  // A part of a picture that acts as a button: a click, or Enter or Space with the focus.
  function pressable(node, act) {
    node.addEventListener("click", act);
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); }
    });
  }

  // The box as a 400 x 400 picture: its 16 lamps as ``frame`` lights them and the buttons
  // of ``buttons`` (button -> meaning), clickable when ``press`` is given, like the real
  // ones. A game says what it draws: ``lamp(group, name, at, on, blinking)`` fills a
  // lamp's group and returns its words; ``button(meaning)`` gives a button's class, words,
  // short label and size; lamps in ``blinking`` get the class ``blinkClass``.
  function boxPicture({ cls, label, frame, blinking, blinkClass, lamp, buttons, button, press }) {
    const lit = new Set(frame.lit.map(lampName));
    const accent = new Set(frame.accent.map(lampName));
    const marked = new Set(blinking.map(lampName));
    const root = svg("svg", { viewBox: "0 0 400 400", class: cls, role: "group", "aria-label": label });
    for (let i = 0; i < 16; i += 1) {
      const name = lampName(i);
      const classes = ["lamp", lit.has(name) ? "on" : "off"];
      if (accent.has(name)) classes.push("accent");
      if (marked.has(name)) classes.push(blinkClass);
      const group = svg("g", { class: classes.join(" "), "data-lamp": name, role: "img" });
      group.setAttribute("aria-label", lamp(group, name, lampAt(name), lit.has(name), marked.has(name)));
      root.append(group);
    }
    for (const [id, meaning] of Object.entries(buttons)) {
      const { x, y } = buttonAt(id);
      const shown = button(meaning);
      const group = svg("g", {
        class: `${shown.cls}${press ? " enabled" : ""}`,
        "data-button": id,
        role: press ? "button" : "img",
        tabindex: press ? 0 : null,
        "aria-label": shown.label(id),
      });
      group.append(svg("circle", { cx: x, cy: y, r: shown.radius, class: "cap" }));
      group.append(svg("text", { x, y: y + shown.drop, class: shown.textClass, text: shown.short }));
      if (press) pressable(group, () => press(id));
      root.append(group);
    }
    return root;
  }

  return { t, has, lang, api, ApiFailure, follow, connection, serverNow, el, svg, describeError, games,
           languageSwitcher, setTablePin, botLevel, botName, seatName, presence, unavailable, lampName, lampAt,
           buttonAt, pressable, boxPicture };
})();
