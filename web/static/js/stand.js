// A convention stand (clacks serve --stand): the table screen's attract programme while
// no game is on, and the visitor's choice on the phone. Only the stand's own choices are
// offered (GET /api/rooms/{code}/stand, also in every snapshot as room.stand); starting
// one seats the visitor at once (POST /api/rooms/{code}/stand/games).
"use strict";

(() => {
  const { t, el, api } = Clacks;

  // "Clacks — Junior Race": the game, and its mode where the game has several.
  function entryTitle(entry) {
    const game = Clacks.has(`game.${entry.game}`) ? t(`game.${entry.game}`) : entry.game;
    if (!entry.mode || entry.mode === entry.game) return game;
    const mode = Clacks.has(`mode.${entry.mode}`) ? t(`mode.${entry.mode}`) : entry.mode;
    return `${game} — ${mode}`;
  }

  // The games on offer, each named once (a game's modes are chosen on the phone).
  function gameNames(stand) {
    const names = stand.entries.map((e) => (Clacks.has(`game.${e.game}`) ? t(`game.${e.game}`) : e.game));
    return [...new Set(names)];
  }

  // The table screen with no game on: scan to play, large enough to scan across a stand.
  // With ``waiting`` ({ count, game }), a table waiting for its players: scan to join it.
  function attract(stand, waiting) {
    const code = document.body.dataset.code;
    const wifi = document.querySelector(".join .wifi-qr");
    const ssid = document.getElementById("wifi-ssid");
    const codes = [];
    if (wifi) {
      codes.push(el("figure", { class: "stand-code" },
        el("img", { src: wifi.getAttribute("src"), alt: wifi.getAttribute("alt"), width: 320, height: 320 }),
        el("figcaption", {}, el("span", { class: "step" }, "1"), " ", t("stand.wifi_first", { ssid: ssid ? ssid.textContent : "" }))));
    }
    codes.push(el("figure", { class: "stand-code" },
      el("img", { src: `/qr/${encodeURIComponent(code)}.svg`, alt: t("stand.qr_alt"), width: 320, height: 320 }),
      el("figcaption", {}, wifi ? el("span", { class: "step" }, "2") : "", wifi ? " " : "", t("stand.scan_caption"))));
    if (waiting) {
      return el("section", { class: "stand-attract", id: "stand-gathering", "aria-labelledby": "stand-title" },
        el("h2", { id: "stand-title" }, t("stand.gathering_title", { count: waiting.count })),
        el("p", { class: "stand-lead" }, t("stand.gathering_lead", { game: waiting.game })),
        el("div", { class: "stand-codes" }, codes));
    }
    return el("section", { class: "stand-attract", id: "stand-attract", "aria-labelledby": "stand-title" },
      el("h2", { id: "stand-title" }, t("stand.scan_to_play")),
      el("p", { class: "stand-lead" }, t("stand.lead")),
      el("div", { class: "stand-codes" }, codes),
      el("p", { class: "stand-games" }, t("stand.games_here", { games: gameNames(stand).join(", ") })));
  }

  // The table screen while a table for several visitors waits for them to sit.
  function gathering(state) {
    const count = (state.room.seats || []).filter((s) => !s.claimed && !s.bot).length;
    const game = Clacks.has(`game.${state.room.game}`) ? t(`game.${state.room.game}`) : state.room.game;
    return attract(state.room.stand, { count, game });
  }

  // A text that names the stand's idle time: in minutes where it is whole minutes,
  // else in seconds (``key`` in minutes, ``key_seconds`` in seconds).
  function withIdleTime(key, stand) {
    const seconds = Math.max(1, Math.round(stand.idle_seconds));
    return seconds % 60 === 0 ? t(key, { minutes: seconds / 60 }) : t(`${key}_seconds`, { seconds });
  }

  // Over a game at the stand: who may still join, and when an idle game ends.
  function tableNote(state) {
    const seats = state.room.seats || [];
    const free = seats.filter((s) => !s.claimed && !s.bot).length;
    const bots = seats.filter((s) => s.bot).length;
    let join = "";
    if (!state.over && free) join = t("stand.seats_free", { count: free });
    else if (!state.over && bots) join = t("stand.take_over", { count: bots });
    const end = state.over ? t("stand.after_finish") : withIdleTime("stand.idle_end", state.room.stand);
    return el("p", { class: "stand-note", id: "stand-note", role: "status" }, join ? `${join} ` : "", end);
  }

  // On the phone of a visitor whose game the stand ended: why it ended.
  function endedNote(stand) {
    const ended = stand.ended;
    if (!ended) return null;
    const words = ended.reason === "idle" ? withIdleTime("stand.ended_idle", stand) : t(`stand.ended_${ended.reason}`);
    return el("p", { class: "notice", id: "stand-ended", role: "status" }, words);
  }

  // What a choice says on the phone, and what its button says.
  function choiceWords(choice, players) {
    if (choice.kind === "learn") return [t("stand.learn"), t("stand.learn_about")];
    if (choice.kind === "alone") return [t("stand.alone"), t("stand.alone_about")];
    if (choice.kind === "bots") return [t("stand.bots"), t("stand.bots_about")];
    return [t("stand.table", { count: players }), t("stand.table_about", { count: players })];
  }

  // The visitor's choice: a game (where the stand offers several), then how to play it.
  // ``started`` gets the seat and token the companion handed over.
  function choices(stand, code, picked, onPick, started, showError) {
    const entries = stand.entries;
    const nameInput = el("input", { id: "stand-name", name: "name", maxlength: 24, autocomplete: "nickname",
                                    value: localStorage.getItem("clacks-name") || "" });
    const nameField = el("label", { class: "field", for: "stand-name" }, el("span", {}, t("stand.your_name")), nameInput);
    const entry = entries.length === 1 ? entries[0] : entries.find((e) => e.id === picked);
    if (!entry) {
      return [
        el("h2", {}, t("stand.welcome")),
        el("p", { class: "hint" }, t("stand.pick_game")),
        el("ul", { class: "stand-entries" }, entries.map((e) => el("li", {},
          el("button", { type: "button", class: "primary", "data-entry": e.id, onclick: () => onPick(e.id) }, entryTitle(e))))),
      ];
    }
    async function start(choice, players) {
      showError(null);
      const name = nameInput.value.trim();
      if (name) localStorage.setItem("clacks-name", name);
      try {
        const answer = await api("POST", `/rooms/${code}/stand/games`,
          { entry: entry.id, choice: choice.kind, players: players || undefined, name });
        started(answer);
      } catch (err) {
        showError(err.body);
      }
    }
    const options = entry.choices.map((choice) => {
      const many = choice.players.length > 1;
      const count = el("select", { name: `players-${choice.kind}`, "aria-label": t("stand.players") },
        choice.players.map((n) => el("option", { value: n }, t("stand.players_n", { count: n }))));
      const box = el("div", { class: "stand-choice", "data-choice": choice.kind });
      function draw() {
        const n = Number(count.value) || choice.players[0];
        const [label, about] = choiceWords(choice, n);
        box.replaceChildren(
          many ? el("label", { class: "field stand-players" }, el("span", {}, t("stand.players")), count) : "",
          el("button", { type: "button", class: "primary big", "data-start": choice.kind,
                         onclick: () => start(choice, choice.players.length ? n : null) }, label),
          el("p", { class: "hint" }, about));
      }
      count.addEventListener("change", draw);
      draw();
      return box;
    });
    return [
      el("h2", {}, entryTitle(entry)),
      nameField,
      ...options,
      entries.length > 1
        ? el("button", { type: "button", class: "secondary", "data-action": "stand-back", onclick: () => onPick(null) }, t("stand.other_game"))
        : "",
    ];
  }

  Clacks.stand = { attract, gathering, tableNote, endedNote, choices, entryTitle };
})();
