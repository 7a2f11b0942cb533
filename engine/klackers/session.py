"""Klackers behind the box's game-agnostic seam (engine.core.interface).

Besides the match itself a session holds one thing of its own: the numbers marked on
the box. A player at the box marks numbers with their buttons (each press toggles one,
and the marked numbers blink), then presses the pull button to pull them forward. A
mark is the session action ``{"type": "mark", "number": n}``: it changes nothing in
the match and is not logged (like a preview, it is gone when the match changes or the
session is rebuilt from its log). Phones choose their numbers on their own screen and
show them on the lamps through ``preview`` instead.

Button meanings come from the layout (engine/data/klackers/layout.toml); for the player
who has the dice: a number's button marks or unmarks it (refused before the roll or
when the number is down), "roll" rolls two dice, "roll_one" one die, "pull" pulls the
marked numbers (refused, with the reason, unless they make the roll).
"""

from __future__ import annotations

from engine.core.action_json import sent_by
from engine.core.budget import Cancelled
from engine.core.errors import MalformedAction
from engine.core.interface import JSON, LampFrame, SeatInfo, Session, game_result
from engine.core.rng import derive_seed
from engine.klackers.actions import Action, Pull, Roll, action_from_json
from engine.klackers.bots import LEVELS, PlannerBot, make_bot, objective_for
from engine.klackers.describe import describe_event
from engine.klackers.errors import (
    GameIsOver,
    NothingMarked,
    NotStanding,
    NotYourTurn,
    RollFirst,
)
from engine.klackers.game import GAME, KlackersGame
from engine.klackers.layout import BoardLayout, default_layout
from engine.klackers.numbers import NUMBERS, bit, mask_of, numbers_of
from engine.klackers.strategy import exact_values


