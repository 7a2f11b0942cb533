"""How the box starts, replays and describes Klackers (engine.core.interface)."""

from __future__ import annotations

from typing import Any

from engine.core.data_check import DataCheck
from engine.core.errors import DataError, SerializationError
from engine.core.interface import JSON, GameModule, Session
from engine.core.one_mode import one_mode_options, one_mode_tutorial_start
from engine.core.tutorial import chosen_script, replay_lesson_or_game
from engine.klackers.errors import BadOptions
from engine.klackers.game import GAME, KlackersGame
from engine.klackers.layout import (
    FILES,
    BoardLayout,
    check_path,
    default_data_path,
    default_layout,
    layout_from_data,
)
from engine.klackers.numbers import NUMBERS, ONE_DIE_LIMIT, TWO_DICE
from engine.klackers.options import (
    DEFAULT_SEATS,
    JSON_RANGES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEATS,
    VARIANTS,
    KlackersOptions,
)
from engine.klackers.rules import HUGHIE_LIMIT
from engine.klackers.session import KlackersSession
from engine.klackers.tutorial import OPTIONS as TUTORIAL_OPTIONS
from engine.klackers.tutorial import SCRIPTS, KlackersLesson
from engine.klackers.tutorial import SEED as TUTORIAL_SEED


class KlackersModule(GameModule):
    name = GAME
    title = "Klackers"

    def data_check(self) -> DataCheck:
        return DataCheck(self.title, FILES, default_data_path, check_path)

    def api_notes(self) -> dict[str, str]:
        return {
            "actions": "roll, pull, and mark for the box's pull button",
            "hint": "`actions`, `objective`, `expected`",
        }

    def new(self, options: JSON, seed: int, now: float = 0.0) -> Session:
        """Options as in ``KlackersOptions.from_json``, plus the lobby's ``mode``
        (Klackers has one, ``klackers``) and the box's ``layout`` (a table like
        engine/data/klackers/layout.toml; the sections it leaves out are the shipped
        ones; none: the shipped layout); or ``tutorial`` (a name in
        ``engine.klackers.tutorial``) for the guided first game, whose deal is its own."""
        data = one_mode_options(options, GAME, BadOptions)
        layout = layout_option(data.pop("layout", None))
        if "tutorial" in data:
            return _tutorial(data, layout)
        return KlackersSession(KlackersGame.new(KlackersOptions.from_json(data), seed), layout)

    def replay(self, log: JSON) -> Session:
        """A log as ``KlackersSession.log_json`` writes it: a game played on a layout of
        its own keeps it under ``layout``; a lesson's log names its lesson."""
        return replay_lesson_or_game(log, SCRIPTS, self.title, _replay, KlackersLesson)

    def tutorial_start(self, mode: str | None = None) -> JSON | None:
        # the game's one mode is named after Klackers, whatever name it is registered by
        return one_mode_tutorial_start(self.name, SCRIPTS, mode, one_mode=GAME)

    def options_schema(self) -> JSON:
        return {
            "game": self.name,
            "modes": [
                {
                    "id": "klackers",
                    "title": "Klackers",
                    "players": sorted(DEFAULT_SEATS),
                    "variants": list(VARIANTS),
                    "default_seats": {str(n): list(s) for n, s in DEFAULT_SEATS.items()},
                    "choices": {
                        "rounds": JSON_RANGES["rounds"].schema(KlackersOptions.rounds),
                        "target": JSON_RANGES["target"].schema(0),
                    },
                    "match": "at most `rounds` rounds, or until a player holds `target` "
                    "chips; 0 for either means none, not both",
                }
            ],
            "modes_order": ["klackers"],
            # every option with its range or allowed values; rounds and target take 0
            # (or null) for none, not both
            "options": {
                "mode": {"choices": [GAME], "default": GAME},
                "players": {"type": "integer", "min": MIN_PLAYERS, "max": MAX_PLAYERS},
                "seats": {"choices": list(SEATS), "distinct": True},
                **{name: {"type": "bool", "default": False} for name in VARIANTS},
                "rounds": JSON_RANGES["rounds"].schema(KlackersOptions.rounds),
                "target": JSON_RANGES["target"].schema(0),
                # the guided first game (engine.klackers.tutorial): with it, no other option
                "tutorial": {"choices": list(SCRIPTS)},
            },
        }

    def reference(self) -> JSON:
        return klackers_reference()


def _replay(log: JSON) -> KlackersSession:
    if not isinstance(log, dict) or "layout" not in log:
        return KlackersSession(KlackersGame.replay(log))
    match = KlackersGame.replay({k: v for k, v in log.items() if k != "layout"})
    try:
        return KlackersSession(match, layout_option(log["layout"]))
    except BadOptions as exc:
        raise SerializationError(f"not a Klackers action log: {exc}") from None


def _tutorial(options: JSON, layout: BoardLayout) -> KlackersLesson:
    """The guided first game: the lesson's own seats, length and deal, on the box's
    layout, and nothing else."""
    script = chosen_script(options, SCRIPTS, (), BadOptions)
    match = KlackersGame.new(KlackersOptions.from_json(TUTORIAL_OPTIONS), TUTORIAL_SEED)
    return KlackersLesson(KlackersSession(match, layout), script)


def layout_option(data: object) -> BoardLayout:
    """The ``layout`` option (the box's, not a lobby choice) as a layout; BadOptions
    naming every problem."""
    if data is None:
        return default_layout()
    try:
        return layout_over_shipped(data)
    except DataError as exc:
        raise BadOptions(reason="layout", problems="; ".join(exc.problems)) from None


def layout_over_shipped(data: object) -> BoardLayout:
    """A layout table whose sections ([numbers], [dice], [buttons]) go over the shipped
    ones, so moving the numbers takes only a ``numbers`` table; DataError otherwise."""
    shipped = default_layout().to_data()
    return layout_from_data({**shipped, **data} if isinstance(data, dict) else data)


def klackers_reference(layout: BoardLayout | None = None) -> dict[str, Any]:
    return {
        "game": GAME,
        "numbers": list(NUMBERS),
        "seats": list(SEATS),
        "one_die_limit": ONE_DIE_LIMIT,
        "hughie_limit": HUGHIE_LIMIT,
        "two_dice": {str(t): float(p) for t, p in TWO_DICE},
        "layout": (layout or default_layout()).to_json(),
    }
