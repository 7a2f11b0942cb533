"""No leaks, in every game and mode: random play by every seat over the real HTTP
server, and for each audience (the table screen, each seat, a spectator, a stranger
with no seat) the union of everything it received checked against what it may know.

Received: every snapshot (asked for, and pushed on the event streams), every answer to
an action, a preview, a hint, an undo or a legal-action list, every refusal from
``check`` and ``actions`` when the seat names each card of the game (and one that does
not exist) in every kind of request that takes a card, the pages of the game log, and
what a stranger is answered at a seat's door. The lamps of the LED board are an
audience too.

May know (leak_knowledge.py, from the full state): a seat, its own hand and whatever
lay in public (a card once seen stays known); the table, what lay in public. Nobody
receives the seed or the generator's state. Where a preview would show a hidden card's
shape (Long Distance), no page but the previewing phone, and no lamp, shows it.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from game_tables import LeakTable, leak_tables
from leak_knowledge import UNKNOWN_CARD, Knowledge, knowledge_for
from live_server import LiveServer
from seed_secrets import secret_texts
from seed_tiers import fast_and_slow, first_of_each
from test_web_board import RecordingBoard
from web_client import EventStream, call

from engine.core.interface import JSON, Session
from engine.core.rng import Rng

SEED = 9876543210123
PROBE_EVERY = 20  # steps between two rounds of probes
FORBIDDEN_KEYS = re.compile(r'"(seed|rng|bag|fault_deck|undo_floor|set_aside|history)":')


# every game's own leak tables, or one per mode at its most seats (game_tables.py)
TABLES = leak_tables()
# the fast tier plays the first table of each game, the full tier every table (each mode)
FAST_TABLES = first_of_each(TABLES, lambda table: table.game)


@dataclass
class Audience:
    name: str
    seat: str | None  # whose knowledge it has (None: the table's)
    token: str | None = None
    stream: EventStream | None = None
    known: set[str] = field(default_factory=set)  # tokens it rightly has seen
    secret: set[str] = field(default_factory=set)  # tokens ever hidden from it


class Watch:
    """Everything the audiences receive, checked as it arrives."""

    def __init__(self, server: LiveServer, table: LeakTable, knowledge: Knowledge) -> None:
        self.server = server
        self.table = table
        self.knowledge = knowledge
        self.audiences: list[Audience] = []
        self.received = 0
        self.refusals = 0
        self.learned_at = -1  # the table's revision when ``learn`` last ran
        # may a seat's placement preview be shown to every page and the board? Not where
        # teammates may not see each other's hands
        self.shared_previews = self.session.previews_shared()

    @property
    def session(self) -> Session:
        session = self.server.room.session
        assert session is not None
        return session

    def learn(self) -> None:
        """What each audience may know now, from the full state and its own view."""
        session, knowledge = self.session, self.knowledge
        self.learned_at = self.server.room.revision
        tokens = knowledge.tokens(session)
        for audience in self.audiences:
            hidden = knowledge.hidden(session, audience.seat)
            audience.secret |= hidden
            # what its own view shows it is its to know (the views are the allow-list)
            view = json.dumps(session.view(audience.seat))
            audience.known |= (tokens - hidden) | _named(hidden, view)

    def check(self, audience: Audience, text: str, mentioned: str = "", own: bool = False) -> None:
        """``text`` was just received by ``audience``; ``mentioned``: its own request;
        ``own``: an answer listing the seat's own legal actions or plan."""
        self.received += 1
        if self.server.room.revision != self.learned_at:
            self.learn()  # an answer tells of the game as the action left it
        seed_and_rng = secret_texts(*_secrets(self.session))
        for value in seed_and_rng:
            assert value not in text, (audience.name, "seed or generator", text[:300])
        forbidden = FORBIDDEN_KEYS.search(text)
        assert forbidden is None, (audience.name, forbidden, text[:300])
        if not own:  # a seat's legal actions and hints are its own
            assert '"actions":' not in text, (audience.name, text[:300])
        unknown = audience.secret - audience.known
        leaked = _named(unknown - _named(unknown, mentioned), text)
        assert not leaked, (audience.name, sorted(leaked), text[:600])
        if not self.shared_previews:
            self._no_foreign_preview(audience, text)

    def _no_foreign_preview(self, audience: Audience, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            return
        preview = data.get("preview") if isinstance(data, dict) else None
        if isinstance(preview, dict) and preview.get("preview"):
            assert preview.get("seat") == audience.seat, (audience.name, "preview", preview)

    def answer(
        self, audience: Audience, got: tuple[int, Any], sent: Any = None, own: bool = False
    ) -> Any:
        status, body = got
        assert status < 500, body
        self.check(audience, json.dumps(body), json.dumps(sent) if sent is not None else "", own)
        return body

    def look(self, ask: bool = True) -> None:
        """Every audience reads its stream up to now and (``ask``) asks for a fresh
        snapshot."""
        self.learn()
        room, base, code = self.server.room, self.server.base, self.server.code
        streamed = {
            a.name: list(_new_texts(a.stream, room.seq)) for a in self.audiences if a.stream
        }
        for text in streamed.get("table", []):
            revealed = self.knowledge.revealed(json.loads(text).get("events") or [])
            for audience in self.audiences:
                audience.known |= revealed
        for audience in self.audiences:
            for text in streamed.get(audience.name, []):
                self.check(audience, text)
            if not ask:
                continue
            query = f"?seat={audience.seat}" if audience.seat and audience.token else ""
            path = f"/api/rooms/{code}{query}"
            self.answer(audience, call(base, "GET", path, token=audience.token))

    def log_pages(self) -> None:
        base, code = self.server.base, self.server.code
        for audience in self.audiences:
            query = f"?seat={audience.seat}&limit=200" if audience.token else "?limit=200"
            self.answer(
                audience, call(base, "GET", f"/api/rooms/{code}/log{query}", token=audience.token)
            )

    def probe(self, audience: Audience, round_: int, every_kind: bool = False) -> None:
        """``audience``'s seat names every card (and one that does not exist) in a
        request that takes one, a different kind of request each round, or in every
        kind (``every_kind``) for the cards hidden from it: ``check`` for all, and
        ``actions`` for a share of the refused ones."""
        assert audience.seat is not None
        base, code = self.server.base, self.server.code
        seat = audience.seat
        hidden = self.knowledge.hidden(self.session, seat) | {UNKNOWN_CARD}
        for index, card in enumerate([*self.knowledge.card_ids(self.session), UNKNOWN_CARD]):
            probes = self.knowledge.probes(self.session, seat, card)
            if not (every_kind and card in hidden):
                probes = probes[(index + round_) % len(probes) :][:1] if probes else []
            for number, action in enumerate(probes):
                sent = {"action": action}
                path = f"/api/rooms/{code}/seats/{seat}/check"
                told = self.answer(
                    audience, call(base, "POST", path, sent, token=audience.token), sent
                )
                if told.get("allowed") is not False:
                    continue
                self.refusals += 1
                if (index + number + round_) % 4 == 0:
                    path = f"/api/rooms/{code}/seats/{seat}/actions"
                    status, body = call(base, "POST", path, sent, token=audience.token)
                    assert 400 <= status < 500, (action, body)
                    self.answer(audience, (status, body), sent)

    def stranger_knocks(self, stranger: Audience, seat: str, action: JSON) -> None:
        """A page with no seat tries a seat's doors, with no token and a made-up one."""
        base, code = self.server.base, self.server.code
        for token in (None, "not-a-token"):
            doors = [
                ("GET", f"/api/rooms/{code}?seat={seat}", None),
                ("GET", f"/api/rooms/{code}/seats/{seat}/legal", None),
                ("GET", f"/api/rooms/{code}/log?seat={seat}", None),
                ("POST", f"/api/rooms/{code}/seats/{seat}/check", {"action": action}),
                ("POST", f"/api/rooms/{code}/seats/{seat}/actions", {"action": action}),
                ("POST", f"/api/rooms/{code}/seats/{seat}/undo", {}),
                ("POST", f"/api/rooms/{code}/seats/{seat}/preview", {"action": action}),
                ("POST", f"/api/rooms/{code}/seats/{seat}/hint", {}),
            ]
            for method, path, body in doors:
                status, answer = call(base, method, path, body, token=token)
                if method == "POST":
                    assert status in (401, 403), (path, status, answer)
                self.answer(stranger, (status, answer), body)


def _named(tokens: set[str], text: str) -> set[str]:
    """Which of ``tokens`` ``text`` names, each as a whole word (``v1`` is not in ``v12``)."""
    if not tokens or not text:
        return set()
    return set(_pattern(frozenset(tokens)).findall(text))


@functools.lru_cache(maxsize=256)
def _pattern(tokens: frozenset[str]) -> re.Pattern[str]:
    words = "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))
    # a name typed for one card may be another card's name and a number ("Mrs Cake" and
    # "Mrs Cake 70"): the longer one is another word
    return re.compile(rf"(?<![\w-])(?:{words})(?![\w-]| \d)")


def _secrets(session: Session) -> tuple[int, Any]:
    """The seed and generator of the game the session holds, whatever it calls it."""
    for game in vars(session).values():
        state = getattr(game, "state", None)
        if hasattr(state, "seed") and hasattr(state, "rng"):
            return state.seed, state.rng  # type: ignore[union-attr]
    raise AssertionError(f"no game state in {session!r}")


def _new_texts(stream: EventStream | None, seq: int) -> Iterator[str]:
    while stream is not None and stream.seq < seq:
        yield json.dumps(stream.next_state())


def _claim_seats(watch: Watch, session: Session) -> None:
    base, code = watch.server.base, watch.server.code
    for info in session.seats:
        status, claimed = call(base, "POST", f"/api/rooms/{code}/seats/{info.id}", {"name": ""})
        assert status == 200, claimed
        token = claimed["token"]
        query = f"?seat={info.id}&token={token}"
        stream = EventStream(base, f"/api/rooms/{code}/stream{query}")
        watch.audiences.append(Audience(info.id, info.id, token, stream))


@pytest.mark.parametrize(
    "table", fast_and_slow(TABLES, FAST_TABLES, lambda t: f"{t.game}-{json.dumps(t.options)}")
)
def test_no_audience_receives_what_is_hidden_from_it(table: LeakTable) -> None:
    board = RecordingBoard()
    server = LiveServer(board=board)
    try:
        play_and_watch(server, board, table)
    finally:
        server.close()


def play_and_watch(server: LiveServer, board: RecordingBoard, table: LeakTable) -> None:
    base, code, pin = server.base, server.code, server.pin
    body = {"game": table.game, "options": table.options, "seed": SEED}
    status, answer = call(base, "POST", f"/api/rooms/{code}/game", body, pin=pin)
    assert status == 201, answer
    status, answer = call(base, "POST", f"/api/rooms/{code}/settings", {"hints": True}, pin=pin)
    assert status == 200, answer
    rng = Rng(SEED)
    knowledge = knowledge_for(table.game, Rng(SEED + 1))
    watch = Watch(server, table, knowledge)
    stream = f"/api/rooms/{code}/stream"
    table_screen = Audience("table", None, stream=EventStream(base, stream))
    spectator = Audience("spectator", None, stream=EventStream(base, stream))
    stranger = Audience("stranger", None)
    watch.audiences += [table_screen, spectator, stranger]
    session = watch.session
    _claim_seats(watch, session)
    by_seat = {a.seat: a for a in watch.audiences if a.token}
    watch.look()
    undone = previews = hints = 0
    for step in range(table.steps):
        session = watch.session  # a failed save rebuilds it
        if session.over:
            break
        chosen = knowledge.choose(session, rng)
        if chosen is None:
            continue
        seat, action = chosen
        me = by_seat[seat]
        root = f"/api/rooms/{code}/seats/{seat}"
        if step % 3 == 1:
            sent = {"action": action}
            answer = watch.answer(
                me, call(base, "POST", f"{root}/preview", sent, token=me.token), sent
            )
            previews += answer.get("frame") is not None
            if step % 6 == 1:
                got = call(base, "POST", f"{root}/hint", {}, token=me.token)
                hints += "hint" in watch.answer(me, got, own=True)
            watch.look()
        if step % 4 == 0:
            watch.answer(me, call(base, "GET", f"{root}/legal", token=me.token), own=True)
        if step % PROBE_EVERY == PROBE_EVERY // 2:
            for audience in by_seat.values():
                watch.probe(audience, step // PROBE_EVERY)
            watch.stranger_knocks(stranger, seat, action)
        sent = {"action": action}
        watch.answer(me, call(base, "POST", f"{root}/actions", sent, token=me.token), sent)
        watch.look(ask=step % 4 == 0)
        if rng.below(3) == 0 and session.can_undo(seat):
            watch.answer(me, call(base, "POST", f"{root}/undo", {}, token=me.token))
            undone += 1
            watch.look(ask=False)
        if step % 15 == 14:
            watch.log_pages()
    for audience in by_seat.values():
        # the seats the game waits for get past the turn checks to the card's own
        watch.probe(audience, table.steps, every_kind=audience.seat in watch.session.active_seats)
    watch.log_pages()
    for audience in watch.audiences:
        if audience.stream is not None:
            audience.stream.close()
    if not watch.shared_previews:
        assert not any(frame.preview for frame in board.frames), "the board showed a preview"
        assert hints == 0, "a hint where the rules allow none"
    elif table.game == "clacks":
        assert hints > 0, "no hint was asked for in the seat's turn"
    assert watch.received > 10 * len(watch.audiences)
    if knowledge.card_ids(watch.session):
        assert watch.refusals > 0, "no probe was refused"
    print(
        f"{table.game} {table.options}: {watch.received} received, {watch.refusals} probes "
        f"refused, {undone} undone, {previews} previews, {hints} hints"
    )
