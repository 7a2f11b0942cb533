"""The guided first game: the lesson's script played through the real rules, every tap
it does not take refused with the rules' own reason and the step to take, its lamps on
the board, its opponent a bot the table seats, its seat let go when the learner leaves,
and one tap from its end into a real game (the engine, and the companion over HTTP).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from live_server import LiveServer
from test_web_board import RecordingBoard
from web_client import call

import web.seats
from engine.clacks.tutorial import SCRIPT
from engine.core.errors import IllegalAction
from engine.core.interface import JSON, GameModule
from engine.core.tutorial import Opponent, Step, TutorialSession
from engine.games import game_module, game_modules
from web.hub import Hub
from web.i18n import translate
from web.refusals import refusal_words
from web.room import Room
from web.store import Store

# the Clacks lesson's steps, in order: each core rule as it comes up
TAUGHT = ["place", "rotate", "transmit", "move", "fault", "place_again", "finish"]

Lesson = TypeVar("Lesson", bound=TutorialSession)


def lesson(module: GameModule | None = None, seed: int = 0) -> TutorialSession:
    module = module or game_module("clacks")
    start = module.tutorial_start()
    assert start is not None
    session = game_module(start["game"]).new(start["options"], seed)
    assert isinstance(session, TutorialSession)
    return session


def started_lesson(game: str, kind: type[Lesson], seed: int = 0) -> Lesson:
    """``game``'s first-game lesson, started as its module offers it, a ``kind``."""
    start = game_module(game).tutorial_start()
    assert start == {"game": game, "options": {"tutorial": "first-game"}}
    session = game_module(start["game"]).new(start["options"], seed)
    assert isinstance(session, kind)
    return session


def entry_action(session: TutorialSession) -> tuple[str, dict[str, Any]]:
    """The seat and the one action the script takes now, as the rules list it."""
    entry = session.entry()
    assert entry is not None
    seat = session.script.learner if isinstance(entry, Step) else session.script.opponent
    assert seat is not None, "a lesson with no opponent scripts no opponent's move"
    legal = session.legal_actions(seat, 0.0)
    assert len(legal) == 1, (entry, legal)
    return seat, legal[0]


def test_the_clacks_lesson_plays_through_the_rules_to_the_learners_win() -> None:
    session = lesson()
    kinds: list[str] = []
    taught: list[str] = []
    while session.entry() is not None:
        step = session.step()
        if step is not None:
            taught.append(step.key)
            # the board picks out what the step is about
            assert session.lamps().accent & step.lights == step.lights and step.lights
        seat, action = entry_action(session)
        kinds += [e["kind"] for e in session.apply(seat, action, 0.0)]
    # each core rule comes up: place, rotate, transmit, move, a Fault Report, the finish
    assert [k.rsplit(".", 1)[1] for k in taught] == TAUGHT
    for kind in (
        "moved",
        "jacquard_played",
        "transmitted",
        "fault_played",
        "stress_changed",
        "message_complete",
        "sabotage_started",
        "game_won",
    ):
        assert kind in kinds, kind
    assert session.over and session.result() == {"winners": ["south"], "reason": "sabotage_failed"}
    view = session.view("south")["tutorial"]
    assert view["finished"] and view["step"] is None and view["number"] == view["count"] == 7
    # the saved log rebuilds the lesson where it stood
    again = game_module("clacks").replay(session.log_json())
    assert (
        isinstance(again, TutorialSession) and again.over and again.position() == session.position()
    )


def test_the_lesson_deals_the_same_whatever_seed_the_table_draws() -> None:
    assert lesson(seed=1).view("south") == lesson(seed=2**62).view("south")


