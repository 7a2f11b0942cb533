"""Errors shared by all games.

Every rejected action raises a subclass of IllegalAction (itself a ValueError, as in
python-chess) whose message names the broken rule in words a player understands.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of everything the engine raises on purpose."""


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow now. The game state is unchanged.

    ``rule`` is a stable code and ``params`` the numbers and names in the message, so a
    front end can say the same thing in another language.
    """

    rule = "illegal_action"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "message": self.message, "params": self.params}

    def public(self) -> IllegalAction:
        """The refusal as everyone at the table may hear it (a press of a tower button
        is refused on the table screen): this one, unless it names something only the
        acting player may know."""
        return self


class MalformedAction(IllegalAction):
    """An action that could not be understood at all (unknown type, missing fields)."""

    rule = "malformed_action"


# refusals that mean the same in every game, with the same rule codes


class GameIsOver(IllegalAction):
    rule = "game_over"


class NotYourTurn(IllegalAction):
    rule = "not_your_turn"


class NothingToUndo(IllegalAction):
    rule = "nothing_to_undo"


class SerializationError(EngineError, ValueError):
    """A saved state or action log that cannot be read back."""


class DataError(EngineError, ValueError):
    """Component data that fails validation; carries every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        summary = "; ".join(self.problems[:5])
        more = f" (and {len(self.problems) - 5} more)" if len(self.problems) > 5 else ""
        super().__init__(f"invalid component data: {summary}{more}")
