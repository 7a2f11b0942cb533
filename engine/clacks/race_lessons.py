"""The guided first games of the Race to Genua's modes: the co-operative race, the
solitaire and the Junior Race, each the opening turns of a real game of its mode.

As in the competitive lesson (engine.clacks.tutorial), each deal is an ordinary game of
the published rules on a fixed seed and the lesson's own words, chosen because its cards
bring up each rule the steps teach (found by trying seeds against the steps below; the
lessons' tests play them through the rules). A whole race is twelve letters, far longer
than a lesson should be, so each lesson is over once its opening turns are
(``OpeningLesson``) and leads into a real game of the same mode. Every step's words are
in the catalogs under its key.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.clacks.geometry import mask_of, tower
from engine.core.interface import JSON
from engine.core.tutorial import Opponent, Script, Step

PLAY: JSON = {"key": "clacks.confirm"}
SWAP: JSON = {"key": "clacks.swap"}


@dataclass(frozen=True)
class Lesson:
    """A lesson's script with the deal it is played on: its options and seed."""

    script: Script
    options: JSON
    seed: int


def _jacquard(design: str) -> JSON:
    return {"key": f"jacquard.{design}.name"}


class _Steps:
    """Steps of one lesson's learner, each keyed ``tutorial.clacks.<mode>.<name>``."""

    def __init__(self, mode: str, learner: str) -> None:
        self.mode = mode
        self.learner = learner

    def _step(
        self, name: str, expect: JSON, words: JSON, lights: int, at: str | None = None
    ) -> Step:
        return Step(
            f"tutorial.clacks.{self.mode}.{name}",
            {"seat": self.learner, **expect},
            words,
            lights,
            at,
        )

    def play(
        self, name: str, design: str, lamps: list[str], tap: str, card: str | None = None
    ) -> Step:
        """A Jacquard of ``design`` (the copy ``card``, where the hand holds two) laid on
        ``lamps`` as it lies in the hand: its first hole on the lamp ``tap``."""
        words = {"card": _jacquard(design), "lamp": {"text": tap}, "play": PLAY}
        expect: JSON = {"type": "play_jacquard", "lamps": lamps}
        if card is not None:
            expect["jacquard"] = card
        return self._step(name, expect, words, mask_of(lamps))

    def transmit(self, name: str, at: str) -> Step:
        """The next symbol sent from the tower ``at``, tapped on the exchange."""
        words = {"tower": {"text": at}}
        return self._step(name, {"type": "transmit", "tower": at}, words, tower(at).mask, at)

    def swap(self, name: str, slot: str, give_up: str, design: str, then: list[str]) -> Step:
        """The Jacquard ``give_up`` (of ``design``) swapped for the one on ``slot``; the
        lamps picked out are ``then``, those the lifted Jacquard goes on next."""
        words = {"swap": SWAP, "card": _jacquard(design)}
        expect = {"type": "swap", "slot": slot, "jacquard": give_up}
        return self._step(name, expect, words, mask_of(then))


def _bot(seat: str, action: JSON) -> Opponent:
    return Opponent({"seat": seat, **action})


def _race_lesson(
    steps: _Steps,
    name: str,
    partner: str | None,
    entries: tuple[Step | Opponent, ...],
    words: list[list[str]],
    seed: int,
) -> Lesson:
    """The lesson ``name`` of ``steps``' mode: its learner and ``partner`` (a teammate or
    rival the planner plays; None in a game for one) dealt ``words`` on ``seed``. Once
    done, it leads into a real game of the mode at the same seats, the greedy bot in
    the partner's."""
    seats = [steps.learner] if partner is None else [steps.learner, partner]
    next_game: JSON = {"game": "clacks", "options": {"mode": steps.mode, "seats": seats}}
    if partner is not None:
        next_game["bots"] = {partner: "greedy"}
    script = Script(
        name=name,
        game="clacks",
        learner=steps.learner,
        opponent=partner,
        opponent_level="planner" if partner is not None else "",
        entries=entries,
        next_game=next_game,
        finished_key=f"tutorial.clacks.{steps.mode}.finished",
    )
    return Lesson(script, {"mode": steps.mode, "seats": seats, "words": words}, seed)


# ------------------------------------------------------------------ the co-operative race

COOP = _Steps("coop", "south")
COOP_MATE = "north"
COOP_LESSON = _race_lesson(
    COOP,
    "race-to-genua",
    COOP_MATE,
    (
        # the first letter: one Jacquard, then transmit from any red tower
        COOP.play("play", "pin", ["b4"], "b4"),
        COOP.transmit("transmit", "b3c3"),
        # the teammate, handed the Jacquard the learner did not play
        _bot(COOP_MATE, {"type": "play_jacquard", "jacquard": "pin-2", "lamps": ["b4"]}),
        _bot(COOP_MATE, {"type": "transmit", "tower": "b3c3"}),
        # a swap from an Incident Report, its card read out, the lifted Jacquard played
        COOP.swap("swap", "incident-1", "pair-4", "pair", ["a4", "b4", "c4", "d4"]),
        COOP.play("lifted", "long", ["a4", "b4", "c4", "d4"], "a4", "long-2"),
        COOP.transmit("again", "c3d3"),
    ),
    [["MOIST", "GENUA"]],
    2,
)

# ------------------------------------------------------------------ the solitaire race

SOLO = _Steps("solitaire", "south")
SOLITAIRE_LESSON = _race_lesson(
    SOLO,
    "solitaire",
    None,
    (
        SOLO.play("play", "hook", ["a1", "b1", "a2", "a3"], "a3"),
        SOLO.transmit("transmit", "a3b3"),
        # a swap from an Operator's Log: face down, one stress point more
        SOLO.swap("swap", "log-2", "elbow-3", "elbow", ["a1", "b1"]),
        SOLO.play("lifted", "pair", ["a1", "b1"], "a1", "pair-5"),
        SOLO.transmit("again", "b2c2"),
    ),
    [["MOIST", "GENUA"]],
    3,
)

# ------------------------------------------------------------------ the junior race

JUNIOR = _Steps("junior", "south")
JUNIOR_RIVAL = "west"
JUNIOR_LESSON = _race_lesson(
    JUNIOR,
    "junior-race",
    JUNIOR_RIVAL,
    (
        # no stress limit: two Jacquards, then the first letter
        JUNIOR.play("play", "pin", ["d4"], "d4", "pin-4"),
        JUNIOR.play("more", "block", ["b3", "c3", "b4", "c4"], "b4"),
        JUNIOR.transmit("transmit", "c3d3"),
        _bot(
            JUNIOR_RIVAL,
            {"type": "play_jacquard", "jacquard": "hook-3", "lamps": ["b1", "c1", "d1", "b2"]},
        ),
        _bot(JUNIOR_RIVAL, {"type": "transmit", "tower": "b1b2"}),
        # the next letter from the same tower: no need to move in the Junior Race
        JUNIOR.play("same", "pin", ["d4"], "d4"),
        JUNIOR.transmit("again", "c3d3"),
    ),
    [["DEATH", "GNOME"], ["TROLL", "SCONE"]],
    22,
)

# each mode's lesson, by the mode it teaches
LESSONS = {"coop": COOP_LESSON, "solitaire": SOLITAIRE_LESSON, "junior": JUNIOR_LESSON}
