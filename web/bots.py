"""Bots in a table's seats: they play through the same path as people.

A table's side of its bots is ``BotTurns``: what is due and playing it. Each table that
has bots gets one worker thread (``BotDriver``). After every change it asks
``BotTurns.next_turn`` what is due: a bot whose seat must act now (its
turn, a sabotage, an Express discard) acts; a bot out of turn is asked once per change
of the game whether it acts then (a Fault Report in another player's turn). Before a
bot acts the worker waits until ``pause`` seconds have passed since the game last
changed, so the people at the table can follow what happens.

A bot thinks on a copy of the game rebuilt from its log (``GameModule.replay``), outside
the table's lock, so phones, streams and the table clock never wait for it. Its action
is then applied by ``BotTurns.play`` through the table's own change path (saved before
anyone is told, pushed to every page, shown on the lamps), and only if the game has not
changed meanwhile; otherwise the worker looks again. The bots bound their own work; a
bot that still has not decided after ``think_seconds`` (a slow machine) plays the
weakest level's choice instead, so a table never waits long for a bot, and the
thinking it gave up on is cancelled (``Session.bot_action``'s ``cancelled``): its
thread stops at the search's next check instead of running on. So does the thinking
of a table whose bots are stopped.

A bot's action the saves refuse did not happen (web/saving.py): the same action is
played again every ``RETRY_SECONDS`` until the disk takes it, so a table of bots plays
on by itself once there is room again. Nothing a bot's turn raises ends its worker.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.core.budget import SearchCancelled
from engine.core.interface import JSON
from engine.games import game_module
from web.errors import ApiError
from web.saving import RETRY_SECONDS
from web.table_state import TableState

log = logging.getLogger("clacks.bots")

PAUSE_SECONDS = 0.6  # between a change of the game and a bot's action
THINK_SECONDS = 3.0  # the most a bot may think before the weakest level's choice is played


@dataclass(frozen=True)
class BotTurn:
    """A bot's chance to act: at the game's ``revision``, ``seat`` played by ``level``."""

    revision: int
    seat: str
    level: str
    game: str
    log: JSON  # the game's log at ``revision``, to think on a copy
    changed_at: float  # time.monotonic() of the game's last change
    due: bool  # the seat must act now (its turn); otherwise it only may


def think(
    turn: BotTurn,
    now: float,
    seconds: float,
    fallback: str | None,
    abandon: threading.Event | None = None,
) -> JSON | None:
    """The action the bot takes (None: nothing now), on a copy of the game. After
    ``seconds`` without an answer the ``fallback`` level decides a due turn instead,
    and the bot's own thinking is cancelled; setting ``abandon`` cancels it too."""
    answer: dict[str, JSON | None] = {}
    given_up = abandon or threading.Event()

    def work() -> None:
        answer["action"] = _choose(turn, turn.level, now, given_up.is_set)

    worker = threading.Thread(target=work, name=f"bot-{turn.seat}", daemon=True)
    worker.start()
    worker.join(seconds)
    if "action" in answer:
        return answer["action"]
    if not turn.due or fallback is None or fallback == turn.level:
        if turn.due:
            worker.join()  # the weakest level itself: nothing faster to fall back on
            return answer.get("action")
        given_up.set()
        return None
    given_up.set()  # nobody waits for it any more: its search stops at its next check
    log.warning(
        "the %s bot at %s took over %.1f s; the %s level plays this time",
        turn.level,
        turn.seat,
        seconds,
        fallback,
    )
    return _choose(turn, fallback, now)


def _choose(
    turn: BotTurn, level: str, now: float, cancelled: Callable[[], bool] | None = None
) -> JSON | None:
    try:
        session = game_module(turn.game).replay(turn.log)
        return session.bot_action(turn.seat, level, now, cancelled)
    except SearchCancelled:
        log.debug("the %s bot at %s stopped thinking: nobody waits for it", level, turn.seat)
        return None
    except Exception:  # a bot that fails passes; the table says nothing and goes on
        log.exception("the %s bot at %s could not choose an action", level, turn.seat)
        return None


