"""The game state: plain data, cheap to copy, convertible to and from JSON."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

from engine.clacks.data import ROUTE_TOWERS, plain_letters
from engine.clacks.errors import BadOptions, OptionOutOfRange
from engine.clacks.geometry import SEAT_LIST, Colour, Seat
from engine.clacks.mode_state import TEAM_MODES, RaceState, TeamState
from engine.core import serial
from engine.core.options import OptionRange
from engine.core.rng import Rng
from engine.core.saves import saved_with_seed, seed_from_json

MODES = ("competitive", "coop", "solitaire", "junior")
ROUTES = ("easy", "hard")
WORD_LISTS = ("en", "cs")  # the Clacks Cards by language: the English and Czech editions'
DEFAULT_SEATS: dict[int, tuple[Seat, ...]] = {
    2: (Seat.SOUTH, Seat.NORTH),
    3: (Seat.SOUTH, Seat.WEST, Seat.NORTH),
    4: (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST),
}
# Default seats per mode and player count. Junior players sit at right angles, one on a
# red and one on a green side, with Ankh-Morpork (the south-west corner) between them.
MODE_SEATS: dict[str, dict[int, tuple[Seat, ...]]] = {
    "competitive": DEFAULT_SEATS,
    "coop": DEFAULT_SEATS,
    "solitaire": {1: (Seat.SOUTH,)},
    "junior": {2: (Seat.SOUTH, Seat.WEST)},
}


def default_seats(mode: str, players: int) -> tuple[Seat, ...]:
    """The usual seats for ``players`` in ``mode``; raises BadOptions for a bad count."""
    by_count = MODE_SEATS.get(mode)
    if by_count is None:
        raise BadOptions(reason="unknown_mode", mode=mode, modes=", ".join(MODES))
    if players not in by_count:
        counts = sorted(by_count)
        if len(counts) == 1:
            raise BadOptions(reason="players_exactly", mode=mode, count=counts[0], players=players)
        raise BadOptions(
            reason="players", mode=mode, min=counts[0], max=counts[-1], players=players
        )
    return by_count[players]


MAX_WORD_LENGTH = 12
MAX_TURN_SECONDS = 86400
# The numeric options' ranges, checked for every game and stated by the lobby's schema.
# A stress limit below the dearest Jacquard's cost (3) would deal hands that can never
# be played, so nothing would ever happen; twice the rules' 5 is as far as a house rule
# goes. Four hands of 6 leave half of the 48 Jacquards to draw from, so a deal or a
# draw can never run out (the rules deal 3).
RANGES: dict[str, OptionRange] = {
    "stress_limit": OptionRange(3, 10),
    "hand_size": OptionRange(1, 6),
    "turn_seconds": OptionRange(1, MAX_TURN_SECONDS, whole=False),
    "start_time": OptionRange(0, 10**11, whole=False),  # the table's clock: Unix time
}


def typed_spelling(word: str) -> str:
    """A player's own word as typed, in capitals like the cards (Řeka -> ŘEKA)."""
    return unicodedata.normalize("NFC", word.strip()).upper()


def clean_word(word: str) -> str:
    """A player's own word as the Clacks alphabet can send it: letters A-Z, diacritics
    removed (Á is sent as A); anything else is refused naming the character."""
    letters = []
    for ch in unicodedata.normalize("NFC", word.strip()):
        plain = plain_letters(ch)
        if len(plain) != 1 or not "A" <= plain <= "Z":
            raise BadOptions(reason="character", character=ch, word=word)
        letters.append(plain)
    if not 1 <= len(letters) <= MAX_WORD_LENGTH:
        raise BadOptions(reason="word_length", most=MAX_WORD_LENGTH, letters=len(letters))
    return "".join(letters)


