"""The guided first game: a real game of any kind, played through its own rules, with a
script that says at each moment what the learner does next and why.

A game that teaches supplies a ``Script`` from its own module (data: the learner's
steps, each with its words' catalog key, the action it expects and the lamps it lights,
and the opponent's actions in between) and wraps its session in ``TutorialSession``.
Where the script stands is read from the game's own action log (one entry per action
taken), so a reload, a restart or a replay finds the same step. The rules are never
bent: an action the script does not expect is refused with the game's own reason, if it
has one, and the step's guidance; every action the script expects goes through the
game's rules like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.budget import Cancelled
from engine.core.errors import IllegalAction, SerializationError
from engine.core.interface import HINT_FORBIDDEN, JSON, LampFrame, SeatInfo, Session, Told

# the label a saved log carries to say it was a tutorial, and which one
LOG_KEY = "tutorial"


class OffScript(IllegalAction):
    """An action the lesson does not take now: the game's own reason (``because``,
    where the rules would refuse it too) and the step to take instead (``step``)."""

    rule = "tutorial_off_script"
    beside_words = ("because", "step")


@dataclass(frozen=True)
class Step:
    """One thing the learner does: ``key`` names its words in the catalogs
    (``<key>`` what to do, ``<key>.rule`` the rule it teaches in one sentence);
    ``expect`` the fields the action must have; ``words`` the values the words name
    (each ``{"key": catalog key, "params": {...}}`` or ``{"text": ...}``), in the order the
    learner taps them; ``lights`` the lamps picked out on the board (bit ``row * 4 + col``);
    ``ordered`` the list fields of ``expect`` whose order counts (a route), where other
    lists are compared as sets."""

    key: str
    expect: JSON
    words: dict[str, JSON] = field(default_factory=dict)
    lights: int = 0
    tower: str | None = None  # the tower button the step is about, picked out on screens
    ordered: tuple[str, ...] = ()


@dataclass(frozen=True)
class Opponent:
    """An action the opponent's bot takes at this point of the script."""

    action: JSON


@dataclass(frozen=True)
class Script:
    """A game's guided first game: ``name`` is saved with the log; ``learner`` and
    ``opponent`` are seats (no ``opponent`` in a game for one); ``entries`` go one for
    each action of the game, in order; ``next_game`` is the real game one tap away at
    the end (game and options)."""

    name: str
    game: str
    learner: str
    opponent: str | None
    opponent_level: str
    entries: tuple[Step | Opponent, ...]
    next_game: JSON
    finished_key: str  # the words once the lesson is done
    # the words on the button into the real game (as a step's words name a control)
    next_label: JSON = field(default_factory=lambda: {"key": "tutorial.next_game"})

    @property
    def steps(self) -> list[Step]:
        return [e for e in self.entries if isinstance(e, Step)]


def two_seat_script(
    name: str,
    game: str,
    learner: str,
    opponent: str,
    opponent_level: str,
    entries: tuple[Step | Opponent, ...],
    next_bots: JSON | None = None,
    next_table: bool = False,
) -> Script:
    """A lesson for two seats whose real game next is ``game`` at the same two seats
    (``next_bots`` naming a bot for one, if the game has them; with ``next_table``, a
    game with no bots, the button into it says it opens a table for the players of its
    seats, as the stand says it), and whose words once it is done are
    ``tutorial.<game>.finished``."""
    seats = [learner, opponent]
    next_game: JSON = {"game": game, "options": {"seats": seats}}
    if next_bots is not None:
        next_game["bots"] = next_bots
    next_label: JSON | None = (
        {"key": "stand.table", "params": {"count": len(seats)}} if next_table else None
    )
    return Script(
        name=name,
        game=game,
        learner=learner,
        opponent=opponent,
        opponent_level=opponent_level,
        entries=entries,
        next_game=next_game,
        finished_key=f"tutorial.{game}.finished",
        **({} if next_label is None else {"next_label": next_label}),
    )


def saved_lesson(
    log: JSON, scripts: Mapping[str, Script], title: str
) -> tuple[Script, JSON] | None:
    """A saved lesson's script and the game's own log in it; None for a log that is no
    lesson; SerializationError for a lesson this box does not have."""
    if not isinstance(log, dict) or LOG_KEY not in log:
        return None
    script = scripts.get(str(log[LOG_KEY]))
    if script is None:
        raise SerializationError(f"no {title} lesson is called {log[LOG_KEY]!r}")
    return script, {k: v for k, v in log.items() if k != LOG_KEY}


