// The game's log as a page holds it: steps from the server's snapshots (the new ones
// with each push, the latest ones when a page connects), and earlier ones fetched on
// demand (GET /rooms/{code}/log?before=...), so a page can scroll back over a whole
// game. The server derives the steps from the saved actions, so the same steps come
// back after a restart. ``who()`` gives the page's seat and token (null: the table's
// public log), so a phone's own private details reach only that phone.
"use strict";

Clacks.GameLog = class {
  constructor(code, who) {
    this.code = code;
    this.who = who || (() => null);
    this.byStep = new Map();
    this.last = null; // the last step the server has (null: no game)
    this.version = 0; // bumped by every change, so a page redraws only when it must
    this.generation = 0; // bumped when the log starts afresh: late answers are dropped
    this.loading = null;
  }

  // A snapshot arrived: take its steps (afresh when it says so), drop those taken back.
  take(snapshot) {
    const steps = snapshot.log_steps || [];
    const last = snapshot.log_last === undefined ? null : snapshot.log_last;
    if (!snapshot.log_reset && !steps.length && last === this.last) return false;
    if (snapshot.log_reset) {
      this.byStep = new Map();
      this.generation += 1;
    }
    for (const step of steps) this.byStep.set(step.step, step);
    this.last = last;
    for (const number of [...this.byStep.keys()]) {
      if (last === null || number > last) this.byStep.delete(number);
    }
    this.version += 1;
    return true;
  }

  steps() {
    return [...this.byStep.values()].sort((a, b) => a.step - b.step);
  }

  oldest() {
    let oldest = null;
    for (const number of this.byStep.keys()) if (oldest === null || number < oldest) oldest = number;
    return oldest;
  }

  // Every step from the first is here.
  complete() {
    return this.last === null || this.oldest() === 0;
  }

  // Fetch the steps before the oldest held; resolves to how many arrived.
  earlier(limit = 50) {
    if (this.loading) return this.loading;
    const oldest = this.oldest();
    if (oldest === null || oldest === 0) return Promise.resolve(0);
    const generation = this.generation;
    const held = this.who();
    const query = new URLSearchParams({ before: String(oldest), limit: String(limit) });
    if (held) query.set("seat", held.seat);
    this.loading = Clacks.api("GET", `/rooms/${encodeURIComponent(this.code)}/log?${query}`, undefined,
      held ? held.token : undefined)
      .then((answer) => {
        if (generation !== this.generation) return 0;
        let added = 0;
        for (const step of answer.steps) {
          if (!this.byStep.has(step.step) && (this.last === null || step.step <= this.last)) {
            this.byStep.set(step.step, step);
            added += 1;
          }
        }
        if (added) this.version += 1;
        return added;
      })
      .finally(() => { this.loading = null; });
    return this.loading;
  }

  // The step of ``seat``'s last action among those held, or null.
  lastOwn(seat) {
    let found = null;
    for (const step of this.byStep.values()) {
      if (step.seat === seat && (found === null || step.step > found)) found = step.step;
    }
    return found;
  }
};

// The steps as a list for a page, newest first, each numbered by its step; below them
// a button that fetches earlier steps, pressed by itself as it scrolls into view.
Clacks.logList = (log, describe, onMore) => {
  const { el, t } = Clacks;
  const items = log.steps().reverse().map((step) => el("li", { value: step.step, "data-step": step.step },
    step.events.map((event) => el("span", { class: `step-event event-${event.kind}` }, describe(event), " "))));
  const list = el("ol", { class: "log-steps", reversed: true }, items);
  if (log.complete()) return [list];
  const more = el("button", { type: "button", class: "secondary log-earlier", onclick: onMore }, t("ui.log_earlier"));
  if ("IntersectionObserver" in window) {
    const watcher = new IntersectionObserver((seen) => {
      if (!more.isConnected) watcher.disconnect();
      else if (seen.some((entry) => entry.isIntersecting)) onMore();
    });
    watcher.observe(more);
  }
  return [list, more];
};
