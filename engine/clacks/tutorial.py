"""Clacks's guided first game: two turns of the competitive game against a bot, which
bring up each core rule in turn (placing the pawn, a Jacquard turned before it is laid,
transmitting, moving within the stress limit, a Fault Report, the finish).

The deal is an ordinary game of the published rules: the learner's own word (OK, two
letters, so the game is two turns long) and a fixed seed chosen because its cards make
every one of those rules come up. Nothing about the rules changes; the script only
says which of the legal moves the lesson takes, and the opponent's bot plays its part
of it (engine.core.tutorial). Every step's words are in the catalogs under its key.
"""

from __future__ import annotations

from engine.clacks.geometry import mask_of, tower
from engine.core.interface import JSON
from engine.core.tutorial import Opponent, Script, Step

NAME = "first-game"
# A seed whose deal makes each rule come up with these words (found by trying seeds
# against the steps below; the lesson's test plays them through the rules).
SEED = 35
OPTIONS: JSON = {
    "mode": "competitive",
    "seats": ["south", "north"],
    "words": [["OK"], ["TROLL"]],
}
LEARNER = "south"
OPPONENT = "north"

ROTATE: JSON = {"key": "clacks.rotate"}
PLAY: JSON = {"key": "clacks.confirm"}


def _as_written(name: str) -> JSON:
    """A tower's or a lamp's name, which reads the same in every language."""
    return {"text": name}


def _jacquard(design: str) -> JSON:
    return {"key": f"jacquard.{design}.name"}


def _learner(key: str, expect: JSON, words: JSON, lights: int, at: str | None = None) -> Step:
    return Step(
        f"tutorial.clacks.{key}",
        {"seat": LEARNER, **expect},
        words,
        lights,
        at,
    )


def _pawn_to(key: str, name: str) -> Step:
    """The learner's pawn goes to the tower ``name``, which the lamps pick out."""
    words = {"tower": _as_written(name)}
    return _learner(key, {"type": "move", "tower": name}, words, tower(name).mask, name)


def _transmit_from(key: str, name: str, symbol: str) -> Step:
    """The learner transmits ``symbol`` from the tower ``name`` the pawn stands on."""
    words = {"transmit": {"key": "clacks.transmit", "params": {"symbol": symbol}}}
    return _learner(key, {"type": "transmit"}, words, tower(name).mask, name)


def _opponent(action: JSON) -> Opponent:
    return Opponent({"seat": OPPONENT, **action})


FIRST_LONG = ["a1", "a2", "a3", "a4"]
SECOND_ELBOW = ["c2", "d2", "c3"]
OPPONENT_TEE = ["a3", "b3", "c3", "b4"]

SCRIPT = Script(
    name=NAME,
    game="clacks",
    learner=LEARNER,
    opponent=OPPONENT,
    opponent_level="random",
    entries=(
        # turn 1: place the pawn (free), turn a Jacquard and lay it, transmit O
        _pawn_to("place", "a2b2"),
        _learner(
            "rotate",
            {"type": "play_jacquard", "lamps": FIRST_LONG},
            {"card": _jacquard("long"), "rotate": ROTATE, "lamp": _as_written("a4"), "play": PLAY},
            mask_of(FIRST_LONG),
        ),
        _transmit_from("transmit", "a2b2", "O"),
        # the opponent's turn
        _opponent({"type": "move", "tower": "b2c2"}),
        _opponent({"type": "play_jacquard", "jacquard": "tee-3", "lamps": OPPONENT_TEE}),
        _opponent({"type": "end_turn"}),
        # turn 2: move for stress, a Fault Report for more, lay a Jacquard, send the last letter
        _pawn_to("move", "c3d3"),
        _learner(
            "fault",
            {"type": "play_fault", "card": "clacks-technician-1"},
            {"card": {"key": "card.clacks-technician.name"}, "play": PLAY},
            mask_of(SECOND_ELBOW),
        ),
        _learner(
            "place_again",
            {"type": "play_jacquard", "lamps": SECOND_ELBOW},
            {"card": _jacquard("elbow"), "lamp": _as_written("c3"), "play": PLAY},
            mask_of(SECOND_ELBOW),
        ),
        _transmit_from("finish", "c3d3", "K"),
        # the next player may try to sabotage the last letter; the bot lets it go
        _opponent({"type": "end_turn"}),
    ),
    next_game={
        "game": "clacks",
        "options": {"mode": "competitive", "seats": [LEARNER, OPPONENT]},
        "bots": {OPPONENT: "greedy"},
    },
    finished_key="tutorial.clacks.finished",
)

SCRIPTS = {NAME: SCRIPT}