def test_a_tap_off_the_script_is_refused_with_the_rules_reason_and_the_step() -> None:
    session = lesson()
    # the step's action as a phone sends it (the seat in the address, not the action)
    assert session.refusal("south", {"type": "move", "tower": "a2b2"}, 0.0) is None
    # a legal move the lesson does not take: no reason from the rules, the step's key
    refused = session.refusal("south", {"type": "move", "tower": "b2c2"}, 0.0)
    assert refused is not None and refused.rule == "tutorial_off_script"
    assert refused.params == {"because": None, "step": "tutorial.clacks.place"}
    with pytest.raises(IllegalAction) as caught:
        session.apply("south", {"type": "move", "tower": "b2c2"}, 0.0)
    assert caught.value.rule == "tutorial_off_script" and session.position() == 0
    # the opponent's seat may not act in the learner's step, nor the learner in its
    assert session.legal_actions("north", 0.0) == []
    # play on to the Fault Report: the Jacquard before it breaks the stress limit, and
    # the rules' own refusal says so
    while session.step() is None or not session.step().key.endswith(".fault"):  # type: ignore[union-attr]
        session.apply(*entry_action(session), 0.0)
    elbow = next(c for c in session.view("south")["you"]["hand"] if c["design"] == "elbow")
    action = {"type": "play_jacquard", "jacquard": elbow["id"], "lamps": ["c2", "d2", "c3"]}
    refused = session.refusal("south", action, 0.0)
    assert refused is not None and refused.params["step"] == "tutorial.clacks.fault"
    because = refused.params["because"]
    assert isinstance(because, dict) and because["rule"] == "stress_limit"
    assert "you have 2 left" in str(refusal_words("en", str(because["rule"]), because["params"]))
    # nothing is taken back in a lesson; no hints: the lesson says what to do
    assert session.inner.can_undo("south") and not session.can_undo("south")
    view = session.view("south")
    assert view["you"]["can_undo"] is False and view["hints_allowed"] is False
    assert session.hint("south") is None


def test_the_opponent_plays_only_its_part_of_the_script() -> None:
    session = lesson()
    assert session.tutorial_bots() == {"north": SCRIPT.opponent_level}
    assert session.bot_action("north", "random", 0.0) is None  # the learner's step
    for _ in range(3):
        session.apply(*entry_action(session), 0.0)
    entry = session.entry()
    assert isinstance(entry, Opponent)
    assert session.bot_action("north", "random", 0.0) == entry.action


def refuses_other_lesson_options(game: str) -> GameModule:
    """The game's module refuses options beside its lesson's name, and a lesson it does
    not have; it is returned for the checks of what it does take."""
    module = game_module(game)
    with pytest.raises(IllegalAction) as other_options:
        module.new({"tutorial": "first-game", "players": 4}, 1)
    assert other_options.value.params == {"reason": "lesson_options", "options": "players"}
    with pytest.raises(IllegalAction) as no_lesson:
        module.new({"tutorial": "advanced"}, 1)
    assert no_lesson.value.params["reason"] == "no_lesson"
    return module


def test_the_lesson_takes_no_other_options() -> None:
    refuses_other_lesson_options("clacks")
    assert lesson().view(None)["tutorial"]["name"] == "first-game"


def test_every_game_has_a_lesson_and_the_trainer_none() -> None:
    offered = {name for name, m in game_modules().items() if m.tutorial_start() is not None}
    assert offered == set(game_modules()) - {"clacks-trainer"}


# ---------------------------------------------------------------------- over HTTP


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.02)


def lesson_over_http(
    server: LiveServer, game: str, seat: str = "south"
) -> tuple[TutorialSession, str, str]:
    """The table starts ``game``'s lesson as ``GET /api/games`` lists it and the learner's
    phone takes ``seat``: the lesson, the seat's token and its API path. Too early yet for
    the real game."""
    status, games = call(server.base, "GET", "/api/games")
    start = next(g for g in games["games"] if g["name"] == game)["tutorial"]
    assert start == {"game": game, "options": {"tutorial": "first-game"}}
    session, token, base = started_over_http(server, start, seat)
    status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
    assert status == 409 and body["error"] == "no_lesson_over"
    return session, token, base


def started_over_http(
    server: LiveServer, start: JSON, seat: str = "south"
) -> tuple[TutorialSession, str, str]:
    """The table starts the lesson ``start`` names (an entry of ``GET /api/games``) and
    the learner's phone takes ``seat``: the lesson, the seat's token and its API path."""
    status, answer = call(
        server.base, "POST", f"/api/rooms/{server.code}/game", start, pin=server.pin
    )
    assert status == 201, answer
    session = server.room.session
    assert isinstance(session, TutorialSession)
    base = f"/api/rooms/{server.code}/seats/{seat}"
    status, claimed = call(server.base, "POST", base, {})
    assert status == 200, claimed
    return session, claimed["token"], base