class KlackersSession(Session):
    game = GAME

    def __init__(self, match: KlackersGame, layout: BoardLayout | None = None) -> None:
        self.klackers = match
        self.layout = layout or default_layout()
        self.marked = 0  # numbers marked on the box for the pull (a 9-bit mask)

    @property
    def seats(self) -> list[SeatInfo]:
        return [SeatInfo(seat) for seat in self.klackers.seats]

    @property
    def active_seats(self) -> list[str]:
        seat = self.klackers.current_seat
        return [seat] if seat is not None else []

    @property
    def over(self) -> bool:
        return self.klackers.over

    def result(self) -> JSON | None:
        return game_result(self.klackers.state, lambda state: {
            "reason": "most_chips",
            "chips": {seat: p.chips for seat, p in state.players.items()},
            "rounds": len(state.results),
        })

    # ----------------------------------------------------------------- acting

    def apply(self, seat: str | None, action: JSON, now: float) -> list[JSON]:
        if isinstance(action, dict) and action.get("type") == "mark":
            return self._mark(seat, action)
        events = self.klackers.apply(sent_by(seat, action, action_from_json))
        self.marked = 0
        return [e.to_json() for e in events]

    def _mark(self, seat: str | None, action: JSON) -> list[JSON]:
        unknown = set(action) - {"type", "number", "seat"}
        if unknown:
            raise MalformedAction(reason="unknown_fields", type="mark", fields=", ".join(sorted(unknown)))
        number = action.get("number")
        if isinstance(number, bool) or number not in NUMBERS:
            raise MalformedAction(reason="number_range", number=str(number))
        who = action.get("seat", seat)
        turn = self.klackers.state.turn
        if turn is None:
            raise GameIsOver(reason="over")
        if who != turn.seat or seat != turn.seat:
            raise NotYourTurn(reason="turn", current=turn.seat)
        if turn.phase != "pull":
            raise RollFirst(reason="mark")
        if not self.klackers.state.players[turn.seat].standing & bit(number):
            raise NotStanding(number=number)
        self.marked ^= bit(number)
        return [{"kind": "marked", "seat": turn.seat, "numbers": list(numbers_of(self.marked))}]

    def undo(self, seat: str) -> list[JSON]:
        events = self.klackers.undo(seat)
        self.marked = 0
        return [e.to_json() for e in events]

    def can_undo(self, seat: str) -> bool:
        return self.klackers.can_undo(seat)

    def view(self, seat: str | None) -> JSON:
        view = self.klackers.view(seat if seat in self.klackers.seats else None)
        view["marked"] = list(numbers_of(self.marked))
        view["layout"] = self.layout.to_json()
        return view

    def legal_actions(self, seat: str | None, now: float) -> list[JSON]:
        return [a.to_json() for a in self.klackers.legal_actions(seat)]

    def log_json(self) -> JSON:
        log = self.klackers.log_to_json()
        if self.layout != default_layout():  # the box's own layout is the game's option
            log["layout"] = self.layout.to_data()
        return log

    # ----------------------------------------------------------------- the box

    def lamps(self) -> LampFrame:
        return self.layout.frame(self.klackers.state, self.marked)

    def preview(self, seat: str, action: JSON) -> LampFrame | None:
        """The numbers a phone has chosen so far (any part of a pull), blinking."""
        turn = self.klackers.state.turn
        if turn is None or seat != turn.seat or turn.phase != "pull":
            return None
        if not isinstance(action, dict) or action.get("type") != "pull":
            return None
        numbers = action.get("numbers")
        if not isinstance(numbers, list) or not numbers:
            return None
        if not all(
            isinstance(n, int) and not isinstance(n, bool) and n in NUMBERS for n in numbers
        ):
            return None
        chosen = mask_of(numbers)
        if chosen & ~self.klackers.state.players[seat].standing:
            return None
        frame = self.lamps()
        return LampFrame(frame.lit, self.layout.number_lamps(chosen), frame.accent)

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        meaning = self.layout.meaning(button)
        if meaning is None:
            raise ValueError(f"no button {button!r} in the Klackers layout")
        turn = self.klackers.state.turn
        if turn is None:
            return None
        seat = turn.seat
        action: Action
        if meaning == "roll":
            action = Roll(seat, 2)
        elif meaning == "roll_one":
            action = Roll(seat, 1)
        elif meaning == "pull":
            if not self.marked:
                raise NothingMarked()
            action = Pull(seat, numbers_of(self.marked))
        else:
            return seat, {"type": "mark", "seat": seat, "number": int(meaning)}
        return seat, action.to_json()

    # ----------------------------------------------------------------- bots and hints

    def bot_levels(self) -> list[str]:
        """The bot levels that can take a seat, weakest first."""
        return list(LEVELS)

    def bot_action(
        self, seat: str, level: str, now: float, cancelled: Cancelled | None = None
    ) -> JSON | None:
        """What a bot of ``level`` does for ``seat`` now (None outside its turn), from
        that seat's view only; the random bot is seeded from the match, the seat and the
        actions so far, so the same moment gives the same choice. A Klackers bot looks
        up a fixed table of 512 standing sets (engine.klackers.strategy), so its work is
        bounded whatever the options and ``cancelled`` has nothing to stop."""
        if seat not in self.klackers.seats or seat != self.klackers.current_seat:
            if level not in LEVELS:
                raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(LEVELS)}")
            return None
        state = self.klackers.state
        bot = make_bot(level, derive_seed(state.seed, "bot", seat, len(self.klackers.log)))
        return bot.choose(self.klackers.view(seat)).to_json()

    def hint(self, seat: str, cancelled: Cancelled | None = None) -> JSON | None:
        """The planner's advice for ``seat``'s next step: ``actions`` (one roll or one
        pull), the ``objective`` it plays for (``score``, or ``klack`` under Klack to
        Win) and ``expected``: the expected final score (or the chance of not Klacking)
        when played perfectly from there. None outside the seat's turn."""
        if seat != self.klackers.current_seat:
            return None
        view = self.klackers.view(seat)
        action = PlannerBot().choose(view)
        values = exact_values(objective_for(view))
        standing = self.klackers.state.players[seat].standing
        if isinstance(action, Pull):
            after = standing & ~mask_of(action.numbers)
            expected = values[after]
        else:
            expected = values[standing]
        return {
            "actions": [action.to_json()],
            "objective": objective_for(view),
            "expected": round(expected, 3),
        }

    def hint_lamps(self, seat: str, cancelled: Cancelled | None = None) -> LampFrame | None:
        """The lamps with the hinted pull's numbers blinking (a hinted roll: none)."""
        advice = self.hint(seat)
        if advice is None:
            return None
        action = advice["actions"][0]
        frame = self.lamps()
        if action["type"] != "pull":
            return frame
        return LampFrame(
            frame.lit, self.layout.number_lamps(mask_of(action["numbers"])), frame.accent
        )

    def transmissions(self, events: list[JSON]) -> list[int]:
        """The dice row rattles after every roll."""
        return [self.layout.dice_mask for e in events if e.get("kind") == "rolled"]

    def describe_event(self, event: JSON) -> str:
        return describe_event(event)
