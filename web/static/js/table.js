// The table screen: the game as everyone sees it, the join code, the log, and the lobby
// where a new game is set up. It holds no seat, so it only ever gets the public view.
"use strict";

(() => {
  const { t, el, api } = Clacks;
  const page = document.body.dataset;
  const code = page.code;
  const gameBox = document.getElementById("game");
  const logList = document.getElementById("log-list");
  const rulesBox = document.getElementById("rules");
  const alphabetBox = document.getElementById("alphabet");
  const presence = document.getElementById("presence");
  const noticeBox = document.getElementById("notice");
  const lobby = document.getElementById("lobby");
  const liveBox = document.getElementById("live");
  const hardwareBox = document.getElementById("hardware");
  const references = {};
  let gamesInfo = null;
  let state = null;
  let log = [];
  let referenceFor = null;

  async function reference(game) {
    if (!references[game]) references[game] = await api("GET", `/games/${encodeURIComponent(game)}/reference`);
    return references[game];
  }

  async function press(tower) {
    try {
      await api("POST", `/rooms/${code}/buttons/${encodeURIComponent(tower)}`);
    } catch (err) {
      // the refusal also arrives as the snapshot's notice; show it at once anyway
      showNotice(err.body);
    }
  }

  function showNotice(error) {
    noticeBox.textContent = error ? Clacks.describeError(error) : "";
    noticeBox.hidden = !error;
  }

  async function render() {
    if (!state) return;
    renderPresence();
    const hardware = state.room.hardware;
    hardwareBox.textContent = hardware && hardware.warning ? hardware.warning : "";
    hardwareBox.hidden = !(hardware && hardware.warning);
    if (!state.view) {
      gameBox.replaceChildren(el("p", { class: "waiting" }, t("ui.no_game_yet")));
      if (!lobby.open) openLobby();
      return;
    }
    const game = Clacks.games[state.room.game];
    const ref = await reference(state.room.game);
    // the drawn tower buttons press the board's (through the board when one is attached)
    const ctx = { state, ref, press };
    gameBox.replaceChildren(game.table(ctx));
    if (referenceFor !== state.room.game) {
      const extras = game.extras(ctx);
      rulesBox.replaceChildren(extras.rules);
      alphabetBox.replaceChildren(extras.alphabet);
      // a game whose reference card is not the alphabet names its own
      alphabetBox.parentElement.querySelector("summary h2").textContent = extras.referenceTitle || t("ui.alphabet");
      referenceFor = state.room.game;
    }
    const describe = game.extras(ctx).describe;
    logList.replaceChildren(...log.slice(-80).reverse().map((e) => el("li", {}, describe(e))));
    document.body.dataset.revision = state.revision;
  }

  function renderPresence() {
    const seats = state.room.seats || [];
    presence.replaceChildren(
      ...seats.map((s) => el("li", { class: s.connected ? "online" : "offline" },
        el("span", { class: "dot", "aria-hidden": "true" }, s.connected ? "●" : "○"),
        `${s.name || t(`seat.${s.id}`)} — `,
        s.claimed ? t(s.connected ? "ui.connected" : "ui.not_connected") : t("ui.free"))),
      el("li", {}, t("ui.spectators", { count: state.room.spectators })),
    );
  }

  function onState(next) {
    const newGame = state && next.room.game_number !== state.room.game_number;
    if (newGame && lobby.open) lobby.close();
    if (next.fresh || !state || newGame) log = [...next.events];
    else log.push(...next.events);
    state = next;
    if (next.notice) showNotice(next.notice.error);
    else if (next.events.length) showNotice(null);
    render();
  }

  // ------------------------------------------------------------------ the lobby

  function field(label, input) {
    return el("label", { class: "field" }, el("span", {}, label), input);
  }

  async function openLobby() {
    if (!gamesInfo) gamesInfo = await api("GET", "/games");
    const form = el("form", { method: "dialog", class: "lobby-form" });
    const gameSelect = el("select", { name: "game" },
      gamesInfo.games.map((g) => el("option", { value: g.name }, t(`game.${g.name}`))));
    const modeSelect = el("select", { name: "mode" });
    const playersSelect = el("select", { name: "players" });
    const variantsBox = el("fieldset", { class: "variants" });
    const choicesBox = el("div", { class: "choices" });
    const seatsBox = el("fieldset", { class: "seat-setup" });
    const wordsChoice = el("fieldset", { class: "words-choice" },
      el("legend", {}, t("ui.words")),
      el("label", {}, el("input", { type: "radio", name: "words", value: "dealt", checked: true }), t("ui.words_dealt")),
      el("label", {}, el("input", { type: "radio", name: "words", value: "custom" }), t("ui.words_custom")));
    const seedInput = el("input", { name: "seed", type: "number", min: 0, inputmode: "numeric" });
    const langSelect = el("select", { name: "language" },
      gamesInfo.languages.map((l) => el("option", { value: l, selected: l === Clacks.lang }, t(`lang.${l}`))));
    const errorBox = el("p", { class: "error", role: "alert", hidden: true });

    const current = () => gamesInfo.games.find((g) => g.name === gameSelect.value);
    const mode = () => current().options.modes.find((m) => m.id === modeSelect.value);
    function fillModes() {
      modeSelect.replaceChildren(...current().options.modes.map((m) =>
        el("option", { value: m.id }, t(`mode.${m.id}`))));
      fillPlayers();
    }
    // A mode's choices: a list of values is a select, a range a number.
    function fillChoices() {
      const label = (key, fallback) => (Clacks.has(key) ? t(key) : fallback);
      choicesBox.replaceChildren(...Object.entries(mode().choices || {}).map(([name, spec]) => {
        const input = spec.choices
          ? el("select", { name: `choice-${name}` }, spec.choices.map((c) =>
            el("option", { value: c, selected: c === spec.default }, label(`choice.${name}.${c}`, c))))
          : el("input", { name: `choice-${name}`, type: "number", min: spec.min, max: spec.max, inputmode: "numeric",
                          required: true, value: spec.default ?? "" });
        return field(label(`choice.${name}`, name), input);
      }));
      wordsChoice.hidden = !mode().words;
    }
    function choiceValues() {
      const values = {};
      for (const [name, spec] of Object.entries(mode().choices || {})) {
        const raw = form.elements[`choice-${name}`].value;
        values[name] = spec.choices ? raw : Number(raw);
      }
      return values;
    }
    function fillPlayers() {
      fillChoices();
      playersSelect.replaceChildren(...mode().players.map((n) => el("option", { value: n }, String(n))));
      variantsBox.replaceChildren(el("legend", {}, t("ui.variants")),
        ...mode().variants.map((v) => el("label", { class: "check" },
          el("input", { type: "checkbox", name: "variant", value: v }),
          el("span", {}, el("strong", {}, t(`variant.${v}`)), " ", t(`variant.${v}.about`)))));
      fillSeats();
    }
    function wordsPerPlayer() {
      const per = mode().words_per_player || { default: 1 };
      const on = [...variantsBox.querySelectorAll("input:checked")].map((i) => i.value);
      return on.reduce((n, v) => Math.max(n, per[v] || 0), per.default || 1);
    }
    function fillSeats() {
      const seats = mode().default_seats[playersSelect.value];
      const custom = mode().words && form.querySelector("input[name=words][value=custom]")?.checked;
      seatsBox.replaceChildren(el("legend", {}, t("ui.seats")), ...seats.map((seat) => {
        const row = el("div", { class: "seat-row" },
          field(t(`seat.${seat}`), el("input", { name: `name-${seat}`, maxlength: 24, autocomplete: "off",
            value: (state && state.room.seats.find((s) => s.id === seat)?.name) || "" })));
        if (custom) {
          for (let i = 0; i < wordsPerPlayer(); i += 1) {
            row.append(field(t("ui.word_n", { n: i + 1 }), el("input", { name: `word-${seat}-${i}`, required: true,
              maxlength: mode().word_max_length || 12, autocapitalize: "characters", autocomplete: "off" })));
          }
        }
        return row;
      }));
    }
    gameSelect.addEventListener("change", fillModes);
    modeSelect.addEventListener("change", fillPlayers);
    playersSelect.addEventListener("change", fillSeats);
    variantsBox.addEventListener("change", fillSeats);
    wordsChoice.addEventListener("change", fillSeats);

    const start = el("button", { type: "submit", class: "primary", value: "start" }, t("ui.start"));
    const cancel = el("button", { type: "button", class: "secondary", onclick: () => lobby.close() }, t("ui.cancel"));
    form.append(el("h2", {}, t("ui.new_game")), field(t("ui.game"), gameSelect), field(t("ui.mode"), modeSelect),
      field(t("ui.players"), playersSelect), choicesBox, variantsBox, wordsChoice, seatsBox,
      field(t("ui.seed"), seedInput), field(t("ui.language"), langSelect), errorBox,
      el("div", { class: "buttons" }, start, state && state.view ? cancel : null));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const seats = mode().default_seats[playersSelect.value];
      const options = { players: Number(playersSelect.value), ...choiceValues() };
      for (const input of variantsBox.querySelectorAll("input")) options[input.value] = input.checked;
      const names = {};
      const words = [];
      for (const seat of seats) {
        names[seat] = form.elements[`name-${seat}`].value;
        const own = [...form.querySelectorAll(`input[name^="word-${seat}-"]`)].map((i) => i.value);
        words.push(own);
      }
      if (mode().words && form.querySelector("input[name=words][value=custom]").checked) options.words = words;
      const body = { game: gameSelect.value, options, names, language: langSelect.value };
      if (seedInput.value !== "") body.seed = Number(seedInput.value);
      try {
        await api("POST", `/rooms/${code}/game`, body);
        lobby.close();
        if (langSelect.value !== Clacks.lang) {
          const url = new URL(window.location.href);
          url.searchParams.set("lang", langSelect.value);
          window.location.assign(url.toString());
        }
      } catch (err) {
        errorBox.textContent = Clacks.describeError(err.body);
        errorBox.hidden = false;
      }
    });
    lobby.replaceChildren(form);
    fillModes();
    lobby.showModal();
  }

  document.getElementById("new-game").addEventListener("click", openLobby);
  Clacks.follow(code, null, null, onState, (live) => {
    liveBox.textContent = live ? "" : t("ui.offline");
    liveBox.hidden = live;
  });
})();