@contextmanager
def lesson_served(
    game: str, board: Any = None, seat: str = "south"
) -> Iterator[tuple[LiveServer, TutorialSession, str, str]]:
    """A companion serving ``game``'s lesson, started over HTTP as ``lesson_over_http``
    starts it (its LEDs on ``board``): the server, the lesson, the seat's token and its
    API path; the server is closed after."""
    server = LiveServer(board=board)
    try:
        yield (server, *lesson_over_http(server, game, seat))
    finally:
        server.close()


def play_to(
    session: TutorialSession,
    step_name: str,
    action_of: Callable[[Any], tuple[str, dict[str, Any]]] = entry_action,
) -> None:
    """Plays the script, each action as ``action_of`` names it, up to the step named."""
    while (step := session.step()) is None or not step.key.endswith(f".{step_name}"):
        session.apply(*action_of(session), 0.0)


def learner_steps(session: TutorialSession) -> Iterator[Step]:
    """Each of the learner's steps until the lesson is over, the bot's part (which it
    plays on its own) waited out between them."""
    while not session.over:
        step = session.step()
        if step is None:  # the bot's part
            position = session.position()
            wait_for(lambda: session.position() > position or session.over)  # noqa: B023
            continue
        yield step


def report_over_http(server: LiveServer, base: str, token: str, action: dict[str, Any]) -> None:
    """The phone at the seat API path ``base`` reports ``action``, which is taken."""
    status, body = call(server.base, "POST", f"{base}/actions", {"action": action}, token=token)
    assert status == 200, body


def report_the_learners_part(
    server: LiveServer,
    session: TutorialSession,
    base: str,
    token: str,
    action_of: Callable[[Any], tuple[str, dict[str, Any]]] = entry_action,
) -> None:
    """Until the lesson has no entry left (within a minute), the phone reports each of the
    learner's steps as ``action_of`` names it; the other player's reports come from the
    script between them."""
    deadline = time.time() + 60
    while session.entry() is not None:
        assert time.time() < deadline, session.position()
        if session.step() is None:  # the other player's reports come from the script
            time.sleep(0.02)
            continue
        report_over_http(server, base, token, action_of(session)[1])


@contextmanager
def lesson_restarted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, seat: str, first: dict[str, Any]
) -> Iterator[Room]:
    """``game``'s lesson, its learner at ``seat`` having made the ``first`` report, back
    after the box restarts, where a learner's seat is let go 0.2 s after their phone."""
    hub = Hub(store=Store(tmp_path))
    room = hub.main
    room.new_game(game, {"tutorial": "first-game"})
    token = room.seats.claim(seat, "Ann", None)["token"]
    room.act(seat, token, first)
    hub.stop()

    monkeypatch.setattr(web.seats, "ABSENT_SECONDS", 0.2)
    again = Hub(store=Store(tmp_path))
    try:
        yield again.main
    finally:
        again.stop()


def test_the_table_runs_the_lesson_lights_it_and_leads_into_a_real_game() -> None:
    board = RecordingBoard()
    with lesson_served("clacks", board) as (server, session, token, base):
        room = server.room
        # the lesson seats its own opponent
        assert room.seats.bots == {"north": SCRIPT.opponent_level}
        lit_steps = 0
        for step in learner_steps(session):
            # the LED board shows the step's lamps through the game's own lamp path
            assert board.frames[-1].accent & step.lights == step.lights
            lit_steps += 1
            report_over_http(server, base, token, entry_action(session)[1])
        assert lit_steps == 7
        # a wrong tap, as the phone asks about it: refused with the step
        status, body = call(
            server.base, "POST", f"{base}/check", {"action": {"type": "end_turn"}}, token=token
        )
        assert status == 200 and not body["allowed"]
        # one tap into a real game, in the same seat, against the lesson's chosen bot
        status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
        assert status == 201, body
        real = room.session
        assert real is not None and not isinstance(real, TutorialSession)
        assert "tutorial" not in real.view("south")
        assert room.seats.bots == {"north": "greedy"} and "south" in room.seats.claims
        status, body = call(server.base, "POST", f"{base}/after-lesson", {}, token=token)
        assert status == 409


