"""A convention stand over HTTP, through the real server: every game on the box starts
from a visitor's choice and returns the table to its attract programme; idle, finished
and abandoned games end; the table's controls are locked to everyone; and whatever a
visitor sends gets a clear answer and changes nothing it should not."""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from game_tables import games_without_bots
from live_server import LiveServer, companion
from web_client import EventStream, call

from clacks.cli import main
from engine.clacks.session import ClacksModule
from engine.klackers.module import KlackersModule
from firmware.config import ConfigError, StandConfig, load_config, parse_config, to_toml
from web.seats import ABSENT_SECONDS
from web.server import stand_settings
from web.stand import LEFT_SECONDS, STARTS_PER_MINUTE, StandSettings, stand_entries
from web.stream import LOOK_SECONDS

IDLE = 4.0  # seconds a stand's game may stand idle here: longer than leaving may take
EVERY_ENTRY = [entry.id for entry in stand_entries(())]


@pytest.fixture(scope="module")
def stand() -> Iterator[LiveServer]:
    server = LiveServer(stand=StandSettings((), IDLE, 0.3, starts_per_minute=10_000))
    try:
        yield server
    finally:
        server.close()


def start(server: LiveServer, entry: str, choice: str, **more: Any) -> tuple[int, Any]:
    body = {"entry": entry, "choice": choice, **more}
    return call(server.base, "POST", f"/api/rooms/{server.code}/stand/games", body)


def leave(server: LiveServer, seated: dict[str, Any]) -> int:
    """The visitor holding ``seated`` (the answer that seated them) gives the seat up."""
    path = f"/api/rooms/{server.code}/seats/{seated['seat']}"
    status, _ = call(server.base, "DELETE", path, token=seated["token"])
    return status


def back_at_attract(server: LiveServer, within: float = 5.0) -> float:
    """Seconds until the table has no game and no seat is held (fails after ``within``)."""
    began = time.monotonic()
    room = server.room
    while time.monotonic() - began < within:
        with room.lock:
            if room.session is None and not room.seats.claims and not room.seats.bots:
                return time.monotonic() - began
        time.sleep(0.02)
    raise AssertionError(f"the table did not return to attract: {room.game_name} is on")


def offered_choices(server: LiveServer, entry: str) -> list[dict[str, Any]]:
    status, offered = call(server.base, "GET", f"/api/rooms/{server.code}/stand")
    assert status == 200
    found = next(e for e in offered["entries"] if e["id"] == entry)
    choices: list[dict[str, Any]] = found["choices"]
    return choices


def first_choice(server: LiveServer, entry: str) -> dict[str, Any]:
    return offered_choices(server, entry)[0]


def first_game_choice(server: LiveServer, entry: str) -> dict[str, Any]:
    """The first way to play ``entry`` that is a game, not a lesson."""
    return next(c for c in offered_choices(server, entry) if c["kind"] != "learn")


@pytest.mark.parametrize("entry", EVERY_ENTRY)
def test_every_game_on_the_box_starts_at_the_stand_and_returns_to_attract(
    stand: LiveServer, entry: str
) -> None:
    back_at_attract(stand)
    choice = first_game_choice(stand, entry)
    status, seated = start(stand, entry, choice["kind"], name="Visitor")
    assert status == 201, seated
    room = stand.room
    session = room.session
    assert session is not None and room.game_name == entry.split(":")[0]
    seats = [s.id for s in session.seats]
    assert list(room.seats.claims) == [seated["seat"]]
    assert room.seats.claims[seated["seat"]].name == "Visitor"
    if choice["kind"] == "bots":
        # the box plays every other seat
        assert set(room.seats.bots) == set(seats) - {seated["seat"]}
    else:
        assert not room.seats.bots
    # the visitor sees their own seat's view with the token they were handed
    status, view = call(
        stand.base,
        "GET",
        f"/api/rooms/{stand.code}?seat={seated['seat']}",
        token=seated["token"],
    )
    assert status == 200 and view["seat"] == seated["seat"] and view["room"]["stand"]
    # the visitor leaves: the game ends at once and the table shows Scan to play again
    assert leave(stand, seated) == 200
    assert back_at_attract(stand) < 2.0
    status, table = call(stand.base, "GET", f"/api/rooms/{stand.code}")
    assert table["view"] is None and table["room"]["seats"] == []