def chosen_script(
    options: JSON,
    scripts: Mapping[str, Script],
    allowed: Collection[str],
    bad_options: type[IllegalAction],
) -> Script:
    """The lesson ``options["tutorial"]`` names; ``bad_options`` (the game's own refusal)
    for an option besides it and ``allowed`` (a lesson deals its own game), or for a
    lesson this game does not have."""
    unknown = sorted(set(options) - {"tutorial", *allowed})
    if unknown:
        raise bad_options(reason="lesson_options", options=", ".join(unknown))
    script = scripts.get(str(options["tutorial"]))
    if script is None:
        raise bad_options(reason="no_lesson", lesson=str(options["tutorial"]), lessons=", ".join(scripts))
    return script


def replay_lesson_or_game(
    log: JSON,
    scripts: Mapping[str, Script],
    title: str,
    replay_game: Callable[[JSON], Session],
    lesson: type[TutorialSession] | None = None,
) -> Session:
    """A saved game replayed by ``replay_game``; a saved lesson (see ``saved_lesson``)
    replayed inside ``lesson`` (a ``TutorialSession`` unless the game teaches otherwise)."""
    saved = saved_lesson(log, scripts, title)
    if saved is None:
        return replay_game(log)
    script, game = saved
    return (lesson or TutorialSession)(replay_game(game), script)


def matches(expect: JSON, action: Any, ordered: Collection[str] = ()) -> bool:
    """Whether ``action`` has every field ``expect`` names (lists compared as sets, the
    lamps of a placement in any order, except those named in ``ordered``, a route); a
    seat it leaves out is the one sending it."""
    if not isinstance(action, dict):
        return False
    for name, wanted in expect.items():
        if name == "seat" and name not in action:
            continue
        got = action.get(name)
        if isinstance(wanted, list) and name not in ordered:
            if not isinstance(got, list) or sorted(map(str, got)) != sorted(map(str, wanted)):
                return False
        elif got != wanted:
            return False
    return True