@dataclass(frozen=True)
class Options:
    """How a game is set up: mode, seats and variants.

    Modes: "competitive" (2-4 players, with the express, long_message and quick
    variants), "coop" (the Race to Genua for 2-4, with the long_distance and night_shift
    variants), "solitaire" (one player, co-op rules, night_shift allowed) and "junior"
    (two players at right angles). ``route`` ("easy" or "hard") is the co-op route, or
    in the junior race the red seat's route (the green seat travels the other one).

    ``words`` replaces the dealt Clacks Cards with players' own words: competitive, one
    list per seat (one word, two with long_message); junior, one list of two words per
    seat; co-op and solitaire, one list of two words for the whole team. A message of
    two words must have 10 letters between them, because with SPACE and END it lights
    the route's 12 towers, the last one in Genua.
    """

    mode: str = "competitive"
    seats: tuple[Seat, ...] = ()  # () = the mode's usual two seats, or its only count's
    express: bool = False  # Clacks Express: timed turns
    long_message: bool = False  # two words, SPACE between, END after
    quick: bool = False  # Quick Game: no sabotage, the round completes
    # House rule, off by default (the published setup deals every player a Fault Report):
    # in a two-player competitive game the starting player is dealt none, which evens
    # out the first move's advantage between equal players (docs/balance.md).
    balanced_start: bool = False
    turn_seconds: float = 60.0  # Clacks Express
    start_time: float = 0.0  # the table clock when the first turn starts
    stress_limit: int = 5
    hand_size: int = 3
    words: tuple[
        tuple[str, ...], ...
    ] = ()  # players' own words, one list per seat; () = deal cards
    # the same words as the players typed them (ŘEKA), beside the plain letters in
    # ``words`` (REKA) that the lamps spell; saves from before it load with () and show
    # the plain letters
    spellings: tuple[tuple[str, ...], ...] = ()
    route: str = "easy"
    word_list: str = "en"  # which edition's Clacks Cards are dealt (a table's language)
    long_distance: bool = False  # co-op: hands hidden from teammates, no hints
    night_shift: bool = False  # co-op: Fault stamps reveal Fault Reports at once

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise BadOptions(reason="unknown_mode", mode=self.mode, modes=", ".join(MODES))
        if self.word_list not in WORD_LISTS:
            raise BadOptions(
                reason="unknown_word_list",
                word_list=self.word_list,
                word_lists=", ".join(WORD_LISTS),
            )
        if not self.seats:
            counts = MODE_SEATS[self.mode]
            only = next(iter(counts.values())) if len(counts) == 1 else counts[2]
            object.__setattr__(self, "seats", only)
        for name, allowed in RANGES.items():
            allowed.check(name, getattr(self, name), OptionOutOfRange)
        self._keep_spellings()
        if len(set(self.seats)) != len(self.seats):
            raise BadOptions(reason="seat_twice")
        if self.mode == "competitive":
            self._check_competitive()
        else:
            self._check_race_to_genua()

    def _keep_spellings(self) -> None:
        """Clean the players' words to the letters the lamps send, keeping each as typed."""
        if not self.words:
            if self.spellings:
                raise BadOptions(reason="spellings_alone")
            return
        cleaned = tuple(tuple(clean_word(w) for w in ws) for ws in self.words)
        typed = self.spellings or tuple(tuple(typed_spelling(w) for w in ws) for ws in self.words)
        if [len(ws) for ws in typed] != [len(ws) for ws in cleaned] or any(
            clean_word(spelling) != word
            for spellings, words in zip(typed, cleaned, strict=True)
            for spelling, word in zip(spellings, words, strict=True)
        ):
            raise BadOptions(reason="spellings")
        object.__setattr__(self, "words", cleaned)
        object.__setattr__(self, "spellings", tuple(tuple(map(typed_spelling, ws)) for ws in typed))

    def spelled(self, words: list[str]) -> list[str] | None:
        """The players' own ``words`` as typed, when they are one of the typed lists."""
        for plain, typed in zip(self.words, self.spellings, strict=True):
            if list(plain) == words:
                return list(typed)
        return None

    def _check_competitive(self) -> None:
        if self.words:
            if len(self.words) != len(self.seats):
                raise BadOptions(
                    reason="word_lists", seats=len(self.seats), lists=len(self.words)
                )
            needed = self.words_per_player
            for seat, ws in zip(self.seats, self.words, strict=True):
                if len(ws) != needed:
                    raise BadOptions(
                        reason="seat_words", seat=seat.label, needed=needed, given=len(ws)
                    )
        if not 2 <= len(self.seats) <= 4:
            raise BadOptions(
                reason="players", mode=self.mode, min=2, max=4, players=len(self.seats)
            )
        if len(self.seats) == 2 and self.seats[0].opposite is not self.seats[1]:
            raise BadOptions(reason="facing")
        for name in ("long_distance", "night_shift"):
            if getattr(self, name):
                raise BadOptions(reason="coop_variant", variant=name)
        if self.route != "easy":
            raise BadOptions(reason="route_competitive")

    def _check_race_to_genua(self) -> None:
        """The modes played on the map: co-op, solitaire and junior."""
        default_seats(self.mode, len(self.seats))  # raises for a wrong player count
        for name in ("express", "long_message", "quick"):
            if getattr(self, name):
                raise BadOptions(reason="competitive_variant", variant=name, mode=self.mode)
        if self.stress_limit != 5 or self.hand_size != 3:
            raise BadOptions(reason="competitive_limits", mode=self.mode)
        if self.route not in ROUTES:
            raise BadOptions(reason="unknown_route", route=self.route, routes=", ".join(ROUTES))
        if self.long_distance and self.mode != "coop":
            raise BadOptions(reason="long_distance")
        if self.night_shift and self.mode not in TEAM_MODES:
            raise BadOptions(reason="night_shift")
        if self.mode == "junior":
            colours = {s.colour for s in self.seats}
            if colours != {Colour.RED, Colour.GREEN}:
                raise BadOptions(reason="junior_seats")
        if not self.words:
            return
        lists = 1 if self.mode in TEAM_MODES else len(self.seats)
        if len(self.words) != lists:
            raise BadOptions(
                reason="message_lists", mode=self.mode, lists=lists, given=len(self.words)
            )
        for ws in self.words:
            if len(ws) != 2:
                raise BadOptions(reason="message_words", mode=self.mode, given=len(ws))
            letters = sum(len(w) for w in ws)
            if letters + 2 != ROUTE_TOWERS:
                raise BadOptions(
                    reason="message_letters",
                    first=ws[0],
                    second=ws[1],
                    letters=letters,
                    needed=ROUTE_TOWERS - 2,
                    towers=ROUTE_TOWERS,
                )

    @classmethod
    def for_players(cls, players: int, mode: str = "competitive", **kwargs: Any) -> Options:
        return cls(mode=mode, seats=default_seats(mode, players), **kwargs)

    @property
    def words_per_player(self) -> int:
        """Words per message: the team's message in co-op, each player's otherwise."""
        if self.mode == "competitive":
            return 2 if self.long_message else 1
        return 2

    @property
    def hints_allowed(self) -> bool:
        """Long Distance forbids the team to advise each other, so hints are off too."""
        return not self.long_distance

    @property
    def dwarf_seat(self) -> Seat | None:
        """The player with no one opposite, whom the Deep Dwarf follows (3 players)."""
        if self.mode != "competitive" or len(self.seats) != 3:
            return None
        return next(s for s in self.seats if s.opposite not in self.seats)

    def to_json(self) -> dict[str, Any]:
        return dict(self._json)

    @cached_property
    def _json(self) -> dict[str, Any]:
        return serial.to_json(self)

    @classmethod
    def from_json(cls, data: object) -> Options:
        if not isinstance(data, dict):
            raise BadOptions(reason="not_object")
        known = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise BadOptions(reason="unknown_options", options=", ".join(sorted(unknown)))
        kwargs: dict[str, Any] = {}
        for name, value in data.items():
            if name == "seats":
                kwargs[name] = seats_from_json(value)
            elif name in ("words", "spellings"):
                if not isinstance(value, list) or not all(
                    isinstance(ws, list) and all(isinstance(w, str) for w in ws) for ws in value
                ):
                    raise BadOptions(reason="word_lists_type", option=name)
                kwargs[name] = tuple(tuple(ws) for ws in value)
            elif name in ("mode", "route", "word_list"):
                if not isinstance(value, str):
                    raise BadOptions(reason="not_string", option=name)
                kwargs[name] = value
            elif isinstance(getattr(cls, name, None), bool):
                if not isinstance(value, bool):
                    raise BadOptions(reason="not_boolean", option=name)
                kwargs[name] = value
            else:  # a number: whole or not, in its range (checked again by __init__)
                allowed = RANGES[name]
                allowed.check(name, value, OptionOutOfRange)
                kwargs[name] = value if allowed.whole else float(value)
        return cls(**kwargs)


