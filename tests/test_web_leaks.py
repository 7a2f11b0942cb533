"""No leaks, systematically: in every mode, every API response and every pushed event a
seat or a spectator receives is checked, at the moment it is received, against what is
hidden from that audience in the game's full state.

Hidden from everyone: the bag and the Fault Report deck (contents and order), the
face-down Incident Reports and Operator's Logs and the Jacquards under the Logs, the
cards set aside, the seed and the random generator, the action log (undo history), and
every hint (only the seat that asks, with its token, receives its own; in Long Distance
nobody does).
Hidden from everyone but their holder: each hand, except in the standard co-op game,
where the team plays with open hands. A card stops being a secret for good once it has
lain in a public place (the discard pile, a face-up slot, a revealed card) or, for one
seat, once it was in that seat's own hand. The driver plays legal actions chosen by the
self-play policy and mixes in undos, previews, refused actions naming other players'
cards, and legal-action lists.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from live_server import LiveServer
from seed_secrets import secret_texts
from web_client import EventStream, call

from engine.clacks.selfplay import next_action
from engine.clacks.state import ClacksState
from engine.core.rng import Rng

SEED = 9876543210123
MAX_ACTIONS = 70
FORBIDDEN_KEYS = re.compile(r'"(seed|rng|bag|fault_deck|undo_floor|set_aside|log|history)":')

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("clacks", {"players": 2}),
    ("clacks", {"players": 3, "long_message": True, "express": True, "turn_seconds": 3600}),
    ("clacks", {"players": 4, "quick": True}),
    ("clacks", {"mode": "coop", "players": 2}),
    ("clacks", {"mode": "coop", "players": 3, "route": "hard", "night_shift": True}),
    ("clacks", {"mode": "coop", "players": 4, "long_distance": True}),
    ("clacks", {"mode": "coop", "players": 3, "long_distance": True, "night_shift": True}),
    ("clacks", {"mode": "solitaire", "players": 1, "night_shift": True}),
    ("clacks", {"mode": "junior", "players": 2}),
    ("clacks-trainer", {"kind": "mixed", "questions": 12}),
]


@dataclass
class Audience:
    seat: str | None
    token: str | None
    stream: EventStream
    known: set[str] = field(default_factory=set)  # ids this audience has rightly seen


def hidden_ids(state: ClacksState, seat: str | None) -> set[str]:
    """Card ids the audience ``seat`` (None: table and spectators) may not see now."""
    hidden = set(state.bag) | set(state.fault_deck)
    team = state.team
    if team is not None:
        hidden |= set(team.set_aside)
        for slot in team.slots:
            if slot.card is not None:
                hidden.add(slot.card)
            if slot.jacquard is not None and slot.kind == "log":
                hidden.add(slot.jacquard)
    open_hands = team is not None and not state.options.long_distance
    for owner, player in state.players.items():
        if owner.label != seat and not open_hands:
            hidden |= set(player.hand) | set(player.faults)
    return hidden


def public_ids(state: ClacksState) -> set[str]:
    seen = set(state.discard)
    ledgers = [state.team.ledger if state.team else None, state.race.ledger if state.race else None]
    for ledger in ledgers:
        if ledger is not None:
            seen |= set(ledger.revealed)
            if ledger.repair:
                seen.add(ledger.repair)
    if state.team is not None:
        seen |= {s.jacquard for s in state.team.slots if s.kind == "incident" and s.jacquard}
        if not state.options.long_distance:
            for player in state.players.values():
                seen |= set(player.hand) | set(player.faults)
    return seen


class Checker:
    def __init__(self, server: LiveServer, game: str) -> None:
        self.server = server
        self.game = game
        self.public: set[str] = set()
        self.received = 0

    def secrets(self) -> tuple[ClacksState | None, list[str]]:
        session = self.server.room.session
        assert session is not None
        if self.game == "clacks":
            state: ClacksState = session.clacks.state  # type: ignore[attr-defined]
            return state, secret_texts(state.seed, state.rng)
        trainer = session.trainer.state  # type: ignore[attr-defined]
        return None, secret_texts(trainer.seed, trainer.rng)

    def check(
        self, audience: Audience, text: str, mentioned: set[str] = frozenset(), own: bool = False
    ) -> None:
        """``text`` was just received by ``audience``; ``mentioned``: ids its own request
        named; ``own``: an answer listing the seat's own legal actions."""
        self.received += 1
        state, values = self.secrets()
        for value in values:
            assert value not in text, (audience.seat, value, text[:300])
        forbidden = FORBIDDEN_KEYS.search(text)
        assert forbidden is None, (audience.seat, forbidden, text[:300])
        if not own:
            assert '"actions":' not in text, (audience.seat, text[:300])
        if state is None:
            return
        secret = hidden_ids(state, audience.seat) - self.public - audience.known - mentioned
        shown = set(re.findall(r'"([a-z][a-z-]*-\d+)"', text))
        leaked = shown & secret
        assert not leaked, (audience.seat, leaked, text[:500])

    def learn(self, audiences: list[Audience]) -> None:
        state, _ = self.secrets()
        if state is None:
            return
        self.public |= public_ids(state)
        for audience in audiences:
            if audience.seat is not None:
                for owner, player in state.players.items():
                    if owner.label == audience.seat:
                        audience.known |= set(player.hand) | set(player.faults)


