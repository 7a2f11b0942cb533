"""A Clockman game's state: plain data, cheap to copy, convertible to and from JSON.

What the companion keeps of a game whose board stays on the table: each player's circle
(or start, or field of the final straight), digits and cards; the turn; the virtual
symbol deck; the digit cards still on the board; the Whytooki set-up it dealt; and what
it waits for (a knocked player's defence, a trade offer, the check of a winner's cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as kept
from typing import Any

from engine.clockman.data import ClockmanData, load_data
from engine.clockman.digits import KEPT, Digits, empty
from engine.clockman.options import ClockmanOptions
from engine.core import serial
from engine.core.errors import SerializationError
from engine.core.rng import Rng, seed_from_hex, seed_to_hex

START, STRAIGHT = 0, 5  # a player's ``ring`` at the start field and on the final straight
PHASES = ("roll", "report", "done")
STATUSES = ("playing", "won", "out")
CARD_KINDS = ("now", "hidden", "open")  # sofort, verdeckt, offen
HELD_KINDS = ("hidden", "open")


def _sorted(hand: dict[str, int]) -> dict[str, int]:
    return dict(sorted(hand.items()))


@dataclass
class HeldCard:
    """An event card lying in front of a player: face down (``hidden``, read out when
    played) or face up (``open``, read out when drawn). ``label`` is the player's own
    note of its text, if any; a hidden card's label is for its holder's eyes only."""

    id: str
    kind: str
    label: str = ""


@dataclass
class Player:
    seat: str
    ring: int = START  # 0 the start field, 1-4 the circles, 5 the final straight
    field: int = 0  # on the straight: 1 to the last field (the last holds the Whytooki)
    furthest: int = START  # the innermost ring reached
    status: str = "playing"  # playing, won, or out (a revoked win)
    date: Digits = kept(default_factory=empty)  # digits in the date key
    pending: Digits = kept(default_factory=empty)  # taken, not yet transferred
    # symbol cards: pose -> count
    hand: dict[str, int] = kept(default_factory=dict, metadata=serial.rule(save=_sorted))
    # event cards lying in front; a card is replaced, never changed in place
    cards: list[HeldCard] = kept(default_factory=list, metadata=serial.rule(copy="shallow"))

    @property
    def holdings(self) -> Digits:
        return {d: self.date[d] + self.pending[d] for d in KEPT}

    @property
    def in_play(self) -> bool:
        return self.status == "playing"

    def card(self, card_id: str) -> HeldCard | None:
        return next((c for c in self.cards if c.id == card_id), None)


@dataclass
class Turn:
    """The turn under way. All of it is public: every seat's view shows it whole, so a
    field added here is shown to everyone."""

    seat: str
    number: int
    phase: str = "roll"  # roll: before the roll; report: the landing; done: may end
    die: int | None = None
    rolls: int = 0
    knocked: bool = False  # a knock reported for this roll
    outward: bool = False  # an outward passage reported for this roll
    played: dict[str, int] = kept(default_factory=dict)  # event cards played, by seat

    def to_json(self) -> dict[str, Any]:
        """Everything about the turn: the saved form and what every seat is shown."""
        return serial.to_json(self)


@dataclass
class Hit:
    """A knock the Raub or Hamster rule makes more of: the victim's defence (Raub), then
    the hitter's choice of digit."""

    hitter: str
    victim: str
    stage: str  # "defence" or "take"
    choices: tuple[str, ...] = ()  # digits the hitter may take
    digit_protected: bool = False
    knock_protected: bool = False


@dataclass
class Offer:
    number: int
    seat: str  # who offers: the player whose turn it is
    to: str
    give: tuple[str, ...]
    get: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)


@dataclass
class Check:
    """The Prüfungsregel: the winner's face-down cards, open to inspection."""

    winner: str
    cards: tuple[str, ...]  # ids of the cards lying face down at the win
    stage: str = "check"  # check: inspect or confirm; verdict: revoke or confirm
    kinds: tuple[str, ...] = ()  # what inspection found, card by card

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)


