"""Clockman's guided first game: the learner's reports and the scripted other player's
go through the real rules, each core rule comes up once, a report the lesson does not
take is refused with the rules' reason and the step, and the table takes the lesson
from its start to one tap into a real game (the engine, and the companion over HTTP)."""

from __future__ import annotations

import pytest
from test_tutorial import (
    entry_action,
    lesson_served,
    play_to,
    refuses_other_lesson_options,
    report_the_learners_part,
    started_lesson,
)
from web_client import call

from engine.clockman.tutorial import LEVEL, SCRIPT
from engine.core.companion_lesson import CompanionLesson
from engine.core.errors import IllegalAction
from engine.games import game_module
from web.i18n import translate
from web.refusals import in_english


def lesson(seed: int = 0) -> CompanionLesson:
    return started_lesson("clockman", CompanionLesson, seed)


def test_the_clockman_lesson_plays_through_the_rules_and_teaches_each_core_rule() -> None:
    session = lesson()
    kinds: list[str] = []
    taught: list[str] = []
    while session.entry() is not None:
        assert not session.view("south")["tutorial"]["finished"]
        step = session.step()
        if step is not None:
            taught.append(step.key.rsplit(".", 1)[1])
            assert session.lamps().accent & step.lights == step.lights
        kinds += [e["kind"] for e in session.apply(*entry_action(session), 0.0)]
    assert [t for t in taught if not t.startswith(("end_turn", "roll"))] == [
        "symbol",
        "knock",
        "event",
        "blockade",
        "digit",
        "lift",
    ]
    for kind in (
        "symbol_drawn",
        "rolled",
        "knocked",
        "knocked_out",
        "event_drawn",
        "blockade_passed",
        "digit_taken",
        "lift_used",
        "turn_ended",
    ):
        assert kind in kinds, kind
    south = session.view("south")
    # the lift took the piece from circle 2 to circle 3, with a 0 of the date key
    me = next(p for p in south["players"] if p["seat"] == "south")
    assert me["ring"] == 3 and me["date"]["0"] == 1
    lesson_view = south["tutorial"]
    assert lesson_view["finished"] and lesson_view["step"] is None
    assert lesson_view["number"] == lesson_view["count"] == len(SCRIPT.steps)
    # the game itself goes on (a companion game is far longer than its lesson), but the
    # lesson takes nothing more: the real game is the one to play
    assert not session.over
    assert (
        session.legal_actions("north", 0.0) == []
        and session.bot_action("north", LEVEL, 0.0) is None
    )
    # the saved log rebuilds the lesson where it stood
    again = game_module("clockman").replay(session.log_json())
    assert isinstance(again, CompanionLesson) and again.position() == session.position()
    assert again.view("south")["tutorial"]["finished"]


def test_the_lesson_deals_the_same_whatever_seed_the_table_draws() -> None:
    assert lesson(seed=1).view("south") == lesson(seed=2**62).view("south")


def test_a_report_off_the_script_is_refused_with_the_rules_reason_and_the_step() -> None:
    session = lesson()
    # a report the rules allow but the lesson does not take now
    refused = session.refusal("south", {"type": "plain"}, 0.0)
    assert refused is not None and refused.rule == "tutorial_off_script"
    assert refused.params == {"because": None, "step": "tutorial.clockman.symbol"}
    with pytest.raises(IllegalAction):
        session.apply("south", {"type": "plain"}, 0.0)
    assert session.position() == 0
    # one the rules forbid too: the rules' own reason comes with the step
    play_to(session, "blockade")
    wrong_pose = {"type": "blockade", "pose": "E"}
    refused = session.refusal("south", wrong_pose, 0.0)
    assert refused is not None and refused.params["step"] == "tutorial.clockman.blockade"
    because = refused.params["because"]
    assert isinstance(because, dict) and because["rule"].startswith("clockman_")
    assert in_english(refused) == "Not in this lesson, not yet: follow the step on the phone."
    # the face-down event card could pay the Whytooki too, but the lesson pays with the
    # symbol card its words name
    me = next(p for p in session.view("south")["players"] if p["seat"] == "south")
    face_down = [c["id"] for c in me["cards"]]
    assert face_down
    card = {"type": "blockade", "pose": "B", "card": face_down[0]}
    assert session.refusal("south", card, 0.0) is not None
    assert session.refusal("south", {"type": "blockade", "pose": "B"}, 0.0) is None
    # the other seat waits; nothing is taken back, and the phone offers no undo that the
    # game alone would; the lesson itself says what to do
    assert session.legal_actions("north", 0.0) == []
    assert not session.can_undo("south")
    session.apply(*entry_action(session), 0.0)  # the Whytooki passed: a report to undo
    assert session.inner.can_undo("south") and not session.view("south")["you"]["can_undo"]


def test_the_lesson_takes_no_other_options() -> None:
    module = refuses_other_lesson_options("clockman")
    assert module.options_schema()["options"]["tutorial"] == {"choices": ["first-game"]}


def test_the_table_runs_the_clockman_lesson_and_leads_into_a_real_game() -> None:
    with lesson_served("clockman") as (server, session, token, base):
        room = server.room
        assert isinstance(session, CompanionLesson)
        # the lesson seats the script's other player, a seat the game has no bot for
        assert room.seats.bots == {"north": LEVEL}
        report_the_learners_part(server, session, base, token)
        status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
        assert status == 201, body
        real = room.session
        assert real is not None and not isinstance(real, CompanionLesson)
        assert real.game == "clockman" and real.log_json()["actions"] == []
        # the learner keeps their seat; the lesson's other player leaves it free
        assert "south" in room.seats.claims and room.seats.bots == {}


# the words that say a rule is this companion's ruling, where the rulebook is silent
RULING = {"en": "this companion's ruling", "cs": "tak to určuje tento společník"}
# the steps that teach one
RULINGS = {
    f"tutorial.clockman.{step}"
    for step in ("end_turn", "knock", "end_turn_again", "blockade", "roll_digit", "roll_lift")
}


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_lesson_says_which_rules_are_the_companions_and_every_way_past_a_whytooki(
    language: str,
) -> None:
    """The lesson says which of its rules are the companion's rulings (docs/clockman.md,
    Rulings), and only those: the turns going clockwise, one knock per roll, the return
    onto circle 1 on any roll, a passed Whytooki ending the move, two 1s where the
    rulebook says three, and no extra roll on a 6. The rulebook lets a piece past a
    Whytooki with the exact roll and a card of its pose, a matching event card or a lift
    card (6.1), and the lesson names all three."""
    for step in SCRIPT.steps:
        said = translate(language, f"{step.key}.rule")
        assert (RULING[language] in said) == (step.key in RULINGS), (step.key, said)
    past = translate(language, "tutorial.clockman.roll_again.rule")
    ways = {"en": ("exact roll", "event card", "lift"), "cs": ("přesným hodem", "kartou události", "výtahem")}
    for way in ways[language]:
        assert way in past, (way, past)
    assert {"en": "only", "cs": "jen"}[language] not in past.split()

