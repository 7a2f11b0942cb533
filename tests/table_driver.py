"""Shared by the browser tests that walk every game: moves made through the API by a
careless but legal player (a random legal action; a Guards! Guards! report filled in by
the engine's own simulation's reporter), so a page has a game in progress to show."""

from __future__ import annotations

import time
from typing import Any

from game_tables import board, first_tables, games
from guards_support import guards_of
from live_server import LiveServer
from web_client import call

from engine.core.rng import Rng
from engine.guards.forms import legal_forms
from engine.guards.simulation import Reporter, active, choose_form

# every game and mode at its fewest seats, by the mode's name (game_tables.py)
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    name: (table.game, table.options) for name, table in first_tables().items()
}
# each game's board: the picture the table looks at
BOARD = {game: board(game) for game in games()}


def seat_everyone(server: LiveServer) -> dict[str, str]:
    session = server.room.session
    assert session is not None
    return {s.id: server.room.seats.claim(s.id, s.id.title(), None)["token"] for s in session.seats}


def play(server: LiveServer, tokens: dict[str, str], steps: int, seed: int = 7) -> int:
    """Up to ``steps`` accepted actions (fewer if the game ends); how many were taken.
    Guards! Guards! reports stop short of ending the game by hand."""
    session = server.room.session
    assert session is not None
    rng = Rng(seed)
    reporter = Reporter(Rng(seed))
    taken = tries = 0
    while taken < steps and not session.over and tries < 40 * steps:
        tries += 1
        if session.game == "guards":
            game = guards_of(session)
            seat = reporter.pick(active(game))
            forms = [f for f in legal_forms(game.state, seat) if f["type"] != "stop_game"]
            if not forms:
                continue
            action = reporter.action(choose_form(reporter, forms))
        else:
            if not session.active_seats:
                break
            # a bot's seat plays by itself: the driver moves the people's
            seats = [s for s in session.active_seats if s in tokens]
            if not seats:
                wait_for_bot(server, session.active_seats)
                continue
            seat = seats[rng.below(len(seats))]
            legal = session.legal_actions(seat, 0.0)
            if not legal:
                continue
            action = legal[rng.below(len(legal))]
        path = f"/api/rooms/{server.code}/seats/{seat}/actions"
        status, _ = call(server.base, "POST", path, {"action": action}, token=tokens[seat])
        taken += status == 200
    return taken


def wait_for_bot(server: LiveServer, seats: list[str], timeout: float = 10.0) -> None:
    """Until the bots in ``seats`` have moved (the table's revision goes on)."""
    revision = server.room.revision
    deadline = time.monotonic() + timeout
    while server.room.revision == revision and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.room.revision != revision, f"the bots in {seats} never moved"


def to_first_turn(server: LiveServer, tokens: dict[str, str]) -> None:
    """A game past its set-up: Guards! Guards! to its first turn, others one action on."""
    session = server.room.session
    assert session is not None
    if session.game != "guards":
        play(server, tokens, 1)
        return
    for _ in range(200):
        if guards_of(session).state.turn is not None and guards_of(session).state.top is None:
            return
        play(server, tokens, 1, seed=_)
    raise AssertionError("the game never reached its first turn")
