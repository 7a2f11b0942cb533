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
  const lessonBox = document.getElementById("table-lesson");
  const hardwareBox = document.getElementById("hardware");
  const savingBox = document.getElementById("saving");
  const setAsideBox = document.getElementById("set-aside");
  const ledBox = document.getElementById("leds");
  const ledGrid = document.getElementById("led-grid");
  const references = {};
  let gamesInfo = null;
  let state = null;
  // the game's log (or, in the replay viewer, the replay's up to the step shown)
  const gameLog = new Clacks.GameLog(code);
  let logDrawn = null;
  let referenceFor = null;
  let refreshLobbySeats = null; // the open lobby's seats, drawn again when who sits where changes

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
    if (error && error.error === "network") error = null;  // the offline banner says it
    noticeBox.textContent = error ? Clacks.describeError(error) : "";
    noticeBox.hidden = !error;
  }

  async function render() {
    if (!state) return;
    renderPresence();
    renderHardware(state.room.hardware);
    renderSaving(state.room.saving);
    renderSetAside(state.room.saves_set_aside || []);
    if (state.replay) {
      // the replay viewer: the finished game as the table saw it at the step shown
      const replay = state.replay;
      const ref = await reference(replay.game);
      const seats = replay.seats.map((s) => ({ ...s, name: replay.names[s.id] || "", claimed: false }));
      const shown = { ...state, view: replay.view, lamps: replay.lamps, active: replay.active,
                      over: replay.over, result: replay.over ? replay.result : null, preview: null,
                      deadline: null, room: { ...state.room, game: replay.game, seats } };
      const replayed = Clacks.games[replay.game];
      const ctx = { state: shown, ref, press: null };
      drawGame(el("div", { class: "replaying" }, replayed.table(ctx)));
      showLatest(replayed.extras(ctx).describe);
      // the log tells what the game did up to the step shown
      renderLog(replayed.extras(ctx).describe, shown);
      document.body.dataset.revision = state.revision;
      return;
    }
    const stand = state.room.stand;
    document.body.classList.toggle("stand-attract-on", Boolean(stand && (!state.view || stand.waiting)));
    if (stand && (!state.view || stand.waiting)) {
      // a convention stand with no game on: its attract programme, never the lobby; or a
      // table of its waiting for its players, before anything is dealt or rolled
      showView("game");
      showLesson(null);
      drawGame(state.view ? Clacks.stand.gathering(state) : Clacks.stand.attract(stand));
      document.body.dataset.revision = state.revision;
      return;
    }
    if (!state.view) {
      showLesson(null);
      drawGame(el("p", { class: "waiting" }, t("ui.no_game_yet")));
      if (!lobby.open) openLobby(true);
      return;
    }
    const game = Clacks.games[state.room.game];
    const ref = await reference(state.room.game);
    // the drawn tower buttons press the board's (through the board when one is attached)
    const ctx = { state, ref, press };
    drawGame(...[stand ? Clacks.stand.tableNote(state) : null, hintNote(), game.table(ctx)].filter(Boolean));
    showLesson(Clacks.tutorial.tablePanel(state));
    showLatest(game.extras(ctx).describe);
    const kind = `${state.room.game}:${state.view.mode || ""}`;
    if (referenceFor !== kind) {
      const extras = game.extras(ctx);
      rulesBox.replaceChildren(extras.rules);
      alphabetBox.replaceChildren(extras.alphabet);
      // a game whose reference card is not the alphabet names its own
      document.getElementById("alphabet-title").textContent = extras.referenceTitle || t("ui.alphabet");
      referenceFor = kind;
    }
    renderLog(game.extras(ctx).describe, state);
    document.body.dataset.revision = state.revision;
  }

  // A lesson's rule, beside the game in the screen's side column (the game keeps its room).
  function showLesson(panel) {
    lessonBox.replaceChildren(...[panel].filter(Boolean));
    lessonBox.hidden = !panel;
  }

  // What just happened, in big letters under whose turn it is: the latest step's action
  // (the game's own status line holds it; a game without one has it above its table).
  const QUIET = new Set(["turn_started", "turn_ended", "drew_jacquards", "drew_faults", "round_completed"]);
  function showLatest(describe) {
    const steps = gameLog.steps();
    const step = [...steps].reverse().find((s) => s.step > 0 && s.events.length);
    const event = step && (step.events.find((e) => !QUIET.has(e.kind)) || step.events[0]);
    const line = el("p", { id: "latest", class: "latest", "data-step": step ? step.step : null },
      event ? describe(event) : "");
    const status = gameBox.querySelector(".status");
    if (status) status.append(line);
    else gameBox.prepend(line);
    line.hidden = !event;
  }

  // Drawn again only when the steps or the names in them change: a whole game is long.
  function renderLog(describe, shown) {
    const key = JSON.stringify([gameLog.version, shown.room.game, shown.room.seats]);
    if (key === logDrawn) return;
    logDrawn = key;
    logList.replaceChildren(...Clacks.logList(gameLog, describe, () => {
      gameLog.earlier().then((added) => { if (added) render(); });
    }));
  }

  // ------------------------------------------------------------------ the views

  // The screen never scrolls: what does not fit beside the game (the whole log, the
  // simulated board's LEDs, the alphabet and the rules) is a view that takes the game's
  // place until the table switches back. A new game brings the game's view back.
  const viewButtons = [...document.querySelectorAll("#views [data-view]")];
  function showView(view) {
    document.body.dataset.view = view;
    for (const button of viewButtons) button.setAttribute("aria-pressed", String(button.dataset.view === view));
  }
  for (const button of viewButtons) button.addEventListener("click", () => showView(button.dataset.view));

  // The game's view shows the player to move beside the board; where a game marks what
  // holds every player's panel (data-players-view), the table may switch to all of them,
  // and where it marks what its players share (data-shared-view, its value the view's
  // name), to that.
  const playersButton = document.querySelector("#views [data-view=players]");
  const sharedButton = document.querySelector("#views [data-view=shared]");
  function drawGame(...nodes) {
    gameBox.replaceChildren(...nodes);
    const players = Boolean(gameBox.querySelector("[data-players-view]"));
    const shared = gameBox.querySelector("[data-shared-view]");
    playersButton.hidden = !players;
    sharedButton.hidden = !shared;
    if (shared) sharedButton.textContent = shared.dataset.sharedView;
    const view = document.body.dataset.view;
    if ((!players && view === "players") || (!shared && view === "shared")) showView("game");
  }

  // The table screen's language is the table's: switched here, it is the phones' too
  // (those whose players picked none follow it). A screen that may not change the table
  // (no table PIN) switches alone.
  for (const link of document.querySelectorAll(".top .languages a[lang]")) {
    link.addEventListener("click", async (event) => {
      event.preventDefault();
      try {
        await api("POST", `/rooms/${code}/language`, { language: link.lang });
      } catch {
        // refused (no table PIN here, a stand) or unreachable: this screen alone
      }
      window.location.href = link.href;
    });
  }

  // ------------------------------------------------------------------ the exchange board

  // Warnings from the board (a LED or button driver that could not start, a stuck
  // button), and while the board is simulated, its sixteen LEDs as they are lit now:
  // they come with the event stream (``board`` messages) as each frame is written.
  function renderHardware(hardware) {
    const warnings = (hardware && hardware.warnings) || [];
    hardwareBox.replaceChildren(...warnings.map((w) => el("span", { class: "warning" }, t("ui.hardware_warning", { warning: w }))));
    hardwareBox.hidden = !warnings.length;
    const simulated = Boolean(hardware && hardware.leds && hardware.leds.backend === "simulator");
    ledBox.hidden = !simulated;
    document.querySelector("#views [data-view=leds]").hidden = !simulated;
    if (!simulated && document.body.dataset.view === "leds") showView("game");
  }

  // The saves refusing writes (a full disk, say): told until the companion saves again.
  function renderSaving(saving) {
    const since = saving ? new Date(saving.failing_since * 1000).toLocaleTimeString(Clacks.lang) : "";
    savingBox.textContent = saving ? t("ui.saves_failing", { time: since }) : "";
    savingBox.hidden = !saving;
  }

  // What was set aside as the companion started (a damaged or missing saved game, a file
  // that could not be read), so nobody takes a shortened game for the one they left.
  const SET_ASIDE = { game_set_aside: "ui.set_aside_game", game_missing: "ui.set_aside_game_missing",
                      file_set_aside: "ui.set_aside_file" };
  function renderSetAside(notices) {
    setAsideBox.replaceChildren(...notices.map((n) => {
      const key = n.kind === "game_set_aside" && n.moves ? "ui.set_aside_game_short" : SET_ASIDE[n.kind];
      return el("p", {}, key ? t(key, n) : "");
    }));
    setAsideBox.hidden = !notices.length;
  }

  // The LEDs in lamp order a1..d4 (bit row*4+col), drawn as seen from South: row 4 on top.
  function drawLeds(board) {
    const cells = [];
    for (let row = 3; row >= 0; row -= 1) {
      for (let col = 0; col < 4; col += 1) {
        const index = row * 4 + col;
        const name = `${"abcd"[col]}${row + 1}`;
        const [r, g, b] = board.screen[index];
        const drive = board.pixels[index].join(", ");
        const lit = board.pixels[index].some((v) => v > 0);
        const led = el("span", {
          class: `led${lit ? " lit" : ""}`,
          role: "img",
          "data-led": name,
          "data-rgb": drive,
          title: t("ui.led", { lamp: name, rgb: drive }),
          "aria-label": t("ui.led", { lamp: name, rgb: drive }),
        });
        // set through the style object: the pages' policy allows no style attributes
        led.style.background = `rgb(${r}, ${g}, ${b})`;
        cells.push(led);
      }
    }
    ledGrid.replaceChildren(...cells);
  }

  function seatLabel(seat) {
    return seat.name || (seat.bot ? Clacks.botName(seat.bot) : t(`seat.${seat.id}`));
  }

  function renderPresence() {
    const seats = state.room.seats || [];
    presence.replaceChildren(
      ...seats.map((s) => el("li", { class: s.connected || s.bot ? "online" : "offline", "data-presence": s.id },
        el("span", { class: "dot", "aria-hidden": "true" }, s.bot ? "⚙" : s.connected ? "●" : "○"),
        `${s.name || t(`seat.${s.id}`)} — `, Clacks.presence(s))),
      el("li", {}, t("ui.spectators", { count: state.room.spectators })),
    );
  }

  // A hint a player asked for is on the exchange (and the LEDs): say whose it is.
  function hintNote() {
    const preview = state.preview;
    if (!preview || !preview.hint) return null;
    const seat = (state.room.seats || []).find((s) => s.id === preview.seat) || { id: preview.seat };
    return el("p", { class: "hint-note", role: "status", id: "hint-note" },
      t("hints.shown", { name: seatLabel(seat) }));
  }

  function onState(next) {
    const newGame = state && next.room.game_number !== state.room.game_number;
    if (newGame && lobby.open) lobby.close();
    if (newGame) showView("game");
    // the table clacks for each lamp that flips and each transmission, and rings for a win
    if (state && !next.replay && Clacks.sound) Clacks.sound.play(next.room.game, next.events || []);
    gameLog.take(next);
    state = next;
    if (Clacks.tableAdmin) Clacks.tableAdmin.update(next);
    if (next.notice) showNotice(next.notice.error);
    else if (next.events.length) showNotice(null);
    if (lobby.open && refreshLobbySeats) refreshLobbySeats();
    render();
  }

  // ------------------------------------------------------------------ the lobby

  function field(label, input) {
    return el("label", { class: "field" }, el("span", {}, label), input);
  }

  // A game's modes as the lobby offers them; a game without modes is one mode of its own.
  function modesOf(info) {
    const options = info.options || {};
    if (options.modes) return options.modes;
    return [{ id: null, players: options.players || [1], variants: [], choices: options.choices || {} }];
  }

  // A label from the catalog when it has one, else the value itself.
  function label(key, fallback) {
    return Clacks.has(key) ? t(key) : fallback;
  }

  // measured figures shown beside a variant (percentages), written as the language writes numbers
  function figures(values) {
    const format = new Intl.NumberFormat(Clacks.lang, { maximumFractionDigits: 1 });
    return Object.fromEntries(Object.entries(values || {}).map(([key, value]) => [key, format.format(value)]));
  }

  function choiceInput(name, spec) {
    if (spec.choices) {
      return el("select", { name: `choice-${name}`, "data-choice": name },
        spec.choices.map((value) => el("option", { value, selected: value === spec.default },
          name === "seat" ? t(`seat.${value}`) : label(`choice.${name}.${value}`, value))));
    }
    if (spec.type === "bool") {
      return el("input", { type: "checkbox", name: `choice-${name}`, "data-choice": name, checked: Boolean(spec.default) });
    }
    return el("input", { type: "number", name: `choice-${name}`, "data-choice": name, inputmode: "numeric",
                         min: spec.min, max: spec.max, value: spec.default });
  }

  function choiceValue(input) {
    if (input.type === "checkbox") return input.checked;
    if (input.type === "number") return Number(input.value);
    return input.value;
  }

  // ``offered``: opened because the table has no game; one begun while the games were
  // being fetched (from a phone, the stand or the API) keeps the table instead
  async function openLobby(offered) {
    if (!gamesInfo) gamesInfo = await api("GET", "/games");
    if (offered === true && state.view) return;
    const form = el("form", { method: "dialog", class: "lobby-form" });
    const gameSelect = el("select", { name: "game" },
      gamesInfo.games.map((g) => el("option", { value: g.name }, label(`game.${g.name}`, g.title))));
    const modeSelect = el("select", { name: "mode" });
    const modeField = field(t("ui.mode"), modeSelect);
    const playersSelect = el("select", { name: "players" });
    const playersField = field(t("ui.players"), playersSelect);
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
    const mode = () => modesOf(current()).find((m) => String(m.id) === modeSelect.value) || modesOf(current())[0];
    const custom = () => form.querySelector("input[name=words][value=custom]")?.checked;
    // the chosen mode's guided first game, where it has one: one tap, no choices
    const lessonBox = el("div", { class: "lesson-start" });
    function fillLesson() {
      const modeId = String(mode().id);
      const lesson = (current().tutorials || {})[modeId];
      lessonBox.hidden = !lesson;
      // a mode or a game may say what its lesson is (a companion game's other player is scripted)
      const about = [`tutorial.learn_about.${modeId}`, lesson && `tutorial.learn_about.${lesson.game}`]
        .find((key) => key && Clacks.has(key)) || "tutorial.learn_about";
      lessonBox.replaceChildren(...(lesson ? [
        el("button", { type: "button", class: "primary", "data-action": "learn", onclick: () => startLesson(lesson) },
          t("tutorial.learn")),
        el("p", { class: "hint" }, t(about))] : []));
    }
    async function startLesson(lesson) {
      try {
        await api("POST", `/rooms/${code}/game`, { game: lesson.game, options: lesson.options, language: langSelect.value });
        lobby.close();
      } catch (err) {
        errorBox.textContent = Clacks.describeError(err.body);
        errorBox.hidden = false;
      }
    }
    function fillModes() {
      const modes = modesOf(current());
      modeSelect.replaceChildren(...modes.map((m) => el("option", { value: String(m.id) }, label(`mode.${m.id}`, m.title || String(m.id)))));
      modeField.hidden = modes.length < 2 && modes[0].id === null;
      fillPlayers();
    }
    function fillPlayers() {
      const m = mode();
      fillLesson();
      playersSelect.replaceChildren(...m.players.map((n) => el("option", { value: n }, String(n))));
      playersField.hidden = m.players.length < 2;
      variantsBox.replaceChildren(el("legend", {}, t("ui.variants")),
        ...m.variants.map((v) => el("label", { class: "check" },
          el("input", { type: "checkbox", name: "variant", value: v, checked: (m.variants_on || []).includes(v) }),
          el("span", {}, el("strong", {}, t(`variant.${v}`)), " ", t(`variant.${v}.about`, figures((m.variant_figures || {})[v]))))));
      variantsBox.hidden = !m.variants.length;
      choicesBox.replaceChildren(...Object.entries(m.choices || {}).map(([name, spec]) => {
        const input = choiceInput(name, spec);
        if (spec.follows === "language") {
          // e.g. which edition's words are dealt: the table's language until chosen here
          input.dataset.follows = "language";
          if (spec.choices.includes(langSelect.value)) input.value = langSelect.value;
          input.addEventListener("change", () => { input.dataset.follows = ""; });
        }
        const text = label(`choice.${name}${spec.seat ? ".seat" : ""}`, name);
        // a choice that is one of a game's optional rules says what it does, like a variant
        const about = Clacks.has(`choice.${name}.about`) ? ` ${t(`choice.${name}.about`)}` : "";
        if (input.type === "checkbox") {
          return el("label", { class: "check" }, input, el("span", {}, about ? el("strong", {}, text) : text, about));
        }
        const chosen = field(text, input);
        if (about) chosen.append(el("span", { class: "hint" }, about.trim()));
        return chosen;
      }));
      wordsChoice.hidden = !m.word_lists;
      fillSeats();
    }
    function seats() {
      const m = mode();
      if (m.default_seats) return m.default_seats[playersSelect.value];
      const seat = choicesBox.querySelector("[data-choice=seat]");
      return seat ? [seat.value] : [];
    }
    function wordsPerList() {
      const m = mode();
      if (m.words_per_list) return m.words_per_list;
      const per = m.words_per_player || { default: 1 };
      const on = [...variantsBox.querySelectorAll("input:checked")].map((i) => i.value);
      return on.reduce((n, v) => Math.max(n, per[v] || 0), per.default || 1);
    }
    function wordInputs(owner) {
      const m = mode();
      const inputs = [];
      for (let i = 0; i < wordsPerList(); i += 1) {
        inputs.push(field(t("ui.word_n", { n: i + 1 }), el("input", { name: `word-${owner}-${i}`, required: true,
          maxlength: m.word_max_length || 12, autocapitalize: "characters", autocomplete: "off", "data-words": owner })));
      }
      return inputs;
    }
    // a message of two words must fill the route: the lobby counts the letters as typed
    function letterCount(owner) {
      if (!mode().message_letters) return null;
      return el("p", { class: "hint letters", "data-letters": owner, "aria-live": "polite" });
    }
    function countLetters() {
      const needed = mode().message_letters;
      for (const counter of form.querySelectorAll("[data-letters]")) {
        const owner = counter.dataset.letters;
        const letters = [...form.querySelectorAll(`input[data-words="${owner}"]`)]
          .reduce((n, i) => n + i.value.trim().length, 0);
        counter.textContent = t("ui.letters", { count: letters, needed });
        counter.classList.toggle("short", letters !== needed);
      }
    }
    form.addEventListener("input", countLetters);
    let seatsShown = null;
    // Who holds each seat of the table now (a person, connected or not, or a bot).
    const holders = () => (state && state.view && state.room.seats) || [];
    // Each seat of the new game: a person holding it now can be kept, let go, or have a
    // bot take over; a free seat gets a name and a person or a bot. People in seats the
    // new game lacks are named: they will only watch.
    function fillSeats() {
      const m = mode();
      const team = custom() && m.word_lists === "team";
      const held = holders().filter((h) => h.claimed).map((h) => [h.id, h.name, h.connected]);
      // redraw only when the rows would differ, so a field being typed in keeps its focus
      const shape = JSON.stringify([seats(), custom(), m.word_lists, m.word_lists ? wordsPerList() : 0,
        current().bot_levels, held]);
      if (shape === seatsShown) return;
      seatsShown = shape;
      // what was typed survives a change of players, variants or choices
      const typed = Object.fromEntries([...seatsBox.querySelectorAll("input, select")].map((i) => [i.name, i.value]));
      const levels = current().bot_levels || [];
      const wanted = seats();
      seatsBox.replaceChildren(el("legend", {}, t("ui.seats")), ...wanted.map((seat) => {
        const holder = holders().find((s) => s.id === seat) || {};
        const label = t(`seat.${seat}`);
        const row = el("div", { class: "seat-row", "data-seat-row": seat });
        if (holder.claimed) {
          // someone sits here: keep them, let them go, or hand the seat to a bot in place
          const name = holder.name || label;
          const chosen = typed[`hold-${seat}`] ?? "keep";
          row.append(el("p", { class: "seated-now" }, el("strong", {}, label), " — ",
            t(holder.connected ? "lobby.sits_connected" : "lobby.sits_away", { name })),
          field(t("lobby.seat_choice", { seat: label }), el("select", { name: `hold-${seat}`, "data-hold": seat },
            el("option", { value: "keep", selected: chosen === "keep" }, t("lobby.keep", { name })),
            el("option", { value: "free", selected: chosen === "free" }, t("lobby.free", { name })),
            levels.map((level) => el("option", { value: `bot:${level}`, selected: chosen === `bot:${level}` },
              t("lobby.to_bot", { level: Clacks.botLevel(level) }))))));
        } else {
          row.append(field(label, el("input", { name: `name-${seat}`, maxlength: 24, autocomplete: "off",
            value: typed[`name-${seat}`] ?? (holder.name || "") })));
          if (levels.length) {
            // a bot for the seat, or a person on a phone; the table's bots stay unless changed
            const chosen = typed[`bot-${seat}`] ?? (levels.includes(holder.bot) ? holder.bot : "");
            row.append(field(t("bots.played_by"), el("select", { name: `bot-${seat}`, "data-bot": seat },
              el("option", { value: "", selected: chosen === "" }, t("bots.person")),
              levels.map((level) => el("option", { value: level, selected: chosen === level },
                t("bots.level_option", { level: Clacks.botLevel(level) }))))));
          }
        }
        if (custom() && m.word_lists === "seat") row.append(...wordInputs(seat), letterCount(seat) || "");
        return row;
      }));
      const leaving = holders().filter((h) => h.claimed && !wanted.includes(h.id));
      if (leaving.length) {
        seatsBox.append(el("p", { class: "hint leaving" }, t("lobby.leaving", {
          names: leaving.map((h) => `${h.name || t(`seat.${h.id}`)} (${t(`seat.${h.id}`)})`).join(", ") })));
      }
      if (team) {
        seatsBox.append(el("div", { class: "seat-row team-words" },
          el("p", { class: "field-note" }, t("ui.team_words")), ...wordInputs("team"), letterCount("team") || ""));
      }
      for (const input of seatsBox.querySelectorAll("input[data-words]")) {
        if (typed[input.name] !== undefined) input.value = typed[input.name];
      }
      countLetters();
    }
    refreshLobbySeats = fillSeats;
    gameSelect.addEventListener("change", fillModes);
    modeSelect.addEventListener("change", fillPlayers);
    playersSelect.addEventListener("change", fillSeats);
    variantsBox.addEventListener("change", fillSeats);
    choicesBox.addEventListener("change", fillSeats);
    langSelect.addEventListener("change", () => {
      for (const input of choicesBox.querySelectorAll('[data-follows="language"]')) {
        if ([...input.options].some((o) => o.value === langSelect.value)) input.value = langSelect.value;
      }
    });
    wordsChoice.addEventListener("change", fillSeats);

    const start = el("button", { type: "submit", class: "primary", value: "start" }, t("ui.start"));
    const cancel = el("button", { type: "button", class: "secondary", onclick: () => lobby.close() }, t("ui.cancel"));
    // the lesson offered is the chosen mode's: it follows the game and the mode
    form.append(el("h2", {}, t("ui.new_game")), field(t("ui.game"), gameSelect), modeField, lessonBox,
      playersField, variantsBox, choicesBox, wordsChoice, seatsBox,
      field(t("ui.seed"), seedInput), field(t("ui.language"), langSelect), errorBox,
      el("div", { class: "buttons" }, start, state && state.view ? cancel : null,
        Clacks.tableAdmin ? Clacks.tableAdmin.savesButton() : null),
      Clacks.tableAdmin ? Clacks.tableAdmin.lobbyPin() : null);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const m = mode();
      const options = {};
      if (m.id !== null) {
        options.mode = m.id;
        options.players = Number(playersSelect.value);
      }
      for (const input of variantsBox.querySelectorAll("input")) options[input.value] = input.checked;
      for (const input of choicesBox.querySelectorAll("[data-choice]")) options[input.dataset.choice] = choiceValue(input);
      const names = {};
      const bots = {};
      const free = [];
      for (const seat of seats()) {
        const hold = form.elements[`hold-${seat}`];
        if (hold) {
          // a person sits here: kept, let go, or replaced by a bot
          if (hold.value !== "keep") free.push(seat);
          if (hold.value.startsWith("bot:")) bots[seat] = hold.value.slice(4);
          continue;
        }
        names[seat] = form.elements[`name-${seat}`].value;
        const bot = form.elements[`bot-${seat}`];
        if (bot && bot.value) bots[seat] = bot.value;
      }
      if (custom() && m.word_lists) {
        const owners = m.word_lists === "team" ? ["team"] : seats();
        options.words = owners.map((owner) =>
          [...form.querySelectorAll(`input[data-words="${owner}"]`)].map((i) => i.value));
      }
      const body = { game: gameSelect.value, options, names, bots, free, language: langSelect.value };
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
        // someone sat down meanwhile: the seats are drawn again, with the seat by its name
        const taken = err.body && err.body.error === "seat_taken";
        errorBox.textContent = taken
          ? t("lobby.seat_taken", { name: err.body.params.name || t(`seat.${err.body.params.seat}`),
                                    seat: t(`seat.${err.body.params.seat}`) })
          : Clacks.describeError(err.body);
        errorBox.hidden = false;
        if (taken) fillSeats();
      }
    });
    lobby.replaceChildren(form);
    fillModes();
    lobby.showModal();
  }

  // a convention stand's table screen has no lobby: visitors choose on their phones
  const newGame = document.getElementById("new-game");
  if (newGame) newGame.addEventListener("click", openLobby);
  Clacks.follow(code, null, null, onState, { onBoard: drawLeds });
})();
