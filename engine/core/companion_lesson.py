"""A guided first game for a companion game (Clockman, Guards! Guards!), whose board
stays on the table: the learner reports their moves step by step and the scripted other
player's reports come in between, played by the table as its lesson opponent.

Two things differ from a lesson that is a whole game (engine.core.tutorial): a companion
game takes far longer than a lesson should, so the lesson is over once its script is
(the game stays on the table, unfinished, until the real game replaces it); and the
game has no bots of its own, so the script's other player is the only one it seats.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.errors import IllegalAction
from engine.core.interface import JSON
from engine.core.tutorial import Script, TutorialSession, chosen_script


def companion_script(
    options: JSON, scripts: Mapping[str, Script], mode: str, error: type[IllegalAction]
) -> Script:
    """The lesson ``options`` name (``tutorial``, one of ``scripts``), which deals and
    seats its own game: besides it the options may say only the game's one ``mode``;
    anything else is refused with ``error``."""
    if options.get("mode", mode) != mode:
        raise error(reason="lesson_options", options="mode")
    return chosen_script(options, scripts, {"mode"}, error)


class CompanionLesson(TutorialSession):
    def script_done(self) -> bool:
        return self.position() >= len(self.script.entries)

    def tutorial_json(self) -> JSON:
        lesson = super().tutorial_json()
        return {**lesson, "finished": self.script_done()}

    def view(self, seat: str | None) -> JSON:
        """The game's view, without the offer to undo that the game would make: the
        lesson goes forward only."""
        view = super().view(seat)
        you = view.get("you")
        if isinstance(you, dict) and "can_undo" in you:
            view["you"] = {**you, "can_undo": False}
        return view

    def bot_levels(self) -> list[str]:
        """Only the script's other player: the game itself has no bots."""
        return [self.script.opponent_level]
