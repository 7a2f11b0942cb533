"""Guards! Guards!'s guided first game: the learner's reports and the scripted other
player's go through the real rules, each core rule comes up once, the phone's forms offer
only what the step names, a report the lesson does not take is refused with the rules'
reason and the step, a saved lesson (a restart, a replay) lands on the same step, and the
table takes the lesson from its start to one tap into a real game over HTTP; a learner
who leaves holds no seat."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from guards_support import guards_of
from live_server import LiveServer
from test_tutorial import (
    lesson_restarted,
    lesson_served,
    play_to,
    refuses_other_lesson_options,
    report_the_learners_part,
    started_lesson,
    wait_for,
)
from web_client import call

from engine.core.errors import IllegalAction
from engine.core.tutorial import Step
from engine.games import game_module
from engine.guards.lamps import BUTTONS
from engine.guards.tutorial import (
    BRETHREN,
    LEARNER,
    LEVEL,
    LIBRARIAN,
    OPPONENT,
    RUN_ROUTE,
    SABOTEUR_QUADRANT,
    SCRIPT,
    SET_UP,
    GuardsLesson,
)
from web.refusals import in_english, refusal_words
from web.stand import StandSettings

TAUGHT = ["start", "recruit", "charm", "end_turn", "plant", "spell_run", "challenge", "point",
          "end_turn_goal"]


def lesson(seed: int = 0) -> GuardsLesson:
    return started_lesson("guards", GuardsLesson, seed)


def entry_action(session: GuardsLesson) -> tuple[str, dict[str, Any]]:
    """The seat and the action the script takes now (the learner's as its step expects:
    the phone's forms are not whole actions)."""
    entry = session.entry()
    assert entry is not None
    if isinstance(entry, Step):
        return LEARNER, dict(entry.expect)
    return OPPONENT, dict(entry.action)


def test_the_guards_lesson_plays_through_the_rules_and_teaches_each_core_rule() -> None:
    session = lesson()
    kinds: list[str] = []
    taught: list[str] = []
    while session.entry() is not None:
        assert not session.view(LEARNER)["tutorial"]["finished"]
        step = session.step()
        if step is not None:
            taught.append(step.key.rsplit(".", 1)[1])
            assert session.lamps().accent & step.lights == step.lights
            # the phone is offered the step's report, with only the choices it names
            forms = [f for f in session.legal_actions(LEARNER, 0.0) if not f.get("out")]
            assert [f["type"] for f in forms] == [step.expect["type"]], step.key
            for field in forms[0]["fields"]:
                if field["kind"] == "choice":
                    assert len(field["options"]) == 1, (step.key, field)
        else:
            assert session.legal_actions(LEARNER, 0.0) == []
            assert session.bot_action(OPPONENT, LEVEL, 0.0) is not None
        kinds += [e["kind"] for e in session.apply(*entry_action(session), 0.0)]
    assert taught == TAUGHT
    for kind in ("start_rolled", "volunteer_touched", "recruited", "turn_ended", "planted",
                 "run_announced", "spell_returned", "attribute_changed"):
        assert kind in kinds, kind
    state = guards_of(session.inner).state
    red = state.players[LEARNER]
    assert red.returned == ["red"] and red.base["magic"] == 2
    assert red.planted == {SABOTEUR_QUADRANT: BRETHREN}
    assert state.turn is not None and state.turn.seat == OPPONENT
    assert len(state.players[OPPONENT].hand) == 3  # the other player recruited in between
    view = session.view(LEARNER)["tutorial"]
    assert view["finished"] and view["step"] is None
    assert view["number"] == view["count"] == len(SCRIPT.steps)
    # the game goes on (a companion game is far longer than its lesson), but the lesson
    # takes nothing more: the real game is the one to play
    assert not session.over
    assert session.legal_actions(OPPONENT, 0.0) == []
    assert session.bot_action(OPPONENT, LEVEL, 0.0) is None
    again = game_module("guards").replay(json.loads(json.dumps(session.log_json())))
    assert isinstance(again, GuardsLesson) and again.position() == session.position()
    assert again.view(LEARNER)["tutorial"]["finished"]


def test_a_saved_lesson_comes_back_at_the_same_step_from_any_point() -> None:
    session = lesson()
    module = game_module("guards")
    while True:
        saved = json.loads(json.dumps(session.log_json()))
        again = module.replay(saved)
        assert isinstance(again, GuardsLesson)
        assert again.view(LEARNER) == session.view(LEARNER)
        assert again.legal_actions(LEARNER, 0.0) == session.legal_actions(LEARNER, 0.0)
        if session.entry() is None:
            break
        session.apply(*entry_action(session), 0.0)
    # the set-up is the lesson's own, before its first step
    assert len(session.log_json()["actions"]) == len(SET_UP) + len(SCRIPT.entries)


def test_the_lesson_deals_the_same_whatever_seed_the_table_draws() -> None:
    assert lesson(seed=1).view(LEARNER) == lesson(seed=2**62).view(LEARNER)


def test_a_report_off_the_script_is_refused_with_the_rules_reason_and_the_step() -> None:
    session = lesson()
    # the other player cannot roll for the start: only the step's seat acts
    refused = session.refusal(OPPONENT, {"type": "roll"}, 0.0)
    assert refused is not None and refused.rule == "tutorial_off_script"
    play_to(session, "recruit", entry_action)
    # a report the rules allow but the lesson does not take now: the face-up card
    face_up = {"type": "recruit", "deck": "lords_ladies", "source": "display", "quadrant": "fools",
               "values": {"name": "Someone", "deck": "lords_ladies", "charm": 3, "loyalty": 1,
                          "streetwise": 1, "brawl": 1, "toughness": 1}}
    refused = session.refusal(LEARNER, face_up, 0.0)
    assert refused is not None and refused.params == {"because": None, "step": "tutorial.guards.recruit"}
    with pytest.raises(IllegalAction):
        session.apply(LEARNER, face_up, 0.0)
    # the end of the turn, greyed on the phone, says why when it is asked about
    ended = [f for f in session.legal_actions(LEARNER, 0.0) if f["type"] == "end_turn"]
    assert ended == [{"type": "end_turn", "group": "end", "fields": [], "out": True,
                      "probe": {"type": "end_turn"}}]
    refused = session.refusal(LEARNER, ended[0]["probe"], 0.0)
    assert refused is not None and refused.params["step"] == "tutorial.guards.recruit"
    assert in_english(refused) == "Not in this lesson, not yet: follow the step on the phone."
    # a question that is not a whole report gets the lesson's words, not a parser's
    refused = session.refusal(LEARNER, {"type": "recruit"}, 0.0)
    assert refused is not None and refused.params == {"because": None, "step": "tutorial.guards.recruit"}
    # one the rules forbid too: the rules' own reason comes with the step
    play_to(session, "plant", entry_action)
    not_brethren = {"type": "plant", "card": LIBRARIAN, "quadrant": SABOTEUR_QUADRANT}
    refused = session.refusal(LEARNER, not_brethren, 0.0)
    assert refused is not None and refused.params["step"] == "tutorial.guards.plant"
    because = refused.params["because"]
    assert isinstance(because, dict) and because["rule"].startswith("guards_")
    assert "Mark of the Brethren" in str(refusal_words("en", because["rule"], because["params"]))
    # nothing is taken back, and the phone offers no undo that the game alone would
    position = session.position()
    with pytest.raises(IllegalAction):
        session.apply(LEARNER, {"type": "undo"}, 0.0)
    session.apply(*entry_action(session), 0.0)  # planted, by a roll of the die
    session.apply(*entry_action(session), 0.0)  # the Spell Run: a report the game could undo
    assert session.position() == position + 2
    assert session.inner.can_undo(LEARNER) and not session.view(LEARNER)["you"]["can_undo"]


def test_the_box_buttons_mark_quadrants_and_cycle_panels_in_the_lesson() -> None:
    session = lesson()
    play_to(session, "spell_run", entry_action)
    block = next(b for b, meaning in BUTTONS.items() if meaning.startswith("block:"))
    pressed = session.button_action(block, 0.0)
    assert pressed is not None
    session.apply(pressed[0], pressed[1], 0.0)  # not logged: the step stays
    assert session.view(LEARNER)["marked"] and session.step() is not None
    assert session.step().key.endswith(".spell_run")  # type: ignore[union-attr]
    panel = session.button_action("c3c4", 0.0)
    assert panel == (None, {"type": "panel", "step": 1})
    session.apply(None, panel[1], 0.0)
    assert session.view(LEARNER)["panel"] == "cards"
    # the end-turn button out of step is explained, with the step
    with pytest.raises(IllegalAction) as refused:
        session.button_action("b1b2", 0.0)
    assert re.search("follow the step", in_english(refused.value))


def test_the_spell_runs_route_goes_in_the_order_the_step_says() -> None:
    """The run goes home from the Alchemists' Quadrant to the Thieves': the form offers the
    two quadrants in that order, and the same two the other way round are refused."""
    session = lesson()
    play_to(session, "spell_run", entry_action)
    step = session.step()
    assert step is not None and step.expect["route"] == RUN_ROUTE == ["alchemists", "thieves"]
    form = next(f for f in session.legal_actions(LEARNER, 0.0) if f["type"] == "spell_run")
    route = next(f for f in form["fields"] if f["name"] == "route")
    assert route["options"] == RUN_ROUTE
    backwards = {**step.expect, "route": list(reversed(RUN_ROUTE))}
    assert session.refusal(LEARNER, backwards, 0.0) is not None
    with pytest.raises(IllegalAction) as refused:
        session.apply(LEARNER, backwards, 0.0)
    assert re.search("follow the step", in_english(refused.value))
    assert session.step() is step
    session.apply(LEARNER, dict(step.expect), 0.0)
    assert session.step() is not step


def test_the_lesson_takes_no_other_options() -> None:
    module = refuses_other_lesson_options("guards")
    assert module.options_schema()["options"]["tutorial"] == {"choices": ["first-game"]}


def test_the_table_runs_the_guards_lesson_and_leads_into_a_real_game() -> None:
    with lesson_served("guards", seat=LEARNER) as (server, session, token, base):
        room = server.room
        assert isinstance(session, GuardsLesson)
        # the lesson seats the script's other player, a seat the game has no bot for
        assert room.seats.bots == {OPPONENT: LEVEL}
        status, body = call(server.base, "GET", f"{base}/legal", token=token)
        assert status == 200 and [a["type"] for a in body["actions"]] == ["roll"]
        report_the_learners_part(server, session, base, token, entry_action)
        status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
        assert status == 201, body
        real = room.session
        assert real is not None and not isinstance(real, GuardsLesson)
        assert real.game == "guards" and real.log_json()["actions"] == []
        assert real.view(LEARNER)["phase"] == "setup"
        # the learner keeps their seat; the lesson's other player leaves it free
        assert LEARNER in room.seats.claims and room.seats.bots == {}


def test_a_learner_who_leaves_mid_lesson_leaves_no_seat_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = {"type": "roll"}
    with lesson_restarted(tmp_path, monkeypatch, "guards", LEARNER, first) as restored:
        # the lesson is back where it stood, its other player with it
        assert isinstance(restored.session, GuardsLesson) and restored.session.position() == 1
        assert restored.seats.bots == {OPPONENT: LEVEL}
        wait_for(lambda: LEARNER not in restored.seats.claims, 5.0)


def test_a_visitor_at_a_stand_learns_guards_and_leaving_frees_the_table() -> None:
    server = LiveServer(stand=StandSettings(("guards",), 4.0, 0.3))
    try:
        status, offered = call(server.base, "GET", f"/api/rooms/{server.code}/stand")
        entry = next(e for e in offered["entries"] if e["id"] == "guards")
        assert entry["choices"][0]["kind"] == "learn"
        body = {"entry": "guards", "choice": "learn", "name": "Visitor"}
        status, seated = call(server.base, "POST", f"/api/rooms/{server.code}/stand/games", body)
        assert status == 201, seated
        # the visitor is the learner; the lesson's other player is the script's
        assert seated["seat"] == LEARNER
        assert isinstance(server.room.session, GuardsLesson)
        assert server.room.seats.bots == {OPPONENT: LEVEL}
        path = f"/api/rooms/{server.code}/seats/{LEARNER}"
        status, _ = call(server.base, "DELETE", path, token=seated["token"])
        assert status == 200
        deadline = time.time() + 5
        while server.room.session is not None or server.room.seats.claims or server.room.seats.bots:
            assert time.time() < deadline, "the stand did not return to attract"
            time.sleep(0.02)
    finally:
        server.close()


def test_the_lesson_takes_the_last_games_player_into_its_learners_seat() -> None:
    """A Clacks game's player at south, when the table starts this lesson (red and blue):
    the same token holds red, a page asking for south is shown red's, and a page that
    never comes back lets the seat go like any learner who leaves."""
    server = LiveServer()
    try:
        room = server.room
        room.new_game("clacks", {"players": 2}, 5)
        token = room.seats.claim("south", "Ann", None)["token"]
        room.seats.absent_seconds = 0.2
        room.new_game("guards", {"tutorial": "first-game"})
        assert set(room.seats.claims) == {LEARNER}
        assert room.seats.visible_seat("south", token) == LEARNER
        status, body = call(
            server.base, "GET", f"/api/rooms/{server.code}/seats/{LEARNER}/legal", token=token
        )
        assert status == 200 and [a["type"] for a in body["actions"]] == ["roll"]
        wait_for(lambda: LEARNER not in room.seats.claims)
    finally:
        server.close()
