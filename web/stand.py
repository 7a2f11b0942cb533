"""Stand mode: the box runs a convention stand with nobody at its controls.

With no game on the main table its screen shows the attract programme and the join QR
code; a visitor's phone offers the stand's own choices for each game the stand plays
(``StandSettings.games``): learn to play (where the game has a tutorial), a game against
the box's bots (a later visitor takes over a bot's seat), a table for several visitors
where the game has no bots, or a game alone where the game is for one. Nothing else can
be chosen: the options, the seats and the bots all follow from the choice, and the
table's own controls are refused while the stand runs (web/api.py's ``require_table``).

The stand watches its table from the hub's clock thread (``look``): a game that nobody
plays for ``idle_seconds`` ends, a finished one after ``finished_seconds``, one that every
visitor has left (given up their seats) at once, and one whose visitors' pages have all
been closed for ``left_seconds`` (a reload or a phone woken again is back well within
it); each time every seat is let go and the table shows the attract programme again.
The games stay with the saved games, but for those nobody ever moved in. Why the last
game ended is in the stand's JSON
(``ended``), so a visitor's phone can say so.

A table for several visitors (a game without bots) waits for them all: until every seat
is taken the stand says so (``waiting``) and play is refused (``waiting_players``), and
the game that seated them is dealt again once the last one sits, so its start rolls and
deal happen with everyone at the table.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.core.interface import JSON, Session
from engine.games import game_module, game_modules
from web.errors import ApiError
from web.room import Room
from web.stand_seats import stand_level

log = logging.getLogger("clacks.web")

IDLE_SECONDS = 180.0  # a game nobody plays for this long ends and the stand starts over
FINISHED_SECONDS = 20.0  # the result stays on the screens this long
LEFT_SECONDS = 5.0  # every visitor's page closed this long: they have gone, the game ends
# games started by visitors, all together: enough for any queue (README says this number)
STARTS_PER_MINUTE = 10
LOOK_SECONDS = 60.0  # with no game on, the stand has nothing to watch
ANSWER_SECONDS = 5.0  # after a failed ending (the saves refuse) it is tried again


@dataclass(frozen=True)
class StandSettings:
    """What a stand plays: entries as ``game`` or ``game:mode`` (empty: every game and
    mode on the box), how long a game may stand idle, how long a finished game's result
    stays before the stand starts over, how many games visitors may start a minute, and
    how long a game goes on with none of its visitors' pages open."""

    games: tuple[str, ...] = ()
    idle_seconds: float = IDLE_SECONDS
    finished_seconds: float = FINISHED_SECONDS
    starts_per_minute: int = STARTS_PER_MINUTE
    left_seconds: float = LEFT_SECONDS


@dataclass(frozen=True)
class StandEntry:
    """One thing a visitor can pick to play: a game, in one of its modes."""

    game: str
    mode: str | None
    players: tuple[int, ...]
    bot_levels: tuple[str, ...]
    learn: bool
    id: str = field(default="")

    def options(self, players: int) -> JSON:
        return {} if self.mode is None else {"mode": self.mode, "players": players}

    def choices(self) -> list[JSON]:
        """What a visitor may start with this entry, each with the numbers of players
        it may be started for."""
        together = [n for n in self.players if n >= 2]
        offered: list[JSON] = []
        if self.learn:
            offered.append({"kind": "learn", "players": []})
        if 1 in self.players:
            offered.append({"kind": "alone", "players": [1]})
        if together and self.bot_levels:
            offered.append({"kind": "bots", "players": together})
        elif together:
            offered.append({"kind": "table", "players": together})
        return offered

    def to_json(self) -> JSON:
        return {"id": self.id, "game": self.game, "mode": self.mode, "choices": self.choices()}


def stand_entries(wanted: Sequence[str]) -> list[StandEntry]:
    """The entries a stand offers: each of ``wanted`` (``game`` for all its modes, or
    ``game:mode``), every game and mode on the box when none is given. A name no game
    or mode has raises ``ValueError`` naming what there is."""
    modules = game_modules()
    entries: list[StandEntry] = []
    for spec in wanted or list(modules):
        name, _, mode_wanted = spec.partition(":")
        if name not in modules:
            raise ValueError(f"no game {name!r}; the games are {', '.join(sorted(modules))}")
        module = modules[name]
        schema = module.options_schema()
        modes = schema.get("modes") or [{"id": None, "players": schema.get("players", [1])}]
        ids = [str(m.get("id")) for m in modes]
        if mode_wanted and mode_wanted not in ids:
            raise ValueError(f"{name} has no mode {mode_wanted!r}; its modes are {', '.join(ids)}")
        lessons = module.tutorial_starts()  # Learn to play only for a mode with a lesson
        for mode in modes:
            mode_id = mode.get("id")
            if mode_wanted and str(mode_id) != mode_wanted:
                continue
            players = tuple(int(n) for n in mode.get("players") or [1])
            entry_id = name if len(modes) == 1 else f"{name}:{mode_id}"
            options = {} if mode_id is None else {"mode": mode_id, "players": players[0]}
            levels = tuple(module.new(options, 0).bot_levels())
            if entry_id not in (e.id for e in entries):
                learn = str(mode_id) in lessons
                entries.append(StandEntry(name, mode_id, players, levels, learn, entry_id))
    return entries