def _new_texts(stream: EventStream, seq: int) -> list[str]:
    texts = []
    while stream.seq < seq:
        texts.append(json.dumps(stream.next_state()))
    return texts


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=[json.dumps(o) for _, o in CONFIGS])
def test_nobody_receives_what_is_hidden_from_them(
    server: LiveServer, game: str, options: dict[str, Any]
) -> None:
    base, code, pin = server.base, server.code, server.pin
    status, body = call(
        base,
        "POST",
        f"/api/rooms/{code}/game",
        {"game": game, "options": options, "seed": SEED},
        pin=pin,
    )
    assert status == 201, body
    status, body = call(base, "POST", f"/api/rooms/{code}/settings", {"hints": True}, pin=pin)
    assert status == 200, body
    session = server.room.session
    assert session is not None
    checker = Checker(server, game)
    audiences = [Audience(None, None, EventStream(base, f"/api/rooms/{code}/stream"))]
    for info in session.seats:
        status, claimed = call(
            base, "POST", f"/api/rooms/{code}/seats/{info.id}", {"name": info.id}
        )
        assert status == 200
        token = claimed["token"]
        query = f"?seat={info.id}&token={token}"
        audiences.append(
            Audience(info.id, token, EventStream(base, f"/api/rooms/{code}/stream{query}"))
        )
    by_seat = {a.seat: a for a in audiences if a.seat is not None}
    rng, choice = Rng(5), random.Random(5)

    def received(audience: Audience, answer: tuple[int, Any], **kwargs: Any) -> Any:
        status, body = answer
        assert status < 500, body
        checker.check(audience, json.dumps(body), **kwargs)
        return body

    def everyone_looks() -> None:
        checker.learn(audiences)
        streamed = {id(a): _new_texts(a.stream, server.room.seq) for a in audiences}
        for text in streamed[id(audiences[0])]:
            # a Fault Report is played face up, then goes under the deck: public from then on
            events = json.loads(text)["events"]
            checker.public |= {e["card"] for e in events if e["kind"] == "fault_played"}
        for audience in audiences:
            query = f"?seat={audience.seat}" if audience.seat else ""
            received(audience, call(base, "GET", f"/api/rooms/{code}{query}", token=audience.token))
            for text in streamed[id(audience)]:
                checker.check(audience, text)

    everyone_looks()
    hints = 0
    for step in range(MAX_ACTIONS):
        if session.over:
            break
        if game == "clacks":
            action = next_action(session.clacks, rng, swap_chance=3).to_json()  # type: ignore[attr-defined]
            seat = action["seat"]
        else:
            seat = session.active_seats[0]
            legal = received(
                by_seat[seat],
                call(
                    base, "GET", f"/api/rooms/{code}/seats/{seat}/legal", token=by_seat[seat].token
                ),
                own=True,
            )["actions"]
            action = choice.choice(legal)
        me = by_seat[seat]
        if step % 5 == 2 and game == "clacks":
            # a refused play of a card someone else holds: the refusal names only what was sent
            state = session.clacks.state  # type: ignore[attr-defined]
            others = [c for s, p in state.players.items() if s.label != seat for c in p.hand]
            if others:
                card = choice.choice(others)
                wrong = {
                    "type": "play_jacquard",
                    "jacquard": card,
                    "lamps": ["a1", "b2", "c3", "d4"],
                }
                path = f"/api/rooms/{code}/seats/{seat}/actions"
                answer = call(base, "POST", path, {"action": wrong}, token=me.token)
                assert 400 <= answer[0] < 500
                received(me, answer, mentioned={card})
        if step % 7 == 3 and action.get("type") in ("play_jacquard", "play_fault"):
            path = f"/api/rooms/{code}/seats/{seat}/preview"
            received(me, call(base, "POST", path, {"action": action}, token=me.token))
            everyone_looks()
        if step % 4 == 0:
            path = f"/api/rooms/{code}/seats/{seat}/legal"
            received(me, call(base, "GET", path, token=me.token), own=True)
        if step % 3 == 1:
            # a hint: the seat's own plan, its lamps on every screen (not in Long Distance)
            path = f"/api/rooms/{code}/seats/{seat}/hint"
            answer = received(me, call(base, "POST", path, {}, token=me.token), own=True)
            if options.get("long_distance"):
                assert answer["error"] == "hints_forbidden"
            hints += "hint" in answer
            everyone_looks()
        path = f"/api/rooms/{code}/seats/{seat}/actions"
        received(me, call(base, "POST", path, {"action": action}, token=me.token))
        everyone_looks()
        if step % 6 == 5 and session.can_undo(seat):
            path = f"/api/rooms/{code}/seats/{seat}/undo"
            received(me, call(base, "POST", path, {}, token=me.token))
            everyone_looks()
    for audience in audiences:
        audience.stream.close()
    assert checker.received > 4 * len(audiences)
    assert (hints > 0) == (game == "clacks" and not options.get("long_distance")), hints
