"""Klackers's guided first game: one round of a two-player match against the planner
bot, in which the learner's turn brings up each core rule in turn (rolling two dice,
pulling one number, two and three numbers that make the roll, once they're down they
stay down, the one-die roll at six or less, the Klack) and the bot's turn ends the way
most turns do, on a roll that fits none of its numbers.

The deal is an ordinary match of the published rules, one round long, on a fixed seed
chosen because its dice give the learner (who wins the roll-off) exactly that turn:
8, 10, 11 and 10 with two dice, then the 6 with one die for a Klack. Nothing about the
rules changes: the script only says which of the legal pulls the lesson takes, and the
bot's part of it is what the planner bot plays on those dice (the lesson's test checks
both). The numbers a step is about are picked out on the box's lamps, wherever the
box's layout puts them.
"""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.interface import JSON, LampFrame
from engine.core.tutorial import Opponent, Script, Step, TutorialSession, two_seat_script
from engine.klackers.numbers import mask_of
from engine.klackers.session import KlackersSession

NAME = "first-game"
# A seed whose roll-off and dice bring up each rule with the pulls below (found by
# trying seeds against this script; the lesson's test plays it through the rules).
SEED = 254
LEARNER = "south"
OPPONENT = "north"
OPTIONS: JSON = {"seats": [LEARNER, OPPONENT], "rounds": 1}
LEVEL = "planner"  # the bot whose choices the opponent's part of the script is


def _learner(key: str, expect: JSON, words: dict[str, JSON]) -> Step:
    return Step(f"tutorial.klackers.{key}", {"seat": LEARNER, **expect}, words)


def _roll(key: str, dice: int = 2) -> Step:
    control = "klackers.roll_two" if dice == 2 else "klackers.roll_one"
    return _learner(key, {"type": "roll", "dice": dice}, {"roll": {"key": control}})


def _pull(key: str, *numbers: int) -> Step:
    """The numbers tapped one by one, then the pull button, as the phone labels it."""
    words: dict[str, JSON] = {f"n{i}": {"text": str(n)} for i, n in enumerate(numbers)}
    spelled = " + ".join(str(n) for n in numbers)
    words["pull"] = {"key": "klackers.pull", "params": {"numbers": spelled}}
    return _learner(key, {"type": "pull", "numbers": list(numbers)}, words)


def _bot(kind: str, *numbers: int) -> Opponent:
    if kind == "roll":
        return Opponent({"type": "roll", "seat": OPPONENT, "dice": 2})
    return Opponent({"type": "pull", "seat": OPPONENT, "numbers": list(numbers)})


ENTRIES: tuple[Step | Opponent, ...] = (
    # the learner's turn: 8, 10, 11, 10, then one die for the last 6
    _roll("roll"),
    _pull("pull_one", 8),
    _roll("roll_again"),
    _pull("pull_two", 1, 9),
    _roll("roll_on"),
    _pull("pull_three", 2, 4, 5),
    _roll("roll_more"),
    _pull("pull_to_six", 3, 7),
    _roll("one_die", dice=1),
    # the bot's turn: four rolls pulled, the fifth fits nothing and ends it on 12
    _bot("roll"),
    _bot("pull", 7),
    _bot("roll"),
    _bot("pull", 8),
    _bot("roll"),
    _bot("pull", 1, 6),
    _bot("roll"),
    _bot("pull", 2, 9),
    _bot("roll"),
)

SCRIPT = two_seat_script(NAME, "klackers", LEARNER, OPPONENT, LEVEL, ENTRIES, {OPPONENT: "greedy"})

SCRIPTS = {NAME: SCRIPT}


class KlackersLesson(TutorialSession):
    """The lesson on the box: the lamps pick out the numbers a step pulls (and, for the
    one-die roll, the numbers the die must make) on the box's own layout, and the
    numbers a pull step names may be marked with their buttons before the pull."""

    def __init__(self, inner: KlackersSession, script: Script) -> None:
        super().__init__(inner, script)
        self.klackers_session = inner

    def step_lamps(self) -> int:
        step = self.step()
        if step is None:
            return 0
        layout = self.klackers_session.layout
        if step.expect.get("type") == "pull":
            return layout.number_lamps(mask_of(step.expect["numbers"]))
        if step.expect.get("dice") == 1:
            return layout.number_lamps(
                self.klackers_session.klackers.state.players[self.script.learner].standing
            )
        return 0  # a roll of two: the dice row glows already

    def lamps(self) -> LampFrame:
        frame = self.inner.lamps()
        return LampFrame(frame.lit, frame.preview, frame.accent | self.step_lamps())

    def _off_script(self, seat: str | None, action: object, now: float) -> IllegalAction | None:
        step = self.step()
        if (
            step is not None
            and seat == self.script.learner
            and isinstance(action, dict)
            and action.get("type") == "mark"
            and step.expect.get("type") == "pull"
            and action.get("number") in step.expect["numbers"]
        ):
            return None  # marking a number the pull takes, with its button on the box
        return super()._off_script(seat, action, now)
