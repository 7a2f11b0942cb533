"""A refused press of a tower button is told to the whole table, so it names nothing
that only the player in turn may know.

In Long Distance the Jacquard lifted from an Operator's Log is its lifter's secret:
after such a swap, a press that would transmit before it is played is refused with
``lifted_not_played``, and that notice reaches every page, so it may name neither the
card nor its design. The lifter's own phone, refused the same thing, is told which
card. Likewise a move that would leave too little stress for the cheapest Jacquard in a
competitive hand does not tell the table which card that is.
"""

from __future__ import annotations

import json
from typing import Any

from clacks_setup import give_hand, set_turn
from live_server import LiveServer
from map_helpers import new_game, put_on_slot
from test_clacks_competitive import game_with_words
from web_client import EventStream, call

from engine.clacks.actions import Move, Swap, Transmit
from engine.clacks.errors import LiftedNotPlayed, MoveStrandsHand
from engine.clacks.game import ClacksGame
from engine.clacks.geometry import Seat, towers_of
from engine.clacks.session import ClacksSession
from engine.core.errors import IllegalAction
from web.refusals import in_english

S = Seat.SOUTH


def lift_from_a_log(game: ClacksGame) -> tuple[Seat, str]:
    """The player in turn swaps a Jacquard for the one face down on log-1."""
    seat = game.current_seat
    put_on_slot(game, "log-1", "wick-trimming")  # a card that leaves the lamps alone
    game.apply(Swap(seat, jacquard=game.state.players[seat].hand[0], slot="log-1"))
    team = game.state.team
    assert team is not None and team.lifted is not None
    return seat, team.lifted


def secrets_of(game: ClacksGame, card: str) -> list[str]:
    return [card, game.components.jacquards[card].design.name]


def refusal(exc: IllegalAction) -> str:
    return json.dumps(exc.to_json())


def test_a_press_after_a_secret_lift_names_no_card() -> None:
    game = new_game("coop", 3, seed=4, long_distance=True)
    seat, lifted = lift_from_a_log(game)
    session = ClacksSession(game)
    tower = towers_of(seat.colour)[0]
    try:
        session.button_action(tower, 0.0)
    except LiftedNotPlayed as exc:
        public = refusal(exc)
    else:
        raise AssertionError("the press should be refused until the lifted card is played")
    assert '"lifted_not_played"' in public
    for secret in secrets_of(game, lifted):
        assert secret not in public, (secret, public)
    # the lifter's own action is refused to them alone, naming the card
    try:
        game.clone().apply(Transmit(seat, tower=tower))
    except LiftedNotPlayed as exc:
        own = exc
    else:
        raise AssertionError("the lifter may not transmit either")
    assert own.params["design"] == lifted.rsplit("-", 1)[0]


def test_a_press_that_would_strand_a_hand_does_not_tell_the_card() -> None:
    game = game_with_words("ADORA", "TROLL")
    give_hand(game, S, ["long", "block", "cross"])
    game.state.players[S].pawn = "a2b2"
    set_turn(game, S)
    session = ClacksSession(game)
    try:
        session.button_action("c3d3", 0.0)
    except MoveStrandsHand as exc:
        public = refusal(exc)
        assert exc.params == {"reason": "public", "tower": "c3d3", "cost": 3, "left": 2}
    else:
        raise AssertionError("the move would leave no stress for a Jacquard")
    for card in game.state.players[S].hand:
        for secret in secrets_of(game, card):
            assert secret not in public, (secret, public)
    assert '"cheapest"' not in public
    try:  # the player's own move is refused to them with the card named
        game.clone().apply(Move(S, tower="c3d3"))
    except MoveStrandsHand as exc:
        assert "Long Bar" in in_english(exc) and exc.params["cheapest"] == 3


def test_no_page_is_told_the_lifted_card_when_a_tower_button_is_pressed(
    server: LiveServer,
) -> None:
    base, code, pin = server.base, server.code, server.pin
    options = {"mode": "coop", "players": 3, "long_distance": True}
    status, body = call(
        base, "POST", f"/api/rooms/{code}/game", {"options": options, "seed": 4}, pin=pin
    )
    assert status == 201, body
    session = server.room.session
    assert isinstance(session, ClacksSession)
    streams = {"table": EventStream(base, f"/api/rooms/{code}/stream")}
    tokens: dict[str, str] = {}
    for info in session.seats:
        status, claimed = call(base, "POST", f"/api/rooms/{code}/seats/{info.id}", {"name": ""})
        assert status == 200, claimed
        tokens[info.id] = claimed["token"]
        query = f"?seat={info.id}&token={claimed['token']}"
        streams[info.id] = EventStream(base, f"/api/rooms/{code}/stream{query}")
    game = session.clacks
    seat = game.current_seat
    put_on_slot(game, "log-1", "wick-trimming")
    swap = {"type": "swap", "jacquard": game.state.players[seat].hand[0], "slot": "log-1"}
    path = f"/api/rooms/{code}/seats/{seat.label}/actions"
    status, body = call(base, "POST", path, {"action": swap}, token=tokens[seat.label])
    assert status == 200, body
    team = game.state.team
    assert team is not None and team.lifted is not None
    lifted = team.lifted

    tower = towers_of(seat.colour)[0]
    status, refused = call(base, "POST", f"/api/rooms/{code}/buttons/{tower}", {}, pin=pin)
    assert status == 422 and refused["rule"] == "lifted_not_played", refused
    received: dict[str, list[str]] = {"press": [json.dumps(refused)]}
    for name, stream in streams.items():
        stream.catch_up(server.room.seq)
        query = "" if name == "table" else f"?seat={name}"
        status, state = call(base, "GET", f"/api/rooms/{code}{query}", token=tokens.get(name))
        assert status == 200
        received[name] = [json.dumps(state), stream.raw.decode()]
    notice: Any = json.loads(received["table"][0])["notice"]
    assert notice is not None and notice["error"]["rule"] == "lifted_not_played"
    # the refusal names neither the card nor its design (which may lie face up elsewhere)
    for told in (json.dumps(refused), json.dumps(notice)):
        for secret in secrets_of(game, lifted):
            assert secret not in told, (secret, told)
    for name, texts in received.items():
        if name == seat.label:
            continue  # the lifter's own page may show its own hand
        for text in texts:
            assert lifted not in text, (name, lifted)
    for stream in streams.values():
        stream.close()
