"""Klackers's guided first game: the learner's turn and the bot's go through the real
rules, each core rule comes up once, the bot's part is what the planner plays, a tap the
lesson does not take is refused with the rules' reason and the step, a restart lands on
the same step, the box's lamps and buttons follow the lesson, and the table takes it
from its start to one tap into a real game (the engine, and the companion over HTTP)."""

from __future__ import annotations

from typing import Any

import pytest
from live_server import LiveServer
from test_stand import IDLE, back_at_attract, first_choice, leave, start
from test_tutorial import (
    entry_action,
    learner_steps,
    lesson,
    lesson_served,
    play_to,
    refuses_other_lesson_options,
    report_over_http,
    wait_for,
)
from test_web_board import RecordingBoard
from web_client import call

from engine.core.errors import IllegalAction
from engine.core.tutorial import Opponent
from engine.games import game_module
from engine.klackers.bots import PlannerBot
from engine.klackers.layout import default_layout
from engine.klackers.numbers import mask_of
from engine.klackers.tutorial import SCRIPT, KlackersLesson
from web.refusals import in_english
from web.stand import StandSettings

# the learner's steps, in order: each core rule as it comes up
TAUGHT = [
    "roll",
    "pull_one",
    "roll_again",
    "pull_two",
    "roll_on",
    "pull_three",
    "roll_more",
    "pull_to_six",
    "one_die",
]


def klackers_lesson(seed: int = 0, **options: Any) -> KlackersLesson:
    module = game_module("klackers")
    if options:
        session = module.new({**options, "tutorial": "first-game"}, seed)
    else:
        session = lesson(module, seed)
    assert isinstance(session, KlackersLesson)
    return session


def because(refused: IllegalAction) -> dict[str, Any]:
    """The rules' own refusal behind the lesson's off-script one."""
    rule = refused.params["because"]
    assert isinstance(rule, dict), refused.params
    return rule


def test_the_klackers_lesson_plays_through_the_rules_to_the_learners_klack() -> None:
    session = klackers_lesson()
    assert game_module("klackers").tutorial_start() == {
        "game": "klackers",
        "options": {"tutorial": "first-game"},
    }
    kinds: list[str] = []
    taught: list[str] = []
    layout = default_layout()
    while session.entry() is not None:
        assert not session.view("south")["tutorial"]["finished"]
        step = session.step()
        if step is not None:
            taught.append(step.key.rsplit(".", 1)[1])
            accent = session.lamps().accent
            if step.expect["type"] == "pull":  # the numbers to pull glow on the box
                wanted = layout.number_lamps(mask_of(step.expect["numbers"]))
                assert accent & wanted == wanted
            else:  # the dice row glows for a roll
                assert accent & layout.dice_mask == layout.dice_mask
        for event in session.apply(*entry_action(session), 0.0):
            kinds.append(event["kind"])
            if event["kind"] == "turn_ended":
                ended = event
    assert taught == TAUGHT
    for kind in ("rolled", "pulled", "klacked", "turn_ended", "round_ended", "game_won"):
        assert kind in kinds, kind
    # the bot's turn ends the way most do: a roll that fits none of its numbers
    assert ended["seat"] == "north" and ended["reason"] == "no_fit" and ended["score"] == 12
    assert session.over and session.result()["winners"] == ["south"]  # type: ignore[index]
    south = session.view("south")
    me = next(p for p in south["players"] if p["seat"] == "south")
    assert me["score"] == 0 and me["klacks"] == 1 and me["chips"] == 1
    lesson_view = south["tutorial"]
    assert lesson_view["finished"] and lesson_view["step"] is None
    assert lesson_view["number"] == lesson_view["count"] == len(TAUGHT)
    assert lesson_view["next_game"] == {
        "game": "klackers",
        "options": {"seats": ["south", "north"]},
        "bots": {"north": "greedy"},
    }
    # the saved log rebuilds the finished lesson
    again = game_module("klackers").replay(session.log_json())
    assert isinstance(again, KlackersLesson) and again.view("south") == south


def test_a_restart_at_any_moment_lands_on_the_same_step() -> None:
    session = klackers_lesson()
    module = game_module("klackers")
    while session.entry() is not None:
        again = module.replay(session.log_json())
        assert isinstance(again, KlackersLesson)
        assert again.position() == session.position() and again.entry() == session.entry()
        assert again.view("south") == session.view("south")
        assert again.lamps() == session.lamps()
        session.apply(*entry_action(session), 0.0)


def test_the_lesson_deals_the_same_whatever_seed_the_table_draws() -> None:
    assert klackers_lesson(seed=1).view("south") == klackers_lesson(seed=2**62).view("south")


def test_the_bots_part_is_what_the_planner_plays_and_nothing_else() -> None:
    session = klackers_lesson()
    assert session.tutorial_bots() == {"north": "planner"}
    assert session.bot_action("north", "planner", 0.0) is None  # the learner's step
    planner = PlannerBot()
    opponents = 0
    while session.entry() is not None:
        entry = session.entry()
        if isinstance(entry, Opponent):
            opponents += 1
            assert planner.choose(session.inner.view("north")).to_json() == entry.action
            assert session.bot_action("north", "planner", 0.0) == entry.action
            assert session.legal_actions("south", 0.0) == []
        session.apply(*entry_action(session), 0.0)
    assert opponents == len(SCRIPT.entries) - len(TAUGHT)


