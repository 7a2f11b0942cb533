"""The Race to Genua's lessons (co-operative, solitaire, Junior Race): each mode's own
guided first game, played through the real rules of that mode; every step reachable
and lit on the board, a tap the lesson does not take refused with the rules' reason and
the step, a save from any point replayed to the same step, and Learn to play offered
for each mode that has a lesson, and only there (the engine, the lobby's list over HTTP
and the stand's choices).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from live_server import LiveServer
from test_stand import IDLE, back_at_attract, leave, offered_choices, start
from test_tutorial import entry_action, play_to, started_over_http, wait_for
from test_web_board import RecordingBoard
from web_client import call

from engine.clacks.race_lessons import LESSONS
from engine.core.errors import IllegalAction
from engine.core.interface import JSON, GameModule
from engine.core.tutorial import OpeningLesson, Step, TutorialSession
from engine.games import game_module, game_modules
from web.refusals import in_english
from web.stand import StandSettings

# each mode's learner steps, in order
TAUGHT = {
    "coop": ["play", "transmit", "swap", "lifted", "again"],
    "solitaire": ["play", "transmit", "swap", "lifted", "again"],
    "junior": ["play", "more", "transmit", "same", "again"],
}
MODES = list(TAUGHT)


def race_lesson(mode: str, seed: int = 0) -> OpeningLesson:
    start = game_module("clacks").tutorial_start(mode)
    assert start == {"game": "clacks", "options": {"tutorial": LESSONS[mode].script.name}}
    session = game_module("clacks").new(start["options"], seed)
    assert isinstance(session, OpeningLesson)
    return session


@pytest.mark.parametrize("mode", MODES)
def test_each_race_lesson_plays_its_own_mode_through_the_rules(mode: str) -> None:
    session = race_lesson(mode)
    view = session.view("south")
    # the mode's own game, on the lesson's own words: no pawn outside the Junior Race
    assert view["mode"] == mode and view["options"]["mode"] == mode
    assert all(p.get("pawn") is None for p in view["players"]) or mode == "junior"
    taught: list[str] = []
    kinds: list[str] = []
    while session.entry() is not None:
        lesson = session.view("south")["tutorial"]
        assert not lesson["finished"]
        step = session.step()
        if step is not None:
            taught.append(step.key.rsplit(".", 1)[1])
            assert step.key == f"tutorial.clacks.{mode}.{taught[-1]}"
            # the board picks out what the step is about
            assert step.lights and session.lamps().accent & step.lights == step.lights
            assert lesson["step"]["key"] == step.key
        kinds += [e["kind"] for e in session.apply(*entry_action(session), 0.0)]
    assert taught == TAUGHT[mode]
    # the lesson is over with its opening turns; the race itself goes on
    lesson = session.view("south")["tutorial"]
    assert lesson["finished"] and lesson["number"] == lesson["count"] == 5
    assert not session.over and session.position() == len(session.script.entries)
    assert kinds.count("transmitted") == (2 if mode == "solitaire" else 3)
    assert "jacquard_played" in kinds
    if mode == "junior":
        assert "sabotage_started" not in kinds
    else:  # a swap, its card read out, and the Post Office moving for the stress spent
        assert {"swapped", "card_revealed", "post_office_moved"} <= set(kinds)
    assert lesson["next_game"]["options"]["mode"] == mode


def test_the_coop_lesson_has_no_pawn_and_a_teammate_who_passes_a_jacquard() -> None:
    session = race_lesson("coop")
    assert session.tutorial_bots() == {"north": "planner"}
    assert session.bot_levels() == ["planner"]
    events: list[JSON] = []
    while session.step() is None or not session.step().key.endswith(".swap"):  # type: ignore[union-attr]
        events += session.apply(*entry_action(session), 0.0)
    # each turn ends passing the Jacquard left in hand to the next player
    passed = [e for e in events if e["kind"] == "jacquard_passed"]
    assert [(e["seat"], e["to"]) for e in passed] == [("south", "north"), ("north", "south")]
    assert session.view("south")["post_office"]["position"] == 2  # one stress point each
    assert "pawn" not in session.view("south")["you"]


def test_the_solitaire_lesson_seats_nobody_else() -> None:
    session = race_lesson("solitaire")
    assert [s.id for s in session.seats] == ["south"]
    assert session.tutorial_bots() == {} and session.bot_levels() == []
    assert session.view(None)["tutorial"]["opponent"] is None


@pytest.mark.parametrize("mode", MODES)
def test_a_tap_off_the_script_is_refused_with_the_rules_reason_and_the_step(mode: str) -> None:
    session = race_lesson(mode)
    # a legal move the lesson does not take: ending the turn before playing is refused by
    # the rules themselves (a Jacquard first), with the step to take
    refused = session.refusal("south", {"type": "end_turn"}, 0.0)
    assert refused is not None and refused.rule == "tutorial_off_script"
    assert refused.params["step"] == f"tutorial.clacks.{mode}.play"
    because = refused.params["because"]
    assert isinstance(because, dict) and because["rule"] == "jacquard_required"
    # a tower the rules would let send, at the transmit step, but not the lesson's
    play_to(session, "transmit")
    step = session.step()
    assert step is not None and step.tower is not None
    other = "c2d2" if step.tower == "a2b2" else "a2b2"
    refused = session.refusal("south", {"type": "transmit", "tower": other}, 0.0)
    assert refused is not None and refused.params["step"] == step.key
    with pytest.raises(IllegalAction) as caught:
        session.apply("south", {"type": "transmit", "tower": other}, 0.0)
    assert caught.value.rule == "tutorial_off_script"
    # nothing is taken back, no hints: the lesson says what to do
    view = session.view("south")
    assert view["hints_allowed"] is False and view["you"]["can_undo"] is False
    assert session.hint("south") is None and not session.can_undo("south")


def test_a_lifted_jacquard_left_unplayed_is_the_rules_reason() -> None:
    session = race_lesson("coop")
    play_to(session, "lifted")
    refused = session.refusal("south", {"type": "end_turn"}, 0.0)
    assert refused is not None and refused.params["step"] == "tutorial.clacks.coop.lifted"
    because = refused.params["because"]
    assert isinstance(because, dict) and because["rule"] == "lifted_not_played"


@pytest.mark.parametrize("mode", MODES)
def test_a_save_from_any_point_replays_to_the_same_step(mode: str) -> None:
    session = race_lesson(mode)
    module = game_module("clacks")
    while True:
        again = module.replay(session.log_json())
        assert isinstance(again, OpeningLesson)
        assert again.position() == session.position()
        assert again.view("south") == session.view("south")
        assert again.lamps() == session.lamps()
        if session.entry() is None:
            break
        session.apply(*entry_action(session), 0.0)
    assert again.view("south")["tutorial"]["finished"]


def test_the_lesson_of_a_mode_takes_no_other_options() -> None:
    module = game_module("clacks")
    for lesson in LESSONS.values():
        with pytest.raises(IllegalAction) as refused:
            module.new({"tutorial": lesson.script.name, "mode": "coop"}, 1)
        assert re.search("no other options", in_english(refused.value))


def modes_of(module: GameModule) -> list[str]:
    return [str(m["id"]) for m in module.options_schema().get("modes") or []]


def test_every_mode_of_every_game_has_its_own_lesson_and_the_trainer_none() -> None:
    lessons = {name: m.tutorial_starts() for name, m in game_modules().items()}
    for name, module in game_modules().items():
        assert sorted(lessons[name]) == sorted(modes_of(module)), name
    assert lessons["clacks"]["competitive"]["options"] == {"tutorial": "first-game"}
    # each mode's lesson is a different one, and teaches that mode
    names = {lesson["options"]["tutorial"] for lesson in lessons["clacks"].values()}
    assert len(names) == 4
    for mode, lesson in lessons["clacks"].items():
        session = game_module("clacks").new(lesson["options"], 0)
        assert isinstance(session, TutorialSession)
        assert session.view(None)["mode"] == mode
        assert session.script.next_game["options"]["mode"] == mode
    # a mode a game lacks has no lesson
    assert game_module("clacks").tutorial_start("trainer") is None
    assert game_module("klackers").tutorial_start("coop") is None


def test_the_lobby_lists_each_modes_lesson_and_starts_it_over_http() -> None:
    server = LiveServer()
    try:
        status, games = call(server.base, "GET", "/api/games")
        assert status == 200
        clacks = next(g for g in games["games"] if g["name"] == "clacks")
        assert set(clacks["tutorials"]) == {"competitive", "coop", "solitaire", "junior"}
        trainer = next(g for g in games["games"] if g["name"] == "clacks-trainer")
        assert trainer["tutorials"] == {}
        start = clacks["tutorials"]["solitaire"]
        status, answer = call(
            server.base, "POST", f"/api/rooms/{server.code}/game", start, pin=server.pin
        )
        assert status == 201, answer
        session = server.room.session
        assert isinstance(session, OpeningLesson) and session.view(None)["mode"] == "solitaire"
        assert server.room.seats.bots == {}
        # the learner plays it through and is led into a real solitaire race
        base = f"/api/rooms/{server.code}/seats/south"
        status, claimed = call(server.base, "POST", base, {})
        token = claimed["token"]
        while session.entry() is not None:
            action = entry_action(session)[1]
            status, body = call(
                server.base, "POST", f"{base}/actions", {"action": action}, token=token
            )
            assert status == 200, body
        status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
        assert status == 201, body
        real = server.room.session
        assert real is not None and not isinstance(real, TutorialSession)
        assert real.view(None)["mode"] == "solitaire" and "south" in server.room.seats.claims
    finally:
        server.close()


def test_the_stand_offers_learn_to_play_for_each_mode_with_a_lesson() -> None:
    server = LiveServer(stand=StandSettings((), IDLE, 0.3))
    try:
        for entry in ("clacks:coop", "clacks:solitaire", "clacks:junior", "clockman"):
            assert offered_choices(server, entry)[0]["kind"] == "learn", entry
        assert all(c["kind"] != "learn" for c in offered_choices(server, "clacks-trainer"))
        # the co-operative lesson, not the competitive one: no pawn, a bot teammate
        status, seated = start(server, "clacks:coop", "learn", name="Visitor")
        assert status == 201, seated
        session = server.room.require_session()
        assert isinstance(session, OpeningLesson) and session.view(None)["mode"] == "coop"
        assert seated["seat"] == "south" and server.room.seats.bots == {"north": "planner"}
        assert leave(server, seated) == 200
        assert back_at_attract(server) < 2.0
    finally:
        server.close()


def test_a_learner_alone_who_leaves_mid_lesson_leaves_no_seat_held() -> None:
    server = LiveServer()
    try:
        room = server.room
        room.new_game("clacks", {"tutorial": "solitaire"})
        room.seats.absent_seconds = 0.2
        token = room.seats.claim("south", "Ann", None)["token"]
        page = room.fanout.subscribe("south", token)
        session: Any = room.session
        room.act("south", token, entry_action(session)[1])
        room.fanout.unsubscribe(page)
        wait_for(lambda: "south" not in room.seats.claims, 5.0)
    finally:
        server.close()


def test_steps_name_what_the_phone_shows() -> None:
    """Each step's words name the controls the phone draws: the Jacquard's design, the
    lamp, the tower, Swap and Play it."""
    for mode in MODES:
        for step in race_lesson(mode).script.steps:
            assert isinstance(step, Step)
            kind = step.expect["type"]
            if kind == "transmit":
                assert step.words == {"tower": {"text": step.expect["tower"]}}
            elif kind == "swap":
                assert step.words["swap"] == {"key": "clacks.swap"}
            else:
                assert step.words["play"] == {"key": "clacks.confirm"}


@pytest.mark.parametrize("mode", MODES)
def test_the_led_board_lights_each_steps_lamps_as_the_lesson_is_played_over_http(
    mode: str,
) -> None:
    board = RecordingBoard()
    server = LiveServer(board=board)
    try:
        status, games = call(server.base, "GET", "/api/games")
        start = next(g for g in games["games"] if g["name"] == "clacks")["tutorials"][mode]
        session, token, base = started_over_http(server, start)
        assert isinstance(session, OpeningLesson)
        lit = 0
        while session.entry() is not None:
            step = session.step()
            if step is None:  # the other player's part: the table's bot plays it
                position = session.position()
                wait_for(lambda: session.position() > position)  # noqa: B023
                continue
            # the LED board shows the step's lamps through the game's own lamp path
            wait_for(lambda: board.frames[-1].accent & step.lights == step.lights)  # noqa: B023
            lit += 1
            action = entry_action(session)[1]
            status, body = call(
                server.base, "POST", f"{base}/actions", {"action": action}, token=token
            )
            assert status == 200, body
        assert lit == 5 and session.view("south")["tutorial"]["finished"]
    finally:
        server.close()
