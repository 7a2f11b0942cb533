"""The alphabet trainer: younger players learn the Clacks letter patterns.

Two kinds of question, drawn from the state's seeded generator:

- read: the exchange shows a symbol on one tower, as seen from the chosen seat, among
  random lamps elsewhere; the player names it.
- set: the player is asked for a symbol at a named tower and sets it with free flips of
  any lamps (no Jacquards, no stress), then asks for it to be checked, or gives up.

A running score counts right answers, questions asked, the current and the best streak.
The session ends after ``questions`` questions. Like a Clacks game, the action log and
the seed rebuild a session exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.clacks.actions import lamp_mask
from engine.clacks.components import SYMBOL_NAMES, ComponentSet
from engine.clacks.data import load_components, plain_letters
from engine.clacks.errors import BadOptions, GameIsOver, OptionOutOfRange, WrongPhase
from engine.clacks.events import Event, event
from engine.clacks.geometry import (
    Seat,
    lamps_of,
    pattern_mask,
    read_pattern,
    tower,
    towers_of,
)
from engine.clacks.state import seats_from_json
from engine.core.action_json import typed_action
from engine.core.errors import IllegalAction, MalformedAction, SerializationError
from engine.core.options import OptionRange
from engine.core.rng import Rng
from engine.core.saves import check_header, read_seed, seed_json

KINDS = ("read", "set", "mixed")
QUESTIONS = OptionRange(1, 100)  # a session's length, as the schema states it
LETTERS = SYMBOL_NAMES[:26]
FORMAT = 2  # the seed as hexadecimal digits, questions from HMAC_DRBG (engine.core.rng)
LEGACY_FORMAT = 1  # before: a whole-number seed and SplitMix64, kept for old logs
GAME = "clacks-trainer"


@dataclass(frozen=True)
class TrainerOptions:
    seat: Seat = Seat.SOUTH  # whose orientation the letters are read in
    kind: str = "mixed"  # read, set, or mixed (alternating at random)
    questions: int = 10
    signals: bool = False  # include SPACE and END as well as A to Z

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise BadOptions(reason="unknown_kind", kind=self.kind, kinds=", ".join(KINDS))
        QUESTIONS.check("questions", self.questions, OptionOutOfRange)

    @property
    def symbols(self) -> tuple[str, ...]:
        return SYMBOL_NAMES if self.signals else LETTERS

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat.label,
            "kind": self.kind,
            "questions": self.questions,
            "signals": self.signals,
        }

    @classmethod
    def from_json(cls, data: object) -> TrainerOptions:
        if not isinstance(data, dict):
            raise BadOptions(reason="not_object")
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise BadOptions(reason="unknown_options", options=", ".join(sorted(unknown)))
        kwargs: dict[str, Any] = {}
        if "seat" in data:
            (kwargs["seat"],) = seats_from_json([data["seat"]])
        if "kind" in data:
            if not isinstance(data["kind"], str):
                raise BadOptions(reason="not_string", option="kind")
            kwargs["kind"] = data["kind"]
        if "questions" in data:
            kwargs["questions"] = QUESTIONS.check("questions", data["questions"], OptionOutOfRange)
        if "signals" in data:
            if not isinstance(data["signals"], bool):
                raise BadOptions(reason="not_boolean", option="signals")
            kwargs["signals"] = data["signals"]
        return cls(**kwargs)


@dataclass
class Question:
    kind: str  # read | set
    symbol: str
    tower: str


@dataclass
class TrainerState:
    options: TrainerOptions
    seed: int
    rng: Rng
    board: int = 0
    question: Question | None = None
    asked: int = 0  # questions answered (or given up)
    correct: int = 0
    streak: int = 0
    best_streak: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.question is None

    def to_json(self) -> dict[str, Any]:
        q = self.question
        return {
            "options": self.options.to_json(),
            "seed": seed_json(self.seed, self.rng.legacy),
            "rng": self.rng.to_json(),
            "board": self.board,
            "question": None
            if q is None
            else {"kind": q.kind, "symbol": q.symbol, "tower": q.tower},
            "asked": self.asked,
            "correct": self.correct,
            "streak": self.streak,
            "best_streak": self.best_streak,
            "history": [dict(h) for h in self.history],
        }


# ----------------------------------------------------------------- actions


@dataclass(frozen=True)
class TrainerAction:
    """answer (read questions: ``symbol``), flip (set questions: ``lamps``), check
    (set questions), skip (give up this question)."""

    type: str
    symbol: str | None = None
    lamps: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.type == "answer":
            out["symbol"] = self.symbol
        if self.type == "flip":
            out["lamps"] = lamps_of(self.lamps)
        return out


ACTION_FIELDS = {"answer": {"symbol"}, "flip": {"lamps"}, "check": set(), "skip": set()}


def trainer_action_from_json(data: object) -> TrainerAction:
    data, kind = typed_action(data, ACTION_FIELDS)
    if kind == "answer":
        symbol = data.get("symbol")
        if not isinstance(symbol, str) or not symbol.strip():
            raise MalformedAction(reason="answer_symbol")
        return TrainerAction("answer", symbol=symbol)
    if kind == "flip":
        names = data.get("lamps")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise MalformedAction(reason="lamp_list", field="lamps")
        if len(set(names)) != len(names):
            raise MalformedAction(reason="lamp_twice", field="lamps")
        return TrainerAction("flip", lamps=lamp_mask("lamps", names))
    return TrainerAction(kind)


def normalise_answer(text: str) -> str | None:
    """A typed answer as a symbol name: letters without diacritics, or SPACE/END."""
    plain = plain_letters(text.strip())
    return plain if plain in SYMBOL_NAMES else None


# ----------------------------------------------------------------- the trainer


class AlphabetTrainer:
    """A trainer session: questions, answers and the running score."""

    def __init__(
        self, state: TrainerState, components: ComponentSet, log: list[TrainerAction]
    ) -> None:
        self.state = state
        self.components = components
        self.log = list(log)

    @classmethod
    def new(
        cls,
        options: TrainerOptions,
        seed: int,
        components: ComponentSet | None = None,
        legacy: bool = False,
    ) -> AlphabetTrainer:
        """A new session asking from ``seed`` (``legacy``: as a format 1 log did)."""
        state = TrainerState(options, seed, Rng.for_seed(seed, legacy))
        trainer = cls(state, components or load_components(), [])
        trainer._ask()
        return trainer

    @property
    def over(self) -> bool:
        return self.state.over

    def _ask(self) -> None:
        state = self.state
        rng = state.rng
        options = state.options
        if state.asked >= options.questions:
            state.question = None
            return
        kind = options.kind if options.kind != "mixed" else ("read", "set")[rng.below(2)]
        pool = [s for s in options.symbols if not state.history or s != state.history[-1]["symbol"]]
        symbol = pool[rng.below(len(pool))]
        names = towers_of(options.seat.colour)
        name = names[rng.below(len(names))]
        background = rng.below(1 << 16)
        mask = tower(name).mask
        if kind == "read":
            shown = pattern_mask(self.components.pattern(symbol), options.seat, name)
            state.board = (background & ~mask) | shown
        else:
            state.board = background
            if read_pattern(state.board, options.seat, name) == self.components.pattern(symbol):
                state.board ^= mask  # never ask for what is already there
        state.question = Question(kind, symbol, name)

    def _score(self, answer: str | None, right: bool, gave_up: bool = False) -> list[Event]:
        state = self.state
        question = state.question
        assert question is not None
        state.asked += 1
        if right:
            state.correct += 1
            state.streak += 1
            state.best_streak = max(state.best_streak, state.streak)
        else:
            state.streak = 0
        state.history.append(
            {
                "kind": question.kind,
                "symbol": question.symbol,
                "tower": question.tower,
                "answer": answer,
                "correct": right,
                "gave_up": gave_up,
            }
        )
        events = [
            event(
                "answered",
                state.options.seat,
                symbol=question.symbol,
                answer=answer,
                correct=right,
                score=state.correct,
                asked=state.asked,
            )
        ]
        self._ask()
        if state.over:
            events.append(
                event(
                    "trainer_finished", state.options.seat, score=state.correct, asked=state.asked
                )
            )
        return events

    def apply(self, action: TrainerAction) -> list[Event]:
        state = self.state
        question = state.question
        if question is None:
            raise GameIsOver(reason="session", correct=state.correct, asked=state.asked)
        if action.type == "answer":
            if question.kind != "read":
                raise WrongPhase(reason="set_then_check", symbol=question.symbol, tower=question.tower)
            assert action.symbol is not None
            answer = normalise_answer(action.symbol)
            if answer is None:
                raise MalformedAction(reason="not_a_symbol", symbol=action.symbol)
            events = self._score(answer, answer == question.symbol)
        elif action.type == "flip":
            if question.kind != "set":
                raise WrongPhase(reason="name_symbol_flip")
            if not action.lamps:
                raise MalformedAction(reason="flip_needs_lamp")
            state.board ^= action.lamps
            events = [event("lamps_changed", state.options.seat, lamps=lamps_of(action.lamps))]
        elif action.type == "check":
            if question.kind != "set":
                raise WrongPhase(reason="name_symbol_check")
            shown = read_pattern(state.board, state.options.seat, question.tower)
            symbol = self.components.symbol_for(shown)
            events = self._score(symbol, shown == self.components.pattern(question.symbol))
        else:
            events = self._score(None, False, gave_up=True)
        self.log.append(action)
        return events

    def legal_actions(self) -> list[TrainerAction]:
        question = self.state.question
        if question is None:
            return []
        if question.kind == "read":
            symbols = self.state.options.symbols
            return [TrainerAction("answer", symbol=s) for s in symbols] + [TrainerAction("skip")]
        flips = [TrainerAction("flip", lamps=1 << i) for i in range(16)]
        return [*flips, TrainerAction("check"), TrainerAction("skip")]

    def view(self) -> dict[str, Any]:
        """What the player sees: never the answer to a read question before it is given."""
        state = self.state
        question = state.question
        shown: dict[str, Any] | None = None
        if question is not None:
            shown = {"kind": question.kind, "tower": question.tower}
            if question.kind == "set":
                shown["symbol"] = question.symbol
                shown["pattern"] = format(self.components.pattern(question.symbol), "06b")
        return {
            "game": GAME,
            "options": state.options.to_json(),
            "seat": state.options.seat.label,
            "board": state.board,
            "lit": lamps_of(state.board),
            "question": shown,
            "score": {
                "correct": state.correct,
                "asked": state.asked,
                "questions": state.options.questions,
                "streak": state.streak,
                "best_streak": state.best_streak,
            },
            "last": dict(state.history[-1]) if state.history else None,
            "over": state.over,
        }

    def log_to_json(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "format": LEGACY_FORMAT if self.state.rng.legacy else FORMAT,
            "options": self.state.options.to_json(),
            "seed": seed_json(self.state.seed, self.state.rng.legacy),
            "actions": [a.to_json() for a in self.log],
        }

    @classmethod
    def replay(cls, data: object, components: ComponentSet | None = None) -> AlphabetTrainer:
        if not isinstance(data, dict) or data.get("game") != GAME:
            raise SerializationError("this is not an alphabet trainer log")
        check_header(data, GAME, (FORMAT, LEGACY_FORMAT), "trainer log")
        legacy = data["format"] == LEGACY_FORMAT
        try:
            options = TrainerOptions.from_json(data["options"])
            seed = read_seed(data, legacy)
            actions = [trainer_action_from_json(a) for a in data["actions"]]
            trainer = cls.new(options, seed, components, legacy)
            for action in actions:
                trainer.apply(action)
        except (KeyError, TypeError, IllegalAction) as exc:
            raise SerializationError(f"not a trainer log this version can replay: {exc}") from exc
        return trainer
