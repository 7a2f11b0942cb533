"""Errors shared by all games.

Every rejected action raises a subclass of IllegalAction (itself a ValueError, as in
python-chess): a rule code and the values involved, never a sentence. The words are the
catalogues' (``web/i18n/<language>/<game>.json``, key ``rule.<code>``), in every
language alike, so English is written once and Czech says exactly what English says.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of everything the engine raises on purpose."""


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow now. The game state is unchanged.

    ``rule`` is a stable code and ``params`` the values the catalogue's sentence for it
    needs (numbers, seats, card ids; a ``reason`` chooses among its cases). The engine
    writes no words: ``message`` is None and the catalogue says it, or, until every
    refusal of a game is worded there, the English the engine still writes.
    """

    rule = "illegal_action"
    # values the pages read beside the sentence (a lesson's step), not words in it
    beside_words: tuple[str, ...] = ()

    def __init__(self, message: str | None = None, /, **params: object) -> None:
        super().__init__(message if message is not None else _diagnostic(self.rule, params))
        self.message = message
        self.params = params

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "message": self.message, "params": self.params}

    def public(self) -> IllegalAction:
        """The refusal as everyone at the table may hear it (a press of a tower button
        is refused on the table screen): this one, unless it names something only the
        acting player may know."""
        return self


def _diagnostic(rule: str, params: dict[str, object]) -> str:
    """The code and values, for a log or a traceback: not words for players."""
    values = ", ".join(f"{name}={value!r}" for name, value in params.items())
    return f"{rule}({values})"


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