class TutorialSession(Session):
    """``inner`` played by ``script``: everything else on the box sees an ordinary game
    of that kind, with the step in every view (``view()["tutorial"]``), its lamps lit
    and the opponent's bot playing its part of the script."""

    def __init__(self, inner: Session, script: Script) -> None:
        self.inner = inner
        self.script = script
        self.game = inner.game

    # ----------------------------------------------------------------- where we are

    def position(self) -> int:
        """How many entries of the script are done: the game's actions so far."""
        return len(self.inner.log_json()["actions"])

    def entry(self) -> Step | Opponent | None:
        done = self.position()
        entries = self.script.entries
        return entries[done] if done < len(entries) else None

    def step(self) -> Step | None:
        entry = self.entry()
        return entry if isinstance(entry, Step) else None

    def tutorial_json(self) -> JSON:
        """The lesson as every page shows it: the step (its words and what they name),
        how far along it is, and once it is over what comes next."""
        step = self.step()
        steps = self.script.steps
        done = sum(1 for s in self.script.entries[: self.position()] if isinstance(s, Step))
        return {
            "name": self.script.name,
            "learner": self.script.learner,
            "opponent": self.script.opponent,
            "step": None
            if step is None
            else {"key": step.key, "words": step.words, "tower": step.tower},
            "number": min(done + 1, len(steps)),
            "count": len(steps),
            "finished": self.inner.over and step is None,
            "finished_key": self.script.finished_key,
            "next_game": self.script.next_game,
            "next_label": self.script.next_label,
        }

    def _off_script(self, seat: str | None, action: Any, now: float) -> IllegalAction | None:
        entry = self.entry()
        if (
            isinstance(entry, Step)
            and seat == self.script.learner
            and matches(entry.expect, action, entry.ordered)
        ):
            return None
        if (
            isinstance(entry, Opponent)
            and seat == self.script.opponent
            and matches(entry.action, action)
        ):
            return None
        because = self.inner.refusal(seat, action, now)
        step_key = entry.key if isinstance(entry, Step) else None
        reason = because.to_json() if because is not None else None
        return OffScript(because=reason, step=step_key)

    # ----------------------------------------------------------------- the game, as scripted

    @property
    def seats(self) -> list[SeatInfo]:
        return self.inner.seats

    @property
    def active_seats(self) -> list[str]:
        return self.inner.active_seats

    @property
    def over(self) -> bool:
        return self.inner.over

    def result(self) -> JSON | None:
        return self.inner.result()

    def apply(self, seat: str | None, action: JSON, now: float) -> list[JSON]:
        return self.apply_told(seat, action, now).events

    def apply_told(self, seat: str | None, action: JSON, now: float) -> Told:
        refused = self._off_script(seat, action, now)
        if refused is not None:
            raise refused
        return self.inner.apply_told(seat, action, now)

    def replay_action(self, action: JSON) -> Told:
        return self.inner.replay_action(action)

    def undo(self, seat: str) -> list[JSON]:
        raise OffScript(because=None, step=None)

    def can_undo(self, seat: str) -> bool:
        return False

    def view(self, seat: str | None) -> JSON:
        """The game's view with the lesson in it; no hints (the lesson says what to do)
        and nothing to take back (the lesson goes forward only)."""
        view = {**self.inner.view(seat), LOG_KEY: self.tutorial_json(), "hints_allowed": False}
        you = view.get("you")
        if isinstance(you, dict) and "can_undo" in you:
            view["you"] = {**you, "can_undo": False}
        return view

    def legal_actions(self, seat: str | None, now: float) -> list[JSON]:
        """Only the step's action: every other control stays greyed out and says why."""
        entry = self.entry()
        if isinstance(entry, Step) and seat == self.script.learner:
            expect, ordered = entry.expect, entry.ordered
        elif isinstance(entry, Opponent) and seat == self.script.opponent:
            expect, ordered = entry.action, ()
        else:
            return []
        return [a for a in self.inner.legal_actions(seat, now) if matches(expect, a, ordered)]

    def log_json(self) -> JSON:
        return {**self.inner.log_json(), LOG_KEY: self.script.name}

    def deadline(self) -> float | None:
        return self.inner.deadline()

    def clock_action(self, now: float) -> JSON | None:
        return self.inner.clock_action(now)

    def lamps(self) -> LampFrame:
        """The game's lamps, with what the step is about picked out."""
        frame = self.inner.lamps()
        step = self.step()
        lights = step.lights if step is not None else 0
        return LampFrame(lit=frame.lit, preview=frame.preview, accent=frame.accent | lights)

    def preview(self, seat: str, action: JSON) -> LampFrame | None:
        return self.inner.preview(seat, action)

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        pressed = self.inner.button_action(button, now)
        if pressed is None:
            return None
        refused = self._off_script(pressed[0], pressed[1], now)
        if refused is not None:
            raise refused
        return pressed

    def transmissions(self, events: list[JSON]) -> list[int]:
        return self.inner.transmissions(events)

    def refusal(self, seat: str | None, action: JSON, now: float) -> IllegalAction | None:
        return self._off_script(seat, action, now) or self.inner.refusal(seat, action, now)

    def no_hint_reason(self, seat: str) -> str:
        return HINT_FORBIDDEN  # the lesson itself says what to do

    def bot_levels(self) -> list[str]:
        return self.inner.bot_levels()

    def tutorial_bots(self) -> dict[str, str]:
        opponent = self.script.opponent
        return {} if opponent is None else {opponent: self.script.opponent_level}

    def bot_action(
        self, seat: str, level: str, now: float, cancelled: Cancelled | None = None
    ) -> JSON | None:
        """The opponent plays its part of the script, and nothing out of it."""
        entry = self.entry()
        if isinstance(entry, Opponent) and seat == self.script.opponent:
            return dict(entry.action)
        return None

    def describe_event(self, event: JSON) -> str:
        return self.inner.describe_event(event)


class OpeningLesson(TutorialSession):
    """A lesson that teaches the opening turns of a game too long to play through in a
    lesson: it is over once its script is, the game left unfinished on the table until
    the real game replaces it. Its only bot is the script's other player, if it has one."""

    def script_done(self) -> bool:
        return self.position() >= len(self.script.entries)

    def tutorial_json(self) -> JSON:
        return {**super().tutorial_json(), "finished": self.script_done()}

    def bot_levels(self) -> list[str]:
        return [] if self.script.opponent is None else [self.script.opponent_level]
