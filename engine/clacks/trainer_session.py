"""The alphabet trainer behind the box's game-agnostic seam (engine.core.interface).

One player, sitting at the chosen seat. The lamp frame picks out the tower the question
is about. A tower button press during a set question checks the letter at that tower
when it is the tower asked for (and is refused, naming the right one, otherwise);
during a read question buttons mean nothing.
"""

from __future__ import annotations

from engine.clacks.errors import BadOptions, NothingToUndo, NotYourTurn, WrongPhase
from engine.clacks.geometry import Seat, tower
from engine.clacks.session import clacks_reference, describe_event
from engine.clacks.trainer import (
    GAME,
    KINDS,
    QUESTIONS,
    AlphabetTrainer,
    TrainerAction,
    TrainerOptions,
    trainer_action_from_json,
)
from engine.core.interface import JSON, GameModule, LampFrame, SeatInfo, Session


class TrainerSession(Session):
    game = GAME

    def __init__(self, trainer: AlphabetTrainer) -> None:
        self.trainer = trainer

    @property
    def seat(self) -> Seat:
        return self.trainer.state.options.seat

    @property
    def seats(self) -> list[SeatInfo]:
        return [SeatInfo(self.seat.label, self.seat.colour.value)]

    @property
    def active_seats(self) -> list[str]:
        return [] if self.over else [self.seat.label]

    @property
    def over(self) -> bool:
        return self.trainer.over

    def result(self) -> JSON | None:
        if not self.over:
            return None
        state = self.trainer.state
        return {
            "winners": [self.seat.label],
            "reason": "finished",
            "score": state.correct,
            "asked": state.asked,
            "best_streak": state.best_streak,
        }

    def _check_seat(self, seat: str | None) -> None:
        if seat is None or Seat.parse(seat) is not self.seat:
            raise NotYourTurn(reason="trainer_seat", seat=self.seat.label)

    def apply(self, seat: str | None, action: JSON, now: float) -> list[JSON]:
        self._check_seat(seat)
        return [e.to_json() for e in self.trainer.apply(trainer_action_from_json(action))]

    def undo(self, seat: str) -> list[JSON]:
        raise NothingToUndo(reason="trainer")

    def can_undo(self, seat: str) -> bool:
        return False

    def view(self, seat: str | None) -> JSON:
        return self.trainer.view()

    def legal_actions(self, seat: str | None, now: float) -> list[JSON]:
        if seat is None or Seat.parse(seat) is not self.seat:
            return []
        return [a.to_json() for a in self.trainer.legal_actions()]

    def log_json(self) -> JSON:
        return self.trainer.log_to_json()

    def lamps(self) -> LampFrame:
        question = self.trainer.state.question
        accent = tower(question.tower).mask if question is not None else 0
        return LampFrame(lit=self.trainer.state.board, accent=accent)

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        question = self.trainer.state.question
        if question is None or question.kind != "set":
            return None
        tower(button)  # an unknown button is refused with the list of towers
        if button != question.tower:
            raise WrongPhase(reason="make_then_press", symbol=question.symbol, tower=question.tower)
        return self.seat.label, TrainerAction("check").to_json()

    def describe_event(self, event: JSON) -> str:
        if event.get("kind") == "answered":
            verdict = "Right!" if event.get("correct") else f"No, it was {event.get('symbol')}."
            return f"{verdict} Score {event.get('score')}/{event.get('asked')}."
        if event.get("kind") == "trainer_finished":
            return f"Finished: {event.get('score')} of {event.get('asked')} right."
        return describe_event(event)


class TrainerModule(GameModule):
    name = GAME
    title = "Clacks Alphabet Trainer"

    def new(self, options: JSON, seed: int, now: float = 0.0) -> TrainerSession:
        if not isinstance(options, dict):
            raise BadOptions(reason="not_object")
        return TrainerSession(AlphabetTrainer.new(TrainerOptions.from_json(options), seed))

    def replay(self, log: JSON) -> TrainerSession:
        return TrainerSession(AlphabetTrainer.replay(log))

    def options_schema(self) -> JSON:
        return {
            "game": self.name,
            "players": [1],
            "choices": {
                "seat": {"choices": [s.label for s in Seat], "default": "south"},
                "kind": {"choices": list(KINDS), "default": "mixed"},
                "questions": QUESTIONS.schema(10),
                "signals": {"type": "bool", "default": False},
            },
        }

    def reference(self) -> JSON:
        """The same exchange and alphabet card as Clacks, to draw the trainer's board."""
        return {**clacks_reference(), "game": self.name}
