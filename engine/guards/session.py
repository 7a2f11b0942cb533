"""Guards! Guards! behind the box's game-agnostic seam (engine.core.interface).

The board stays on the table; players report on their phones what happened there and
the companion rolls every die, does the sums and keeps the trackers. Besides the game
the session holds one thing of its own: which panel the table screen shows (the box's
two panel buttons cycle it; not logged, like a preview).
"""

from __future__ import annotations

from engine.core.action_json import sent_by
from engine.core.errors import MalformedAction
from engine.core.interface import JSON, LampFrame, SeatInfo, Session, game_result
from engine.guards import lamps
from engine.guards.actions import action_from_json
from engine.guards.data import QUADRANTS
from engine.guards.describe import describe_event
from engine.guards.errors import GameIsOver
from engine.guards.forms import legal_forms
from engine.guards.game import GAME, GuardsGame

PANELS = ("guide", "cards", "city")


class GuardsSession(Session):
    game = GAME

    def __init__(self, game: GuardsGame) -> None:
        self.guards = game
        self.panel = 0
        self.marked: list[str] = []  # quadrants marked with the box's block buttons

    @property
    def seats(self) -> list[SeatInfo]:
        return [SeatInfo(seat, seat) for seat in self.guards.seats]

    @property
    def active_seats(self) -> list[str]:
        state = self.guards.state
        if state.over:
            return []
        if state.phase == "setup":
            return [s for s, p in state.players.items() if p.card is None or len(p.dealt) < 2]
        top = state.top
        if top is not None:
            return list(top.seats)
        return [state.turn.seat] if state.turn is not None else []

    @property
    def over(self) -> bool:
        return self.guards.over

    def result(self) -> JSON | None:
        return game_result(self.guards.state, lambda state: {
            "reason": state.ending,
            "ranking": list(state.ranking),
            "spells": {s: len(p.returned) for s, p in state.players.items()},
            "dollars": {s: p.dollars for s, p in state.players.items()},
        })

    # ----------------------------------------------------------------- acting

    def apply(self, seat: str | None, action: JSON, now: float) -> list[JSON]:
        if isinstance(action, dict) and action.get("type") == "panel":
            return self._cycle(action)
        if isinstance(action, dict) and action.get("type") == "mark":
            return self._mark(action)
        if isinstance(action, dict) and action.get("type") == "undo" and seat is not None:
            return self.undo(seat)
        events = self.guards.apply(sent_by(seat, action, action_from_json))
        self.marked = []
        return [e.to_json() for e in events]

    def _mark(self, action: JSON) -> list[JSON]:
        quadrant = action.get("quadrant")
        if quadrant not in QUADRANTS or set(action) - {"type", "quadrant", "seat"}:
            raise MalformedAction(reason="mark_quadrant", quadrants=", ".join(QUADRANTS))
        if self.guards.over:
            raise GameIsOver(reason="over")
        if quadrant in self.marked:
            self.marked.remove(quadrant)
        else:
            self.marked.append(quadrant)
        return [{"kind": "marked", "seat": None, "quadrants": list(self.marked)}]

    def _cycle(self, action: JSON) -> list[JSON]:
        step = action.get("step", 1)
        if step not in (1, -1) or set(action) - {"type", "step", "seat"}:
            raise MalformedAction(reason="panel_step")
        self.panel = (self.panel + step) % len(PANELS)
        return [{"kind": "panel_shown", "seat": None, "panel": PANELS[self.panel]}]

    def undo(self, seat: str) -> list[JSON]:
        self.marked = []
        return [e.to_json() for e in self.guards.undo(seat)]

    def can_undo(self, seat: str) -> bool:
        return self.guards.can_undo(seat)

    def view(self, seat: str | None) -> JSON:
        view = self.guards.view(seat if seat in self.guards.seats else None)
        view["panel"] = PANELS[self.panel]
        view["marked"] = list(self.marked)
        return view

    def legal_actions(self, seat: str | None, now: float) -> list[JSON]:
        if seat is None or seat not in self.guards.seats:
            return []
        return legal_forms(self.guards.state, seat)

    def log_json(self) -> JSON:
        return self.guards.log_to_json()

    # ----------------------------------------------------------------- the box

    def lamps(self) -> LampFrame:
        return lamps.frame(self.guards.state, self.marked)

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        return lamps.button_action(self.guards.state, button)

    def transmissions(self, events: list[JSON]) -> list[int]:
        """A roll of the die runs along its bar."""
        return [lamps.DICE_ROWS for e in events if e.get("kind") in ("rolled", "start_rolled")]

    def describe_event(self, event: JSON) -> str:
        return describe_event(event)