def test_a_lesson_seat_claimed_with_no_page_ever_opened_is_let_go() -> None:
    """A seat claimed over the API whose phone page never opens is let go the same time
    after the claim as a seat is after its last page closed; one whose page opens within
    that time is kept."""
    server = LiveServer()
    try:
        room = server.room
        room.new_game("clacks", {"tutorial": "first-game"})
        room.seats.absent_seconds = 0.3
        path = f"/api/rooms/{server.code}/seats/south"
        asked = time.monotonic()
        status, body = call(server.base, "POST", path, {"name": "Mallory"})
        assert status == 200, body
        wait_for(lambda: "south" not in room.seats.claims, 5.0)
        assert time.monotonic() - asked >= 0.3
        # a page that opens within the time keeps the seat past it
        room.seats.absent_seconds = 2.0
        status, body = call(server.base, "POST", path, {"name": "Ann"})
        assert status == 200, body
        page = room.fanout.subscribe("south", body["token"])
        time.sleep(2.5)
        assert "south" in room.seats.claims  # her page is open: she is playing
        room.fanout.unsubscribe(page)
        wait_for(lambda: "south" not in room.seats.claims, 10.0)
    finally:
        server.close()


def lessons(with_bots: bool) -> list[str]:
    """The games with a lesson whose real game has bots (or has none)."""
    return [
        name
        for name, module in sorted(game_modules().items())
        if module.tutorial_start() is not None
        and bool(module.new({"players": 2}, 1).bot_levels()) == with_bots
    ]


@pytest.mark.parametrize("game", lessons(with_bots=True))
def test_a_learner_who_leaves_mid_lesson_leaves_no_seat_held(game: str) -> None:
    server = LiveServer()
    try:
        room = server.room
        room.new_game(game, {"tutorial": "first-game"})
        room.seats.absent_seconds = 0.2
        token = room.seats.claim("south", "Ann", None)["token"]
        page = room.fanout.subscribe("south", token)
        room.act("south", token, entry_action(room.session)[1])  # type: ignore[arg-type]
        room.fanout.unsubscribe(page)
        wait_for(lambda: "south" not in room.seats.claims, 5.0)
        # a reload (the page back within the time) keeps the seat
        token = room.seats.claim("south", "Ann", None)["token"]
        page = room.fanout.subscribe("south", token)
        room.fanout.unsubscribe(page)
        page = room.fanout.subscribe("south", token)
        time.sleep(0.5)
        assert "south" in room.seats.claims
        room.fanout.unsubscribe(page)
        # an ordinary game keeps a seat whose phone left (Ann sits on at south)
        room.new_game(game, {"players": 2})
        assert "south" in room.seats.claims
        room.fanout.unsubscribe(room.fanout.subscribe("south", token))
        time.sleep(0.5)
        assert "south" in room.seats.claims
    finally:
        server.close()


def test_after_a_restart_a_learner_who_does_not_come_back_holds_no_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = {"type": "move", "tower": "a2b2"}
    with lesson_restarted(tmp_path, monkeypatch, "clacks", "south", first) as restored:
        # the lesson is back where it stood, its bot with it
        assert isinstance(restored.session, TutorialSession) and restored.session.position() == 1
        assert restored.seats.bots == {"north": SCRIPT.opponent_level}
        wait_for(lambda: "south" not in restored.seats.claims, 5.0)


@pytest.mark.parametrize("game", lessons(with_bots=False))
def test_a_game_without_bots_ends_its_lesson_with_a_table_for_the_two_players(game: str) -> None:
    """Clockman and Guards! Guards! have no bots: the way into a real game is a table for
    the players present, worded as the stand words it, and never a game against a bot."""
    session = lesson(game_module(game))
    assert session.bot_levels() == [session.script.opponent_level]  # the script's only
    finished = session.tutorial_json()
    # as many players as the real game has seats: the learner's and the one the other
    # player takes by scanning the code
    players = len(finished["next_game"]["options"]["seats"])
    assert players == len(session.seats) == 2
    assert finished["next_label"] == {"key": "stand.table", "params": {"count": players}}
    assert "bots" not in finished["next_game"]
    for language, against in (("en", "against a bot"), ("cs", "proti robotovi")):
        table = translate(language, "stand.table", count=players)
        words = translate(language, session.script.finished_key, next=table)
        assert table in words and against not in words, words
