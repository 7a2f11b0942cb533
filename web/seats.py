"""Who sits where at one table: the people holding seats (by their tokens), the seats
bots play, and the names typed in the lobby.

A seat's token is handed once to the device that claims the seat; only its digest is
kept (``SeatClaim.digest``, in memory and in the saves). Every request a seat makes is
checked here (``authorize``), and so is every stream that asks for a seat's view
(``visible_seat``): a token that no longer holds its seat (a new game without it, a
seat freed by the table) sees the public view only.

A seat moves to another device with a one-time ticket (``move_ticket``): the device
holding the seat asks for it and passes it on as a link; the device that opens the link
gets a new token (``take_over``) and the old token stops holding the seat at once. A
ticket works once, for ``MOVE_TICKET_SECONDS``, only while the device that asked still
holds the seat, and a newer ticket for the seat voids it; tickets are kept as digests.

Every method runs under the table's lock and ends, when it changed anything, in the
table's publish, so every page learns who sits where.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from engine.core.interface import JSON, Session
from engine.core.tutorial import TutorialSession
from web.errors import ApiError, saved_or_refused
from web.security import new_token, token_digest, token_matches
from web.stand_seats import bot_after_leaving
from web.store import SavedRoom, SavedSeat
from web.table_state import Publish, TableState

NAME_MAX = 24
MOVE_TICKET_SECONDS = 600.0
# A seat held only while its phone is there (a lesson's, and at a convention stand one a
# visitor took over from a bot) is let go this long after its last page closed (a reload
# or a phone that slept comes back well within it), or after it was claimed if no page
# of it ever opened: nobody holds a seat of a lesson they left, and nobody keeps the
# box's bot out of someone else's game without playing in it.
ABSENT_SECONDS = 30.0
TICKET_MAX = 256


@dataclass
class SeatClaim:
    digest: str  # of the seat's token; the token itself is only on the device holding it
    name: str
    connections: int = 0
    absences: int = 0  # how many times it was left with no page: only the last one counts


@dataclass
class MoveTicket:
    seat: str
    holder: str  # the digest of the token that asked for it
    expires: float  # time.monotonic()


class Seats:
    def __init__(
        self,
        table: TableState,
        kept: Callable[[], AbstractContextManager[None]],
        publish: Publish,
        bot_seated: Callable[[str], None],
    ) -> None:
        """``kept()`` is around a write of the saves that must succeed (web/saving.py);
        ``publish`` tells every page who sits where; ``bot_seated(seat)`` says that a
        bot took ``seat`` (or changed level)."""
        self.table = table
        self.kept = kept
        self.publish = publish
        self.bot_seated = bot_seated
        self.moves: dict[str, MoveTicket] = {}  # by the ticket's digest
        self.claims: dict[str, SeatClaim] = {}
        self.bots: dict[str, str] = {}  # seats bots play, with their level
        self.names: dict[str, str] = {}  # names typed in the lobby, per seat
        # at a convention stand: the seats visitors took over from bots, with the level
        # of the bot that takes each back when its visitor leaves
        self.handed_over: dict[str, str] = {}
        self.absent_seconds = ABSENT_SECONDS

    def restore(self, saved: SavedRoom) -> None:
        self.names = dict(saved.names)
        self.claims = {s: SeatClaim(c.digest, c.name) for s, c in saved.seats.items()}
        self.bots = dict(saved.bots)

    # ----------------------------------------------------------------- checks

    def require_seat(self, seat: str) -> None:
        session = self.table.require_session()
        if seat not in [s.id for s in session.seats]:
            raise ApiError(
                404,
                "unknown_seat",
                f"This game has no seat {seat!r}",
                seat=seat,
            )

    def authorize(self, seat: str, token: str | None) -> None:
        """Check that ``token`` holds ``seat``; the error says what to do about it."""
        self.require_seat(seat)
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
        with self.table.lock:
            self.authorize(seat, token)
        return seat

    def visible_seat(self, seat: str | None, token: str | None) -> str | None:
        """``seat`` while ``token`` still holds it (a new game or a release may take it
        away), else None: the public view."""
        if seat is None or token is None:
            return None
        claim = self.claims.get(seat)
        if claim is None or not token_matches(claim.digest, token):
            return self._carried_seat(token)
        return seat

    def _carried_seat(self, token: str) -> str | None:
        """The seat ``token`` holds now that its own went with the last game (a lesson
        took its phone into the learner's seat): the page follows it there."""
        return next(
            (s for s, claim in self.claims.items() if token_matches(claim.digest, token)), None
        )

    # ----------------------------------------------------------------- people

    def claim(self, seat: str, name: str | None, token: str | None) -> JSON:
        """Take a free seat (or rename your own); returns the seat's token."""
        table = self.table
        with table.lock:
            self.require_seat(seat)
            # at a convention stand a visitor takes over from the bot that kept the seat,
            # unless it is a lesson's scripted opponent (web/stand_seats.py)
            lesson_bots = table.session.tutorial_bots() if table.session is not None else {}
            handing_over = seat in self.bots and table.stand is not None and seat not in lesson_bots
            if seat in self.bots and not handing_over:
                raise ApiError(
                    409,
                    "bot_seat",
                    f"A {self.bots[seat]} bot plays {seat}; the table can give the seat back",
                    seat=seat,
                    level=self.bots[seat],
                )
            held = self.claims.get(seat)
            if held is not None and not token_matches(held.digest, token):
                raise seat_taken(seat, held.name)
            clean = clean_name(name or "") or self.names.get(seat, "")
            given = token if held is not None and token else new_token()
            digest = token_digest(given)
            with saved_or_refused():
                if handing_over:
                    table.store.free_seat(table.code, seat)
                table.store.set_seat(table.code, seat, digest, clean)
            if handing_over:
                self.handed_over[seat] = self.bots[seat]
            self.bots.pop(seat, None)
            if held is None:
                held = SeatClaim(digest, clean)
                self.claims[seat] = held
                if self._held_while_present(seat):  # no page of it is open yet, and may never be
                    self._free_later(seat, held)
            else:
                held.name = clean
            self.publish([])
            return {"seat": seat, "token": given, "name": held.name}

    def move_ticket(self, seat: str, token: str | None) -> JSON:
        """A one-time ticket that seats another device in ``seat`` instead of this one."""
        with self.table.lock:
            self.authorize(seat, token)
            now = time.monotonic()
            self.moves = {
                digest: ticket
                for digest, ticket in self.moves.items()
                if ticket.expires > now and ticket.seat != seat
            }
            ticket = new_token()
            self.moves[token_digest(ticket)] = MoveTicket(
                seat, self.claims[seat].digest, now + MOVE_TICKET_SECONDS
            )
            return {"seat": seat, "ticket": ticket, "expires_in": MOVE_TICKET_SECONDS}

    def take_over(self, seat: str, ticket: str) -> JSON:
        """The device with a move ticket takes ``seat``: a new token for it, and the old
        token holds nothing from now on."""
        table = self.table
        with table.lock:
            self.require_seat(seat)
            found = (
                self.moves.pop(token_digest(ticket), None) if len(ticket) <= TICKET_MAX else None
            )
            held = self.claims.get(seat)
            if (
                found is None
                or found.seat != seat
                or found.expires <= time.monotonic()
                or held is None
                or held.digest != found.holder
            ):
                raise ApiError(
                    403,
                    "bad_ticket",
                    "This link to move the seat was used already, has expired or was "
                    "replaced; ask for a new one on the device that holds the seat",
                    seat=seat,
                )
            given = new_token()
            digest = token_digest(given)
            with self.kept():
                table.store.set_seat(table.code, seat, digest, held.name)
            held.digest = digest
            self.publish([])
            return {"seat": seat, "token": given, "name": held.name}

    def release(self, seat: str, token: str | None) -> None:
        """The device holding ``seat`` gives it up (``_let_go``)."""
        with self.table.lock:
            self.authorize(seat, token)
            self._let_go(seat)

    def _let_go(self, seat: str) -> None:
        """Nobody holds ``seat`` from now: at a convention stand a bot of the box takes it
        back where the game has bots (web/stand_seats.py); anywhere else it is free."""
        table = self.table
        session = table.require_session()
        level = (
            bot_after_leaving(session.bot_levels(), self._in_lesson(), self.handed_over.get(seat))
            if table.stand is not None
            else None
        )
        if level is None:
            self._free(seat)
            return
        with saved_or_refused():
            table.store.set_bot(table.code, seat, level)
        self.claims.pop(seat, None)
        self.handed_over.pop(seat, None)
        self.bots[seat] = level
        self.bot_seated(seat)
        self.publish([])

    def free_seat(self, seat: str) -> None:
        """The table frees a seat, whoever holds it (a phone that left, a stranger, a
        bot), for a person to take."""
        with self.table.lock:
            self.require_seat(seat)
            if seat not in self.claims and seat not in self.bots:
                raise ApiError(409, "seat_free", f"Nobody holds {seat}", seat=seat)
            self._free(seat)

    def free_all(self) -> None:
        """Every seat is let go, people's and bots' (a convention stand between visitors)."""
        table = self.table
        with table.lock:
            if not self.claims and not self.bots:
                return
            with saved_or_refused():
                table.store.free_seats(table.code)
            self.claims.clear()
            self.bots.clear()
            self.names.clear()
            self.handed_over.clear()
            self.publish([])

    def _free(self, seat: str) -> None:
        table = self.table
        with saved_or_refused():
            table.store.free_seat(table.code, seat)
        self.claims.pop(seat, None)
        self.bots.pop(seat, None)
        self.handed_over.pop(seat, None)
        self.publish([])

    def connected(self, seat: str | None, change: int) -> bool:
        """A page of ``seat`` opened (+1) or closed (-1); True if the seat is held, so
        its presence changed for everyone to see."""
        claim = self.claims.get(seat) if seat is not None else None
        if seat is None or claim is None:
            return False
        claim.connections = max(0, claim.connections + change)
        if claim.connections == 0 and self._held_while_present(seat):
            self._free_later(seat, claim)
        return True

    def free_absent_learners(self) -> None:
        """After a restart: a lesson's seats whose phones do not come back are let go."""
        if self._in_lesson():
            for seat, claim in self.claims.items():
                self._free_later(seat, claim)

    def _free_later(self, seat: str, claim: SeatClaim) -> None:
        """Let ``seat`` go in a while unless a page of it opens meanwhile: counted from
        now, whatever an earlier absence had left of its time."""
        claim.absences += 1
        timer = threading.Timer(
            self.absent_seconds, self._free_if_left, (seat, claim, claim.absences)
        )
        timer.daemon = True
        timer.start()

    def _in_lesson(self) -> bool:
        """Whether the table's game is a guided first game (one for a single player
        seats no bot of its own)."""
        return isinstance(self.table.session, TutorialSession)

    def _held_while_present(self, seat: str) -> bool:
        """Whether ``seat`` is held only while a page of it is open (``ABSENT_SECONDS``):
        a lesson's, and one a visitor at a convention stand took over from a bot."""
        return self._in_lesson() or seat in self.handed_over

    def _free_if_left(self, seat: str, claim: SeatClaim, absence: int) -> None:
        """The phone holding ``seat`` has been gone a while (or never came): the
        lesson's seat is free again, the stand's bot plays its seat again."""
        with self.table.lock:
            if (
                self.claims.get(seat) is not claim
                or claim.connections
                or claim.absences != absence
                or not self._held_while_present(seat)
            ):
                return
            # not saved: it stays held, and the table screen says the disk refused
            with contextlib.suppress(ApiError):
                self._let_go(seat)

    # ----------------------------------------------------------------- bots

    def seat_bot(self, seat: str, level: object) -> JSON:
        """A bot of ``level`` takes a free seat (or a bot's seat changes level)."""
        table = self.table
        with table.lock:
            self.require_seat(seat)
            session = table.require_session()
            chosen = check_level(session.bot_levels(), level)
            held = self.claims.get(seat)
            if held is not None:
                raise seat_taken(seat, held.name)
            with saved_or_refused():
                table.store.set_bot(table.code, seat, chosen)
            self.bots[seat] = chosen
            self.bot_seated(seat)
            self.publish([])
            return {"seat": seat, "bot": chosen}

    # ----------------------------------------------------------------- a game put on the table

    def bots_for(
        self,
        session: Session,
        seat_ids: list[str],
        asked: dict[str, str] | None,
        freed: tuple[str, ...] = (),
    ) -> dict[str, str]:
        """The bots of a game about to be put on the table: those ``asked`` for (checked;
        a person's seat only when it is ``freed``), else the table's bots on seats the
        game also has."""
        levels = session.bot_levels()
        if asked is None:
            return {s: lv for s, lv in self.bots.items() if s in seat_ids and lv in levels}
        for seat, level in asked.items():
            if seat not in seat_ids:
                raise ApiError(
                    400, "bad_field", f"This game has no seat {seat!r} for a bot", field="bots"
                )
            check_level(levels, level)
            held = self.claims.get(seat)
            if held is not None and seat not in freed:
                raise seat_taken(seat, held.name)
        return dict(asked)

    def names_for(
        self, seat_ids: list[str], names: dict[str, str] | None, freed: tuple[str, ...] = ()
    ) -> tuple[dict[str, str], dict[str, str]]:
        """For a new game: the names typed in the lobby (those given, cleaned, else the
        table's) and the players' names kept with the game (a seated player's own name
        before the lobby's)."""
        kept = dict(self.names)
        if names is not None:
            kept = {s: clean_name(n) for s, n in names.items() if s in seat_ids and n}
        in_game = {s: n for s, n in kept.items() if s in seat_ids}
        for seat, claim in self.claims.items():
            if seat in seat_ids and claim.name and seat not in freed:
                in_game[seat] = claim.name
        return kept, in_game

    def learner_to_carry(
        self, seat_ids: list[str], learner: str, freed: tuple[str, ...]
    ) -> SeatClaim | None:
        """For a lesson about to start whose learner's seat nobody keeps: the person
        holding a seat the lesson lacks (the last game's player, the one who will learn),
        else None."""
        if learner in self.claims and learner not in freed:
            return None
        return next((c for s, c in self.claims.items() if s not in seat_ids), None)

    def carry_saved(self, learner: str, claim: SeatClaim) -> None:
        """Saves that ``claim`` holds the lesson's ``learner`` seat (its token unchanged)."""
        self.table.store.set_seat(self.table.code, learner, claim.digest, claim.name)

    def carry(self, learner: str, claim: SeatClaim) -> None:
        """``claim`` holds ``learner`` from now on: its page follows it there (see
        ``visible_seat``) and opens its streams afresh; a page that never does lets the
        seat go, as a learner who leaves does."""
        claim.connections = 0
        self.claims[learner] = claim
        self._free_later(learner, claim)

    def seated(
        self,
        seat_ids: list[str],
        bots: dict[str, str],
        names: dict[str, str] | None = None,
        freed: tuple[str, ...] = (),
        held: dict[str, SavedSeat] | None = None,
    ) -> None:
        """A game with ``seat_ids`` is on the table: seats it lacks, and ``freed`` ones,
        are let go, and when ``held`` is given only those tokens hold its seats (the
        game's own players)."""
        kept = {s: c for s, c in self.claims.items() if s in seat_ids and s not in freed}
        if held is not None:
            kept = {
                seat: claim
                if (claim := kept.get(seat)) is not None and claim.digest == holder.digest
                else SeatClaim(holder.digest, holder.name)
                for seat, holder in held.items()
                if seat in seat_ids
            }
        self.claims = kept
        self.bots = bots
        # a bot of the last game takes back only a seat of this one it was taken from
        self.handed_over = {s: lv for s, lv in self.handed_over.items() if s in kept}
        if names is not None:
            self.names = names

    def all_held(self, session: Session) -> bool:
        """Whether a person or a bot holds every seat of the game."""
        return all(info.id in self.claims or info.id in self.bots for info in session.seats)

    def to_json(self, session: Session) -> list[JSON]:
        """Who holds each of the game's seats, for every page."""
        seats = []
        for info in session.seats:
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
        return seats


def check_level(levels: list[str], level: object) -> str:
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


def seat_taken(seat: str, name: str) -> ApiError:
    # said as a person reads it on a phone: no seat id, and never "north sits at north"
    if not name:
        return ApiError(409, "seat_taken", "Someone already sits at that seat", seat=seat)
    return ApiError(409, "seat_taken", f"{name} already sits at that seat", seat=seat, name=name)


def clean_name(name: object) -> str:
    if not isinstance(name, str):
        return ""
    printable = "".join(ch for ch in name if ch.isprintable()).strip()
    return printable[:NAME_MAX]