def seats_from_json(value: object) -> tuple[Seat, ...]:
    """The ``seats`` option: a list of seat names."""
    if not isinstance(value, list):
        raise BadOptions(reason="seats_list")
    unknown = [seat for seat in value if not _is_seat(seat)]
    if unknown:
        raise BadOptions(reason="unknown_seat", seat=str(unknown[0]), seats=SEAT_LIST)
    return tuple(Seat.parse(seat) for seat in value)


def _is_seat(value: object) -> bool:
    try:
        Seat.parse(value)
    except ValueError:
        return False
    return True


@dataclass
class PlayerState:
    seat: Seat
    words: list[str]
    message: list[str]  # the symbols to transmit, in order
    progress: int = 0  # symbols transmitted so far
    hand: list[str] = field(default_factory=list)  # Jacquard ids
    faults: list[str] = field(default_factory=list)  # Fault Report ids
    pawn: str | None = None  # tower name; None while on the start button
    must_leave: str | None = None  # the tower this player transmitted from last turn
    sabotaged: bool = False
    last_turn_stress: int = 0
    finished: bool = False

    @property
    def next_symbol(self) -> str | None:
        return self.message[self.progress] if self.progress < len(self.message) else None


@dataclass
class TurnState:
    seat: Seat
    number: int = 1  # turns since the game began
    round: int = 1
    phase: str = "play"  # play | sabotage | timeout_discard
    stress_spent: int = 0
    stress_limit: int = 5
    jacquards_played: int = 0
    can_move: bool = True
    start_tower: str | None = None
    flipped: int = 0  # lamps flipped during this turn, by anyone
    started_at: float = 0.0


