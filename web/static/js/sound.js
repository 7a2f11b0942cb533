// The table screen's sounds, made with Web Audio (no sound files): a shutter's clack for
// each lamp that flips and for each transmission, a bell for a win. The mute toggle is
// remembered by this browser. Browsers start sound only after a first tap on the page,
// so the first tap anywhere wakes it. A game may say what its events sound like
// (Clacks.games[name].sounds(event) -> {clacks, bell}); otherwise the events' lamps
// clack, a transmission clacks and a win rings.
"use strict";

(() => {
  const { t } = Clacks;
  const storeKey = "clacks-sound";
  const button = document.getElementById("sound");
  let muted = localStorage.getItem(storeKey) === "off";
  let context = null;
  const STAGGER = 0.05; // seconds between the clacks of one move's lamps

  function audio() {
    if (!context) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return null;
      context = new Context();
    }
    if (context.state === "suspended") context.resume().catch(() => {});
    return context;
  }

  // A shutter: a short burst of noise through a band-pass filter, and a wooden knock.
  function clack(ctx, at) {
    const length = 0.07;
    const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
    const noise = ctx.createBufferSource();
    noise.buffer = buffer;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = 1600 + Math.random() * 800;
    filter.Q.value = 2.5;
    const level = ctx.createGain();
    level.gain.setValueAtTime(0.6, at);
    level.gain.exponentialRampToValueAtTime(0.001, at + length);
    noise.connect(filter).connect(level).connect(ctx.destination);
    noise.start(at);
    noise.stop(at + length);
    const knock = ctx.createOscillator();
    knock.type = "triangle";
    knock.frequency.setValueAtTime(240, at);
    knock.frequency.exponentialRampToValueAtTime(90, at + 0.06);
    const knockLevel = ctx.createGain();
    knockLevel.gain.setValueAtTime(0.35, at);
    knockLevel.gain.exponentialRampToValueAtTime(0.001, at + 0.08);
    knock.connect(knockLevel).connect(ctx.destination);
    knock.start(at);
    knock.stop(at + 0.09);
  }

  // A bell: a few inharmonic partials dying away.
  function bell(ctx, at) {
    for (const [ratio, loudness] of [[1, 0.35], [2.76, 0.18], [5.4, 0.1], [8.93, 0.05]]) {
      const tone = ctx.createOscillator();
      tone.type = "sine";
      tone.frequency.value = 660 * ratio;
      const level = ctx.createGain();
      level.gain.setValueAtTime(loudness, at);
      level.gain.exponentialRampToValueAtTime(0.0005, at + 2.5 / Math.sqrt(ratio));
      tone.connect(level).connect(ctx.destination);
      tone.start(at);
      tone.stop(at + 2.6);
    }
  }

  const WINS = new Set(["game_won", "race_won", "match_won"]);

  function soundOf(game, event) {
    if (game && game.sounds) return game.sounds(event) || {};
    return {
      clacks: (Array.isArray(event.lamps) ? event.lamps.length : 0) + (event.kind === "transmitted" ? 3 : 0),
      bell: WINS.has(event.kind),
    };
  }

  // The sounds of what one change told the table.
  function play(gameName, events) {
    if (muted || !events.length) return;
    const ctx = audio();
    if (!ctx) return;
    const game = Clacks.games[gameName];
    let at = ctx.currentTime + 0.02;
    for (const event of events) {
      const { clacks = 0, bell: rings = false } = soundOf(game, event);
      for (let i = 0; i < clacks; i += 1) {
        clack(ctx, at);
        at += STAGGER;
      }
      if (rings) {
        bell(ctx, at);
        at += 0.4;
      }
    }
  }

  function show() {
    if (!button) return;
    button.textContent = t(muted ? "table.sound_off" : "table.sound_on");
    button.setAttribute("aria-pressed", String(!muted));
  }

  if (button) {
    button.addEventListener("click", () => {
      muted = !muted;
      localStorage.setItem(storeKey, muted ? "off" : "on");
      show();
      if (!muted) audio();
    });
  }
  // the first tap on the page lets it make sound
  document.addEventListener("pointerdown", () => { if (!muted) audio(); }, { once: true });
  show();

  Clacks.sound = { play, get muted() { return muted; } };
})();
