"""Bots in a table's seats and hints on the phones, over real HTTP (waitress, SQLite).

The table (its PIN) gives a seat to a bot and takes it back; a bot plays through the
table's own change path, so its every action is saved before any page hears of it; a
game of bots only plays itself to the end; a bot seat comes back after `clacks serve`
starts again, and plays on. Hints follow the table's setting and the game's rules, and
a hint is only ever the asking seat's own.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer, companion
from serve_process import Served, serve_process
from test_web_board import RecordingBoard
from web_client import EventStream, call

import web.bots
from engine.core.interface import JSON
from engine.games import game_module
from web.bots import BotTurn, think


def start(server: LiveServer, game: str = "clacks", seed: int = 12, **body: Any) -> None:
    body.setdefault("options", {"players": 2})
    status, answer = call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/game",
        {"game": game, "seed": seed, **body},
        pin=server.pin,
    )
    assert status == 201, answer


def claim(server: LiveServer, seat: str) -> str:
    status, answer = call(server.base, "POST", f"/api/rooms/{server.code}/seats/{seat}", {})
    assert status == 200, answer
    token: str = answer["token"]
    return token


def seat_bot(server: LiveServer, seat: str, level: Any, pin: str | None = "") -> tuple[int, Any]:
    return call(
        server.base,
        "POST",
        f"/api/rooms/{server.code}/seats/{seat}/bot",
        {"level": level},
        pin=server.pin if pin == "" else pin,
    )


def seats(server: LiveServer, token: str | None = None, seat: str | None = None) -> Any:
    query = f"?seat={seat}" if seat else ""
    status, snapshot = call(server.base, "GET", f"/api/rooms/{server.code}{query}", token=token)
    assert status == 200, snapshot
    return {s["id"]: s for s in snapshot["room"]["seats"]}


def wait_for(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def saved_actions(server: LiveServer) -> list[JSON]:
    """The game's actions as they are on the disk (read back from the saves)."""
    record = server.room.record
    assert record is not None
    stored, _names = server.room.store.load(record.id)
    return stored.actions


def test_the_table_gives_a_free_seat_to_a_bot_and_takes_it_back(server: LiveServer) -> None:
    start(server)
    south = claim(server, "south")
    # only the table may seat a bot, with a level the game has, on a seat nobody holds
    assert seat_bot(server, "north", "planner", pin=None)[1]["error"] == "pin_required"
    assert seat_bot(server, "north", "planner", pin="000000")[1]["error"] == "bad_pin"
    status, answer = seat_bot(server, "north", "genius")
    assert (status, answer["error"]) == (400, "unknown_level")
    assert "random, greedy, planner" in answer["message"]
    assert seat_bot(server, "north", 3)[0] == 400
    assert seat_bot(server, "nobody", "planner")[1]["error"] == "unknown_seat"
    status, answer = seat_bot(server, "south", "planner")
    assert (status, answer["error"]) == (409, "seat_taken")
    assert seats(server)["north"]["bot"] is None

    assert seat_bot(server, "north", "greedy") == (200, {"seat": "north", "bot": "greedy"})
    assert seat_bot(server, "north", "planner") == (200, {"seat": "north", "bot": "planner"})
    shown = seats(server, south, "south")  # a phone sees the bot too, with its level
    assert shown["north"]["bot"] == "planner" and not shown["north"]["claimed"]
    assert shown["south"]["bot"] is None and shown["south"]["claimed"]
    # nobody can claim a bot's seat, nor act or ask for a hint as it
    status, answer = call(server.base, "POST", f"/api/rooms/{server.code}/seats/north", {})
    assert (status, answer["error"]) == (409, "bot_seat")
    assert answer["params"] == {"seat": "north", "level": "planner"}
    path = f"/api/rooms/{server.code}/seats/north/actions"
    status, answer = call(server.base, "POST", path, {"action": {"type": "end_turn"}})
    assert (status, answer["error"]) == (403, "seat_not_claimed")

    # the person plays South's turn; the bot answers with North's, seen on the stream
    stream = EventStream(server.base, f"/api/rooms/{server.code}/stream")
    session = server.room.session
    assert session is not None
    while session.active_seats == ["south"]:
        with server.room.lock:  # the person looks at the table while nothing moves
            action = session.bot_action("south", "greedy", 0.0)
        path = f"/api/rooms/{server.code}/seats/south/actions"
        status, answer = call(server.base, "POST", path, {"action": action}, token=south)
        assert status == 200, answer
    wait_for(lambda: session.over or session.active_seats == ["south"])
    seen: list[JSON] = []
    while stream.seq < server.room.seq:
        seen += stream.next_state()["events"]
    stream.close()
    assert any(e.get("seat") == "north" for e in seen if e["kind"] != "turn_started")
    played = [a for a in session.log_json()["actions"] if a.get("seat") == "north"]
    assert played and saved_actions(server) == session.log_json()["actions"]

    # the table takes the seat back: free for a person again, and the bot plays no more
    status, _ = call(server.base, "DELETE", f"/api/rooms/{server.code}/seats/north", pin=server.pin)
    assert status == 200 and seats(server)["north"]["bot"] is None
    status, answer = call(
        server.base, "DELETE", f"/api/rooms/{server.code}/seats/north", pin=server.pin
    )
    assert (status, answer["error"]) == (409, "seat_free")
    claim(server, "north")

    # a game without bots (the trainer) has none to give
    start(server, "clacks-trainer", options={"questions": 3})
    status, answer = seat_bot(server, "south", "planner")
    assert (status, answer["error"]) == (409, "no_bots")