# The set-up and what the game waits for are replaced whole, never changed in place, so
# a copy shares them.
SHARED = serial.rule(copy="share")


@dataclass
class ClockmanState:
    options: ClockmanOptions
    seed: int = kept(metadata=serial.rule(save=seed_to_hex, load=seed_from_hex))
    rng: Rng
    players: dict[str, Player] = kept(metadata=serial.rule(keyed_by="seat"))
    order: tuple[str, ...]  # turn order, clockwise from the starter
    turn: Turn | None  # None once the game is over
    deck: list[str]  # the symbol deck, top first
    supply: dict[str, int]  # digit cards still on the board: 0, 1, 2, X, L
    rings: list[list[str]] = kept(metadata=SHARED)  # Whytooki poses, outermost first
    straights: dict[str, str] = kept(metadata=SHARED)  # the pose on each side's straight
    opening: list[dict[str, int]] = kept(default_factory=list, metadata=SHARED)  # start rolls
    hit: Hit | None = kept(default=None, metadata=SHARED)
    offer: Offer | None = kept(default=None, metadata=SHARED)
    check: Check | None = kept(default=None, metadata=SHARED)
    cards_drawn: int = 0  # event cards drawn so far (their ids count up)
    offers_made: int = 0
    winners: list[str] = kept(default_factory=list)
    reason: str | None = None
    undo_floor: int = 0  # log length before which nothing may be undone
    data: ClockmanData = kept(
        default_factory=load_data, compare=False, repr=False, metadata=serial.rule(saved=False)
    )

    @property
    def over(self) -> bool:
        return self.turn is None

    def player(self, seat: str) -> Player:
        return self.players[seat]

    @property
    def need(self) -> dict[str, int]:
        return self.data.need

    def event_deck(self) -> int:
        """Event cards in the deck: those not lying in front of a player."""
        return self.data.event_cards - sum(len(p.cards) for p in self.players.values())

    def clone(self) -> ClockmanState:
        """A deep copy (every game action makes one)."""
        return serial.clone(self)

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self)

    @classmethod
    def from_json(cls, data: object) -> ClockmanState:
        return serial.read_state(cls, data, "Clockman state", cls.check_sound)

    def check_sound(self) -> None:
        """Refuse a state that could not have come from play (a hand-edited save)."""
        problems = []
        data = self.data
        if list(self.players) != list(self.options.seats):
            problems.append("the players are not the options' seats")
        if sorted(self.order) != sorted(self.options.seats):
            problems.append("the turn order is not the seats")
        poses = set(data.pose_ids)
        for p in self.players.values():
            if not START <= p.ring <= STRAIGHT or p.status not in STATUSES:
                problems.append(f"{p.seat} is on no ring of the board")
            if (p.ring == STRAIGHT) != (1 <= p.field <= data.straight_fields):
                problems.append(f"{p.seat}'s field on the straight is impossible")
            if set(p.hand) - poses or any(n < 0 for n in p.hand.values()):
                problems.append(f"{p.seat} holds symbol cards of no pose")
            if any(c.kind not in HELD_KINDS for c in p.cards):
                problems.append(f"{p.seat} holds an event card of no kind")
        for digit, total in data.digits.items():
            held = sum(
                p.date.get(digit, 0) + p.pending.get(digit, 0) for p in self.players.values()
            )
            if digit != "L" and held + self.supply.get(digit, -1) != total:
                problems.append(f"the {digit} cards do not add up to {total}")
        cards = len(self.deck) + sum(sum(p.hand.values()) for p in self.players.values())
        if cards != len(poses) * data.symbol_cards_per_pose or set(self.deck) - poses:
            problems.append("the symbol cards do not add up")
        if self.event_deck() < 0:
            problems.append("more event cards are held than the deck has")
        turn = self.turn
        if turn is not None and (turn.seat not in self.players or turn.phase not in PHASES):
            problems.append("the turn names an unknown seat or phase")
        if turn is not None and turn.die is not None and not 1 <= turn.die <= data.die_faces:
            problems.append("the die shows no face of the die")
        if problems:
            raise SerializationError("not a Clockman state: " + "; ".join(problems))
