"""Stateful fuzzing of the HTTP API: a hypothesis state machine drives a real companion
(waitress, real SQLite saves) through every kind of request, well-formed and not, with
right, wrong and missing tokens and PINs, stale revisions and repeated Idempotency-Keys,
and table operations (new games, ending, resuming, the replay viewer).

After every step: no answer was a server error; a refused request changed nothing; the
saved log on the disk is exactly the game in play; the revision never went back; and
nothing public carries the seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from live_server import LiveServer
from test_engine_state_machine import ANY_ACTION
from web_client import call

from engine.clacks.geometry import TOWERS
from web.security import PinGuard

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("clacks", {"players": 2}),
    ("clacks", {"players": 4, "long_message": True}),
    ("clacks", {"mode": "coop", "players": 3, "long_distance": True}),
    ("clacks", {"mode": "junior", "players": 2}),
    ("clacks-trainer", {"questions": 4}),
]
SEATS = ["south", "west", "north", "east", "nobody"]
RAW_BODIES = st.sampled_from(
    [b"", b"{", b"null", b"[]", b'"text"', b'{"action": 5}', b"\xff\xfe", b"{}" * 9000]
) | st.binary(max_size=64)


class ApiMachine(RuleBasedStateMachine):
    server: LiveServer
    answers: ClassVar[dict[int, int]] = {}  # status -> how many, over the whole run

    def __init__(self) -> None:
        super().__init__()
        self.server = ApiMachine.server
        self.tokens: dict[str, str] = {}
        self.seed = 0
        # every run starts from the same table: no game, no seats, no saved games
        room = self.server.room
        room.replay.close()
        if room.session is not None:
            room.end_game()
        for seat in list(room.seats.claims):
            room.store.free_seat(room.code, seat)
            del room.seats.claims[seat]
        for saved in room.store.listing():
            room.store.delete(saved["id"])
        self.server.hub.pins = PinGuard()  # and no wrong PIN on record
        self.last_revision = room.revision

    # ----------------------------------------------------------------- helpers

    @property
    def path(self) -> str:
        return f"/api/rooms/{self.server.code}"

    def fingerprint(self) -> str:
        room = self.server.room
        session = room.session
        log = session.log_json() if session is not None else None
        return json.dumps([room.revision, log, sorted(room.seats.claims)], sort_keys=True)

    def send(self, method: str, path: str, body: Any = None, **kwargs: Any) -> tuple[int, Any]:
        before = self.fingerprint()
        status, answer = call(self.server.base, method, path, body, **kwargs)
        ApiMachine.answers[status] = ApiMachine.answers.get(status, 0) + 1
        assert status < 500, (method, path, body, status, answer)
        if status >= 400:
            assert isinstance(answer, dict) and answer["message"], answer
            assert self.fingerprint() == before, (method, path, body, answer)
        return status, answer

    def token_for(self, seat: str, which: str) -> str | None:
        return {"right": self.tokens.get(seat), "wrong": "x" * 24, "none": None}[which]

    # ----------------------------------------------------------------- the table

    @initialize(config=st.sampled_from(CONFIGS), seed=st.integers(10**9, 2**40))
    def first_game(self, config: tuple[str, dict[str, Any]], seed: int) -> None:
        self.new_game(config, seed, True)

    @rule(config=st.sampled_from(CONFIGS), seed=st.integers(10**9, 2**40), right_pin=st.booleans())
    def new_game(self, config: tuple[str, dict[str, Any]], seed: int, right_pin: bool) -> None:
        game, options = config
        pin = self.server.pin if right_pin else "000000"
        body = {"game": game, "options": options, "seed": seed}
        status, _ = self.send("POST", f"{self.path}/game", body, pin=pin)
        if status == 201:
            self.seed = seed
            session = self.server.room.session
            assert session is not None
            seats = [s.id for s in session.seats]
            self.tokens = {s: t for s, t in self.tokens.items() if s in seats}

    @rule(seat=st.sampled_from(SEATS), name=st.text(max_size=30) | st.integers())
    def claim(self, seat: str, name: Any) -> None:
        status, answer = self.send(
            "POST", f"{self.path}/seats/{seat}", {"name": name}, token=self.tokens.get(seat)
        )
        if status == 200:
            self.tokens[seat] = answer["token"]

    @rule(seat=st.sampled_from(SEATS), by_table=st.booleans())
    def free_seat(self, seat: str, by_table: bool) -> None:
        if by_table:
            status, _ = self.send("DELETE", f"{self.path}/seats/{seat}", pin=self.server.pin)
        else:
            status, _ = self.send(
                "DELETE", f"{self.path}/seats/{seat}", token=self.tokens.get(seat)
            )
        if status == 200:
            self.tokens.pop(seat, None)

    @rule(step=st.integers(-3, 400) | st.none(), pick=st.integers(0, 5))
    def saved_games(self, step: int | None, pick: int) -> None:
        status, listed = self.send("GET", f"{self.path}/saves", pin=self.server.pin)
        assert status == 200
        saves = listed["saves"]
        if not saves:
            return
        chosen = saves[pick % len(saves)]
        which = pick % 4
        if which == 0:
            self.send("POST", f"{self.path}/saves/{chosen['id']}/resume", pin=self.server.pin)
        elif which == 1:
            self.send(
                "POST",
                f"{self.path}/replay",
                {"save": chosen["id"], "step": step},
                pin=self.server.pin,
            )
            self.send("POST", f"{self.path}/replay/step", {"step": step}, pin=self.server.pin)
        elif which == 2:
            status, exported = self.send(
                "GET", f"{self.path}/saves/{chosen['id']}/export", pin=self.server.pin
            )
            if status == 200 and exported.get("actions"):
                exported["actions"] = exported["actions"][::-1]  # most likely illegal now
                self.send("POST", f"{self.path}/saves", exported, pin=self.server.pin)
        else:
            self.send("DELETE", f"{self.path}/game", pin=self.server.pin)

    # ----------------------------------------------------------------- the seats

    @precondition(lambda self: self.server.room.session is not None)
    @rule(pick=st.integers(0, 1000), repeat=st.booleans(), stale=st.booleans())
    def a_legal_action(self, pick: int, repeat: bool, stale: bool) -> None:
        session = self.server.room.session
        assert session is not None
        if session.over or not session.active_seats:
            return
        seat = session.active_seats[0]
        if seat not in self.tokens:
            self.claim(seat, seat)
            if seat not in self.tokens:
                return
        status, legal = self.send("GET", f"{self.path}/seats/{seat}/legal", token=self.tokens[seat])
        if status != 200 or not legal["actions"]:
            return
        action = legal["actions"][pick % len(legal["actions"])]
        revision = legal["revision"] - 1 if stale else legal["revision"]
        key = {"Idempotency-Key": f"k{pick}-{self.server.room.revision}"}
        body = {"action": action, "revision": revision}
        path = f"{self.path}/seats/{seat}/actions"
        first = self.send("POST", path, body, token=self.tokens[seat], headers=key)
        if stale:
            assert first[0] == 409 and first[1]["error"] == "stale"
            return
        assert first[0] == 200, first
        if repeat:
            before = self.fingerprint()
            assert self.send("POST", path, body, token=self.tokens[seat], headers=key) == first
            assert self.fingerprint() == before

    @rule(
        seat=st.sampled_from(SEATS),
        action=ANY_ACTION,
        which=st.sampled_from(["right", "wrong", "none"]),
        revision=st.none() | st.integers(-1, 10**6) | st.text(max_size=3),
    )
    def any_action(self, seat: str, action: Any, which: str, revision: Any) -> None:
        body = {"action": action, "revision": revision}
        self.send(
            "POST", f"{self.path}/seats/{seat}/actions", body, token=self.token_for(seat, which)
        )

    @rule(seat=st.sampled_from(SEATS), which=st.sampled_from(["right", "wrong", "none"]))
    def undo(self, seat: str, which: str) -> None:
        self.send("POST", f"{self.path}/seats/{seat}/undo", {}, token=self.token_for(seat, which))

    @rule(seat=st.sampled_from(SEATS), action=ANY_ACTION)
    def preview(self, seat: str, action: Any) -> None:
        self.send(
            "POST",
            f"{self.path}/seats/{seat}/preview",
            {"action": action},
            token=self.tokens.get(seat),
        )

    @rule(button=st.sampled_from([*TOWERS, "zz", "x" * 40]), right_pin=st.booleans())
    def press(self, button: str, right_pin: bool) -> None:
        pin = self.server.pin if right_pin else None
        self.send("POST", f"{self.path}/buttons/{button}", pin=pin)

    @rule(
        where=st.sampled_from(
            [
                "/seats/south/actions",
                "/seats/north/undo",
                "/game",
                "/seats/west",
                "/saves",
                "/replay",
                "/replay/step",
                "/seats/south/preview",
                "/pin",
            ]
        ),
        raw=RAW_BODIES,
        pin=st.booleans(),
        content_type=st.sampled_from(["application/json", "text/plain", None]),
    )
    def garbage(self, where: str, raw: bytes, pin: bool, content_type: str | None) -> None:
        headers = {"Content-Type": content_type} if content_type else {}
        self.send(
            "POST",
            f"{self.path}{where}",
            raw=raw,
            token=self.tokens.get("south"),
            pin=self.server.pin if pin else None,
            headers=headers,
        )

    # ----------------------------------------------------------------- invariants

    @invariant()
    def saved_exactly(self) -> None:
        room = self.server.room
        assert room.revision >= self.last_revision
        self.last_revision = room.revision
        if room.session is None:
            return
        assert room.record is not None
        stored, _ = room.store.load(room.record.id)
        assert stored.log() == room.session.log_json()

    @invariant()
    def public_has_no_seed(self) -> None:
        status, snapshot = call(self.server.base, "GET", self.path)
        assert status == 200
        text = json.dumps(snapshot)
        assert '"seed":' not in text, text
        assert not self.seed or str(self.seed) not in text, text


def test_the_api_never_fails_and_never_loses_anything(tmp_path: Path) -> None:
    ApiMachine.server = LiveServer(data_dir=tmp_path)
    try:
        ApiMachine.TestCase.settings = settings(
            max_examples=25,
            stateful_step_count=40,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        ApiMachine.TestCase().runTest()
        print(
            f"\nAPI state machine: {sum(ApiMachine.answers.values())} requests, {ApiMachine.answers}"
        )
        assert ApiMachine.answers.get(200, 0) > 100 and ApiMachine.answers.get(201, 0) > 20
    finally:
        ApiMachine.server.close()