def test_the_table_buttons_wait_while_a_bot_plays_its_turn() -> None:
    """The exchange's buttons are the current player's: in a bot's turn (here a long one)
    the table screen's are refused and the physical ones do nothing."""
    board = RecordingBoard()
    with companion(board=board, bot_pause=60) as server:
        start(server, bots={"south": "planner"})
        revision = server.room.revision
        path = f"/api/rooms/{server.code}/buttons/a2b2"
        status, answer = call(server.base, "POST", path, pin=server.pin)
        assert (status, answer["error"]) == (409, "bot_turn")
        board.press("a2b2")  # as the button on the exchange
        assert server.room.revision == revision and server.room.session.log_json()["actions"] == []  # type: ignore[union-attr]
        # with the bot gone, the button moves South's pawn again
        call(server.base, "DELETE", f"/api/rooms/{server.code}/seats/south", pin=server.pin)
        assert call(server.base, "POST", path, pin=server.pin)[0] == 200


def test_the_lobby_seats_bots_with_a_new_game(server: LiveServer) -> None:
    status, games = call(server.base, "GET", "/api/games")
    levels = {g["name"]: g["bot_levels"] for g in games["games"]}
    assert levels["clacks"] == levels["klackers"] == ["random", "greedy", "planner"]
    assert levels["clacks-trainer"] == []
    start(server)
    claim(server, "south")
    before = (server.room.game_number, server.room.revision)
    path = f"/api/rooms/{server.code}/game"
    for bots, error in [
        ({"south": "planner"}, "seat_taken"),  # a person holds it
        ({"east": "planner"}, "bad_field"),  # no such seat in this game
        ({"north": "clever"}, "unknown_level"),
        (["north"], "bad_field"),
        ({"north": 1}, "bad_field"),
    ]:
        body = {"options": {"players": 2}, "bots": bots}
        status, answer = call(server.base, "POST", path, body, pin=server.pin)
        assert 400 <= status < 500 and answer["error"] == error, (bots, answer)
        assert (server.room.game_number, server.room.revision) == before

    start(server, bots={"north": "random"})
    assert server.room.seats.bots == {"north": "random"} and "south" in server.room.seats.claims
    start(server)  # without bots: the table's bots keep the seats the new game has
    assert seats(server)["north"]["bot"] == "random"
    start(server, bots={})
    assert seats(server)["north"]["bot"] is None


@pytest.mark.parametrize(
    ("game", "options", "bots"),
    [
        ("clacks", {"players": 2}, {"south": "planner", "north": "greedy"}),
        (
            "clacks",
            {"mode": "coop", "players": 3},
            {"south": "planner", "west": "greedy", "north": "random"},
        ),
        ("klackers", {"players": 2}, {"south": "planner", "north": "random"}),
    ],
)
def test_a_game_of_bots_plays_itself_to_the_end(
    server: LiveServer, game: str, options: JSON, bots: dict[str, str]
) -> None:
    stream = EventStream(server.base, f"/api/rooms/{server.code}/stream")
    start(server, game, options=options, bots=bots, seed=4)
    session = server.room.session
    assert session is not None
    wait_for(lambda: session.over, seconds=60)
    last = stream.next_state()
    while not last.get("over"):
        last = stream.next_state()
    stream.close()
    assert last["result"] == session.result() and last["result"]["reason"]
    # every action is on the disk, and the saved game is marked finished
    assert saved_actions(server) == session.log_json()["actions"]
    listed = next(g for g in server.room.store.listing() if g["id"] == server.game_id)
    assert listed["over"] and listed["result"] == session.result()
    assert {a["seat"] for a in session.log_json()["actions"]} >= set(bots)


