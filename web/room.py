"""One table: the game in progress on it, who holds which seat, and what every open page
should see next.

All of a room's state changes under one lock, and every change ends in ``_publish``, which
bumps ``seq`` and wakes the event streams. Streams never read the session themselves:
they ask ``snapshot(seat)`` for the view that seat may see, built once per change and per
seat and then shared by every connection of that seat (the table and all spectators share
one). Hidden information therefore has exactly one way out, ``Session.view(seat)``.

The game itself is reached only through ``engine.core.interface``; nothing here knows
the rules of any game. An attached ExchangeBoard (the LEDs and tower buttons, or their
simulator) is driven through the firmware's ``Companion``: every change is shown on it,
and its presses are played by ``SessionButtons`` under this room's lock.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import EngineError, IllegalAction
from engine.core.interface import JSON, LampFrame, Session, game_module, game_modules
from firmware.companion import Companion, SessionButtons
from web.errors import ApiError

log = logging.getLogger("clacks.web")

LOG_KEPT = 500  # public events kept per game for pages that (re)connect
LOG_SENT_ON_CONNECT = 60
IDEMPOTENCY_KEPT = 256
NAME_MAX = 24
Clock = Callable[[], float]


def _lamp_names(mask: int) -> list[int]:
    return [i for i in range(16) if mask >> i & 1]


def frame_json(frame: LampFrame) -> JSON:
    """A lamp frame as lamp indices (bit ``row * 4 + col``), the same for every game."""
    return {
        "lit": _lamp_names(frame.lit),
        "preview": _lamp_names(frame.preview),
        "accent": _lamp_names(frame.accent),
    }


@dataclass
class SeatClaim:
    token: str
    name: str
    connections: int = 0


@dataclass
class Preview:
    seat: str
    frame: LampFrame


@dataclass
class Notice:
    """A refusal worth showing on the table screen (a button press that did nothing)."""

    seq: int
    seat: str | None
    error: JSON


@dataclass
class Subscriber:
    seat: str | None  # the seat asked for; it sees that seat's view only while it holds it
    token: str | None = None
    last_seq: int = 0
    alive: bool = True


@dataclass
class _Cache:
    seq: int = -1
    snapshots: dict[tuple[str | None, int], str] = field(default_factory=dict)


class Room:
    """A table with a short code: its game, its seats and its subscribers."""

    def __init__(
        self,
        code: str,
        clock: Clock = time.time,
        language: str = "en",
        on_change: Callable[[Room], None] | None = None,
    ) -> None:
        self.code = code
        self.clock = clock
        self.language = language
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.session: Session | None = None
        self.game_name: str | None = None
        self.game_number = 0
        self.revision = 0  # bumped by every change of the game itself
        self.seq = 0  # bumped by every change any page should see
        self.claims: dict[str, SeatClaim] = {}
        self.names: dict[str, str] = {}  # names typed in the lobby, per seat
        self.log: deque[tuple[int, JSON]] = deque(maxlen=LOG_KEPT)
        self.preview: Preview | None = None
        self.notice: Notice | None = None
        self.spectators = 0
        self.board: Any = None  # an ExchangeBoard, when one is attached
        self.companion: Companion | None = None  # keeps the board in step with the game
        self.closed = False
        self._idempotent: OrderedDict[tuple[str, str], JSON] = OrderedDict()
        self._cache = _Cache()
        self._on_change = on_change

    # ----------------------------------------------------------------- setup

    def new_game(
        self,
        game: str,
        options: JSON,
        seed: int | None = None,
        names: dict[str, str] | None = None,
        language: str | None = None,
    ) -> JSON:
        """Start a new game on this table; seats whose label the new game also has keep
        their holders."""
        if game not in game_modules():
            raise ApiError(404, "unknown_game", f"unknown game {game!r}", game=game)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        with self.lock:
            try:
                session = game_module(game).new(options, seed, self.clock())
            except IllegalAction as exc:
                raise ApiError.from_illegal(exc, status=400) from None
            self.session = session
            self.game_name = game
            self.game_number += 1
            seat_ids = [s.id for s in session.seats]
            self.claims = {s: c for s, c in self.claims.items() if s in seat_ids}
            if names is not None:
                self.names = {s: _clean_name(n) for s, n in names.items() if s in seat_ids and n}
            if language is not None:
                self.language = language
            self.log.clear()
            self.preview = None
            self.notice = None
            self._idempotent.clear()
            self.revision += 1
            self._publish([{"kind": "game_started", "seat": None, "seats": seat_ids}])
            return {"revision": self.revision, "game": game}

    def attach_board(self, board: Any) -> None:
        """Drive an ExchangeBoard from this room: show every frame, play its buttons in
        the game in progress (attract mode while no game is in play)."""
        with self.lock:
            self.board = board
            self.companion = Companion(board)
            self.companion.set_press_handler(
                SessionButtons(
                    self.companion,
                    lambda: self.session,
                    clock=self.clock,
                    lock=self.lock,
                    applied=lambda session, events: self._changed(events),
                    refused=self._press_refused,
                )
            )
            self._show_on_board()

    # ----------------------------------------------------------------- seats

    def require_session(self) -> Session:
        if self.session is None:
            raise ApiError(409, "no_game", "No game is running on this table yet")
        return self.session

    def _require_seat(self, seat: str) -> None:
        session = self.require_session()
        if seat not in [s.id for s in session.seats]:
            raise ApiError(
                404,
                "unknown_seat",
                f"This game has no seat {seat!r}",
                seat=seat,
            )

    def claim(self, seat: str, name: str | None, token: str | None) -> JSON:
        """Take a free seat (or rename your own); returns the seat's token."""
        with self.lock:
            self._require_seat(seat)
            held = self.claims.get(seat)
            if held is not None and not (token and secrets.compare_digest(held.token, token)):
                raise ApiError(
                    409,
                    "seat_taken",
                    f"{held.name or seat} already sits at {seat}",
                    seat=seat,
                    name=held.name,
                )
            clean = _clean_name(name or "") or self.names.get(seat, "")
            if held is None:
                held = SeatClaim(secrets.token_urlsafe(18), clean)
                self.claims[seat] = held
            else:
                held.name = clean
            self._publish([])
            return {"seat": seat, "token": held.token, "name": held.name}

    def release(self, seat: str, token: str | None) -> None:
        with self.lock:
            self.authorize(seat, token)
            del self.claims[seat]
            self._publish([])

    def authorize(self, seat: str, token: str | None) -> None:
        """Check that ``token`` holds ``seat``; the error says what to do about it."""
        self._require_seat(seat)
        held = self.claims.get(seat)
        if held is None:
            raise ApiError(
                403, "seat_not_claimed", f"Nobody holds {seat}: join it first", seat=seat
            )
        if not token or not secrets.compare_digest(held.token, token):
            raise ApiError(403, "bad_token", f"This device does not hold {seat}", seat=seat)

    def seat_for_token(self, seat: str | None, token: str | None) -> str | None:
        """The seat a stream or view request may see: its own with the right token,
        otherwise the public view."""
        if seat is None:
            return None
        with self.lock:
            self.authorize(seat, token)
        return seat

    # ----------------------------------------------------------------- playing

    def act(
        self,
        seat: str,
        token: str | None,
        action: Any,
        revision: int | None = None,
        key: str | None = None,
    ) -> JSON:
        with self.lock:
            self.authorize(seat, token)
            if key is not None and (seat, key) in self._idempotent:
                return self._idempotent[(seat, key)]
            self._check_revision(revision)
            result = self._apply(seat, action)
            if key is not None:
                self._idempotent[(seat, key)] = result
                while len(self._idempotent) > IDEMPOTENCY_KEPT:
                    self._idempotent.popitem(last=False)
            return result

    def undo(self, seat: str, token: str | None, revision: int | None = None) -> JSON:
        with self.lock:
            self.authorize(seat, token)
            self._check_revision(revision)
            session = self.require_session()
            try:
                events = session.undo(seat)
            except IllegalAction as exc:
                raise ApiError.from_illegal(exc) from None
            return self._after_change(events)

    def _check_revision(self, revision: int | None) -> None:
        if revision is not None and revision != self.revision:
            raise ApiError(
                409,
                "stale",
                "The game has changed since your screen was drawn; look again and retry",
                revision=self.revision,
            )

    def _apply(self, seat: str | None, action: Any) -> JSON:
        session = self.require_session()
        try:
            events = session.apply(seat, action, self.clock())
        except IllegalAction as exc:
            raise ApiError.from_illegal(exc) from None
        except (EngineError, ValueError, TypeError) as exc:
            # the game could not read the action at all; the state is unchanged
            log.warning("action %r from %s not understood: %s", action, seat, exc)
            raise ApiError(400, "bad_action", f"This action cannot be read: {exc}") from None
        return self._after_change(events)

    def _after_change(self, events: list[JSON]) -> JSON:
        assert self.session is not None
        if self.companion is not None:
            self.companion.game_changed(self.session, events)
        return self._changed(events)

    def _changed(self, events: list[JSON]) -> JSON:
        """The game changed (the board has been told): tell every page."""
        self.preview = None
        self.revision += 1
        self._publish(events)
        return {"revision": self.revision, "events": events}

    def show_preview(self, seat: str, token: str | None, action: Any) -> JSON:
        """Show the lamps ``action`` would flip, on every screen and the board."""
        with self.lock:
            self.authorize(seat, token)
            session = self.require_session()
            try:
                frame = session.preview(seat, action)
            except (ValueError, TypeError):
                frame = None
            self.preview = Preview(seat, frame) if frame is not None else None
            self._publish([])
            return {"frame": frame_json(frame) if frame is not None else None}

    def clear_preview(self, seat: str, token: str | None) -> None:
        with self.lock:
            self.authorize(seat, token)
            if self.preview is not None and self.preview.seat == seat:
                self.preview = None
                self._publish([])

    def press(self, button: str) -> JSON:
        """A tower button pressed on the table screen: through the board when one is
        attached (its debounce, the same press handler as the physical button), else
        straight on."""
        if self.board is None:
            return self.handle_press(button)
        with self.lock:  # the press handler takes it again in this thread
            self.require_session()
            notice_before = self.notice
            try:
                self.board.press(button)
            except ValueError as exc:  # not one of the board's buttons
                raise ApiError(404, "unknown_button", str(exc), button=button) from None
            if self.notice is not None and self.notice is not notice_before:
                error = self.notice.error
                refusal = ApiError(422, error["rule"], error["message"], **error["params"])
                refusal.rule = error["rule"]
                raise refusal
            return {"revision": self.revision}

    def _press_refused(self, session: Session, exc: IllegalAction) -> None:
        """A press the game refused (the board has flashed): the table screen says why."""
        self.notice = Notice(self.seq + 1, None, _illegal_json(exc))
        self._publish([])

    def handle_press(self, button: str) -> JSON:
        """A tower button on a table without a board."""
        with self.lock:
            session = self.require_session()
            try:
                meaning = session.button_action(button, self.clock())
                if meaning is None:
                    return {"revision": self.revision, "events": []}
                seat, action = meaning
                events = session.apply(seat, action, self.clock())
            except IllegalAction as exc:
                self._press_refused(session, exc)
                raise ApiError.from_illegal(exc) from None
            except ValueError as exc:
                raise ApiError(404, "unknown_button", str(exc), button=button) from None
            return self._after_change(events)

    def tick(self) -> bool:
        """Apply what the game's clock demands now; True if something happened."""
        with self.lock:
            if self.session is None:
                return False
            now = self.clock()
            action = self.session.clock_action(now)
            if action is None:
                return False
            try:
                events = self.session.apply(None, action, now)
            except IllegalAction:
                return False
            self._after_change(events)
            return True

    def deadline(self) -> float | None:
        with self.lock:
            return self.session.deadline() if self.session is not None else None

    # ----------------------------------------------------------------- publishing

    def _publish(self, events: list[JSON]) -> None:
        self.seq += 1
        for event in events:
            self.log.append((self.seq, event))
        self._show_on_board()
        self.changed.notify_all()
        if self._on_change is not None:
            self._on_change(self)

    def _show_on_board(self) -> None:
        if self.companion is None:
            return
        if self.session is None or self.session.over:
            self.companion.idle(True)  # no game in play: the convention attract mode
            return
        frame = self.session.lamps()
        if self.preview is not None:
            frame = LampFrame(frame.lit, self.preview.frame.preview, frame.accent)
        self.companion.idle(False)
        self.companion.show(frame)

    def board_json(self) -> JSON:
        """The board's lamps as its LEDs show them now (animations included), for the
        table screen's picture of a simulated board."""
        if self.board is None:
            raise ApiError(404, "no_board", "No exchange board is attached to this table")
        return {
            "pixels": [list(p) for p in self.board.pixels()],
            "screen": [list(p) for p in self.board.screen_pixels()],
            "leds": self.board.status()["leds"]["backend"],
        }

    def room_json(self) -> JSON:
        seats = []
        if self.session is not None:
            for info in self.session.seats:
                claim = self.claims.get(info.id)
                seats.append(
                    {
                        "id": info.id,
                        "colour": info.colour,
                        "name": claim.name if claim else self.names.get(info.id, ""),
                        "claimed": claim is not None,
                        "connected": bool(claim and claim.connections),
                    }
                )
        return {
            "code": self.code,
            "language": self.language,
            "game": self.game_name,
            "game_number": self.game_number,
            "seats": seats,
            "spectators": self.spectators,
            "hardware": self.board.status() if self.board is not None else None,
        }

    def snapshot(self, seat: str | None, since: int | None = None) -> str:
        """What ``seat`` (None: the table and spectators) may see now, as JSON text, with
        the public events after ``since`` (None: the recent log, for a fresh page)."""
        with self.lock:
            if self._cache.seq != self.seq:
                self._cache = _Cache(self.seq)
            since_key = -1 if since is None else since
            key = (seat, since_key)
            text = self._cache.snapshots.get(key)
            if text is None:
                text = json.dumps(self._snapshot(seat, since), separators=(",", ":"))
                self._cache.snapshots[key] = text
            # the time is added fresh: a cached snapshot may be sent much later
            return f'{text[:-1]},"server_time":{self.clock():.3f}}}'

    def _snapshot(self, seat: str | None, since: int | None) -> JSON:
        session = self.session
        if since is None:
            events = [e for _, e in list(self.log)[-LOG_SENT_ON_CONNECT:]]
        else:
            events = [e for s, e in self.log if s > since]
        preview = None
        if self.preview is not None:
            preview = {"seat": self.preview.seat, **frame_json(self.preview.frame)}
        notice = None
        if self.notice is not None and (since is None or self.notice.seq > since):
            notice = {"seat": self.notice.seat, "error": self.notice.error}
        out: JSON = {
            "seq": self.seq,
            "revision": self.revision,
            "room": self.room_json(),
            "seat": seat,
            "events": events,
            "fresh": since is None,
            "preview": preview,
            "notice": notice,
            "view": None,
        }
        if session is not None:
            out.update(
                {
                    "view": session.view(seat),
                    "active": session.active_seats,
                    "over": session.over,
                    "result": session.result(),
                    "deadline": session.deadline(),
                    "lamps": frame_json(session.lamps()),
                    "can_undo": session.can_undo(seat) if seat is not None else False,
                }
            )
        return out

    # ----------------------------------------------------------------- subscribers

    def subscribe(self, seat: str | None, token: str | None = None) -> Subscriber:
        with self.lock:
            subscriber = Subscriber(seat, token)
            if seat is None:
                self.spectators += 1
            elif seat in self.claims:
                self.claims[seat].connections += 1
                self._publish([])
            return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            if not subscriber.alive:
                return
            subscriber.alive = False
            if subscriber.seat is None:
                self.spectators -= 1
            elif subscriber.seat in self.claims:
                claim = self.claims[subscriber.seat]
                claim.connections = max(0, claim.connections - 1)
                self._publish([])

    def first(self, subscriber: Subscriber) -> str:
        """The snapshot a newly opened stream starts with, recent log included."""
        with self.lock:
            subscriber.last_seq = self.seq
            return self.snapshot(self._visible_seat(subscriber), None)

    def wait(self, subscriber: Subscriber, timeout: float) -> str | None:
        """The next snapshot for ``subscriber``, or None after ``timeout`` seconds of quiet."""
        with self.lock:
            if subscriber.last_seq >= self.seq and not self.closed:
                self.changed.wait(timeout)
            if self.closed or subscriber.last_seq >= self.seq:
                return None
            since = subscriber.last_seq
            subscriber.last_seq = self.seq
            return self.snapshot(self._visible_seat(subscriber), since)

    def _visible_seat(self, subscriber: Subscriber) -> str | None:
        """The subscriber's seat while its token still holds it (a new game or a release
        may take it away), else None: the public view."""
        seat, token = subscriber.seat, subscriber.token
        if seat is None or token is None:
            return None
        claim = self.claims.get(seat)
        if claim is None or not secrets.compare_digest(claim.token, token):
            return None
        return seat

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.changed.notify_all()


def _clean_name(name: object) -> str:
    if not isinstance(name, str):
        return ""
    printable = "".join(ch for ch in name if ch.isprintable()).strip()
    return printable[:NAME_MAX]


def _illegal_json(exc: IllegalAction) -> JSON:
    return {"rule": exc.rule, "message": exc.message, "params": _jsonable(exc.params)}


def _jsonable(params: dict[str, object]) -> JSON:
    plain: JSON = json.loads(json.dumps(params, default=str))
    return plain