def test_a_game_nobody_plays_ends_after_the_idle_time(stand: LiveServer) -> None:
    back_at_attract(stand)
    status, seated = start(stand, "klackers", "bots", players=3)
    assert status == 201
    assert len(stand.room.seats.bots) == 2
    began = time.monotonic()
    waited = back_at_attract(stand, within=IDLE + 5.0)
    assert time.monotonic() - began >= IDLE - 0.3 and waited <= IDLE + 2.0
    # the visitor's token holds nothing any more
    status, view = call(
        stand.base,
        "GET",
        f"/api/rooms/{stand.code}?seat={seated['seat']}",
        token=seated["token"],
    )
    assert status == 409 or view["seat"] is None


def test_a_finished_game_returns_to_attract_after_a_short_pause(stand: LiveServer) -> None:
    back_at_attract(stand)
    status, seated = start(stand, "clacks-trainer", "alone")
    assert status == 201
    seat, token = seated["seat"], seated["token"]
    room = stand.room
    path = f"/api/rooms/{stand.code}/seats/{seat}"
    # the visitor gives up every question, as one who came to look does
    for _ in range(200):
        session = room.session
        if session is None or session.over:
            break
        status, legal = call(stand.base, "GET", f"{path}/legal", token=token)
        assert status == 200, legal
        skip = next(a for a in legal["actions"] if a["type"] == "skip")
        status, done = call(stand.base, "POST", f"{path}/actions", {"action": skip}, token=token)
        assert status == 200, done
    assert room.session is not None and room.session.over
    back_at_attract(stand, within=3.0)


def test_a_second_visitor_takes_over_a_bots_seat(stand: LiveServer) -> None:
    back_at_attract(stand)
    status, first = start(stand, "clacks:competitive", "bots", players=3)
    assert status == 201
    room = stand.room
    bot_seat = sorted(room.seats.bots)[0]
    status, second = call(
        stand.base, "POST", f"/api/rooms/{stand.code}/seats/{bot_seat}", {"name": "Bea"}
    )
    assert status == 200, second
    assert bot_seat not in room.seats.bots and room.seats.claims[bot_seat].name == "Bea"
    assert len(room.seats.bots) == 1
    # a third cannot start a game of their own while this one is on
    status, refused = start(stand, "klackers", "bots")
    assert status == 409 and refused["error"] == "stand_game_on"
    # the first leaves; the game goes on for the second
    leave(stand, first)
    time.sleep(0.3)
    assert room.session is not None
    leave(stand, second)
    back_at_attract(stand)


def test_a_visitor_takes_a_bots_seat_only_to_play_it_and_the_bot_takes_it_back(
    stand: LiveServer,
) -> None:
    """The attack of a visitor who strips the box's bots out of someone else's game: a
    bot's seat taken over and left again goes back to its bot, so the game plays on;
    freeing a seat or seating a bot is refused as stand_mode; and a lesson's scripted
    opponent's seat is not to be taken at all."""
    back_at_attract(stand)
    status, victim = start(stand, "clacks:competitive", "bots", players=2)
    assert status == 201, victim
    room = stand.room
    [bot_seat] = list(room.seats.bots)
    level = room.seats.bots[bot_seat]
    path = f"/api/rooms/{stand.code}/seats/{bot_seat}"
    status, mallory = call(stand.base, "POST", path, {"name": "Mallory"})
    assert status == 200 and bot_seat in room.seats.claims, mallory
    status, _ = call(stand.base, "DELETE", path, token=mallory["token"])
    assert status == 200
    assert room.seats.bots == {bot_seat: level} and bot_seat not in room.seats.claims
    # the bot plays its turns again: the victim's game goes on past the bot's turn
    session = room.require_session()
    play_until_the_bot_moves(stand, victim, bot_seat)
    assert room.session is session and not session.over
    # the table's own seat requests are refused by the stand's rule, PIN or not
    for pin in (None, stand.pin):
        for method, where, body in (
            ("DELETE", path, None),
            ("POST", f"{path}/bot", {"level": level}),
        ):
            status, refused = call(stand.base, method, where, body, pin=pin)
            assert status == 403 and refused["error"] == "stand_mode", refused
    assert room.seats.bots == {bot_seat: level}
    leave(stand, victim)
    back_at_attract(stand)
    # a lesson's opponent keeps its seat
    status, learner = start(stand, "clacks:competitive", "learn")
    assert status == 201, learner
    [opponent] = list(room.seats.bots)
    status, refused = call(
        stand.base, "POST", f"/api/rooms/{stand.code}/seats/{opponent}", {"name": "Mallory"}
    )
    assert status == 403 and refused["error"] == "stand_mode", refused
    assert opponent in room.seats.bots and opponent not in room.seats.claims
    leave(stand, learner)
    back_at_attract(stand)


