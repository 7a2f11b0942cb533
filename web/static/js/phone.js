// The phone hand controller: pick a seat, then see only your own hand and act. The seat's
// token is kept in localStorage, so a phone that sleeps or reloads gets its seat back; a
// link ending in #seat=...&move=... (asked for by the device holding the seat: one use,
// a few minutes) moves the seat to the device that opens it, and the old one lets go.
"use strict";

(() => {
  const { t, el, api } = Clacks;
  const code = document.body.dataset.code;
  const main = document.getElementById("main");
  const who = document.getElementById("who");
  const errorBox = document.getElementById("error");
  const lessonBox = document.getElementById("lesson");
  const storeKey = `clacks-seat:${code}`;
  const references = {};
  const moving = moveFromLink();
  let held = fromLink() || load();
  let linkOpen = false;
  let linkShown = ""; // the seat's move link while its box stays open across redraws
  let state = null;
  let stream = null;
  let ref = null;
  let previewTimer = null;
  let lostSeat = false;
  // the game's log as this seat may read it (its own private details included)
  const gameLog = new Clacks.GameLog(code, () => held);
  let legal = { revision: -1, seat: null, actions: null, asked: null };
  let hint = { revision: -1, seat: null, plan: null }; // the hint asked for, for one revision
  let drawnKey = null; // what the page last drew, to skip redrawing the same
  let menuOpen = false;
  const whyBox = document.getElementById("why");
  const checked = new Map(); // "revision:action" -> the engine's answer to POST .../check
  let whyTimer = null;
  let focusNext = null; // where the keyboard goes after the next drawing (a CSS selector)
  let acted = false; // this page just acted: after the drawing, focus stays in the game
  let restoring = false; // focus being put back by the page, not moved by the player
  let wasActive = null; // whether this seat was expected to act at the last snapshot
  let buzzedStep = -1; // the last feed step the phone vibrated for
  // A drawing replaces the buttons: one landing between a finger going down and lifting
  // (a push from another device, the legal moves arriving) would swallow the tap, so it
  // waits until the finger lifts and the tap has been handled.
  let pressing = false;
  let drawWaits = false;
  // A tap acts on what the page showed: while a drawing waits, the state taken in may be
  // newer than the buttons, and a tap (the second of a double tap) must not be sent with
  // that newer revision, or the companion would take it for a new request.
  let drawnRevision = null;
  const shownRevision = () => (drawnRevision === null ? state.revision : drawnRevision);
  main.addEventListener("pointerdown", () => { pressing = true; }, true);
  for (const lifted of ["pointerup", "pointercancel"]) {
    window.addEventListener(lifted, () => {
      pressing = false;
      if (drawWaits) {
        drawWaits = false;
        setTimeout(() => render().then(() => buzzIfCalled()), 0);
      }
    }, true);
  }
  let standPick = null; // at a convention stand: the game the visitor picked, before choosing how to play
  let standEnded = false; // the stand ended this phone's game: the choices say why

  function load() {
    try {
      return JSON.parse(localStorage.getItem(storeKey)) || null;
    } catch (err) {
      return null;
    }
  }

  // What a link says after the "#", which browsers never send to the server: the seat and
  // its ``key`` (the seat's token, or a ticket to move it here), taken out of the address
  // bar at once; null when the link has not both.
  function fromHash(key) {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const seat = params.get("seat");
    const value = params.get(key);
    if (!seat || !value) return null;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    return { seat, value };
  }

  // A seat's own link carries its token: it is kept like a claimed seat.
  function fromLink() {
    const found = fromHash("token");
    if (!found) return null;
    const seatHeld = { seat: found.seat, token: found.value };
    localStorage.setItem(storeKey, JSON.stringify(seatHeld));
    return seatHeld;
  }

  // A link that moves the seat here, to be redeemed for a token of this device's own (the
  // device that asked for it loses the seat).
  function moveFromLink() {
    const found = fromHash("move");
    return found && { seat: found.seat, ticket: found.value };
  }

  // The seat's own link, asked for when the "move" box is opened: a new one voids the last.
  async function seatLink() {
    linkShown = "";
    try {
      const answer = await api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/move`, {}, held.token);
      const params = new URLSearchParams({ seat: answer.seat, move: answer.ticket });
      linkShown = `${window.location.origin}/join/${encodeURIComponent(code)}#${params}`;
    } catch (err) {
      showError(err.body);
    }
    const input = document.querySelector(".seat-link input");
    if (input) input.value = linkShown;
  }

  function save(value) {
    held = value;
    if (value) localStorage.setItem(storeKey, JSON.stringify(value));
    else localStorage.removeItem(storeKey);
  }

  function showError(error) {
    if (error && error.error === "network") error = null;  // the offline banner says it
    errorBox.textContent = error ? Clacks.describeError(error) : "";
    errorBox.hidden = !error;
    placeNotes();
    if (error) errorBox.focus();
  }

  // The notes over the screen (an error, why a control is greyed) sit below the seat's
  // header (its name, Leave seat, the menu) and the lesson's step, never over them.
  function placeNotes() {
    const header = document.querySelector("header.top");
    const above = [header, lessonBox].filter((node) => node && node.getClientRects().length)
      .map((node) => node.getBoundingClientRect().bottom);
    document.body.style.setProperty("--notes-top", `${Math.ceil(Math.max(0, ...above)) + 4}px`);
  }

  async function reference(game) {
    if (!references[game]) references[game] = await api("GET", `/games/${encodeURIComponent(game)}/reference`);
    return references[game];
  }

  function connect() {
    if (stream) stream.close();
    stream = Clacks.follow(code, held && held.seat, held && held.token, onState, { onRetry: checkSeat });
  }

  // A stream that keeps failing may be refused (the seat was freed meanwhile): ask once
  // whether the seat is still this phone's, and watch as a spectator if it is not.
  async function checkSeat(failures) {
    if (failures === 3 && held && !(await stillHeld())) connect();
  }

  // Whether the companion still takes this phone's token for its seat; if it does not
  // (the seat freed, the table gone) the phone forgets the seat and says it lost it.
  async function stillHeld() {
    try {
      await api("GET", `/rooms/${code}?seat=${encodeURIComponent(held.seat)}`, undefined, held.token);
    } catch (err) {
      // 409: no game on the table any more (at a stand: it ended while the page was away)
      if (err.status === 403 || err.status === 404 || err.status === 409) {
        save(null);
        lostSeat = true;
        return false;
      }
    }
    return true;
  }

  async function start() {
    if (moving) {
      try {
        const claimed = await api("POST", `/rooms/${code}/seats/${encodeURIComponent(moving.seat)}`,
          { ticket: moving.ticket });
        save({ seat: claimed.seat, token: claimed.token });
      } catch (err) {
        showError(err.body);
      }
    }
    if (held) await stillHeld();
    connect();
  }

  // The phone speaks the table's language until its player picks one (the language menu
  // adds ?lang=, which the companion keeps in a cookie): when the table changes language
  // the page is loaded again in it, once per language.
  function followTableLanguage(next) {
    const wanted = next.room && next.room.language;
    if (!wanted || wanted === Clacks.lang) return false;
    const picked = new URL(window.location.href).searchParams.has("lang")
      || document.cookie.split("; ").some((c) => c.startsWith("lang="));
    if (picked || sessionStorage.getItem("clacks-followed-language") === wanted) return false;
    sessionStorage.setItem("clacks-followed-language", wanted);
    window.location.reload();
    return true;
  }

  function onState(next) {
    if (followTableLanguage(next)) return;
    gameLog.take(next);
    const before = state;
    state = next;
    document.body.dataset.received = next.revision;  // taken in, though maybe not yet drawn
    // the stand's game ended: a refusal still on the screen was about that game
    if (next.room.stand && !next.view && before && before.view) showError(null);
    if (held && !next.view && next.room.stand) {
      // the stand's game ended (idle, finished or left): the seat went with it
      const ended = next.room.stand.ended;
      standEnded = Boolean(ended && before && ended.game_number === before.room.game_number);
      save(null);
      connect();
      return;
    }
    if (held && next.view && next.seat && next.seat !== held.seat) {
      // a lesson took this phone's player into its learner's seat: the page follows
      save({ seat: next.seat, token: held.token });
      connect();
      return;
    }
    if (held && next.view && next.seat !== held.seat) {
      // the token no longer holds the seat (a new game without it, or it was given up)
      save(null);
      lostSeat = true;
      connect();
      return;
    }
    // Draw again only when something this page shows has changed: redrawing replaces
    // the buttons, and a tap landing just then (e.g. as this phone's own preview comes
    // back from the server) would be lost.
    const key = shownKey(next);
    if (key === drawnKey && !next.fresh) return;
    drawnKey = key;
    if (whyBox && !whyBox.hidden && whyBox.dataset.revision !== String(next.revision)) hideWhy();
    render().then(() => buzzIfCalled());
  }

  // The phone vibrates (where the browser can) when this seat's turn begins or when
  // something is done to it (a Fault Report that cut its stress, a sabotage).
  function buzzIfCalled() {
    if (!held || !state || !state.view) return;
    const first = wasActive === null;
    const active = (state.active || []).includes(held.seat);
    const turnBegins = !first && !wasActive && active;
    wasActive = active;
    const toMeNow = feedItems().filter(({ step, event }) => toMe(step, event) && step.seat !== held.seat);
    const latest = toMeNow.length ? toMeNow[toMeNow.length - 1].step.step : -1;
    const doneToMe = !first && latest > buzzedStep;
    buzzedStep = Math.max(buzzedStep, latest);
    if ((turnBegins || doneToMe) && typeof navigator.vibrate === "function") {
      navigator.vibrate(turnBegins ? [120, 60, 120] : [60, 40, 60, 40, 60]);
    }
  }

  function shownKey(snapshot) {
    const mine = held && snapshot.preview && snapshot.preview.seat === held.seat;
    return JSON.stringify([
      snapshot.revision, snapshot.room.game_number, snapshot.room.seats, snapshot.room.hints, snapshot.seat,
      snapshot.notice, mine ? null : snapshot.preview, snapshot.active, snapshot.over,
      snapshot.can_undo, snapshot.deadline, snapshot.lamps, snapshot.view, gameLog.version, feedDismissed(),
    ]);
  }

  async function render() {
    if (!state) return;
    if (pressing) {
      drawWaits = true;
      return;
    }
    document.body.classList.toggle("seated", Boolean(held && state.view));
    if (!held || !state.view) {
      lessonBox.replaceChildren();
      document.body.classList.remove("in-lesson");
    }
    if (state.room.stand && (!state.view || (!held && state.over))) {
      renderStand();
      return;
    }
    if (!state.view) {
      who.textContent = "";
      main.replaceChildren(el("p", { class: "waiting" }, t("ui.waiting_game")));
      return;
    }
    if (!held) {
      await renderSeatPicker();
      return;
    }
    const game = Clacks.games[state.room.game];
    ref = await reference(state.room.game);
    const seatInfo = state.room.seats.find((s) => s.id === held.seat) || {};
    const label = t(`seat.${held.seat}`);
    who.replaceChildren(
      el("span", { class: "who-name" },
        seatInfo.name && seatInfo.name !== label ? t("ui.you_are", { seat: label, name: seatInfo.name }) : label),
      el("button", { type: "button", class: "link", "data-action": "leave", onclick: leave }, t("ui.leave_seat")),
      seatMenu());
    if (state.room.stand && state.room.stand.waiting) {
      // a stand's table waiting for its players: nothing is dealt or rolled before they sit
      lessonBox.replaceChildren();
      main.replaceChildren(...[standWaiting()].filter(Boolean));
      drawnRevision = state.revision;
      document.body.dataset.revision = state.revision;
      return;
    }
    const controller = game.phoneController(page);
    // the latest public events, for a game's own "what happened" panel
    const log = gameLog.steps().slice(-20).flatMap((step) => step.events).slice(-40);
    const focus = focusToKeep();
    const lesson = Clacks.tutorial.phonePanel(state, held.seat, afterLesson);
    lessonBox.replaceChildren(...[lesson].filter(Boolean));
    document.body.classList.toggle("in-lesson", Boolean(lesson));
    main.replaceChildren(...[standWaiting(), feedPanel(game), game.phone({ state, ref, seat: held.seat, log, legal: legalActions,
                                                            hints: hints(), explain, ...controller })].filter(Boolean));
    if (lesson) Clacks.tutorial.reveal(main);
    placeNotes();
    restoreFocus(focus);
    drawnRevision = state.revision;
    document.body.dataset.revision = state.revision;  // what the page shows, for people and tests
  }

  // The seat's menu: the language, and the link that moves the seat to another device.
  function seatMenu() {
    // the link is a one-time ticket, asked for when the box opens: it moves the seat
    const linkInput = el("input", { readonly: true, value: linkOpen ? linkShown : "", "aria-label": t("phone.seat_link"),
                                    onfocus: (event) => event.target.select() });
    const link = el("details", { class: "seat-link", open: linkOpen },
      el("summary", {}, t("phone.seat_link")), el("p", { class: "hint" }, t("phone.seat_link_hint")),
      el("p", { class: "hint" }, t("phone.seat_link_once")), linkInput);
    link.addEventListener("toggle", () => {
      const opening = link.open && !linkOpen;
      linkOpen = link.open;
      if (opening) seatLink();
    });
    const menu = el("details", { class: "seat-menu", open: menuOpen },
      el("summary", { "data-action": "menu", "aria-label": t("phone.menu") }, "⋯"),
      el("div", { class: "seat-menu-body" }, Clacks.languageSwitcher(), link));
    menu.addEventListener("toggle", () => { menuOpen = menu.open; });
    return menu;
  }

  // ------------------------------------------------------------------ focus
  // Drawing the page again replaces its controls; the keyboard's place is kept: on the
  // same control when it is still there and usable, where the game asked it to go next
  // (the board after choosing a card, Play after placing it), and after an action on
  // the turn's prompt rather than the page's body.

  function focusKey(node) {
    if (!node || node === document.body || !main.contains(node)) return null;
    const target = node.closest("[data-focus], [data-action], [data-lamp], [data-tower], [data-card], [data-slot], [id]");
    if (!target) return null;
    for (const name of ["focus", "action", "lamp", "tower"]) {
      if (target.dataset[name]) return `[data-${name}="${target.dataset[name]}"]`;
    }
    const card = target.closest("[data-card]");
    if (card) return `[data-card="${card.dataset.card}"] button`;
    const slot = target.closest("[data-slot]");
    if (slot) return `[data-slot="${slot.dataset.slot}"] button`;
    return target.id ? `#${target.id}` : null;
  }

  function focusToKeep() {
    const wanted = focusNext;
    focusNext = null;
    const active = document.activeElement;
    const inside = active && active !== document.body && main.contains(active);
    if (!wanted && !inside && !acted) return null;
    return { wanted, same: focusKey(active) };
  }

  function restoreFocus(focus) {
    acted = false;
    if (!focus) return;
    const usable = (selector) => {
      const found = selector && main.querySelector(selector);
      return found && found.getAttribute("aria-disabled") !== "true" && !found.disabled ? found : null;
    };
    const target = usable(focus.wanted) || (focus.wanted && main.querySelector(focus.wanted))
      || usable(focus.same) || main.querySelector(".prompt");
    if (!target || target === document.activeElement) return;
    restoring = true;
    target.focus({ preventScroll: true });
    restoring = false;
  }

  // ------------------------------------------------------------------ why not
  // A control out of reach says why when tapped or focused: the engine's reason for
  // the action it stands for (POST .../check, once per action and revision), or the
  // game's own words when there is no action to ask about yet.

  async function explain(action, words) {
    if (restoring) return;
    if (!action || !held) {
      showWhy(words || "");
      return;
    }
    const key = `${state.revision}:${JSON.stringify(action)}`;
    if (!checked.has(key)) {
      if (checked.size > 200) checked.clear();
      // a tap both focuses and clicks: one question for both
      checked.set(key, api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/check`,
        { action }, held.token));
    }
    let answer;
    try {
      answer = await checked.get(key);
    } catch (err) {
      checked.delete(key);
      showError(err.body);
      return;
    }
    if (!answer.allowed) showWhy(Clacks.describeError(answer.error));
    else showWhy(words || t("phone.why_checking"));
  }

  if (whyBox) whyBox.addEventListener("click", () => hideWhy());
  // while seated the error is a note over the top of the screen, like "why": gone with a tap
  errorBox.addEventListener("click", () => { if (document.body.classList.contains("seated")) showError(null); });

  function showWhy(words) {
    if (!whyBox || !words) return;
    whyBox.textContent = words;
    whyBox.dataset.revision = state ? String(state.revision) : "";
    placeNotes();
    whyBox.hidden = false;
    clearTimeout(whyTimer);
    whyTimer = setTimeout(hideWhy, 9000);
  }

  function hideWhy() {
    if (!whyBox) return;
    clearTimeout(whyTimer);
    whyBox.hidden = true;
    whyBox.textContent = "";
  }

  // ------------------------------------------------------------------ the feed
  // What happened since this seat's last action, in words, until the player dismisses
  // it: the others' moves, and above all what they did to this seat (a Fault Report
  // that cut its stress, a sabotage, a card handed over) and what it drew itself.

  function feedKey() {
    return `clacks-feed:${code}:${held.seat}:${state.room.game_number}`;
  }

  function feedDismissed() {
    if (!held || !state) return -1;
    return Number(localStorage.getItem(feedKey()) || -1);
  }

  // (step, event) pairs: what this seat alone was told by its own last action (the
  // cards it drew), then everything the others and the table did after it.
  function feedItems() {
    const seat = held.seat;
    const own = gameLog.lastOwn(seat);
    const dismissed = feedDismissed();
    const items = [];
    for (const step of gameLog.steps()) {
      if (step.step <= dismissed || (own !== null && step.step < own)) continue;
      const mine = step.seat === seat;
      if (mine && step.step !== own) continue;
      if (!mine && own === null && step.step === 0) continue;
      for (const event of step.events) if (!mine || event.own) items.push({ step, event });
    }
    return items;
  }

  // An event done to this seat by another (or telling it its own secret).
  function toMe(step, event) {
    const seat = held.seat;
    if (event.own) return true;
    return step.seat !== seat && [event.seat, event.target, event.to].includes(seat);
  }

  function feedPanel(game) {
    const found = feedItems();
    if (!found.length) return null;
    const describe = (event) => (game.describeEvent ? game.describeEvent(state, event) : event.kind);
    const last = found[found.length - 1].step.step;
    const items = found.map(({ step, event }) => {
      const mine = toMe(step, event);
      return el("li", { class: mine ? "to-you" : null, "data-step": step.step, "data-kind": event.kind },
        mine ? el("strong", {}, describe(event)) : describe(event));
    });
    const dismiss = el("button", { type: "button", class: "secondary", "data-action": "dismiss-feed", onclick: () => {
      localStorage.setItem(feedKey(), String(last));
      render();
    } }, t("phone.feed_dismiss"));
    // in the order it happened, in a box of a few lines scrolled to the latest: the turn's
    // screen stays one screen, and reading up goes back in time
    const list = el("ul", { class: "feed-list", tabindex: 0, "aria-labelledby": "feed-title" }, items);
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
    return el("section", { class: "feed notice", id: "feed", role: "status", "aria-labelledby": "feed-title" },
      el("h2", { id: "feed-title", class: "visually-hidden" }, t("phone.feed_title")), list, dismiss);
  }

  // The actions the engine allows this seat now (GET .../legal), fetched once per
  // revision; null until they arrive, when the page is drawn again with them.
  function legalActions() {
    if (!held || !state || !state.view) return null;
    if (legal.revision === state.revision && legal.seat === held.seat) return legal.actions;
    if (legal.asked !== state.revision) {
      const seat = held.seat;
      legal.asked = state.revision;
      api("GET", `/rooms/${code}/seats/${encodeURIComponent(seat)}/legal`, undefined, held.token)
        .then((answer) => {
          legal = { revision: answer.revision, seat, actions: answer.actions, asked: null };
          if (state && state.revision === answer.revision) render();
        })
        .catch(() => { legal.asked = null; });
    }
    return null;
  }

  // Hints: offered when the table allows them and the game's rules do (not in Long
  // Distance); ``current`` is the plan asked for, while the game is as it was then.
  function hints() {
    const on = Boolean(state.room.hints) && state.view.hints_allowed !== false;
    const fresh = hint.plan && hint.revision === state.revision && hint.seat === held.seat;
    // ``changes``: the lamps the plan changes, as the engine counts them (its preview)
    return { on, current: on && fresh ? hint.plan : null, changes: on && fresh ? hint.changes : null,
             ask: askHint, dismiss: dismissHint, doFirst: doHint };
  }

  async function askHint() {
    showError(null);
    const seat = held.seat;
    try {
      const answer = await api("POST", `/rooms/${code}/seats/${encodeURIComponent(seat)}/hint`, {}, held.token);
      hint = { revision: answer.revision, seat, plan: answer.hint, changes: answer.frame ? answer.frame.preview : null };
    } catch (err) {
      showError(err.body);
    }
    render();
  }

  function dismissHint() {
    hint = { revision: -1, seat: null, plan: null };
    page.preview(null);
    render();
  }

  async function doHint() {
    const plan = hint.plan;
    if (plan && await page.act(plan.actions[0])) hint = { revision: -1, seat: null, plan: null };
    render();
  }

  // At a convention stand, while seats of a game without bots wait for visitors: how many.
  function standWaiting() {
    if (!state.room.stand || state.over) return null;
    const free = state.room.seats.filter((s) => !s.claimed && !s.bot).length;
    return free ? el("p", { class: "notice stand-waiting", id: "stand-waiting", role: "status" },
      t("stand.waiting_players", { count: free })) : null;
  }

  // A convention stand with no game on (or a finished one): the stand's own choices.
  function renderStand() {
    who.textContent = "";
    const pick = (id) => { standPick = id; standEnded = false; lostSeat = false; render(); };
    const started = (answer) => {
      save({ seat: answer.seat, token: answer.token });
      lostSeat = false;
      standEnded = false;
      standPick = null;
      connect();
    };
    // why this phone's game is gone: the stand ended it (seen here, or while away)
    const ended = standEnded || lostSeat ? Clacks.stand.endedNote(state.room.stand) : null;
    main.replaceChildren(...[ended, ...Clacks.stand.choices(state.room.stand, code, standPick, pick, started, showError)]
      .filter(Boolean));
    document.body.dataset.revision = state.revision;
  }

  async function renderSeatPicker() {
    who.textContent = "";
    const game = Clacks.games[state.room.game];
    ref = await reference(state.room.game);
    const nameInput = el("input", { id: "player-name", name: "name", maxlength: 24, autocomplete: "nickname",
                                    value: localStorage.getItem("clacks-name") || "" });
    const list = el("ul", { class: "seat-picker" });
    // the seats the table named are taken by their name; a name is asked for only when
    // a free seat has none
    // at a convention stand a visitor takes over a bot's seat, but for a lesson's opponent
    const stand = Boolean(state.room.stand);
    const lesson = Boolean(state.view && state.view.tutorial);
    const takesOver = stand && !lesson;
    const free = state.room.seats.filter((seat) => !seat.claimed && (!seat.bot || takesOver));
    const askName = free.some((seat) => !seat.name);
    for (const seat of state.room.seats) {
      const label = t(`seat.${seat.id}`);
      let words = seat.name ? t("ui.take_named_seat", { seat: label, name: seat.name }) : t("ui.take_seat", { seat: label });
      if (seat.bot && stand && lesson) words = t("stand.lesson_bot_seat", { seat: label });
      else if (seat.bot) {
        words = stand ? t("stand.take_over_seat", { seat: label, level: Clacks.botLevel(seat.bot) })
          : t("bots.taken", { seat: label, level: Clacks.botLevel(seat.bot) });
      }
      else if (seat.claimed) words = t("ui.taken", { seat: label, name: seat.name || label });
      list.append(el("li", {}, el("button", {
        type: "button",
        class: "primary big",
        "data-seat": seat.id,
        disabled: seat.claimed || (Boolean(seat.bot) && !takesOver),
        onclick: () => claim(seat.id, seat.name || nameInput.value, !seat.name),
      }, el("span", { class: `shape ${seat.colour}`, "aria-hidden": "true" }), words)));
    }
    main.replaceChildren(
      ...(lostSeat ? [el("p", { class: "notice" }, t("ui.lost_seat"))] : []),
      el("h2", {}, t("ui.pick_seat")),
      askName ? el("label", { class: "field", for: "player-name" }, el("span", {}, t("ui.your_name")), nameInput) : null,
      list,
      stand && !free.length ? el("p", { class: "notice", id: "stand-full" }, t("stand.game_full")) : "",
      el("p", { class: "hint" }, t("ui.watching_only")),
      // watch the table meanwhile (a stand's table waiting for its players has none yet)
      stand && state.room.stand.waiting ? "" : game.table({ state, ref, press: null }),
    );
    document.body.dataset.revision = state.revision;
  }

  async function claim(seat, name, typed) {
    showError(null);
    if (typed) localStorage.setItem("clacks-name", name);
    try {
      const claimed = await api("POST", `/rooms/${code}/seats/${encodeURIComponent(seat)}`, { name });
      save({ seat: claimed.seat, token: claimed.token });
      lostSeat = false;
      connect();
    } catch (err) {
      showError(err.body);
    }
  }

  // The lesson is over: its learner starts the real game it leads to, in the same seat.
  async function afterLesson() {
    showError(null);
    try {
      await api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/after-lesson`, {}, held.token);
    } catch (err) {
      showError(err.body);
    }
  }

  async function leave() {
    if (!held) return;
    try {
      await api("DELETE", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}`, undefined, held.token);
    } catch (err) {
      // the seat may already be gone; forget it here either way
    }
    save(null);
    connect();
  }

  // A double tap sends the same request twice against the same state: the same key, so
  // the companion plays it once and answers both alike (no "the game has changed").
  function tapKey(kind, body) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < body.length; i++) {
      hash = Math.imul(hash ^ body.charCodeAt(i), 0x01000193) >>> 0;
    }
    return `${kind}-${shownRevision()}-${hash.toString(36)}`;
  }

  const page = {
    state: () => state,
    ref: () => ref,
    seat: () => held && held.seat,
    redraw: () => render(),
    // where the keyboard goes once the page is drawn again (a CSS selector)
    focus(selector) { focusNext = selector; },
    async act(action) {
      showError(null);
      acted = true;
      try {
        await api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/actions`,
          { action, revision: shownRevision() }, held.token,
          { "Idempotency-Key": tapKey("act", JSON.stringify(action)) });
        return true;
      } catch (err) {
        showError(err.body);
        return false;
      }
    },
    async undo() {
      showError(null);
      acted = true;
      try {
        await api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/undo`,
          { revision: shownRevision() }, held.token, { "Idempotency-Key": tapKey("undo", "") });
      } catch (err) {
        showError(err.body);
      }
    },
    preview(action, onFrame) {
      // coalesce quick taps: only the latest placement is sent; ``onFrame`` hears what
      // it would change (the lamps a Fault Report flips or sets)
      clearTimeout(previewTimer);
      previewTimer = setTimeout(() => {
        api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/preview`, { action }, held.token)
          .then((answer) => { if (onFrame) onFrame(answer.frame); })
          .catch(() => {});
      }, 60);
    },
  };

  start();
})();
