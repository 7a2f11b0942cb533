"""One table: the game on it and its saves, and the one straight line every change of
that game takes.

A request from a seat goes: authorize (``seats``) -> refuse a stale revision -> apply
(``Session.apply``) -> save (``store``, committed before anything is told) -> show on
the board (``presses``) -> publish to every page (``fanout``, each audience its own
snapshot). The table's neighbours are parts of their own, each with one job and the
table's lock. Each is handed only what it uses: the state it reads (web/table_state.py)
and callables for what it asks of the table; none holds the table or another part, and
whatever one part's change means for another is decided here (``_build_parts``):

- ``seats`` (web/seats.py): who sits where, their tokens, the seats bots play;
- ``fanout`` (web/fanout.py): the open pages and what each audience is sent;
- ``bot_turns`` (web/bots.py): what the bots may do, played through this same line;
- ``previews`` (web/previews.py): placement previews and hints on every screen;
- ``presses`` (web/presses.py): the exchange board's lamps and tower buttons;
- ``table_clock`` (web/table_clock.py): actions a game asks for because of time;
- ``replay`` (web/replay.py): the replay viewer in place of the game;
- ``game_log`` (web/game_log.py): the log people read, derived from the saved actions
  and redacted for each audience, the same after any restart.

The game itself is reached only through ``engine.core.interface`` and the registry
``engine.games``; nothing here knows the rules of any game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from engine.core.errors import EngineError, IllegalAction
from engine.core.interface import JSON, LampFrame, Session
from engine.core.tutorial import TutorialSession
from engine.games import game_module, game_modules
from firmware.entropy import new_seed
from web.bots import BotTurns
from web.errors import ApiError, not_saved, saved_or_refused
from web.fanout import Audiences, BoardPicture, Fanout
from web.game_log import PAGE_MAX, GameLog
from web.i18n import LANGUAGES
from web.presses import ChangePath, Presses
from web.previews import Previews, frame_json
from web.replay import TableReplay
from web.saving import SaveTrouble
from web.seats import Seats
from web.security import new_pin
from web.store import DamagedGame, GameRecord, SavedRoom, Store
from web.table_clock import TableClock
from web.table_log import log_for_page, older_steps
from web.table_state import Clock, InState, TableState

log = logging.getLogger("clacks.web")

IDEMPOTENCY_KEPT = 256


class Room:
    """A table with a short code: its game, its seats and its subscribers.

    Every change of a game is saved (``store``) before it is published: ``after_change``
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
        self.state = TableState(code, threading.RLock(), clock, store or Store(None))
        self.pin = pin or new_pin()
        self.record: GameRecord | None = None  # the stored log of the game on the table
        self.language = language
        self.game_number = 0
        self.last_active = clock()  # when a page last showed it or anything changed
        self.game_log: GameLog | None = None  # of the game on the table, from its saves
        self._log_since = 0  # the change (seq) at which pages must take the log afresh
        # at a stand, refuses play while a table waits for its players (web/stand.py)
        self.play_check: Callable[[], None] | None = None
        self._idempotent: OrderedDict[tuple[str, str], JSON] = OrderedDict()
        self._on_change = on_change
        self._build_parts()

    # what the parts read of the table, kept in its state (web/table_state.py)
    code: InState[str] = InState()
    lock: InState[threading.RLock] = InState()
    clock: InState[Clock] = InState()
    store: InState[Store] = InState()
    session: InState[Session | None] = InState()
    game_name: InState[str | None] = InState()
    revision: InState[int] = InState()  # bumped by every change of the game itself
    changed_at: InState[float] = InState()  # when the game last changed, for the bots' pause
    closed: InState[bool] = InState()
    stand: InState[JSON | None] = InState()  # what a convention stand offers (web/stand.py)

    def _build_parts(self) -> None:
        """The table's parts, each handed what it reads and callables for what it asks
        of the table; whatever one part's change means for another is decided here."""
        table = self.state
        self.saving = SaveTrouble(table.code, table.clock, publish=self.publish)
        self.seats = Seats(
            table,
            kept=lambda: self.saving.kept(),
            publish=self.publish,
            bot_seated=lambda seat: self.bot_turns.seated(seat),  # asked what it does
        )
        self.fanout = Fanout(
            table.lock,
            table.clock,
            Audiences(
                build=self.snapshot_json,
                visible_seat=lambda seat, token: self.seats.visible_seat(seat, token),
                presence=self._presence,
            ),
            BoardPicture(
                attached=lambda: self.presses.board is not None,
                simulated=lambda: self.presses.simulated(),
                lit=lambda: self.presses.board_json(),
            ),
        )
        self.bot_turns = BotTurns(
            table,
            bots=lambda: self.seats.bots,
            replay_showing=lambda: self.replay.showing,
            apply=self.apply,
        )
        self.previews = Previews(
            table,
            authorize=lambda seat, token: self.seats.authorize(seat, token),
            publish=self.publish,
        )
        self.presses = Presses(
            table,
            ChangePath(
                check_play=self.check_play,
                save=self._save_quietly,
                told=self.changed,
                after_change=self.after_change,
            ),
            publish=self.publish,
            seq=lambda: self.seq,
            shown=self._lamps_shown,
            bot_playing=lambda: self.bot_turns.playing(),
            board_changed=lambda: self.fanout.board_changed(),
        )
        self.table_clock = TableClock(
            table,
            all_held=lambda session: self.seats.all_held(session),
            after_change=self.after_change,
        )
        self.replay = TableReplay(table, put_away=self._put_away_for_replay, publish=self.publish)

    @property
    def seq(self) -> int:
        """Bumped by every change any page should see."""
        return self.fanout.seq

    @classmethod
    def restored(
        cls,
        saved: SavedRoom,
        store: Store,
        clock: Clock = time.time,
        on_change: Callable[[Room], None] | None = None,
    ) -> Room:
        """A table as it was saved, with its game (unless that game cannot be replayed:
        then it is set aside in the store and the table starts without one). A row that
        does not hold what a table needs raises ``ValueError`` naming it."""
        _check_saved(saved)
        room = cls(saved.code, clock, saved.language, on_change, store)  # a new PIN
        room.game_number = saved.game_number
        room.revision = saved.revision
        room.fanout.seq = saved.revision
        room.seats.restore(saved)
        room.previews.hints = saved.hints
        if saved.game_id is not None:
            try:
                session, record = room._load_saved(saved.game_id)
            except KeyError:
                store.set_aside_missing(saved.code, saved.game_id)
            except DamagedGame as exc:
                store.set_aside_damaged(saved.game_id, exc, saved.code)
            else:
                room._put_on(session, record)
                seat_ids = [s.id for s in session.seats]
                kept = room.seats.bots_for(session, seat_ids, None)
                for seat, level in room.seats.bots.items():
                    if kept.get(seat) != level:  # a bot this game cannot have plays nothing
                        store.problems.append(
                            f"Table {saved.code}: a bot {level!r} at seat {seat!r} was left out"
                        )
                room.seats.bots = kept
                room.seats.free_absent_learners()
        return room

    def _load_saved(self, game_id: int) -> tuple[Session, GameRecord]:
        record, _names = self.store.load(game_id)
        try:
            session = game_module(record.game).replay(record.log())
        except Exception as exc:  # any failure to rebuild it means the rows are bad
            raise DamagedGame(f"it cannot be replayed: {exc}") from None
        return session, record

    def _put_on(self, session: Session, record: GameRecord) -> None:
        """A saved game is the table's game now, with its idempotent answers and its
        log as its saved actions tell it."""
        self.session, self.record, self.game_name = session, record, record.game
        self._idempotent.clear()
        for seat, key, answer in self.store.answers(record.id):
            self._idempotent[(seat, key)] = answer
        self._log_since = self.seq + 1
        self.game_log = GameLog(record.game, record.header, record.actions, self._log_since)

    def take_off(self) -> None:
        """The table's game is put away (it stays saved)."""
        self.session = self.record = self.game_log = None
        self.game_name = None
        self._idempotent.clear()

    # ----------------------------------------------------------------- setup

    def new_game(
        self,
        game: str,
        options: JSON,
        seed: int | None = None,
        names: dict[str, str] | None = None,
        language: str | None = None,
        bots: dict[str, str] | None = None,
        free: list[str] | None = None,
    ) -> JSON:
        """Start a new game on this table; seats whose label the new game also has keep
        their holders, people and bots, but for the people in the ``free`` seats, who
        are let go (for someone else, or for the bot ``bots`` names). ``bots`` (seat ->
        level), when given, are exactly the seats bots play in the new game."""
        if game not in game_modules():
            raise ApiError(404, "unknown_game", f"unknown game {game!r}", game=game)
        if seed is None:
            seed = new_seed()  # 256 bits from the operating system
        with self.lock:
            module = game_module(game)
            if isinstance(options, dict):  # the box's options, the lobby's over them
                options = {**self.presses.game_options(game), **options}
            options = _with_table_language(module.options_schema(), options, language or self.language)
            try:
                session = module.new(options, seed, self.clock())
            except IllegalAction as exc:
                raise ApiError.from_illegal(exc, status=400) from None
            seat_ids = [s.id for s in session.seats]
            freed = tuple(free or ())
            own_bots = session.tutorial_bots()
            if own_bots and bots is None:
                # a lesson seats its own opponent, whoever sat there before
                bots = own_bots
                freed = tuple(sorted({*freed, *own_bots}))
            new_bots = self.seats.bots_for(session, seat_ids, bots, freed)
            kept_names, game_names = self.seats.names_for(seat_ids, names, freed)
            # a lesson whose seats the last game lacked: its player is the learner
            learner = session.script.learner if isinstance(session, TutorialSession) else None
            carried = self.seats.learner_to_carry(seat_ids, learner, freed) if learner else None
            with self.saving.kept():
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
                    freed,
                )
                if learner and carried:
                    self.seats.carry_saved(learner, carried)
            self._put_on(session, record)
            self.game_number += 1
            self.seats.seated(seat_ids, new_bots, kept_names, freed)
            if learner and carried:
                self.seats.carry(learner, carried)
            if language is not None:
                self.language = language
            self.game_changed([{"kind": "game_started", "seat": None, "seats": seat_ids}])
            return {"revision": self.revision, "game": game}

    def game_changed(self, events: list[JSON]) -> None:
        """Another game on the table (or none): what pages remember of the last goes."""
        self.replay.viewer = None
        self.previews.current = None
        self.presses.notice = None
        self.revision += 1
        self.changed_at = time.monotonic()
        self.bot_turns.game_changed()
        self.publish(events)

    def after_lesson(self, seat: str, token: str | None) -> JSON:
        """The learner who finished a guided first game starts the real game it leads
        to (the lesson's own choice of game, options and bots), keeping their seat: the
        one new game a phone may start without the table PIN."""
        with self.lock:
            self.seats.authorize(seat, token)
            session = self.require_session()
            lesson = session.view(seat).get("tutorial")
            if not isinstance(lesson, dict) or not lesson.get("finished"):
                raise ApiError(409, "no_lesson_over", "There is no finished lesson on this table")
            if lesson.get("learner") != seat:
                raise ApiError(403, "not_learner", "Only the learner starts the game after it")
            after = lesson["next_game"]
            return self.new_game(after["game"], after["options"], bots=after.get("bots"))

    # ----------------------------------------------------------------- the table's own

    def end_game(self) -> JSON:
        """Take the game off the table (it stays saved: resume it from the lobby)."""
        with self.lock:
            if self.session is None and not self.replay.showing:
                raise ApiError(409, "no_game", "No game is running on this table")
            with self.saving.kept():
                self.store.put_away(self.code, self.revision + 1)
            self.take_off()
            self.game_changed([])
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
            if self.store.revealed(game_id) is not None:
                raise ApiError(
                    409,
                    "revealed",
                    "That game was exported unfinished, which told every draw still to come, "
                    "so it is closed for play",
                    save=game_id,
                )
            try:
                session, record = self._load_saved(game_id)
            except KeyError:
                raise ApiError(404, "unknown_save", "There is no such saved game") from None
            except DamagedGame as exc:
                self.store.mark_damaged(game_id, str(exc))
                raise ApiError(409, "damaged_save", f"That saved game is damaged: {exc}") from None
            seat_ids = [s.id for s in session.seats]
            # who held its seats when it left its table hold them again, and nobody else
            holders = self.store.holders(game_id)
            kept_bots = self.seats.bots_for(session, seat_ids, None)
            if holders is not None:
                kept_bots = {s: level for s, level in kept_bots.items() if s not in holders}
            with self.saving.kept():
                self.store.put_on(
                    self.code,
                    record,
                    self.revision + 1,
                    self.game_number + 1,
                    seat_ids,
                    kept_bots,
                    holders,
                )
            self._put_on(session, record)
            self.game_number += 1
            self.seats.seated(seat_ids, kept_bots, held=holders)
            self.game_changed([{"kind": "game_started", "seat": None, "seats": seat_ids}])
            self.table_clock.resume()
            return {"revision": self.revision, "game": record.game}

    # ----------------------------------------------------------------- playing

    def require_session(self) -> Session:
        return self.state.require_session()

    def act(
        self,
        seat: str,
        token: str | None,
        action: Any,
        revision: int | None = None,
        key: str | None = None,
    ) -> JSON:
        return self._once(seat, token, revision, key, lambda: self.apply(seat, action, key))

    def undo(
        self, seat: str, token: str | None, revision: int | None = None, key: str | None = None
    ) -> JSON:
        return self._once(seat, token, revision, key, lambda: self._undo(seat, key))

    def _undo(self, seat: str, key: str | None) -> JSON:
        session = self.require_session()
        self.check_play()
        try:
            events = session.undo(seat)
        except IllegalAction as exc:
            raise ApiError.from_illegal(exc) from None
        return self.after_change(events, (seat, key) if key is not None else None)

    def _once(
        self,
        seat: str,
        token: str | None,
        revision: int | None,
        key: str | None,
        change: Callable[[], JSON],
    ) -> JSON:
        """``change`` made for ``seat`` holding ``token``, refused if the game moved past
        ``revision``; with an idempotency ``key`` a repeat gets the first answer instead."""
        with self.lock:
            self.seats.authorize(seat, token)
            if key is not None and (seat, key) in self._idempotent:
                return self._idempotent[(seat, key)]
            self._check_revision(revision)
            result = change()
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

    def apply(self, seat: str | None, action: Any, key: str | None = None) -> JSON:
        """Apply ``action`` for ``seat`` through the one change path (its caller holds
        the lock and has checked who may)."""
        session = self.require_session()
        self.check_play()
        try:
            events = session.apply(seat, action, self.clock())
        except IllegalAction as exc:
            self.presses.refused()
            raise ApiError.from_illegal(exc) from None
        except (EngineError, ValueError, TypeError) as exc:
            # the game could not read the action at all; the state is unchanged
            log.warning("action %r from %s not understood: %s", action, seat, exc)
            raise ApiError(400, "bad_action", f"This action cannot be read: {exc}") from None
        return self.after_change(events, (seat, key) if seat is not None and key else None)

    def check_play(self) -> None:
        """Refuse play where the table's game may not be played yet (a stand's table
        waiting for its players)."""
        if self.play_check is not None:
            self.play_check()

    def after_change(self, events: list[JSON], answering: tuple[str, str] | None = None) -> JSON:
        """The one way out of a change of the game: saved first, then shown on the board
        and told to every page (and the answer returned)."""
        result = self.save_change(events, answering)
        assert self.session is not None
        self.presses.game_changed(self.session, events)
        self.changed(events)
        return result

    def changed(self, events: list[JSON]) -> None:
        """The game changed, is saved and the board has been told: tell every page."""
        if self.game_log is not None and self.record is not None:
            self.game_log.follow(self.record.actions, self.seq + 1)
        self.previews.current = None
        self.revision += 1
        self.changed_at = time.monotonic()
        self.bot_turns.game_changed()
        self.publish(events)

    def save_change(self, events: list[JSON], answering: tuple[str, str] | None) -> JSON:
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
            log.warning("table %s: could not save a change: %s", self.code, exc)
            self.session = game_module(record.game).replay(record.log())
            self.saving.failed(exc)
            raise not_saved(exc) from None
        self.saving.succeeded()
        return result

    def set_language(self, language: str) -> JSON:
        """The table speaks ``language`` from now: every phone whose player has not picked
        one of their own follows it (the table screen switched its language)."""
        with self.lock:
            if language != self.language:
                with saved_or_refused():
                    self.store.set_language(self.code, language)
                self.language = language
                self.publish([])
            return {"language": self.language}

    # ----------------------------------------------------------------- publishing

    def publish(self, events: list[JSON]) -> None:
        """Something pages show changed: every page, the board and the bots learn of it
        (the caller holds the lock)."""
        self.fanout.publish(events)
        self.last_active = self.clock()
        self.presses.show()
        self.bot_turns.wake()
        if self._on_change is not None:
            self._on_change(self)

    # ----------------------------------------------------------------- between the parts

    def _presence(self, seat: str, change: int) -> None:
        """A page of ``seat`` opened (+1) or closed (-1): everyone sees a held seat's
        presence change."""
        if self.seats.connected(seat, change):
            self.publish([])

    def _lamps_shown(self) -> LampFrame | None:
        """The lamps the table shows now: the replay's step, or the game's with its
        preview over them; None while no game is in play."""
        viewer = self.replay.viewer
        if viewer is not None:
            return viewer.lamps()
        session = self.session
        if session is None or session.over:
            return None
        return self.previews.board_frame(session.lamps())

    def _save_quietly(self, events: list[JSON]) -> None:
        """A press's action saved, before the board shows it (web/presses.py)."""
        self.save_change(events, None)

    def _put_away_for_replay(self) -> None:
        """The replay viewer takes the table: its game, if any, is put away (saved)."""
        if self.session is not None:
            with saved_or_refused():
                self.store.put_away(self.code, self.revision + 1)
            self.take_off()
        self.game_changed([])

    def pages_open(self) -> bool:
        """Whether any page follows the table now (a screen or a seat's phone)."""
        return self.fanout.spectators > 0 or any(
            claim.connections for claim in self.seats.claims.values()
        )

    def room_json(self) -> JSON:
        return {
            "code": self.code,
            "language": self.language,
            "game": self.game_name,
            "game_number": self.game_number,
            "seats": self.seats.to_json(self.session) if self.session is not None else [],
            "bot_levels": self.session.bot_levels() if self.session is not None else [],
            "hints": self.previews.hints,
            "stand": self.stand,
            "spectators": self.fanout.spectators,
            "hardware": self.presses.status(),
            "saving": self.saving.to_json(),
            # saved games set aside as the companion started (damaged, missing, a file
            # that could not be read): the same for every table, in no detail
            "saves_set_aside": list(self.store.notices),
        }

    def snapshot_json(self, seat: str | None, since: int | None) -> JSON:
        """What ``seat`` (None: the table and spectators) may see now, with the public
        events announced after change ``since`` and the log's steps the page lacks
        (None: a fresh page, which gets the latest steps)."""
        session = self.session
        preview = self.previews.current
        viewer = self.replay.viewer
        out: JSON = {
            "seq": self.seq,
            "revision": self.revision,
            "room": self.room_json(),
            "seat": seat,
            "events": self.fanout.events_since(since),
            "fresh": since is None,
            **log_for_page(self.game_log, viewer, self._log_since, seat, since),
            "preview": preview.to_json() if preview is not None else None,
            "notice": self.presses.notice_json(since),
            "view": None,
            "replay": viewer.to_json(frame_json(viewer.lamps())) if viewer else None,
        }
        if session is not None:
            out.update(
                {
                    "view": session.view(seat),
                    "active": session.active_seats,
                    "over": session.over,
                    "result": session.result(),
                    "deadline": session.deadline() if self.table_clock.running() else None,
                    "lamps": frame_json(session.lamps()),
                    "can_undo": session.can_undo(seat) if seat is not None else False,
                }
            )
        return out

    # ----------------------------------------------------------------- the log

    def log_page(self, seat: str | None, before: int | None, limit: int) -> JSON:
        """Steps of the log the table shows (the replay's, up to the step shown, while
        the replay viewer is on), as ``seat`` may read them: up to ``limit`` before step
        ``before``, oldest first."""
        with self.lock:
            viewer = self.replay.viewer
            steps, last = older_steps(self.game_log, viewer, seat, before, limit)
            return {
                "steps": steps,
                "last": last,
                "game_number": self.game_number,
                "replay": viewer is not None,
                "limit_max": PAGE_MAX,
            }

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.fanout.close()
        self.bot_turns.driver.stop()  # outside the lock: the bots' thread may be waiting for it


