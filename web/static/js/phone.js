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

  function load() {
    try {
      return JSON.parse(localStorage.getItem(storeKey)) || null;
    } catch (err) {
      return null;
    }
  }

  // A seat's own link carries its token after the "#", which browsers never send to the
  // server; it is kept like a claimed seat and taken out of the address bar at once.
  function fromLink() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const seat = params.get("seat");
    const token = params.get("token");
    if (!seat || !token) return null;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    localStorage.setItem(storeKey, JSON.stringify({ seat, token }));
    return { seat, token };
  }

  // A link that moves the seat here: taken out of the address bar at once, and redeemed
  // for a token of this device's own (the device that asked for it loses the seat).
  function moveFromLink() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const seat = params.get("seat");
    const ticket = params.get("move");
    if (!seat || !ticket) return null;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    return { seat, ticket };
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
    const input = main.querySelector(".seat-link input");
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
    if (error) errorBox.focus();
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
    if (failures !== 3 || !held) return;
    try {
      await api("GET", `/rooms/${code}?seat=${encodeURIComponent(held.seat)}`, undefined, held.token);
    } catch (err) {
      if (err.status === 403 || err.status === 404) {
        save(null);
        lostSeat = true;
        connect();
      }
    }
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
    if (held) {
      try {
        await api("GET", `/rooms/${code}?seat=${encodeURIComponent(held.seat)}`, undefined, held.token);
      } catch (err) {
        if (err.status === 403 || err.status === 404) {
          save(null);
          lostSeat = true;
        }
      }
    }
    connect();
  }

  function onState(next) {
    gameLog.take(next);
    state = next;
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
    render();
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
      seatInfo.name && seatInfo.name !== label ? t("ui.you_are", { seat: label, name: seatInfo.name }) : label, " ",
      el("button", { type: "button", class: "link", onclick: leave }, t("ui.leave_seat")));
    const controller = game.phoneController(page);
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
    // the latest public events, for a game's own "what happened" panel
    const log = gameLog.steps().slice(-20).flatMap((step) => step.events).slice(-40);
    main.replaceChildren(...[feedPanel(game), game.phone({ state, ref, seat: held.seat, log, legal: legalActions,
                                                            hints: hints(), ...controller }), link].filter(Boolean));
    document.body.dataset.revision = state.revision;  // what the page shows, for people and tests
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
    return el("section", { class: "feed notice", id: "feed", role: "status", "aria-labelledby": "feed-title" },
      el("h2", { id: "feed-title" }, t("phone.feed_title")),
      el("ul", { class: "feed-list" }, items), dismiss);
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
    return { on, current: on && fresh ? hint.plan : null, ask: askHint, dismiss: dismissHint, doFirst: doHint };
  }

  async function askHint() {
    showError(null);
    const seat = held.seat;
    try {
      const answer = await api("POST", `/rooms/${code}/seats/${encodeURIComponent(seat)}/hint`, {}, held.token);
      hint = { revision: answer.revision, seat, plan: answer.hint };
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

  async function renderSeatPicker() {
    who.textContent = "";
    const game = Clacks.games[state.room.game];
    ref = await reference(state.room.game);
    const nameInput = el("input", { id: "player-name", name: "name", maxlength: 24, autocomplete: "nickname",
                                    value: localStorage.getItem("clacks-name") || "" });
    const list = el("ul", { class: "seat-picker" });
    for (const seat of state.room.seats) {
      const label = t(`seat.${seat.id}`);
      let words = t("ui.take_seat", { seat: label });
      if (seat.bot) words = t("bots.taken", { seat: label, level: Clacks.botLevel(seat.bot) });
      else if (seat.claimed) words = t("ui.taken", { seat: label, name: seat.name || label });
      list.append(el("li", {}, el("button", {
        type: "button",
        class: "primary big",
        "data-seat": seat.id,
        disabled: seat.claimed || Boolean(seat.bot),
        onclick: () => claim(seat.id, nameInput.value),
      }, el("span", { class: `shape ${seat.colour}`, "aria-hidden": "true" }), words)));
    }
    main.replaceChildren(
      ...(lostSeat ? [el("p", { class: "notice" }, t("ui.lost_seat"))] : []),
      el("h2", {}, t("ui.pick_seat")),
      el("label", { class: "field", for: "player-name" }, el("span", {}, t("ui.your_name")), nameInput),
      list,
      el("p", { class: "hint" }, t("ui.watching_only")),
      game.table({ state, ref, press: null }),  // watch the table meanwhile
    );
    document.body.dataset.revision = state.revision;
  }

  async function claim(seat, name) {
    showError(null);
    localStorage.setItem("clacks-name", name);
    try {
      const claimed = await api("POST", `/rooms/${code}/seats/${encodeURIComponent(seat)}`, { name });
      save({ seat: claimed.seat, token: claimed.token });
      lostSeat = false;
      connect();
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
    return `${kind}-${state.revision}-${hash.toString(36)}`;
  }

  const page = {
    state: () => state,
    ref: () => ref,
    seat: () => held && held.seat,
    redraw: () => render(),
    async act(action) {
      showError(null);
      try {
        await api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/actions`,
          { action, revision: state.revision }, held.token,
          { "Idempotency-Key": tapKey("act", JSON.stringify(action)) });
        return true;
      } catch (err) {
        showError(err.body);
        return false;
      }
    },
    async undo() {
      showError(null);
      try {
        await api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/undo`,
          { revision: state.revision }, held.token, { "Idempotency-Key": tapKey("undo", "") });
      } catch (err) {
        showError(err.body);
      }
    },
    preview(action) {
      // coalesce quick taps: only the latest placement is sent
      clearTimeout(previewTimer);
      previewTimer = setTimeout(() => {
        api("POST", `/rooms/${code}/seats/${encodeURIComponent(held.seat)}/preview`, { action }, held.token)
          .catch(() => {});
      }, 60);
    },
  };

  start();
})();
