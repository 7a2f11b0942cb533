"""Clockman's guided first game: five turns of a two-player game in which the learner
reports their own moves from the phone, and the other player's reports come in between
from the lesson's script.

The board stays on the table, so the lesson teaches the companion's side of a turn:
roll, move the piece clockwise, report the field it landed on, end the turn. Each core
rule comes up once (the first move out of the start, a symbol card, a knock, an event
card, passing a Whytooki with a card of its pose, a digit of the date key, a lift). The
deal is an ordinary game of the published rules on a fixed seed, chosen because the
learner starts and their first symbol card fits a Whytooki on circle 1. Every report
goes through the rules; the script only says which of the legal ones the lesson takes.

The other player is the script's (engine.core.companion_lesson): a second phone would
make a lesson for one person impossible, and reporting for both seats would teach the
learner to report another's moves, which nobody does at a real table.
"""

from __future__ import annotations

from engine.clockman.data import load_data
from engine.clockman.lamps import mask
from engine.core.interface import JSON
from engine.core.tutorial import Opponent, Step, two_seat_script

NAME = "first-game"
SEED = 0  # south starts, and the first symbol card is pose B, which stands on circle 1
LEARNER = "south"
OPPONENT = "north"
OPTIONS: JSON = {"seats": [LEARNER, OPPONENT]}
POSE = "B"
LEVEL = "scripted"  # the script's other player, as the table names who plays a seat

_DATA = load_data()
DIE = mask(_DATA.die_lamps)
FIRST_DIGIT = mask(_DATA.date_lamps[:1])  # the date key's first 0, the digit taken


def _words(*keys: str) -> dict[str, JSON]:
    """The controls a step names, in the order they are tapped, by their own labels."""
    return {f"tap{i}": {"key": key} for i, key in enumerate(keys)}


def _learner(key: str, expect: JSON, words: dict[str, JSON], lights: int = 0) -> Step:
    return Step(f"tutorial.clockman.{key}", {"seat": LEARNER, **expect}, words, lights)


def _roll(key: str) -> Step:
    return _learner(key, {"type": "roll"}, _words("clockman.roll"), DIE)


def _end(key: str) -> Step:
    return _learner(key, {"type": "end_turn"}, _words("clockman.end_turn"))


def _other(kind: str, **fields: JSON) -> Opponent:
    return Opponent({"type": kind, "seat": OPPONENT, **fields})


def _other_turn(landing: str) -> tuple[Opponent, ...]:
    return (_other("roll"), _other(landing), _other("end_turn"))


ENTRIES: tuple[Step | Opponent, ...] = (
    # turn 1: the start roll has taken the piece onto circle 1
    _learner("symbol", {"type": "symbol"}, _words("clockman.report.symbol"), DIE),
    _end("end_turn"),
    *_other_turn("plain"),
    # turn 2: both pieces on circle 1
    _roll("roll"),
    _learner(
        "knock",
        {"type": "knock", "victim": OPPONENT},
        _words("clockman.report.knock", f"seat.{OPPONENT}"),
        DIE,
    ),
    _learner(
        "event",
        {"type": "event", "kind": "hidden"},
        _words("clockman.report.event", "clockman.kind.hidden.long", "clockman.report_card"),
        DIE,
    ),
    _end("end_turn_again"),
    *_other_turn("plain"),
    # turn 3: the Whytooki between circles 1 and 2
    _roll("roll_again"),
    _learner(
        "blockade",
        {"type": "blockade", "pose": POSE, "card": None},
        _words("clockman.report.blockade", "tutorial.clockman.pay_b"),
        DIE,
    ),
    _end("end_turn_blockade"),
    *_other_turn("symbol"),
    # turn 4: the first digit of the date key
    _roll("roll_digit"),
    _learner(
        "digit",
        {"type": "digit", "digit": "0"},
        {"field": {"key": "clockman.report.digit"}, "digit": {"text": "0"}},
        FIRST_DIGIT,
    ),
    _end("end_turn_digit"),
    *_other_turn("plain"),
    # turn 5: a lift
    _roll("roll_lift"),
    _learner(
        "lift",
        {"type": "lift", "use": True},
        _words("clockman.report.lift", "clockman.lift.take"),
        DIE,
    ),
    _end("end_turn_lift"),
)

# no bots in this game: the real game is a table for the players of its seats, as the
# stand says it
SCRIPT = two_seat_script(NAME, "clockman", LEARNER, OPPONENT, LEVEL, ENTRIES, next_table=True)

SCRIPTS = {NAME: SCRIPT}