class BotTurns:
    """What a table's bots may do now, and playing it through the table's change path.
    The seats bots hold are the table's seats (``Seats.bots``)."""

    def __init__(
        self,
        table: TableState,
        bots: Callable[[], dict[str, str]],
        replay_showing: Callable[[], bool],
        apply: Callable[[str, JSON], JSON],
    ) -> None:
        """``bots()`` are the seats bots play, with their levels; while
        ``replay_showing()`` the table shows a finished game and its bots wait;
        ``apply(seat, action)`` plays through the table's change path (under its lock)."""
        self.table = table
        self.bots = bots
        self.replay_showing = replay_showing
        self.apply = apply
        self.passed: set[str] = set()  # bots that had nothing to do at this revision
        self.driver = BotDriver(self)
        self.retry_at = 0.0  # time.monotonic() before which a refused save is not retried
        self._unsaved: tuple[tuple[int, str, str], JSON] | None = None  # (turn, its action)

    def unsaved_action(self, turn: BotTurn) -> JSON | None:
        """The action this very turn chose before the saves refused it, if any."""
        kept = self._unsaved
        if kept is not None and kept[0] == (turn.revision, turn.seat, turn.level):
            return kept[1]
        return None

    def seated(self, seat: str) -> None:
        """A bot took ``seat`` (or changed level): it is asked again."""
        self.passed.discard(seat)

    def game_changed(self) -> None:
        self.passed.clear()

    def wake(self) -> None:
        if self.bots():
            self.driver.wake()

    def has_bots(self) -> bool:
        return bool(self.bots())

    def levels(self) -> list[str]:
        with self.table.lock:
            session = self.table.session
            return session.bot_levels() if session is not None else []

    def playing(self) -> str | None:
        """The seat whose turn a bot is playing now, if any."""
        session = self.table.session
        if session is None or session.over:
            return None
        bots = self.bots()
        return next((s for s in session.active_seats if s in bots), None)

    def next_turn(self) -> BotTurn | None:
        """What a bot may do now: first each bot out of turn that has not yet been asked
        at this revision, then a bot whose seat must act. None when no bot has anything
        to do (no game, the game is over, or the turn is a person's)."""
        table = self.table
        with table.lock:
            session = table.session
            if session is None or session.over or self.replay_showing() or table.closed:
                return None
            assert table.game_name is not None
            bots = self.bots()
            active = session.active_seats
            waiting = [s for s in bots if s not in active]
            acting = [s for s in bots if s in active]
            for seat in waiting + acting:
                if seat in self.passed:
                    continue
                return BotTurn(
                    revision=table.revision,
                    seat=seat,
                    level=bots[seat],
                    game=table.game_name,
                    log=session.log_json(),
                    changed_at=table.changed_at,
                    due=seat in active,
                )
            return None

    def play(self, turn: BotTurn, action: JSON | None) -> bool:
        """Apply a bot's action through the table's change path, unless the game or the
        seat changed since the bot looked. True if it was played."""
        table = self.table
        with table.lock:
            if (
                table.closed
                or table.session is None
                or table.revision != turn.revision
                or self.bots().get(turn.seat) != turn.level
            ):
                return False
            if action is None:
                self.passed.add(turn.seat)
                return False
            try:
                self.apply(turn.seat, action)
            except ApiError as exc:
                if exc.code == "not_saved":
                    # not saved, so not played: the same action again in a while
                    self._unsaved = ((turn.revision, turn.seat, turn.level), action)
                    self.retry_at = time.monotonic() + RETRY_SECONDS
                    return False
                # the bots play only legal actions; if one is refused, it waits for a change
                log.error(
                    "table %s: the %s bot at %s was refused: %s",
                    table.code,
                    turn.level,
                    turn.seat,
                    exc.to_json(),
                )
                self.passed.add(turn.seat)
                return False
            self._unsaved = None
            return True


class BotDriver:
    """Plays one table's bot seats on a thread of its own, started with the first bot."""

    def __init__(self, turns: BotTurns) -> None:
        self.turns = turns
        self.pause = PAUSE_SECONDS
        self.think_seconds = THINK_SECONDS
        self.enabled = False  # set by the hub when it starts serving
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._lock = threading.Lock()
        self._thinking = threading.Event()  # set: the bot thinking now is abandoned

    def start(self, pause: float, think_seconds: float) -> None:
        self.pause = max(0.0, pause)
        self.think_seconds = max(0.0, think_seconds)
        self.enabled = True
        self.wake()

    def wake(self) -> None:
        """Something changed at the table: look again (starting the thread if needed)."""
        if not self.enabled or self._stopping:
            return
        with self._lock:
            if self._thread is None and self.turns.has_bots():
                self._thread = threading.Thread(
                    target=self._run, name=f"bots-{self.turns.table.code}", daemon=True
                )
                self._thread.start()
        self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._thinking.set()
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=self.think_seconds + 2)

    def _run(self) -> None:
        while not self._stopping:
            # cleared before looking: a change after this wakes the wait below
            self._wake.clear()
            try:
                self._look()
            except Exception:  # logged, and looked at again: the table's bots never stop
                log.exception("table %s: a bot's turn failed", self.turns.table.code)
                self._wake.wait(RETRY_SECONDS)

    def _look(self) -> None:
        turn = self.turns.next_turn()
        if turn is None:
            self._wake.wait()
            return
        wait = max(turn.changed_at + self.pause, self.turns.retry_at) - time.monotonic()
        if wait > 0:
            self._wake.wait(wait)
            return  # the pause is over, or something changed: look again
        action = self.turns.unsaved_action(turn)
        if action is None:
            levels = self.turns.levels()
            fallback = levels[0] if levels else None
            self._thinking = threading.Event()
            if self._stopping:
                return
            now = self.turns.table.clock()
            action = think(turn, now, self.think_seconds, fallback, self._thinking)
        self.turns.play(turn, action)
