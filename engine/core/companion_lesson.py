"""A guided first game for a companion game (Clockman, Guards! Guards!), whose board
stays on the table: the learner reports their moves step by step and the scripted other
player's reports come in between, played by the table as its lesson opponent.

Two things differ from a lesson that is a whole game (engine.core.tutorial): a companion
game takes far longer than a lesson should, so the lesson is over once its script is
(the game stays on the table, unfinished, until the real game replaces it); and the
game has no bots of its own, so the script's other player is the only one it seats.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, GameModule, Session
from engine.core.one_mode import one_mode_options, one_mode_tutorial_start
from engine.core.tutorial import Script, TutorialSession, chosen_script, replay_lesson_or_game


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


class CompanionModule(GameModule):
    """How a companion game with one mode, named after the game (``name``), starts its
    games and its lessons (``scripts``, each replayed inside ``lesson``), replays them and
    says how its lesson starts. The game makes its own sessions: ``new_game`` from the
    options without their ``mode``, ``replay_game`` from a game's log, ``new_lesson``
    for the lesson ``lesson_script`` reads from the options."""

    scripts: ClassVar[Mapping[str, Script]]
    lesson: ClassVar[type[TutorialSession]]
    bad_options: ClassVar[type[IllegalAction]]

    @abstractmethod
    def new_game(self, options: dict[str, Any], seed: int) -> Session: ...

    @abstractmethod
    def replay_game(self, log: JSON) -> Session: ...

    @abstractmethod
    def new_lesson(self, script: Script) -> Session: ...

    def new(self, options: JSON, seed: int, now: float = 0.0) -> Session:
        """The game ``options`` ask for, or with ``tutorial`` the lesson it names."""
        if isinstance(options, dict) and "tutorial" in options:
            return self.new_lesson(companion_script(options, self.scripts, self.name, self.bad_options))
        return self.new_game(one_mode_options(options, self.name, self.bad_options), seed)

    def replay(self, log: JSON) -> Session:
        return replay_lesson_or_game(log, self.scripts, self.title, self.replay_game, self.lesson)

    def tutorial_start(self, mode: str | None = None) -> JSON | None:
        return one_mode_tutorial_start(self.name, self.scripts, mode)
