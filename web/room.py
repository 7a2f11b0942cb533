"""One table: the game in progress on it, who holds which seat, and what every open page
should see next.

All of a room's state changes under one lock, and every change ends in ``_publish``, which
bumps ``seq`` and wakes the event streams. Streams never read the session themselves:
they ask ``snapshot(seat)`` for the view that seat may see, built once per change and per
seat and then shared by every connection of that seat (the table and all spectators share
one). Hidden information therefore has exactly one way out, ``Session.view(seat)``.

The game itself is reached only through ``engine.core.interface``; nothing here knows
the rules of any game. Seats may be played by bots (``bots``: seat -> level), whose
actions ``web.bots.BotDriver`` applies through the same change path as people's. An attached ExchangeBoard (the LEDs and tower buttons, or their
simulator) is driven through the firmware's ``Companion``: every change is shown on it,
and its presses are played by ``SessionButtons`` under this room's lock.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import EngineError, IllegalAction
from engine.core.interface import JSON, LampFrame, Session, game_module, game_modules
from engine.core.rng import new_seed
from firmware.companion import Companion, SessionButtons
from web.bots import BotDriver, BotTurn
from web.errors import ApiError
from web.replay import ReplayViewer
from web.security import new_pin, new_token, token_digest, token_matches
from web.store import DamagedGame, GameRecord, SavedRoom, Store

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
    digest: str  # of the seat's token; the token itself is only on the device holding it
    name: str
    connections: int = 0


@dataclass
class Preview:
    seat: str
    frame: LampFrame
    hint: bool = False  # the lamps of a hint the seat asked for, not of its own placement


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
    # whole event-stream messages, encoded once per audience: (time built, bytes)
    frames: dict[tuple[str | None, int], tuple[float, bytes]] = field(default_factory=dict)


FRAME_FRESH_SECONDS = 0.25  # a message built longer ago gets its server_time again


class Room:
    """A table with a short code: its game, its seats and its subscribers.

    Every change of a game is saved (``store``) before it is published: ``_after_change``
    commits the game's log, and only then do answers, streams and the lamps learn of it.
    """

    def __init__(
        self,
        code: str,
        clock: Clock = time.time,
        language: str = "en",
        on_change: Callable[[Room], None] | None = None,
        store: Store | None = None,
        pin: str | None = None,
    ) -> None:
        self.code = code
        self.pin = pin or new_pin()
        self.store = store or Store(None)
        self.record: GameRecord | None = None  # the stored log of the game on the table
        self.replay: ReplayViewer | None = None
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
        self.bots: dict[str, str] = {}  # seats bots play, with their level
        self.hints = False  # the table's setting: phones may ask for hints
        self.bot_driver = BotDriver(self)
        self._bot_passed: set[str] = set()  # bots that had nothing to do at this revision
        self.changed_at = time.monotonic()  # when the game last changed, for the bots' pause
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

    @classmethod
    def restored(
        cls,
        saved: SavedRoom,
        store: Store,
        clock: Clock = time.time,
        on_change: Callable[[Room], None] | None = None,
    ) -> Room:
        """A table as it was saved, with its game (unless that game cannot be replayed:
        then it is set aside in the store and the table starts without one)."""
        room = cls(saved.code, clock, saved.language, on_change, store, saved.pin)
        room.names = dict(saved.names)
        room.game_number = saved.game_number
        room.revision = saved.revision
        room.seq = saved.revision
        room.claims = {s: SeatClaim(c.digest, c.name) for s, c in saved.seats.items()}
        room.bots = dict(saved.bots)
        room.hints = saved.hints
        if saved.game_id is not None:
            try:
                room._take_saved(saved.game_id)
            except DamagedGame as exc:
                log.error("table %s: saved game %s set aside: %s", room.code, saved.game_id, exc)
                store.mark_damaged(saved.game_id, str(exc))
        return room

    def _load_saved(self, game_id: int) -> tuple[Session, GameRecord]:
        record, _names = self.store.load(game_id)
        try:
            session = game_module(record.game).replay(record.log())
        except Exception as exc:  # any failure to rebuild it means the rows are bad
            raise DamagedGame(f"it cannot be replayed: {exc}") from None
        return session, record

    def _take_saved(self, game_id: int) -> None:
        session, record = self._load_saved(game_id)
        self.session, self.record, self.game_name = session, record, record.game
        self._idempotent.clear()
        for seat, key, answer in self.store.answers(game_id):
            self._idempotent[(seat, key)] = answer

    # ----------------------------------------------------------------- setup

    def new_game(
        self,
        game: str,
        options: JSON,
        seed: int | None = None,
        names: dict[str, str] | None = None,
        language: str | None = None,
        bots: dict[str, str] | None = None,
    ) -> JSON:
        """Start a new game on this table; seats whose label the new game also has keep
        their holders, people and bots. ``bots`` (seat -> level), when given, are
        exactly the seats bots play in the new game."""
        if game not in game_modules():
            raise ApiError(404, "unknown_game", f"unknown game {game!r}", game=game)
        if seed is None:
            seed = new_seed()  # 256 bits from the operating system (engine.core.rng)
        with self.lock:
            try:
                session = game_module(game).new(options, seed, self.clock())
            except IllegalAction as exc:
                raise ApiError.from_illegal(exc, status=400) from None
            seat_ids = [s.id for s in session.seats]
            new_bots = self._bots_for(session, seat_ids, bots)
            kept_names = dict(self.names)
            if names is not None:
                kept_names = {s: _clean_name(n) for s, n in names.items() if s in seat_ids and n}
            game_names = {s: n for s, n in kept_names.items() if s in seat_ids}
            for seat, claim in self.claims.items():
                if seat in seat_ids and claim.name:
                    game_names[seat] = claim.name
            try:
                record = self.store.start_game(
                    self.code,
                    game,
                    session.log_json(),
                    seat_ids,
                    game_names,
                    kept_names,
                    self.revision + 1,
                    self.game_number + 1,
                    language or self.language,
                    new_bots,
                )
            except (sqlite3.Error, OSError, ValueError) as exc:
                raise _not_saved(exc) from None
            self.session, self.record = session, record
            self.game_name = game
            self.game_number += 1
            self.claims = {s: c for s, c in self.claims.items() if s in seat_ids}
            self.bots = new_bots
            self.names = kept_names
            if language is not None:
                self.language = language
            self._idempotent.clear()
            self._game_changed([{"kind": "game_started", "seat": None, "seats": seat_ids}])
            return {"revision": self.revision, "game": game}

    def _bots_for(
        self, session: Session, seat_ids: list[str], asked: dict[str, str] | None
    ) -> dict[str, str]:
        """The bots of a game about to be put on the table: those ``asked`` for (checked),
        else the table's bots on seats the game also has."""
        levels = session.bot_levels()
        if asked is None:
            return {s: lv for s, lv in self.bots.items() if s in seat_ids and lv in levels}
        for seat, level in asked.items():
            if seat not in seat_ids:
                raise ApiError(
                    400, "bad_field", f"This game has no seat {seat!r} for a bot", field="bots"
                )
            self._check_level(levels, level)
            held = self.claims.get(seat)
            if held is not None:
                raise _seat_taken(seat, held.name)
        return dict(asked)

    def _game_changed(self, events: list[JSON]) -> None:
        """Another game on the table (or none): what pages remember of the last goes."""
        self.replay = None
        self.log.clear()
        self.preview = None
        self.notice = None
        self.revision += 1
        self.changed_at = time.monotonic()
        self._bot_passed.clear()
        self._publish(events)

    # ----------------------------------------------------------------- the table's own

    def end_game(self) -> JSON:
        """Take the game off the table (it stays saved: resume it from the lobby)."""
        with self.lock:
            if self.session is None and self.replay is None:
                raise ApiError(409, "no_game", "No game is running on this table")
            try:
                self.store.put_away(self.code, self.revision + 1)
            except (sqlite3.Error, OSError) as exc:
                raise _not_saved(exc) from None
            self.session = self.record = None
            self.game_name = None
            self._idempotent.clear()
            self._game_changed([])
            return {"revision": self.revision}

    def resume(self, game_id: int) -> JSON:
        """Put a saved game on this table, exactly as it was left."""
        with self.lock:
            table = self.store.table_of(game_id)
            if table is not None and table != self.code:
                raise ApiError(
                    409, "on_another_table", f"That game is on table {table}", table=table
                )
            if self.record is not None and self.record.id == game_id:
                return {"revision": self.revision, "game": self.game_name}
            try:
                session, record = self._load_saved(game_id)
            except KeyError:
                raise ApiError(404, "unknown_save", "There is no such saved game") from None
            except DamagedGame as exc:
                self.store.mark_damaged(game_id, str(exc))
                raise ApiError(409, "damaged_save", f"That saved game is damaged: {exc}") from None
            seat_ids = [s.id for s in session.seats]
            kept_bots = self._bots_for(session, seat_ids, None)
            try:
                self.store.put_on(
                    self.code,
                    game_id,
                    self.revision + 1,
                    self.game_number + 1,
                    seat_ids,
                    kept_bots,
                )
            except (sqlite3.Error, OSError) as exc:
                raise _not_saved(exc) from None
            self.session, self.record, self.game_name = session, record, record.game
            self.game_number += 1
            self.claims = {s: c for s, c in self.claims.items() if s in seat_ids}
            self.bots = kept_bots
            self._idempotent.clear()
            for seat, key, answer in self.store.answers(game_id):
                self._idempotent[(seat, key)] = answer
            self._game_changed([{"kind": "game_started", "seat": None, "seats": seat_ids}])
            self.resume_clock()
            return {"revision": self.revision, "game": record.game}

    def show_replay(self, game_id: int, step: int | None = None) -> JSON:
        """Step through a finished saved game on the table screen and the lamps; the
        game on the table, if any, is put away (saved) first."""
        with self.lock:
            try:
                record, names = self.store.load(game_id)
                viewer = ReplayViewer(record, names)
            except KeyError:
                raise ApiError(404, "unknown_save", "There is no such saved game") from None
            except DamagedGame as exc:
                raise ApiError(409, "damaged_save", f"That saved game is damaged: {exc}") from None
            except Exception as exc:  # the rows are there but do not replay
                self.store.mark_damaged(game_id, f"it cannot be replayed: {exc}")
                raise ApiError(409, "damaged_save", f"That saved game is damaged: {exc}") from None
            if not viewer.finished:
                raise ApiError(
                    409, "not_finished", "Only a finished game can be replayed; resume this one"
                )
            if self.session is not None:
                try:
                    self.store.put_away(self.code, self.revision + 1)
                except (sqlite3.Error, OSError) as exc:
                    raise _not_saved(exc) from None
                self.session = self.record = None
                self.game_name = None
            self._game_changed([])
            self.replay = viewer
            viewer.go(step if step is not None else 0)
            self._publish([])
            return self._replay_json()

    def replay_step(self, step: int) -> JSON:
        with self.lock:
            if self.replay is None:
                raise ApiError(409, "no_replay", "No replay is showing on this table")
            self.replay.go(step)
            self._publish([])
            return self._replay_json()

    def close_replay(self) -> JSON:
        with self.lock:
            if self.replay is not None:
                self.replay = None
                self._publish([])
            return {"revision": self.revision}

    def _replay_json(self) -> JSON:
        assert self.replay is not None
        return {"step": self.replay.step, "steps": self.replay.steps}

    def attach_board(self, board: Any) -> None:
        """Drive an ExchangeBoard from this room: show every frame, play its buttons in
        the game in progress (attract mode while no game is in play)."""
        with self.lock:
            self.board = board
            self.companion = Companion(board)
            self.companion.set_press_handler(
                SessionButtons(
                    self.companion,
                    # the buttons are the current player's: in a bot's turn they wait
                    lambda: None if self._bot_turn() else self.session,
                    clock=self.clock,
                    lock=self.lock,
                    kept=lambda session, events: self._save_change(events, None),
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
            if seat in self.bots:
                raise ApiError(
                    409,
                    "bot_seat",
                    f"A {self.bots[seat]} bot plays {seat}; the table can give the seat back",
                    seat=seat,
                    level=self.bots[seat],
                )
            held = self.claims.get(seat)
            if held is not None and not token_matches(held.digest, token):
                raise _seat_taken(seat, held.name)
            clean = _clean_name(name or "") or self.names.get(seat, "")
            given = token if held is not None and token else new_token()
            digest = token_digest(given)
            try:
                self.store.set_seat(self.code, seat, digest, clean)
            except (sqlite3.Error, OSError) as exc:
                raise _not_saved(exc) from None
            if held is None:
                held = SeatClaim(digest, clean)
                self.claims[seat] = held
            else:
                held.name = clean
            self._publish([])
            return {"seat": seat, "token": given, "name": held.name}

    def release(self, seat: str, token: str | None) -> None:
        with self.lock:
            self.authorize(seat, token)
            self._free(seat)

    def free_seat(self, seat: str) -> None:
        """The table frees a seat, whoever holds it (a phone that left, a stranger, a
        bot), for a person to take."""
        with self.lock:
            self._require_seat(seat)
            if seat not in self.claims and seat not in self.bots:
                raise ApiError(409, "seat_free", f"Nobody holds {seat}", seat=seat)
            self._free(seat)

    def _free(self, seat: str) -> None:
        try:
            self.store.free_seat(self.code, seat)
        except (sqlite3.Error, OSError) as exc:
            raise _not_saved(exc) from None
        self.claims.pop(seat, None)
        self.bots.pop(seat, None)
        self._publish([])

    # ----------------------------------------------------------------- bots and hints

    def bot_levels(self) -> list[str]:
        with self.lock:
            return self.session.bot_levels() if self.session is not None else []

    def _check_level(self, levels: list[str], level: object) -> str:
        if not levels:
            raise ApiError(409, "no_bots", "This game has no bots")
        if not isinstance(level, str) or level not in levels:
            raise ApiError(
                400,
                "unknown_level",
                f"There is no bot level {level!r}; the levels are {', '.join(levels)}",
                level=str(level)[:40],
                levels=", ".join(levels),
            )
        return level

    def seat_bot(self, seat: str, level: object) -> JSON:
        """A bot of ``level`` takes a free seat (or a bot's seat changes level)."""
        with self.lock:
            self._require_seat(seat)
            session = self.require_session()
            chosen = self._check_level(session.bot_levels(), level)
            held = self.claims.get(seat)
            if held is not None:
                raise _seat_taken(seat, held.name)
            try:
                self.store.set_bot(self.code, seat, chosen)
            except (sqlite3.Error, OSError) as exc:
                raise _not_saved(exc) from None
            self.bots[seat] = chosen
            self._bot_passed.discard(seat)
            self._publish([])
            return {"seat": seat, "bot": chosen}

    def next_bot_turn(self) -> BotTurn | None:
        """What a bot may do now: first each bot out of turn that has not yet been asked
        at this revision, then a bot whose seat must act. None when no bot has anything
        to do (no game, the game is over, or the turn is a person's)."""
        with self.lock:
            session = self.session
            if session is None or session.over or self.replay is not None or self.closed:
                return None
            assert self.game_name is not None
            active = session.active_seats
            waiting = [s for s in self.bots if s not in active]
            acting = [s for s in self.bots if s in active]
            for seat in waiting + acting:
                if seat in self._bot_passed:
                    continue
                return BotTurn(
                    revision=self.revision,
                    seat=seat,
                    level=self.bots[seat],
                    game=self.game_name,
                    log=session.log_json(),
                    changed_at=self.changed_at,
                    due=seat in active,
                )
            return None

    def play_bot(self, turn: BotTurn, action: JSON | None) -> bool:
        """Apply a bot's action through the table's change path, unless the game or the
        seat changed since the bot looked. True if it was played."""
        with self.lock:
            if (
                self.closed
                or self.session is None
                or self.revision != turn.revision
                or self.bots.get(turn.seat) != turn.level
            ):
                return False
            if action is None:
                self._bot_passed.add(turn.seat)
                return False
            try:
                self._apply(turn.seat, action)
            except ApiError as exc:
                # the bots play only legal actions; if one is refused, it waits for a change
                log.error(
                    "table %s: the %s bot at %s was refused: %s",
                    self.code,
                    turn.level,
                    turn.seat,
                    exc.to_json(),
                )
                self._bot_passed.add(turn.seat)
                return False
            return True

    def set_hints(self, allowed: bool) -> JSON:
        """The table's setting: may phones ask for hints (where the game's rules allow)."""
        with self.lock:
            try:
                self.store.set_hints(self.code, allowed)
            except (sqlite3.Error, OSError) as exc:
                raise _not_saved(exc) from None
            self.hints = allowed
            self._publish([])
            return {"hints": self.hints}

    def hint(self, seat: str, token: str | None) -> JSON:
        """A hint for ``seat`` (its token): the game's plan, shown on every screen and the
        lamps as a preview. Only the seat's own plan, from its own view."""
        with self.lock:
            self.authorize(seat, token)
            session = self.require_session()
            if not self.hints:
                raise ApiError(
                    409, "hints_off", "Hints are off at this table; the table can turn them on"
                )
            # a game whose options forbid hints says so in every view (Long Distance)
            if session.view(seat).get("hints_allowed") is False:
                raise ApiError(409, "hints_forbidden", "The rules of this game allow no hints")
            plan = session.hint(seat)
            if plan is None:
                raise ApiError(
                    409,
                    "no_hint",
                    "There is no hint for you now: it is not your turn, or nothing is left to do",
                )
            frame = session.hint_lamps(seat)
            if frame is not None:
                self.preview = Preview(seat, frame, hint=True)
                self._publish([])
            return {
                "revision": self.revision,
                "hint": plan,
                "frame": frame_json(frame) if frame is not None else None,
            }

    def authorize(self, seat: str, token: str | None) -> None:
        """Check that ``token`` holds ``seat``; the error says what to do about it."""
        self._require_seat(seat)
        held = self.claims.get(seat)
        if held is None:
            raise ApiError(
                403, "seat_not_claimed", f"Nobody holds {seat}: join it first", seat=seat
            )
        if not token_matches(held.digest, token):
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
            result = self._apply(seat, action, key)
            self._remember(seat, key, result)
            return result

    def undo(
        self, seat: str, token: str | None, revision: int | None = None, key: str | None = None
    ) -> JSON:
        with self.lock:
            self.authorize(seat, token)
            if key is not None and (seat, key) in self._idempotent:
                return self._idempotent[(seat, key)]
            self._check_revision(revision)
            session = self.require_session()
            try:
                events = session.undo(seat)
            except IllegalAction as exc:
                raise ApiError.from_illegal(exc) from None
            result = self._after_change(events, (seat, key) if key is not None else None)
            self._remember(seat, key, result)
            return result

    def _remember(self, seat: str, key: str | None, result: JSON) -> None:
        if key is not None:
            self._idempotent[(seat, key)] = result
            while len(self._idempotent) > IDEMPOTENCY_KEPT:
                self._idempotent.popitem(last=False)

    def _check_revision(self, revision: int | None) -> None:
        if revision is not None and revision != self.revision:
            raise ApiError(
                409,
                "stale",
                "The game has changed since your screen was drawn; look again and retry",
                revision=self.revision,
            )

    def _apply(self, seat: str | None, action: Any, key: str | None = None) -> JSON:
        session = self.require_session()
        try:
            events = session.apply(seat, action, self.clock())
        except IllegalAction as exc:
            if self.companion is not None:
                self.companion.refused()  # the lamps flash, as for a refused press
            raise ApiError.from_illegal(exc) from None
        except (EngineError, ValueError, TypeError) as exc:
            # the game could not read the action at all; the state is unchanged
            log.warning("action %r from %s not understood: %s", action, seat, exc)
            raise ApiError(400, "bad_action", f"This action cannot be read: {exc}") from None
        return self._after_change(events, (seat, key) if seat is not None and key else None)

    def _after_change(self, events: list[JSON], answering: tuple[str, str] | None = None) -> JSON:
        """The one way out of a change of the game: saved first, then shown on the board
        and told to every page (and the answer returned)."""
        result = self._save_change(events, answering)
        if self.companion is not None:
            assert self.session is not None
            self.companion.game_changed(self.session, events)
        self._changed(events)
        return result

    def _changed(self, events: list[JSON]) -> None:
        """The game changed, is saved and the board has been told: tell every page."""
        self.preview = None
        self.revision += 1
        self.changed_at = time.monotonic()
        self._bot_passed.clear()
        self._publish(events)

    def _save_change(self, events: list[JSON], answering: tuple[str, str] | None) -> JSON:
        """Commit the game's log as it now is (and, for a request with an
        Idempotency-Key, its answer) before anything is told of it. If that fails the
        change is undone (the game is rebuilt from what is saved) and refused with 503."""
        session, record = self.session, self.record
        assert session is not None and record is not None
        result: JSON = {"revision": self.revision + 1, "events": events}
        answer = (*answering, result) if answering is not None else None
        try:
            self.store.save_change(
                self.code,
                record,
                session.log_json(),
                self.revision + 1,
                session.over,
                session.result(),
                answer,
            )
        except Exception as exc:
            # not saved, so not played: back to the game as it is stored
            log.exception("table %s: could not save a change", self.code)
            self.session = game_module(record.game).replay(record.log())
            raise _not_saved(exc) from None
        return result

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

    def _bot_turn(self) -> str | None:
        """The seat whose turn a bot is playing now, if any."""
        session = self.session
        if session is None or session.over:
            return None
        return next((s for s in session.active_seats if s in self.bots), None)

    def _refuse_in_bot_turn(self) -> None:
        seat = self._bot_turn()
        if seat is not None:
            raise ApiError(
                409, "bot_turn", f"A bot is playing {seat}'s turn; wait for it", seat=seat
            )

    def press(self, button: str) -> JSON:
        """A tower button pressed on the table screen: through the board when one is
        attached (its debounce, the same press handler as the physical button), else
        straight on. The buttons are the current player's, so in a bot's turn they wait."""
        if self.board is None:
            return self.handle_press(button)
        with self.lock:  # the press handler takes it again in this thread
            self.require_session()
            self._refuse_in_bot_turn()
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
            self._refuse_in_bot_turn()
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
        return self._table_action(lambda session, now: session.clock_action(now))

    def resume_clock(self) -> bool:
        """Take up a saved game after the companion was down or the game put away: apply what the game asks
        for then (a timed turn's clock stands still meanwhile); True if something happened."""
        return self._table_action(lambda session, now: session.resume_action(now))

    def _table_action(self, wanted: Callable[[Session, float], JSON | None]) -> bool:
        with self.lock:
            if self.session is None:
                return False
            now = self.clock()
            action = wanted(self.session, now)
            if action is None:
                return False
            try:
                events = self.session.apply(None, action, now)
            except IllegalAction as exc:
                log.debug("table %s: the game refused its own clock: %s", self.code, exc)
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
        if self.bots:
            self.bot_driver.wake()
        if self._on_change is not None:
            self._on_change(self)

    def _show_on_board(self) -> None:
        if self.companion is None:
            return
        if self.replay is not None:  # the replay viewer: the step shown, on the lamps too
            self.companion.idle(False)
            self.companion.show(self.replay.lamps())
            return
        if self.session is None or self.session.over:
            self.companion.idle(True)  # no game in play: the convention attract mode
            return
        frame = self.session.lamps()
        if self.preview is not None:
            # a hint also picks out where it leads (its tower, in Clacks)
            accent = frame.accent | (self.preview.frame.accent if self.preview.hint else 0)
            frame = LampFrame(frame.lit, self.preview.frame.preview, accent)
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
                        "bot": self.bots.get(info.id),
                    }
                )
        return {
            "code": self.code,
            "language": self.language,
            "game": self.game_name,
            "game_number": self.game_number,
            "seats": seats,
            "bot_levels": self.session.bot_levels() if self.session is not None else [],
            "hints": self.hints,
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

    def frame(self, seat: str | None, since: int | None) -> bytes:
        """``snapshot(seat, since)`` as a whole event-stream message, encoded once per
        audience and change and then written as it is to every page of that audience."""
        with self.lock:
            if self._cache.seq != self.seq:
                self._cache = _Cache(self.seq)
            key = (seat, -1 if since is None else since)
            now = self.clock()
            built = self._cache.frames.get(key)
            if built is None or now - built[0] > FRAME_FRESH_SECONDS:
                message = f"event: state\ndata: {self.snapshot(seat, since)}\n\n"
                built = (now, message.encode())
                self._cache.frames[key] = built
            return built[1]

    def _snapshot(self, seat: str | None, since: int | None) -> JSON:
        session = self.session
        if since is None:
            events = [e for _, e in list(self.log)[-LOG_SENT_ON_CONNECT:]]
        else:
            events = [e for s, e in self.log if s > since]
        preview = None
        if self.preview is not None:
            preview = {
                "seat": self.preview.seat,
                **frame_json(self.preview.frame),
                "hint": self.preview.hint,
            }
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
            "replay": self.replay.to_json(frame_json(self.replay.lamps())) if self.replay else None,
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

    def first(self, subscriber: Subscriber) -> bytes:
        """The message a newly opened stream starts with, recent log included."""
        with self.lock:
            subscriber.last_seq = self.seq
            return self.frame(self._visible_seat(subscriber), None)

    def wait(self, subscriber: Subscriber, timeout: float) -> bytes | None:
        """The next message for ``subscriber``, or None after ``timeout`` seconds of quiet."""
        with self.lock:
            if subscriber.last_seq >= self.seq and not self.closed:
                self.changed.wait(timeout)
            if self.closed or subscriber.last_seq >= self.seq:
                return None
            since = subscriber.last_seq
            subscriber.last_seq = self.seq
            return self.frame(self._visible_seat(subscriber), since)

    def _visible_seat(self, subscriber: Subscriber) -> str | None:
        """The subscriber's seat while its token still holds it (a new game or a release
        may take it away), else None: the public view."""
        seat, token = subscriber.seat, subscriber.token
        if seat is None or token is None:
            return None
        claim = self.claims.get(seat)
        if claim is None or not token_matches(claim.digest, token):
            return None
        return seat

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.changed.notify_all()
        self.bot_driver.stop()  # outside the lock: the bots' thread may be waiting for it


def _not_saved(exc: BaseException) -> ApiError:
    return ApiError(
        503,
        "not_saved",
        f"The companion could not save this, so nothing changed; try again ({exc})",
    )


def _seat_taken(seat: str, name: str) -> ApiError:
    return ApiError(
        409, "seat_taken", f"{name or seat} already sits at {seat}", seat=seat, name=name
    )


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