def test_a_bots_seat_taken_by_a_visitor_who_never_plays_goes_back_to_its_bot(
    stand: LiveServer,
) -> None:
    """A visitor may not keep the box's bot out of someone else's game by claiming its
    seat and never opening a page of it, nor by opening one and walking off: the bot
    takes the seat back that long after the claim, or after the last page closed, and
    the game goes on; the visitor's token holds nothing from then on."""
    back_at_attract(stand)
    status, victim = start(stand, "clacks:competitive", "bots", players=2)
    assert status == 201, victim
    room = stand.room
    room.seats.absent_seconds = 0.5
    stream = f"/api/rooms/{stand.code}/stream?seat={victim['seat']}&token={victim['token']}"
    victims_page = EventStream(stand.base, stream)  # the victim plays on: the game stays
    try:
        victims_page.next_state()
        [bot_seat] = list(room.seats.bots)
        level = room.seats.bots[bot_seat]
        path = f"/api/rooms/{stand.code}/seats/{bot_seat}"
        asked = time.monotonic()
        status, mallory = call(stand.base, "POST", path, {"name": "Mallory"})
        assert status == 200 and bot_seat in room.seats.claims, mallory
        wait_until(lambda: room.seats.bots.get(bot_seat) == level, 10.0)
        assert time.monotonic() - asked >= 0.5 and bot_seat not in room.seats.claims
        status, refused = call(stand.base, "DELETE", path, token=mallory["token"])
        assert status == 403 and refused["error"] == "seat_not_claimed", refused
        status, mallory = call(stand.base, "POST", path, {"name": "Mallory"})
        assert status == 200, mallory
        page = EventStream(
            stand.base, f"/api/rooms/{stand.code}/stream?seat={bot_seat}&token={mallory['token']}"
        )
        page.next_state()
        time.sleep(1.0)
        assert room.seats.claims[bot_seat].name == "Mallory"  # her page is open: she plays
        status, moving = call(stand.base, "POST", f"{path}/move", {}, token=mallory["token"])
        assert status == 200, moving
        page.close()
        closed = time.monotonic()
        wait_until(lambda: room.seats.bots.get(bot_seat) == level, 10.0)
        assert time.monotonic() - closed >= 0.5 and bot_seat not in room.seats.claims
        # nor does a link she made to move the seat take it from the bot again
        status, refused = call(stand.base, "POST", path, {"ticket": moving["ticket"]})
        assert status == 403 and refused["error"] == "bad_ticket", refused
        session = room.require_session()
        play_until_the_bot_moves(stand, victim, bot_seat)
        assert room.session is session and not session.over
    finally:
        victims_page.close()
        room.seats.absent_seconds = ABSENT_SECONDS
    leave(stand, victim)
    back_at_attract(stand)


def play_until_the_bot_moves(stand: LiveServer, victim: dict[str, Any], bot_seat: str) -> None:
    """The victim plays their turns until the box's bot has played ``bot_seat`` again."""
    room = stand.room
    victim_path = f"/api/rooms/{stand.code}/seats/{victim['seat']}"

    def bot_moves() -> int:
        record = room.record
        return sum(1 for a in (record.actions if record else []) if a.get("seat") == bot_seat)

    before = bot_moves()
    began = time.monotonic()
    while bot_moves() == before:
        assert time.monotonic() - began < 20.0, "the bot never played its seat again"
        if victim["seat"] not in session_on_turn(stand):
            time.sleep(0.02)
            continue
        status, legal = call(stand.base, "GET", f"{victim_path}/legal", token=victim["token"])
        if status != 200 or not legal["actions"]:
            continue  # the turn moved on meanwhile
        status, done = call(
            stand.base,
            "POST",
            f"{victim_path}/actions",
            {"action": legal["actions"][0]},
            token=victim["token"],
        )
        assert status in (200, 409), done  # 409: the bot moved first, out of turn


def session_on_turn(server: LiveServer) -> list[str]:
    session = server.room.session
    return list(session.active_seats) if session is not None else []