@dataclass
class Sabotage:
    target: Seat  # the player who sent their final symbol
    tower: str  # the tower it was sent from


@dataclass
class ClacksState:
    options: Options
    seed: int = field(metadata=serial.rule(load=seed_from_json))  # saved beside the rng's kind
    board: int
    players: dict[Seat, PlayerState] = field(metadata=serial.rule(keyed_by="seat"))
    order: list[Seat]  # turn order, starting player first
    turn: TurnState
    bag: list[str]
    discard: list[str]
    fault_deck: list[str]  # top first
    rng: Rng
    dwarf: str | None = None
    sabotage: Sabotage | None = None
    finishers: list[Seat] = field(default_factory=list)  # Quick Game: finished this round
    winner: Seat | None = None
    end_reason: str | None = None
    undo_floor: int = 0  # log entries before this index can no longer be undone
    # co-op and solitaire: the shared race to Genua; junior: the pawns' routes (neither
    # is in the saves of the other modes)
    team: TeamState | None = field(default=None, metadata=serial.rule(omit_none=True))
    race: RaceState | None = field(default=None, metadata=serial.rule(omit_none=True))

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    @property
    def winners(self) -> list[Seat]:
        """Everyone who won: the one winner, or in co-op the whole team or nobody (the
        Post Office won)."""
        if self.team is not None:
            return list(self.order) if self.team.result == "won" else []
        return [self.winner] if self.winner is not None else []

    def clone(self) -> ClacksState:
        """A deep copy (bots and simulations make one for every move they weigh)."""
        return serial.clone(self)

    def to_json(self) -> dict[str, Any]:
        return saved_with_seed(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClacksState:
        return serial.read_state(cls, data, "Clacks game state")
