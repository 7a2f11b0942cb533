"""A game's seed cannot be searched: the acceptance test of the generator.

Games used to draw a 32-bit seed and expand it with SplitMix64, so a player could try
all 2**32 seeds against what the table showed and foretell every hand and die. Now the
companion draws a 256-bit secret from the operating system for each game and expands it
with HMAC_DRBG over SHA-256 (NIST SP 800-90A): a search would have to try 2**256 keys,
and the outputs seen tell nothing about the key or the draws to come.

Played here through the real server as people play: every message each page receives
(the table's and each seat's event stream, every answer) and each seat's own view are
kept, and none of them holds the seed, in any form, or any part of the generator's
state. The game's log holds the seed only as 64 hex digits, and leaves the box only
in the export of the finished game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from live_server import LiveServer
from seed_secrets import secret_texts
from web_client import EventStream, call

from engine.clacks.selfplay import next_action
from engine.core.rng import SEED_BITS, SEED_HEX_DIGITS, Rng, derive_seed, seed_to_hex
from engine.games import game_module

ENTROPY_BITS = 256  # the secret behind every game's draws
MAX_ACTIONS = 600


def test_the_secret_has_256_bits_and_the_generator_is_hmac_drbg() -> None:
    assert SEED_BITS == ENTROPY_BITS and SEED_HEX_DIGITS * 4 == ENTROPY_BITS
    # HMAC_DRBG SHA-256, NIST CAVP known answer (no personalization, COUNT 0)
    drbg = Rng.from_seed_material(
        bytes.fromhex(
            "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488"
            "659ba96c601dc69fc902940805ec0ca8"
        )
    )
    drbg.generate(128)
    assert drbg.generate(128).hex().startswith("e528e9abf2dece54d47c7e75e5fe3021")
    # a game's deal depends on every bit of its secret: flip any one, another deal
    seed = derive_seed(1, "deal")
    hands = set()
    for bit in (None, 0, 32, 64, 128, 255):
        game = game_module("clacks").new({"players": 4}, seed if bit is None else seed ^ 1 << bit)
        hands.add(json.dumps([game.view(s.id)["you"]["hand"] for s in game.seats]))
    assert len(hands) == 6


class Witness:
    """Everything one audience received, as the bytes or JSON it received."""

    def __init__(self, base: str, path: str, seat: str | None, token: str | None) -> None:
        self.seat, self.token = seat, token
        self.stream = EventStream(base, path)
        self.texts: list[str] = []

    def keep(self, answer: tuple[int, Any]) -> Any:
        status, body = answer
        assert status < 500, body
        self.texts.append(json.dumps(body))
        return body

    def everything(self) -> str:
        return "\n".join([*self.texts, self.stream.raw.decode("utf-8", "replace")])


def open_table(server: LiveServer, game: str, options: dict[str, Any]) -> list[Witness]:
    base, code = server.base, server.code
    status, body = call(
        base, "POST", f"/api/rooms/{code}/game", {"game": game, "options": options}, pin=server.pin
    )  # no seed given: the companion draws the secret
    assert status == 201, body
    session = server.room.session
    assert session is not None
    witnesses = [Witness(base, f"/api/rooms/{code}/stream", None, None)]
    for info in session.seats:
        status, claimed = call(base, "POST", f"/api/rooms/{code}/seats/{info.id}", {"name": ""})
        assert status == 200, claimed
        token = claimed["token"]
        query = f"?seat={info.id}&token={token}"
        witnesses.append(Witness(base, f"/api/rooms/{code}/stream{query}", info.id, token))
    return witnesses


def look(server: LiveServer, witnesses: list[Witness]) -> None:
    for witness in witnesses:
        witness.stream.catch_up(server.room.seq)
        query = f"?seat={witness.seat}" if witness.seat else ""
        path = f"/api/rooms/{server.code}{query}"
        witness.keep(call(server.base, "GET", path, token=witness.token))


@pytest.mark.parametrize(
    ("game", "options"),
    [("clacks", {"players": 2}), ("klackers", {"players": 3, "rounds": 2})],
)
def test_no_message_and_no_view_holds_the_secret(
    server: LiveServer, game: str, options: dict[str, Any]
) -> None:
    base, code, pin = server.base, server.code, server.pin
    assert call(base, "POST", f"/api/rooms/{code}/settings", {"hints": True}, pin=pin)[0] == 200
    witnesses = open_table(server, game, options)
    by_seat = {w.seat: w for w in witnesses if w.seat}
    session = server.room.session
    assert session is not None
    inner = session.clacks if game == "clacks" else session.klackers  # type: ignore[attr-defined]
    seed = inner.state.seed
    # 256 bits from the operating system: below 2**128 once in 2**128 games
    assert seed >= 1 << 128
    secrets = set(secret_texts(seed, inner.state.rng))
    look(server, witnesses)
    policy = Rng(5)
    for step in range(MAX_ACTIONS):
        if session.over:
            break
        if game == "clacks":
            action = next_action(session.clacks, policy).to_json()  # type: ignore[attr-defined]
            seat = action["seat"]
        else:
            seat = session.active_seats[0]
            legal = by_seat[seat].keep(
                call(
                    base, "GET", f"/api/rooms/{code}/seats/{seat}/legal", token=by_seat[seat].token
                )
            )["actions"]
            action = legal[policy.below(len(legal))]
        me = by_seat[seat]
        if step % 4 == 0:
            me.keep(call(base, "POST", f"/api/rooms/{code}/seats/{seat}/hint", {}, token=me.token))
        path = f"/api/rooms/{code}/seats/{seat}/actions"
        me.keep(call(base, "POST", path, {"action": action}, token=me.token))
        # the generator moves on with every draw: its state now is a secret too
        secrets |= set(secret_texts(seed, inner.state.rng))
        look(server, witnesses)
    assert session.over, "the game should be played to its end"
    received = 0
    for witness in witnesses:
        text = witness.everything()
        received += len(text)
        for secret in secrets:
            assert secret not in text, (witness.seat, secret)
        assert '"seed"' not in text and '"rng"' not in text
    assert received > 50_000  # a whole game's worth of messages was looked through

    # the finished game's export holds the seed, as hex digits a browser keeps exactly
    status, exported = call(
        base, "GET", f"/api/rooms/{code}/saves/{server.game_id}/export", pin=pin
    )
    assert status == 200, exported
    assert exported["format"] == 2 and exported["seed"] == seed_to_hex(seed)
    replayed = game_module(game).replay(json.loads(json.dumps(exported)))
    assert replayed.log_json() == session.log_json()
    for witness in witnesses:
        witness.stream.close()