def wait_until(condition: Any, within: float) -> None:
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < within, "timed out"
        time.sleep(0.02)


HOST_ONLY = [
    ("POST", "/game", {"game": "clacks", "options": {"mode": "competitive", "players": 4}}),
    ("DELETE", "/game", None),
    ("POST", "/settings", {"hints": False}),
    ("POST", "/seats/south/bot", {"level": "planner"}),
    ("DELETE", "/seats/south", None),
    ("GET", "/saves", None),
    ("POST", "/saves", {"game": "clacks"}),
    ("POST", "/replay", {"save": 1}),
    ("POST", "/pin", None),
]


@pytest.mark.parametrize(("method", "path", "body"), HOST_ONLY)
def test_the_tables_controls_are_refused_at_a_stand_even_with_the_pin(
    stand: LiveServer, method: str, path: str, body: Any
) -> None:
    back_at_attract(stand)
    status, seated = start(stand, "clacks:competitive", "bots")
    assert status == 201
    room = stand.room
    revision, bots, hints = room.revision, dict(room.seats.bots), room.previews.hints
    for pin in (None, stand.pin):
        status, refused = call(stand.base, method, f"/api/rooms/{stand.code}{path}", body, pin=pin)
        assert status == 403, refused
        assert refused["error"] == "stand_mode" and "convention stand" in refused["message"]
    assert (room.revision, room.seats.bots, room.previews.hints) == (revision, bots, hints)
    assert room.session is not None and seated["seat"] in room.seats.claims
    status, refused = call(stand.base, "POST", "/api/rooms", {}, pin=stand.pin)
    assert status == 403 and len(stand.hub.rooms) == 1
    leave(stand, seated)
    back_at_attract(stand)


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"entry": "chess", "choice": "bots"}, 404, "unknown_entry"),
        ({"entry": ["clacks"], "choice": "bots"}, 404, "unknown_entry"),
        ({"entry": "clacks:competitive", "choice": "alone"}, 400, "not_offered"),
        ({"entry": "clacks:competitive", "choice": {"kind": "bots"}}, 400, "not_offered"),
        ({"entry": "clacks:competitive", "choice": "bots", "players": 9}, 400, "bad_field"),
        ({"entry": "clacks:competitive", "choice": "bots", "players": True}, 400, "bad_field"),
        ({"entry": "clacks:competitive", "choice": "bots", "players": "2"}, 400, "bad_field"),
        ({"entry": "clacks:competitive", "choice": "bots", "name": 7}, 400, "bad_field"),
        ({"entry": "clockman", "choice": "bots"}, 400, "not_offered"),
        ({"entry": "clacks:competitive", "choice": "bots", "options": {"x": 1}}, 201, None),
    ],
)
def test_whatever_a_visitor_sends_gets_a_clear_answer(
    stand: LiveServer, body: dict[str, Any], status: int, error: str | None
) -> None:
    back_at_attract(stand)
    answer_status, answer = call(stand.base, "POST", f"/api/rooms/{stand.code}/stand/games", body)
    assert answer_status == status, answer
    if error is None:
        # anything beyond the stand's choices is not read: the stand's own options are played
        assert (
            stand.room.session is not None and "x" not in stand.room.session.log_json()["options"]
        )
        leave(stand, answer)
        back_at_attract(stand)
    else:
        assert answer["error"] == error and answer["message"]
        assert stand.room.session is None