class Stand:
    """The main table run as a convention stand."""

    def __init__(
        self, settings: StandSettings, room: Room, clock: Callable[[], float] = time.time
    ) -> None:
        self.settings = settings
        self.room = room
        self.clock = clock
        self.entries = {entry.id: entry for entry in stand_entries(settings.games)}
        self._starts: deque[float] = deque()
        self._starts_lock = threading.Lock()
        self._seen: tuple[object, ...] | None = None  # the table as last looked at
        self._since = clock()  # when it last changed
        self._pages_gone: float | None = None  # since when no visitor's page is open
        self._ended: JSON | None = None  # why the last game ended, and which it was
        # a table for several visitors waiting for them: its game and options
        self._gathering: tuple[str, JSON] | None = None
        room.stand = self.to_json()
        room.play_check = self._check_play
        if not room.previews.hints:
            # newcomers lean on hints; where a game's rules forbid them it still has none
            try:
                room.previews.set_hints(True)
            except ApiError as exc:  # the saves refuse (a full disk): the stand runs all the same
                log.warning("stand: hints stay off for now: %s", exc.message)

    def to_json(self) -> JSON:
        return {
            "entries": [entry.to_json() for entry in self.entries.values()],
            "idle_seconds": self.settings.idle_seconds,
            "starts_per_minute": self.settings.starts_per_minute,
            "ended": self._ended,
            "waiting": self._gathering is not None,
        }

    # ----------------------------------------------------------------- a visitor starts

    def start(self, entry_id: object, kind: object, players: object, name: object) -> JSON:
        """A visitor starts a game from the stand's choices and takes its first seat to
        play; the answer holds the seat's token, as claiming a seat does."""
        entry = self.entries.get(entry_id) if isinstance(entry_id, str) else None
        if entry is None:
            raise ApiError(
                404,
                "unknown_entry",
                f"This stand does not play {str(entry_id)[:40]!r}; it plays "
                f"{', '.join(self.entries)}",
                entry=str(entry_id)[:40],
            )
        choice = next((c for c in entry.choices() if c["kind"] == kind), None)
        if choice is None:
            offered = ", ".join(c["kind"] for c in entry.choices())
            raise ApiError(
                400,
                "not_offered",
                f"{entry.id} is not offered as {str(kind)[:20]!r} here; choose from {offered}",
                field="choice",
            )
        count = self._players(choice, players)
        room = self.room
        with room.lock:
            session = room.session
            if session is not None and not session.over and not room.replay.showing:
                raise ApiError(
                    409,
                    "stand_game_on",
                    "A game is on at this stand: take a free seat in it, or wait until it "
                    "ends and the table shows Scan to play again",
                )
            self._count_start()
            game, options = self._what_to_start(entry, choice["kind"], count)
            room.seats.free_all()  # nobody from the last game holds a seat in this one
            if room.replay.showing:
                room.replay.close()
            # a table for several visitors waits for them before anything is dealt or rolled
            self._gathering = (game, options) if choice["kind"] == "table" and count > 1 else None
            room.stand = self.to_json()
            try:
                # no bots carried over from the last game; a lesson seats its own opponent
                room.new_game(game, options, None, None, None, None if kind == "learn" else {})
            except ApiError:
                self._gathering = None
                room.stand = self.to_json()
                raise
            started = room.require_session()
            active = started.active_seats
            seat = active[0] if active else started.seats[0].id
            claimed = room.seats.claim(seat, name if isinstance(name, str) else None, None)
            if choice["kind"] == "bots":  # a lesson seats its own scripted opponent
                self._bots_for_the_rest(seat)
            log.info("stand: a visitor started %s (%s) at %s", entry.id, choice["kind"], seat)
            return {**claimed, "game": game, "revision": room.revision}

    def _players(self, choice: JSON, players: object) -> int:
        allowed: list[int] = choice["players"]
        if not allowed:
            return 0
        if players is None:
            return allowed[0]
        if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
            raise ApiError(
                400,
                "bad_field",
                f"players must be one of {', '.join(map(str, allowed))}",
                field="players",
            )
        return players

    def _what_to_start(self, entry: StandEntry, kind: str, players: int) -> tuple[str, JSON]:
        if kind == "learn":
            start = game_module(entry.game).tutorial_start(entry.mode)
            if start is None:  # offered only where there is one; a game cannot lose it
                raise ApiError(409, "no_tutorial", f"{entry.game} has no tutorial")
            return str(start["game"]), dict(start["options"])
        return entry.game, entry.options(players)

    def _bots_for_the_rest(self, visitor: str) -> None:
        room = self.room
        session = room.require_session()
        levels = session.bot_levels()
        if not levels:
            return
        level = stand_level(levels)
        for info in session.seats:
            if info.id != visitor:
                room.seats.seat_bot(info.id, level)

    def _count_start(self) -> None:
        """Refuse a start when visitors started ``starts_per_minute`` games in the last
        minute: a script starting and leaving games must not fill the saves."""
        now = time.monotonic()
        with self._starts_lock:
            while self._starts and now - self._starts[0] >= 60.0:
                self._starts.popleft()
            if len(self._starts) >= self.settings.starts_per_minute:
                wait = int(60.0 - (now - self._starts[0])) + 1
                raise ApiError(
                    429,
                    "stand_starts",
                    f"Many games were started here in the last minute; try again in {wait} s",
                    seconds=wait,
                )
            self._starts.append(now)

    def _forget(self, game_id: int) -> None:
        """A game started and left before anyone moved is not kept among the saved games:
        an afternoon of visitors who start and walk away would fill them with empty
        tables. A disk that refuses leaves it saved, which does no harm."""
        try:
            self.room.store.delete(game_id)
        except (sqlite3.Error, OSError) as exc:
            log.warning("stand: an unplayed game stays saved: %s", exc)

    # ----------------------------------------------------------------- the stand's clock

    def look(self, now: float) -> float:
        """End the table's game when its time is up and show the attract programme again;
        how many seconds until the stand must look again."""
        room = self.room
        with room.lock:
            session = room.session
            if session is None and not room.replay.showing:
                self._seen, self._pages_gone = None, None
                if room.seats.claims or room.seats.bots:
                    room.seats.free_all()
                return LOOK_SECONDS
            seen = (
                room.revision,
                tuple(sorted(room.seats.claims)),
                tuple(sorted(room.seats.bots)),
            )
            if seen != self._seen:
                self._seen, self._since = seen, now
            if session is not None and self._gathering is not None:
                dealt = self._deal_when_seated(session)
                if not dealt:
                    return ANSWER_SECONDS
            due, why = self._due(now, session is not None and session.over)
            if now < due:
                return due - now
            try:
                self.back_to_attract(why)
            except ApiError as exc:
                log.warning("stand: the game stays on the table for now: %s", exc.message)
                return ANSWER_SECONDS
            return LOOK_SECONDS

    def _check_play(self) -> None:
        if self._gathering is not None:
            raise ApiError(
                409,
                "waiting_players",
                "The game begins once every player has taken a seat: each scans the code "
                "on the table's screen with their own phone",
            )

    def _deal_when_seated(self, session: Session) -> bool:
        """Once every seat of a waiting table is taken, deal its game again for the
        players now at it (False: the saves refused, tried again shortly)."""
        room = self.room
        gathering = self._gathering
        if gathering is None or not all(info.id in room.seats.claims for info in session.seats):
            return True
        game, options = gathering
        self._gathering = None
        room.stand = self.to_json()
        # the first deal, which nobody could move in, is not kept among the saved games
        waited = room.record.id if room.record is not None and not room.record.actions else None
        try:
            room.new_game(game, options, None, None, None, {})  # the seats keep their players
        except ApiError as exc:
            log.warning("stand: the table's game waits to be dealt: %s", exc.message)
            self._gathering = (game, options)
            room.stand = self.to_json()
            return False
        if waited is not None:
            self._forget(waited)
        log.info("stand: every player of the %s table sits; the game begins", game)
        return True

    def _due(self, now: float, over: bool) -> tuple[float, str]:
        """When the game on the table ends, and why: finished, left or idle."""
        claims = self.room.seats.claims
        if any(claim.connections for claim in claims.values()):
            self._pages_gone = None
        elif self._pages_gone is None:
            self._pages_gone = now
        if over:
            return self._since + self.settings.finished_seconds, "finished"
        if not claims:
            return now, "left"  # every visitor gave up their seat
        idle = self._since + self.settings.idle_seconds
        if self._pages_gone is not None and self._pages_gone + self.settings.left_seconds < idle:
            return self._pages_gone + self.settings.left_seconds, "left"
        return idle, "idle"

    def back_to_attract(self, why: str = "left") -> None:
        """The game is put away (it stays saved, unless nobody ever moved in it) and every
        seat let go; ``why`` (idle, finished or left) is told to the phones that were in it."""
        room = self.room
        with room.lock:
            unplayed = (
                room.record.id if room.record is not None and not room.record.actions else None
            )
            self._ended = {"reason": why, "game_number": room.game_number}
            self._gathering = None
            room.stand = self.to_json()
            if room.session is not None or room.replay.showing:
                room.end_game()
            if unplayed is not None:
                self._forget(unplayed)
            room.seats.free_all()
            self._seen, self._pages_gone = None, None
            log.info("stand: back to Scan to play (%s)", why)