def _with_table_language(schema: JSON, options: JSON, language: str) -> JSON:
    """The options with every choice that follows the table's language (which edition's
    words a Clacks table is dealt) set to it, where the request leaves the choice out."""
    if not isinstance(options, dict):
        return options
    modes = schema.get("modes") or [schema]
    wanted = options.get("mode", modes[0].get("id"))
    mode = next((m for m in modes if m.get("id") == wanted), None)
    if mode is None:
        return options
    filled = dict(options)
    for name, spec in (mode.get("choices") or {}).items():
        follows = spec.get("follows") == "language" and name not in filled
        if follows and language in spec.get("choices", ()):
            filled[name] = language
    return filled


def _check_saved(saved: SavedRoom) -> None:
    """Refuse a saved table whose row holds what no table can have (edited by hand, or
    written by something else), before anything is built on it."""
    for name in ("game_number", "revision"):
        value = getattr(saved, name)
        if type(value) is not int or value < 0:
            raise ValueError(f"its {name} is {value!r}, not a whole number")
    if saved.language not in LANGUAGES:
        raise ValueError(f"its language is {saved.language!r}, not one of {', '.join(LANGUAGES)}")
    if saved.code != saved.code.upper():
        raise ValueError(f"its code {saved.code!r} is not in capitals")