def test_a_bot_discards_when_its_express_time_runs_out() -> None:
    """Its pause is longer than an Express turn: the table clock ends the bot's turn,
    and the bot answers the discard that asks of it."""
    with companion(bot_pause=2.0) as server:
        options = {"players": 2, "express": True, "turn_seconds": 1}  # the shortest turn
        start(server, options=options, bots={"south": "planner"})
        claim(server, "north")  # the clock runs once every seat is taken
        session = server.room.session
        assert session is not None
        wait_for(lambda: any(a["type"] == "discard" for a in session.log_json()["actions"]))
        kinds = [(a["type"], a.get("seat")) for a in session.log_json()["actions"]]
        kinds = [kind for kind in kinds if kind[0] != "resume_clock"]
        assert kinds[:2] == [("time_up", None), ("discard", "south")]


def test_a_bot_that_thinks_too_long_plays_the_weakest_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a slow machine the planner may overrun its time: then the random level plays
    its turn (and out of turn it lets the moment pass)."""
    session = game_module("clacks").new({"players": 2}, 12)
    choose = web.bots._choose

    def slow_planner(
        turn: BotTurn, level: str, now: float, cancelled: Callable[[], bool] | None = None
    ) -> JSON | None:
        if level == "planner":
            time.sleep(1.0)
        return choose(turn, level, now, cancelled)

    monkeypatch.setattr(web.bots, "_choose", slow_planner)
    turn = BotTurn(1, "south", "planner", "clacks", session.log_json(), 0.0, due=True)
    assert think(turn, 0.0, 0.05, "random") == session.bot_action("south", "random", 0.0)
    assert think(turn, 0.0, 5.0, "random") == session.bot_action("south", "planner", 0.0)
    waiting = BotTurn(1, "north", "planner", "clacks", session.log_json(), 0.0, due=False)
    assert think(waiting, 0.0, 0.05, "random") is None


def test_hints_follow_the_table_setting_and_the_games_rules() -> None:
    board = RecordingBoard()
    with companion(board=board) as server:
        start(server)
        south, north = claim(server, "south"), claim(server, "north")
        path = f"/api/rooms/{server.code}/seats/south/hint"
        settings = f"/api/rooms/{server.code}/settings"
        assert call(server.base, "POST", path, {}, token=south)[1]["error"] == "hints_off"
        assert call(server.base, "POST", settings, {"hints": True})[1]["error"] == "pin_required"
        status, _ = call(server.base, "POST", settings, {"hints": "yes"}, pin=server.pin)
        assert status == 400
        assert call(server.base, "POST", settings, {"hints": True}, pin=server.pin) == (
            200,
            {"hints": True},
        )
        _status, snapshot = call(server.base, "GET", f"/api/rooms/{server.code}")
        assert snapshot["room"]["hints"] is True

        # only the seat's own token gets its hint, and only in its turn
        assert call(server.base, "POST", path, {})[1]["error"] == "bad_token"
        assert call(server.base, "POST", path, {}, token=north)[1]["error"] == "bad_token"
        north_path = f"/api/rooms/{server.code}/seats/north/hint"
        refused = call(server.base, "POST", north_path, {}, token=north)[1]
        assert (refused["error"], refused["params"]) == ("no_hint", {"reason": "not_your_turn"})
        assert refused["message"].endswith("it is not your turn")

        table = EventStream(server.base, f"/api/rooms/{server.code}/stream")
        status, answer = call(server.base, "POST", path, {}, token=south)
        assert status == 200, answer
        plan = answer["hint"]
        flips = {lamp for card in plan["flips"] for lamp in card}
        lamps = game_module("clacks").reference()["lamps"]
        # the plan's flips and its tower, on the table screen and the LED board
        table.catch_up(server.room.seq)
        preview = table.last["preview"]  # type: ignore[index]
        assert preview["seat"] == "south" and preview["hint"] is True
        assert {lamps[i] for i in preview["preview"]} == flips
        assert set(preview["accent"]) == set(answer["frame"]["accent"]) != set()
        shown = board.frames[-1]
        assert shown.preview == sum(1 << i for i in preview["preview"])
        assert shown.accent & sum(1 << i for i in preview["accent"])
        # the table and the other seat never receive the plan itself
        assert '"actions"' not in json.dumps(table.last)
        assert '"actions"' not in json.dumps(seats(server, north, "north"))
        table.close()
        # the plan is made of actions the seat can take, in order
        for action in plan["actions"]:
            act = f"/api/rooms/{server.code}/seats/south/actions"
            status, answer = call(server.base, "POST", act, {"action": action}, token=south)
            assert status == 200, (action, answer)
        assert server.room.previews.current is None  # the game changed: the hint's lamps are gone

        # Long Distance: no hints, whatever the table's setting
        start(server, options={"mode": "coop", "players": 2, "long_distance": True})
        active = server.room.session.active_seats[0]  # type: ignore[union-attr]
        token = {"south": south, "north": north}.get(active) or claim(server, active)
        ld_path = f"/api/rooms/{server.code}/seats/{active}/hint"
        status, answer = call(server.base, "POST", ld_path, {}, token=token)
        assert (status, answer["error"]) == (409, "hints_forbidden")
        assert server.room.previews.current is None

        # Klackers: roll first, then which numbers to pull
        start(server, "klackers", options={"players": 2})
        active = server.room.session.active_seats[0]  # type: ignore[union-attr]
        token = {"south": south, "north": north}[active]
        k_path = f"/api/rooms/{server.code}/seats/{active}/hint"
        status, answer = call(server.base, "POST", k_path, {}, token=token)
        roll = {"type": "roll", "seat": active, "dice": 2}
        assert status == 200 and answer["hint"]["actions"] == [roll]
        act = f"/api/rooms/{server.code}/seats/{active}/actions"
        call(server.base, "POST", act, {"action": roll}, token=token)
        status, answer = call(server.base, "POST", k_path, {}, token=token)
        assert status == 200 and answer["hint"]["actions"][0]["type"] == "pull"
        assert answer["hint"]["objective"] == "score" and answer["hint"]["expected"] >= 0

        call(server.base, "POST", settings, {"hints": False}, pin=server.pin)
        assert call(server.base, "POST", k_path, {}, token=token)[1]["error"] == "hints_off"


# ---------------------------------------------------------------------- a restart


def serve(data_dir: Path, *args: str) -> contextlib.AbstractContextManager[Served]:
    return serve_process(data_dir, "--host", "127.0.0.1", "--no-qr", *args)


def test_a_bot_seat_plays_on_after_the_companion_starts_again(tmp_path: Path) -> None:
    # first run: the bot waits a long time after each change, so it has not played yet
    with serve(tmp_path, "--bot-pause", "60") as (_text, base, code, pin):
        body = {"options": {"players": 2}, "seed": 12, "bots": {"south": "planner"}}
        status, _ = call(base, "POST", f"/api/rooms/{code}/game", body, pin=pin)
        assert status == 201
        status, claimed = call(base, "POST", f"/api/rooms/{code}/seats/north", {"name": "Bob"})
        assert status == 200
        call(base, "POST", f"/api/rooms/{code}/settings", {"hints": True}, pin=pin)
        _status, snapshot = call(base, "GET", f"/api/rooms/{code}")
        assert snapshot["active"] == ["south"] and snapshot["revision"] == 1
    # started again (bots without a pause): the same table, the bot in its seat plays on
    with serve(tmp_path, "--bot-pause", "0") as (text, base, again, _pin):
        assert again == code
        assert f"Table {code}: a planner bot plays south" in text
        room = f"/api/rooms/{code}"

        def north_to_play() -> bool:
            active: list[str] = call(base, "GET", room)[1]["active"]
            return active == ["north"]

        wait_for(north_to_play)
        _status, snapshot = call(base, "GET", f"{room}?seat=north", token=claimed["token"])
        seated = {s["id"]: s for s in snapshot["room"]["seats"]}
        assert seated["south"]["bot"] == "planner" and seated["north"]["name"] == "Bob"
        assert snapshot["room"]["hints"] is True and snapshot["seat"] == "north"
        assert any(step["seat"] == "south" for step in snapshot["log_steps"])