def test_a_long_name_is_cut_and_a_body_that_is_not_json_is_refused(stand: LiveServer) -> None:
    back_at_attract(stand)
    path = f"/api/rooms/{stand.code}/stand/games"
    status, _answer = call(
        stand.base, "POST", path, raw=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert status == 400
    status, seated = start(stand, "klackers", "bots", name="Esmerelda Weatherwax of Bad Ass\u0007")
    assert status == 201 and seated["name"] == "Esmerelda Weatherwax of "
    leave(stand, seated)
    back_at_attract(stand)


def test_a_script_starting_game_after_game_is_slowed_down() -> None:
    server = LiveServer(stand=StandSettings(("klackers",), IDLE, 0.3, starts_per_minute=2))
    try:
        for _ in range(2):
            back_at_attract(server)
            status, seated = start(server, "klackers", "bots")
            assert status == 201
            leave(server, seated)
        back_at_attract(server)
        status, refused = start(server, "klackers", "bots")
        assert status == 429 and refused["error"] == "stand_starts"
        assert 0 < refused["params"]["seconds"] <= 61
        assert server.room.session is None
    finally:
        server.close()


def test_games_left_before_anyone_moved_are_not_kept_among_the_saved_games(
    tmp_path: Path,
) -> None:
    """Start and leave, again and again: none of those games is kept; a game a visitor
    played in is. The bots wait long enough that nobody has moved when each visitor
    leaves (a bot that opens the game at once would make it a game someone moved in)."""
    server = LiveServer(data_dir=tmp_path, stand=StandSettings((), IDLE, 0.3), bot_pause=30.0)
    try:
        for entry, choice in (("klackers", "bots"), ("clacks:competitive", "learn")) * 2:
            back_at_attract(server)
            status, seated = start(server, entry, choice)
            assert status == 201, seated
            assert leave(server, seated) == 200
        back_at_attract(server)
        assert server.hub.store.listing() == []
        status, seated = start(server, "klackers", "bots")
        assert status == 201
        path = f"/api/rooms/{server.code}/seats/{seated['seat']}"
        status, legal = call(server.base, "GET", f"{path}/legal", token=seated["token"])
        action = {"action": legal["actions"][0]}
        assert call(server.base, "POST", f"{path}/actions", action, token=seated["token"])[0] == 200
        record = server.room.record
        assert record is not None and record.actions
        played = record.id
        assert leave(server, seated) == 200
        back_at_attract(server)
        assert [game["id"] for game in server.hub.store.listing()] == [played]
    finally:
        server.close()


def test_a_table_that_is_no_stand_offers_no_stand_choices() -> None:
    server = LiveServer()
    try:
        status, answer = call(server.base, "GET", f"/api/rooms/{server.code}/stand")
        assert status == 404 and answer["error"] == "no_stand"
        status, answer = start(server, "klackers", "bots")
        assert status == 404 and answer["error"] == "no_stand"
        assert server.room.session is None and server.room.stand is None
    finally:
        server.close()


def test_learn_to_play_is_offered_where_a_game_has_a_tutorial(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(KlackersModule, "tutorial_start", lambda self, mode=None: None)
    server = LiveServer(stand=StandSettings(("clacks:competitive", "klackers"), IDLE, 0.3))
    try:
        assert first_choice(server, "clacks:competitive")["kind"] == "learn"
        assert all(c["kind"] != "learn" for c in offered_choices(server, "klackers"))
        status, refused = start(server, "klackers", "learn")
        assert status == 400 and refused["error"] == "not_offered"
        # the visitor takes the learner's seat; the lesson seats its own scripted opponent
        status, seated = start(server, "clacks:competitive", "learn", name="Visitor")
        assert status == 201 and server.room.game_name == "clacks"
        start_of = ClacksModule().tutorial_start()
        assert start_of is not None and start_of["options"]["tutorial"]
        session = server.room.require_session()
        lesson = session.view(seated["seat"])["tutorial"]
        assert lesson and seated["seat"] not in server.room.seats.bots
        assert set(server.room.seats.bots) == {s.id for s in session.seats} - {seated["seat"]}
        status, view = call(
            server.base,
            "GET",
            f"/api/rooms/{server.code}?seat={seated['seat']}",
            token=seated["token"],
        )
        assert status == 200 and view["view"]["tutorial"] == lesson
        # leaving the lesson frees the seat and the stand shows Scan to play again
        assert leave(server, seated) == 200
        assert back_at_attract(server) < 2.0
    finally:
        server.close()


# --------------------------------------------------------------------- settings


def namespace(**given: Any) -> argparse.Namespace:
    values = {"config": None, "stand": False, "stand_game": None, "stand_idle": None}
    return argparse.Namespace(**{**values, **given})


def test_the_stand_is_set_on_the_command_line_or_in_the_settings_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "none.toml")
    assert stand_settings(namespace(config=missing)) is None
    settings = stand_settings(namespace(config=missing, stand=True, stand_idle=30.0))
    assert settings == StandSettings((), 30.0)
    config = tmp_path / "config.toml"
    config.write_text(
        '[stand]\nenabled = true\ngames = ["klackers", "clacks:coop"]\nidle_seconds = 90\n'
    )
    settings = stand_settings(namespace(config=str(config)))
    assert settings == StandSettings(("klackers", "clacks:coop"), 90.0)
    # the command line wins
    settings = stand_settings(namespace(config=str(config), stand_game=["guards"], stand_idle=5.0))
    assert settings == StandSettings(("guards",), 5.0)
    with pytest.raises(ValueError, match="no mode 'chess'"):
        stand_settings(namespace(config=missing, stand=True, stand_game=["clacks:chess"]))
    with pytest.raises(ValueError, match="no game 'chess'"):
        stand_settings(namespace(config=missing, stand=True, stand_game=["chess"]))


def test_a_stand_game_the_box_lacks_is_named_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "serve",
            "--stand",
            "--stand-game",
            "chess",
            "--data-dir",
            str(tmp_path),
            "--no-qr",
            "--config",
            str(tmp_path / "none.toml"),
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "no game 'chess'" in err and "klackers" in err
    with pytest.raises(SystemExit):
        main(["serve", "--stand-idle", "0"])
    assert "more than 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[stand]\nenabled = 1\n", "stand.enabled must be true or false"),
        ('[stand]\ngames = "clacks"\n', "stand.games must be a list"),
        ("[stand]\nidle_seconds = 0\n", "stand.idle_seconds must be a number"),
        ("[stand]\nidle = 5\n", "[stand]: unknown setting 'idle'"),
    ],
)
def test_a_mistake_in_the_stand_settings_names_the_key(
    tmp_path: Path, text: str, message: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    with pytest.raises(ConfigError) as raised:
        load_config(config)
    assert message in str(raised.value)


def test_the_stand_settings_are_written_and_read_back() -> None:
    config = parse_config({"stand": {"enabled": True, "games": ["klackers"], "idle_seconds": 60}})
    assert config.stand == StandConfig(True, ("klackers",), 60.0)
    import tomllib

    assert parse_config(tomllib.loads(to_toml(config))).stand == config.stand
    assert parse_config({}).stand == StandConfig()


def test_a_stand_game_goes_on_after_a_restart_and_still_ends_when_left(tmp_path: Path) -> None:
    settings = StandSettings(("klackers",), 30.0, 0.3)
    server = LiveServer(data_dir=tmp_path, stand=settings)
    try:
        status, seated = start(server, "klackers", "bots")
        assert status == 201
        bots = dict(server.room.seats.bots)
    finally:
        server.close()
    server = LiveServer(data_dir=tmp_path, stand=settings)
    try:
        room = server.room
        assert room.game_name == "klackers" and room.seats.bots == bots
        seat, token = seated["seat"], seated["token"]
        status, view = call(
            server.base, "GET", f"/api/rooms/{server.code}?seat={seat}", token=token
        )
        assert status == 200 and view["seat"] == seat
        assert leave(server, seated) == 200
        back_at_attract(server)
    finally:
        server.close()


def test_the_companion_stops_within_3_s_of_sigterm_with_pages_open(tmp_path: Path) -> None:
    """A stand's box is switched off by its service: with the table screen and a
    visitor's phone following the table, it exits promptly and cleanly."""
    command = [sys.executable, "-m", "clacks.cli", "serve", "--port", "0", "--host"]
    process = subprocess.Popen(
        [*command, "127.0.0.1", "--no-qr", "--stand", "--data-dir", str(tmp_path / "saves")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "CLACKS_CONFIG": str(tmp_path / "none")},
    )
    streams: list[EventStream] = []
    try:
        assert process.stdout is not None
        printed = ""
        while "Ctrl+C" not in printed:
            line = process.stdout.readline()
            assert line, printed
            printed += line
        found = re.search(r"Phones join:\s+http://[\d.]+:(\d+)/join/([A-Z]{4})", printed)
        assert found, printed
        base, code = f"http://127.0.0.1:{found.group(1)}", found.group(2)
        status, seated = call(
            base, "POST", f"/api/rooms/{code}/stand/games", {"entry": "klackers", "choice": "bots"}
        )
        assert status == 201, seated
        seat_stream = f"/api/rooms/{code}/stream?seat={seated['seat']}&token={seated['token']}"
        for path in (f"/api/rooms/{code}/stream", f"/api/rooms/{code}/stream", seat_stream):
            streams.append(EventStream(base, path))
            streams[-1].next_state()
        began = time.monotonic()
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=20)
        took = time.monotonic() - began
    finally:
        for stream in streams:
            stream.close()
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, rest
    assert took < 3.0, f"{took:.1f} s to stop: {rest}"
    assert "still running" not in rest and "Traceback" not in rest, rest


