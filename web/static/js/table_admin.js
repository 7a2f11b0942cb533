// The table's own controls, behind its PIN: the PIN itself (shown here on request, as
// in the terminal), closing the table, ending the game, freeing seats, the saved games
// (resume, replay, export, reveal, import, delete) and the replay viewer's buttons. The
// page is handed the PIN when it is opened on the companion's own screen; anywhere else
// it is typed once and kept for the tab.
"use strict";

(() => {
  const { t, el, api } = Clacks;
  const code = document.body.dataset.code;
  const storeKey = `clacks-pin:${code}`;
  const pinBox = document.getElementById("table-pin");
  const controls = document.getElementById("table-controls");
  const controlsDialog = document.getElementById("controls-dialog");
  const openControls = document.getElementById("open-controls");
  const replayBar = document.getElementById("replay-bar");
  const savesDialog = document.getElementById("saves");
  const given = document.body.dataset.pin || "";
  let pin = given || sessionStorage.getItem(storeKey) || "";
  let state = null;
  let playing = null; // the replay's play button timer
  let controlsShown = null; // what the controls were drawn from, to keep a select open
  const PIN_SHOWN_MS = 10000;
  let pinShown = false;
  let pinTimer = null;
  const botChoice = {}; // the level picked for each free seat, kept across redraws
  let asking = null; // the control waiting for a second tap to confirm ("end", "free:north")

  function usePin(value) {
    pin = value || "";
    Clacks.setTablePin(pin);
    if (pin && !given) sessionStorage.setItem(storeKey, pin);
    if (!pin) sessionStorage.removeItem(storeKey);
    renderPin();
    renderControls();
    renderReplay();
  }

  function forgetIfWrong(err) {
    if (!(err && err.body && (err.body.error === "bad_pin" || err.body.error === "pin_required"))) return;
    // The companion makes a new PIN (and screen key) at every start: the page on its own
    // screen, which was handed the old ones, loads again to be handed the new.
    if (given) window.location.reload();
    else usePin("");
  }

  // ------------------------------------------------------------------ the PIN

  // The PIN is kept off the screen until the table asks to see it (everyone at the table
  // sees the TV), and hidden again after a few seconds.
  function renderPin() {
    if (pin) {
      pinBox.replaceChildren(...shownPin(true));
      const inLobby = document.getElementById("lobby-pin");
      if (inLobby) inLobby.replaceChildren(...shownPin(false));
      return;
    }
    const input = el("input", { id: "pin-input", name: "pin", inputmode: "numeric", autocomplete: "off",
                                maxlength: 12, "aria-label": t("table.pin_enter") });
    const errorBox = el("span", { class: "error", role: "alert", hidden: true });
    const form = el("form", { class: "pin-form" },
      el("label", { for: "pin-input" }, t("table.pin_enter")), input,
      el("button", { type: "submit", class: "secondary" }, t("table.unlock")), errorBox);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      Clacks.setTablePin(input.value.trim());
      try {
        await api("POST", `/rooms/${code}/pin`);
        usePin(input.value.trim());
      } catch (err) {
        Clacks.setTablePin("");
        errorBox.textContent = Clacks.describeError(err.body);
        errorBox.hidden = false;
      }
    });
    pinBox.replaceChildren(form);
  }

  function shownPin(aside) {
    const toggle = el("button", { type: "button", class: "link pin-show", id: aside ? "pin-show" : null,
      "aria-pressed": String(pinShown),
      onclick: () => {
        pinShown = !pinShown;
        clearTimeout(pinTimer);
        if (pinShown) pinTimer = setTimeout(() => { pinShown = false; renderPin(); }, PIN_SHOWN_MS);
        renderPin();
      } }, t(pinShown ? "table.pin_hide" : "table.pin_show"));
    return [t("table.pin"), " ", el("strong", { id: aside ? "pin-value" : null, class: "pin-value" },
      pinShown ? pin : "\u2022".repeat(pin.length)), " ", toggle];
  }

  // The same in the lobby, which covers the page while no game is on.
  function lobbyPin() {
    return pin ? el("p", { id: "lobby-pin", class: "table-pin" }, ...shownPin(false)) : null;
  }

  // ------------------------------------------------------------------ controls

  async function run(request) {
    try {
      return await request();
    } catch (err) {
      forgetIfWrong(err);
      showProblem(err.body);
      return null;
    }
  }

  function showProblem(error) {
    if (error && error.error === "network") error = null;  // the offline banner says it
    const box = document.getElementById("notice");
    box.textContent = error ? Clacks.describeError(error) : "";
    box.hidden = !error;
  }

  // A control whose action cannot be taken back asks again in place, with its
  // consequence in words: [Yes] [No], never the browser's own dialog.
  function confirming(id, text, yes, attrs, label) {
    if (asking !== id) {
      return el("button", { type: "button", class: "secondary", ...attrs,
        onclick: () => { asking = id; controlsShown = null; renderControls(); } }, label);
    }
    const no = () => { asking = null; controlsShown = null; renderControls(); };
    return el("div", { class: "confirm-step", role: "group", "data-confirm": id },
      el("p", {}, text),
      el("button", { type: "button", class: "primary", "data-yes": id, onclick: async () => {
        asking = null;
        controlsShown = null;
        await yes();
        renderControls();
      } }, t("table.yes")),
      el("button", { type: "button", class: "secondary", "data-no": id, onclick: no }, t("table.no")));
  }

  function renderControls() {
    openControls.hidden = !pin;
    if (!pin || !state) {
      controls.replaceChildren();
      controlsShown = null;
      if (controlsDialog.open) controlsDialog.close();
      return;
    }
    // redrawn only when what they show changes (not for every phone that connects)
    const shown = JSON.stringify([pin, Boolean(state.view), state.room.game_number, state.room.hints,
      state.room.bot_levels, (state.room.seats || []).map((s) => [s.id, s.claimed, s.bot, s.name]), asking]);
    if (shown === controlsShown) return;
    controlsShown = shown;
    const buttons = [el("button", { type: "button", class: "secondary", id: "open-saves", onclick: openSaves },
      t("table.saves"))];
    if (state.view) {
      buttons.push(confirming("end", t("table.end_confirm"), async () => {
        if (await run(() => api("DELETE", `/rooms/${code}/game`))) controlsDialog.close();
      }, { id: "end-game" }, t("table.end_game")));
    }
    if (document.body.dataset.closable) {
      // a table other than the main one: closed, its game stays with the saved games
      buttons.push(confirming("close", t("table.close_confirm"), async () => {
        if (await run(() => api("DELETE", `/rooms/${code}`))) window.location.assign("/");
      }, { id: "close-table" }, t("table.close_table")));
    }
    for (const seat of state.room.seats || []) {
      if (!seat.claimed) continue;
      const label = seat.name ? t("table.seat_of", { name: seat.name, seat: t(`seat.${seat.id}`) }) : t(`seat.${seat.id}`);
      buttons.push(confirming(`free:${seat.id}`, t("table.free_confirm", { name: label }),
        () => run(() => api("DELETE", `/rooms/${code}/seats/${encodeURIComponent(seat.id)}`)),
        { "data-free": seat.id }, t("table.free_seat", { name: label })));
    }
    controls.replaceChildren(
      el("div", { class: "dialog-head" }, el("h2", { id: "controls-title" }, t("table.controls")),
        el("button", { type: "button", class: "secondary", id: "close-controls",
                       onclick: () => controlsDialog.close() }, t("table.close"))),
      el("div", { class: "buttons" }, buttons),
      ...[state.view ? botControls() : null, hintsSetting()].filter(Boolean));
  }

  // Each seat of the game: a free one can be given to a bot of a chosen level, a bot's
  // seat taken back for a person.
  function botControls() {
    const levels = state.room.bot_levels || [];
    if (!levels.length) return null;
    const rows = [];
    for (const seat of state.room.seats || []) {
      const label = t(`seat.${seat.id}`);
      if (seat.bot) {
        rows.push(el("div", { class: "bot-controls" }, el("span", {}, label, " — ", Clacks.presence(seat)),
          el("button", { type: "button", class: "secondary", "data-unbot": seat.id,
            onclick: () => run(() => api("DELETE", `/rooms/${code}/seats/${encodeURIComponent(seat.id)}`)) },
          t("bots.take_back", { seat: label }))));
      } else if (!seat.claimed) {
        if (!levels.includes(botChoice[seat.id])) botChoice[seat.id] = levels[levels.length - 1];
        const select = el("select", { "data-bot-level": seat.id, "aria-label": t("bots.level_for", { seat: label }),
          onchange: (event) => { botChoice[seat.id] = event.target.value; } },
        levels.map((level) => el("option", { value: level, selected: level === botChoice[seat.id] },
          Clacks.botLevel(level))));
        rows.push(el("div", { class: "bot-controls" }, select,
          el("button", { type: "button", class: "secondary", "data-bot": seat.id,
            onclick: () => run(() => api("POST", `/rooms/${code}/seats/${encodeURIComponent(seat.id)}/bot`,
              { level: botChoice[seat.id] })) },
          t("bots.seat_bot", { seat: label }))));
      }
    }
    if (!rows.length) return null;
    return el("div", { class: "bots" }, el("p", { class: "hint" }, t("bots.about")), rows);
  }

  function hintsSetting() {
    const box = el("input", { type: "checkbox", id: "hints-setting", checked: Boolean(state.room.hints),
      onchange: async (event) => {
        const done = await run(() => api("POST", `/rooms/${code}/settings`, { hints: event.target.checked }));
        if (!done) {
          controlsShown = null; // refused: show the setting as it still is
          renderControls();
        }
      } });
    return el("label", { class: "check", for: "hints-setting" }, box,
      el("span", {}, el("strong", {}, t("hints.setting")), " ", t("hints.setting_about")));
  }

  // ------------------------------------------------------------------ saved games

  function describeSave(save) {
    const names = save.seats.map((seat) => save.names[seat] || t(`seat.${seat}`)).join(", ");
    const word = (key, fallback) => (Clacks.has(key) ? t(key) : fallback);
    const title = [word(`game.${save.game}`, save.game), save.mode ? word(`mode.${save.mode}`, save.mode) : null]
      .filter(Boolean).join(" · ");
    let status;
    if (save.damaged) status = t("saves.damaged", { reason: save.damaged });
    else if (save.revealed && !save.over) status = t("saves.revealed");
    else if (save.table === code) status = t("saves.here");
    else if (save.table) status = t("saves.on_table", { code: save.table });
    else if (save.over) {
      const winners = (save.result && save.result.winners || []).map((s) => save.names[s] || t(`seat.${s}`));
      status = winners.length ? t("saves.won", { names: winners.join(", ") }) : t("saves.finished");
    } else status = t("saves.unfinished");
    const when = new Date(save.updated * 1000).toLocaleString(Clacks.lang);
    return { title, detail: `${names} · ${t("saves.moves", { count: save.moves })} · ${when}`, status };
  }

  async function openSaves() {
    const errorBox = el("p", { class: "error", role: "alert", hidden: true });
    const list = el("ul", { class: "saves-list" });
    const problems = el("div", {});
    function fail(err) {
      forgetIfWrong(err);
      errorBox.textContent = Clacks.describeError(err.body || err);
      errorBox.hidden = false;
    }
    let deleting = null; // the save waiting for a second tap to be deleted
    let revealing = null; // the unfinished save waiting for a second tap to be revealed
    async function act(request) {
      errorBox.hidden = true;
      try {
        await request();
        await load();
      } catch (err) {
        fail(err);
      }
    }
    async function load() {
      let data;
      try {
        data = await api("GET", `/rooms/${code}/saves`);
      } catch (err) {
        fail(err);
        return;
      }
      problems.replaceChildren(...data.problems.map((p) => el("p", { class: "notice" }, p)));
      if (!data.saves.length) {
        list.replaceChildren(el("li", {}, t("saves.none")));
        return;
      }
      list.replaceChildren(...data.saves.map((save) => {
        const about = describeSave(save);
        const buttons = [];
        if (!save.damaged && !save.over && !save.revealed && !save.table) {
          buttons.push(el("button", { type: "button", class: "primary", "data-resume": save.id,
            onclick: () => act(async () => {
              await api("POST", `/rooms/${code}/saves/${save.id}/resume`);
              closeDialogs();
            }) }, t("saves.resume")));
        }
        if (!save.damaged && save.over) {
          buttons.push(el("button", { type: "button", class: "primary", "data-replay": save.id,
            onclick: () => act(async () => {
              await api("POST", `/rooms/${code}/replay`, { save: save.id });
              closeDialogs();
            }) }, t("saves.replay")));
        }
        if (save.over || save.revealed || save.damaged) {
          buttons.push(el("button", { type: "button", class: "secondary", "data-export": save.id,
            onclick: () => act(() => download(save, "GET", "export")) }, t("saves.export")));
        } else if (revealing === save.id) {
          // an unfinished game's file tells every draw to come: exporting it ends the game
          buttons.push(el("span", { class: "confirm-step", role: "group" }, t("saves.reveal_confirm"), " ",
            el("button", { type: "button", class: "primary", "data-reveal-yes": save.id, onclick: () => {
              revealing = null;
              act(() => download(save, "POST", "reveal"));
            } }, t("table.yes")),
            el("button", { type: "button", class: "secondary", onclick: () => { revealing = null; load(); } },
              t("table.no"))));
        } else {
          buttons.push(el("button", { type: "button", class: "secondary", "data-reveal": save.id,
            onclick: () => { revealing = save.id; load(); } }, t("saves.reveal")));
        }
        if (!save.table && deleting === save.id) {
          buttons.push(el("span", { class: "confirm-step", role: "group" }, t("saves.delete_confirm"), " ",
            el("button", { type: "button", class: "primary", "data-delete-yes": save.id, onclick: () => {
              deleting = null;
              act(() => api("DELETE", `/rooms/${code}/saves/${save.id}`));
            } }, t("table.yes")),
            el("button", { type: "button", class: "secondary", onclick: () => { deleting = null; load(); } },
              t("table.no"))));
        } else if (!save.table) {
          buttons.push(el("button", { type: "button", class: "secondary", "data-delete": save.id,
            onclick: () => { deleting = save.id; load(); } }, t("saves.delete")));
        }
        return el("li", { class: "save", "data-save": save.id },
          el("div", {}, el("strong", {}, about.title), " — ", about.status),
          el("div", { class: "hint" }, about.detail),
          el("div", { class: "buttons" }, buttons));
      }));
    }
    const fileInput = el("input", { type: "file", id: "import-file", accept: "application/json,.json" });
    fileInput.addEventListener("change", () => act(async () => {
      const file = fileInput.files[0];
      fileInput.value = "";
      if (!file) return;
      let parsed;
      try {
        parsed = JSON.parse(await file.text());
      } catch (err) {
        throw new Clacks.ApiFailure(400, { error: "bad_replay", message: t("saves.not_json"), params: {} });
      }
      await api("POST", `/rooms/${code}/saves`, parsed);
    }));
    savesDialog.replaceChildren(
      el("h2", {}, t("table.saves")), problems, errorBox, list,
      el("label", { class: "field", for: "import-file" }, el("span", {}, t("saves.import")), fileInput),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "secondary", onclick: () => savesDialog.close() }, t("ui.cancel"))));
    if (!savesDialog.open) savesDialog.showModal();
    await load();
  }

  function closeDialogs() {
    if (savesDialog.open) savesDialog.close();
    if (controlsDialog.open) controlsDialog.close();
    const lobby = document.getElementById("lobby");
    if (lobby && lobby.open) lobby.close();
  }

  async function download(save, method, what) {
    const response = await fetch(`/api/rooms/${code}/saves/${save.id}/${what}`,
      { method, headers: { Accept: "application/json", "X-Table-Pin": pin,
                           ...(document.body.dataset.screenKey ? { "X-Screen-Key": document.body.dataset.screenKey } : {}) } });
    if (!response.ok) throw new Clacks.ApiFailure(response.status, await response.json().catch(() => null));
    const link = el("a", { href: URL.createObjectURL(await response.blob()),
                           download: `clacks-${save.game}-${save.id}.json` });
    document.body.append(link);
    link.click();
    link.remove();
  }

  // ------------------------------------------------------------------ the replay viewer

  function stepTo(step) {
    return run(() => api("POST", `/rooms/${code}/replay/step`, { step }));
  }

  function stopPlaying() {
    clearInterval(playing);
    playing = null;
  }

  function renderReplay() {
    const replay = state && state.replay;
    if (!replay) {
      stopPlaying();
      replayBar.replaceChildren();
      replayBar.hidden = true;
      return;
    }
    const names = Object.values(replay.names || {}).filter(Boolean).join(", ");
    const position = el("span", { class: "replay-step", id: "replay-step", role: "status" },
      t("replay.step", { step: replay.step, steps: replay.steps }));
    const parts = [el("strong", {}, t("replay.title")), names ? ` ${names} ` : " ", position];
    if (pin) {
      const button = (label, id, step, disabled) => el("button", { type: "button", class: "secondary",
        id, "aria-label": t(label), title: t(label), disabled, onclick: () => { stopPlaying(); stepTo(step); } },
      t(`${label}.symbol`));
      const atEnd = replay.step >= replay.steps;
      parts.push(
        button("replay.first", "replay-first", 0, replay.step === 0),
        button("replay.back", "replay-back", replay.step - 1, replay.step === 0),
        button("replay.forward", "replay-forward", replay.step + 1, atEnd),
        button("replay.last", "replay-last", replay.steps, atEnd),
        el("button", { type: "button", class: "secondary", id: "replay-play", disabled: atEnd && !playing,
          onclick: () => {
            if (playing) { stopPlaying(); renderReplay(); return; }
            playing = setInterval(() => {
              const now = state && state.replay;
              if (!now || now.step >= now.steps) { stopPlaying(); renderReplay(); return; }
              stepTo(now.step + 1);
            }, 1200);
            renderReplay();
          } }, t(playing ? "replay.pause" : "replay.play")),
        el("button", { type: "button", class: "secondary", id: "replay-close",
          onclick: () => { stopPlaying(); run(() => api("DELETE", `/rooms/${code}/replay`)); } }, t("replay.close")),
      );
    }
    replayBar.replaceChildren(...parts);
    replayBar.hidden = false;
  }

  function update(next) {
    state = next;
    renderControls();
    renderReplay();
  }

  function savesButton() {
    return pin ? el("button", { type: "button", class: "secondary", onclick: openSaves }, t("table.saves")) : null;
  }

  // the table's controls are one tap away: the header's button opens them
  openControls.addEventListener("click", () => {
    controlsShown = null;
    renderControls();
    if (!controlsDialog.open) controlsDialog.showModal();
  });
  controlsDialog.addEventListener("close", () => {
    if (asking) {
      asking = null;
      controlsShown = null;
      renderControls();
    }
  });

  Clacks.tableAdmin = { update, savesButton, lobbyPin };
  Clacks.setTablePin(pin);
  renderPin();
  if (pin && !given) {
    // a PIN kept from before may be stale (the companion's saves were reset)
    api("POST", `/rooms/${code}/pin`).catch(forgetIfWrong);
  }
})();