def test_a_tap_off_the_script_is_refused_with_the_rules_reason_and_the_step() -> None:
    session = klackers_lesson()
    # one die at the start: the rules refuse it too, and say why
    refused = session.refusal("south", {"type": "roll", "dice": 1}, 0.0)
    assert refused is not None and refused.rule == "tutorial_off_script"
    assert refused.params["step"] == "tutorial.klackers.roll"
    assert because(refused)["rule"] == "one_die_not_allowed"
    assert in_english(refused) == "Not in this lesson, not yet: follow the step on the phone."
    with pytest.raises(IllegalAction):
        session.apply("south", {"type": "pull", "numbers": [8]}, 0.0)
    assert session.position() == 0
    # the 8 is down once pulled: once they're down they stay down
    play_to(session, "pull_two")
    down = session.refusal("south", {"type": "pull", "numbers": [2, 8]}, 0.0)
    assert down is not None and because(down)["rule"] == "not_standing"
    # a pull the rules allow but the lesson does not take: the step, and no reason
    other = session.refusal("south", {"type": "pull", "numbers": [4, 6]}, 0.0)
    assert other is not None and other.params == {
        "because": None,
        "step": "tutorial.klackers.pull_two",
    }
    assert session.refusal("south", {"type": "pull", "numbers": [9, 1]}, 0.0) is None
    # two dice where the lesson rolls one: allowed by the rules, not by the lesson
    play_to(session, "one_die")
    assert session.refusal("south", {"type": "roll", "dice": 2}, 0.0) is not None
    assert session.legal_actions("south", 0.0) == [{"type": "roll", "seat": "south", "dice": 1}]
    # the other seat waits; the lesson goes forward only and gives no hints
    refused = session.refusal("north", {"type": "roll", "dice": 2}, 0.0)
    assert refused is not None and because(refused)["rule"] == "not_your_turn"
    assert not session.can_undo("south") and not session.view("south")["hints_allowed"]


def test_the_lesson_takes_no_other_options_but_the_boxs_layout() -> None:
    module = refuses_other_lesson_options("klackers")
    with pytest.raises(IllegalAction) as other_mode:
        module.new({"tutorial": "first-game", "mode": "clacks"}, 1)
    assert other_mode.value.params == {"reason": "other_mode", "mode": "clacks"}
    assert module.options_schema()["options"]["tutorial"] == {"choices": ["first-game"]}
    # a box whose numbers sit elsewhere lights the step's numbers where they are
    moved = {
        str(n): lamp
        for n, lamp in zip(
            range(1, 10), ["d2", "d3", "d4", "a2", "b2", "c2", "a3", "b3", "c3"], strict=True
        )
    }
    session = klackers_lesson(layout={"numbers": moved})
    play_to(session, "pull_one")
    assert session.lamps().accent & session.klackers_session.layout.number_lamps(mask_of([8]))
    again = module.replay(session.log_json())
    assert isinstance(again, KlackersLesson) and again.lamps() == session.lamps()


def test_the_boxs_buttons_mark_the_steps_numbers_and_pull_them() -> None:
    session = klackers_lesson()
    play_to(session, "pull_two")
    layout = session.klackers_session.layout
    button = {meaning: button for button, meaning in layout.buttons}
    # a number the step does not pull is explained, not marked
    with pytest.raises(IllegalAction) as off_script:
        session.button_action(button["4"], 0.0)
    assert off_script.value.rule == "tutorial_off_script"
    for number in ("1", "9"):
        seat, mark = session.button_action(button[number], 0.0) or (None, {})
        session.apply(seat, mark, 0.0)
    assert session.view("south")["marked"] == [1, 9]
    pressed = session.button_action(button["pull"], 0.0)
    assert pressed == ("south", {"type": "pull", "seat": "south", "numbers": [1, 9]})
    session.apply(*pressed, 0.0)
    step = session.step()
    assert step is not None and step.key == "tutorial.klackers.roll_on"


# ---------------------------------------------------------------------- over HTTP


def test_the_table_runs_the_klackers_lesson_lights_it_and_leads_into_a_real_game() -> None:
    board = RecordingBoard()
    with lesson_served("klackers", board) as (server, session, token, base):
        room = server.room
        assert isinstance(session, KlackersLesson)
        assert room.seats.bots == {"north": "planner"}
        steps = 0
        for _step in learner_steps(session):
            # the LED board shows what the step is about through the game's lamp path
            wait_for(lambda: bool(board.frames) and board.frames[-1] == session.lamps())
            steps += 1
            report_over_http(server, base, token, entry_action(session)[1])
        assert steps == len(TAUGHT)
        status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
        assert status == 201, body
        real = room.session
        assert real is not None and not isinstance(real, KlackersLesson)
        # a new match (whose bot may have rolled already, if it won the roll-off)
        assert real.game == "klackers" and "tutorial" not in real.view("south")
        assert all(a["seat"] == "north" for a in real.log_json()["actions"])
        assert room.seats.bots == {"north": "greedy"} and "south" in room.seats.claims


def test_the_stand_offers_the_klackers_lesson_first_and_lets_go_of_a_visitor_who_leaves() -> None:
    server = LiveServer(stand=StandSettings(("klackers",), IDLE, 0.3))
    try:
        assert first_choice(server, "klackers")["kind"] == "learn"
        status, seated = start(server, "klackers", "learn", name="Visitor")
        assert status == 201 and seated["seat"] == "south"
        assert isinstance(server.room.session, KlackersLesson)
        assert server.room.seats.bots == {"north": "planner"}
        assert leave(server, seated) == 200
        assert back_at_attract(server) < 2.0
    finally:
        server.close()