def test_a_game_ends_within_moments_of_its_last_visitors_page_closing() -> None:
    """A visitor who walks off with their phone leaves no game behind for the idle time:
    once no page of theirs follows the table, the stand starts over within 10 s."""
    settings = StandSettings(("klackers",), 120.0, 0.3)
    with companion(stand=settings) as server:
        status, seated = start(server, "klackers", "bots")
        assert status == 201
        path = f"/api/rooms/{server.code}/stream?seat={seated['seat']}&token={seated['token']}"
        phone = EventStream(server.base, path)
        reloaded = EventStream(server.base, path)  # a second page of the same phone
        phone.next_state()
        reloaded.next_state()
        phone.close()
        # one of its pages is still open: the game goes on
        time.sleep(settings.left_seconds + 1.5)
        assert server.room.session is not None
        reloaded.close()
        began = time.monotonic()
        back_at_attract(server, within=10.0)
        assert time.monotonic() - began <= 10.0
        assert server.hub.stand is not None
        assert server.room.stand is not None and server.room.stand["ended"]["reason"] == "left"


@pytest.mark.parametrize("game", games_without_bots())
def test_a_table_for_two_waits_for_its_second_player_before_anything_is_rolled(
    game: str,
) -> None:
    """ "Open a table for 2 players": nothing is played before both sit; the game the
    first visitor's seat came with is dealt again once the second sits, so its start
    rolls are made with both at the table."""
    with companion(stand=StandSettings((game,), 120.0, 0.3)) as server:
        room = server.room
        status, first = start(server, game, "table", players=2, name="Ann")
        assert status == 201, first
        assert room.stand is not None and room.stand["waiting"] is True
        number = room.game_number
        session = room.session
        assert session is not None
        other = next(s.id for s in session.seats if s.id != first["seat"])
        streams = [
            EventStream(
                server.base,
                f"/api/rooms/{server.code}/stream?seat={first['seat']}&token={first['token']}",
            )
        ]
        try:
            path = f"/api/rooms/{server.code}/seats/{first['seat']}/actions"
            for action in session.legal_actions(first["seat"], 0.0) or [{"type": "roll"}]:
                status, refused = call(
                    server.base, "POST", path, {"action": action}, token=first["token"]
                )
                assert (status, refused["error"]) == (409, "waiting_players"), refused
            assert room.revision == 0 or room.game_number == number
            status, second = call(
                server.base, "POST", f"/api/rooms/{server.code}/seats/{other}", {"name": "Bea"}
            )
            assert status == 200, second
            streams.append(
                EventStream(
                    server.base,
                    f"/api/rooms/{server.code}/stream?seat={other}&token={second['token']}",
                )
            )
            deadline = time.monotonic() + 10
            while room.game_number == number and time.monotonic() < deadline:
                time.sleep(0.05)
            # dealt again for the two of them: the seats keep their players, and play begins
            assert room.game_number == number + 1 and room.stand["waiting"] is False
            assert room.game_name == game and room.session is not session
            assert {room.seats.claims[first["seat"]].name, room.seats.claims[other].name} == {
                "Ann",
                "Bea",
            }
            dealt = room.session
            assert dealt is not None
            seat = next(s for s in dealt.active_seats if s in (first["seat"], other))
            token = first["token"] if seat == first["seat"] else second["token"]
            path = f"/api/rooms/{server.code}/seats/{seat}/actions"
            status, answer = call(
                server.base, "GET", f"{path[: -len('/actions')]}/legal", token=token
            )
            assert status == 200 and answer["actions"], answer
            status, done = call(
                server.base, "POST", path, {"action": answer["actions"][0]}, token=token
            )
            assert (status, done.get("error")) != (409, "waiting_players"), done
        finally:
            for stream in streams:
                stream.close()


def test_the_readme_states_the_stands_limits_as_the_companion_keeps_them() -> None:
    readme = " ".join((Path(__file__).parent.parent / "README.md").read_text().split())
    stand = readme[readme.index("## Running a convention stand") :]
    assert f"at most {STARTS_PER_MINUTE} games a minute" in stand
    assert "a few games a minute" not in stand
    # a closed page is seen gone within LOOK_SECONDS, and the game ends LEFT_SECONDS later
    assert "within 10 seconds when they close the page" in stand
    assert LOOK_SECONDS + LEFT_SECONDS < 10
    assert StandSettings().starts_per_minute == STARTS_PER_MINUTE
