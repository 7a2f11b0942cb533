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
from engine.core.errors import IllegalAction, SerializationError
from engine.core.rng import Rng, seed_from_hex, seed_to_hex

START, STRAIGHT = 0, 5  # a player's ``ring`` at the start field and on the final straight
PHASES = ("roll", "report", "done")
STATUSES = ("playing", "won", "out")
CARD_KINDS = ("now", "hidden", "open")  # sofort, verdeckt, offen
HELD_KINDS = ("hidden", "open")


@dataclass
class HeldCard:
    """An event card lying in front of a player: face down (``hidden``, read out when
    played) or face up (``open``, read out when drawn). ``label`` is the player's own
    note of its text, if any; a hidden card's label is for its holder's eyes only."""

    id: str
    kind: str
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "label": self.label}


@dataclass
class Player:
    seat: str
    ring: int = START  # 0 the start field, 1-4 the circles, 5 the final straight
    field: int = 0  # on the straight: 1 to the last field (the last holds the Whytooki)
    furthest: int = START  # the innermost ring reached
    status: str = "playing"  # playing, won, or out (a revoked win)
    date: Digits = kept(default_factory=empty)  # digits in the date key
    pending: Digits = kept(default_factory=empty)  # taken, not yet transferred
    hand: dict[str, int] = kept(default_factory=dict)  # symbol cards: pose -> count
    cards: list[HeldCard] = kept(default_factory=list)  # event cards lying in front

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
    seat: str
    number: int
    phase: str = "roll"  # roll: before the roll; report: the landing; done: may end
    die: int | None = None
    rolls: int = 0
    knocked: bool = False  # a knock reported for this roll
    outward: bool = False  # an outward passage reported for this roll
    played: dict[str, int] = kept(default_factory=dict)  # event cards played, by seat


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
        return {
            "number": self.number,
            "seat": self.seat,
            "to": self.to,
            "give": list(self.give),
            "get": list(self.get),
        }


@dataclass
class Check:
    """The Prüfungsregel: the winner's face-down cards, open to inspection."""

    winner: str
    cards: tuple[str, ...]  # ids of the cards lying face down at the win
    stage: str = "check"  # check: inspect or confirm; verdict: revoke or confirm
    kinds: tuple[str, ...] = ()  # what inspection found, card by card

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "cards": list(self.cards),
            "stage": self.stage,
            "kinds": list(self.kinds),
        }


@dataclass
class ClockmanState:
    options: ClockmanOptions
    seed: int
    rng: Rng
    players: dict[str, Player]
    order: tuple[str, ...]  # turn order, clockwise from the starter
    turn: Turn | None  # None once the game is over
    deck: list[str]  # the symbol deck, top first
    supply: dict[str, int]  # digit cards still on the board: 0, 1, 2, X, L
    rings: list[list[str]]  # Whytooki poses on each ring, outermost first
    straights: dict[str, str]  # the pose on each colour's straight, by side
    opening: list[dict[str, int]] = kept(default_factory=list)  # the start rolls
    hit: Hit | None = None
    offer: Offer | None = None
    check: Check | None = None
    cards_drawn: int = 0  # event cards drawn so far (their ids count up)
    offers_made: int = 0
    winners: list[str] = kept(default_factory=list)
    reason: str | None = None
    undo_floor: int = 0  # log length before which nothing may be undone
    data: ClockmanData = kept(default_factory=load_data, compare=False, repr=False)

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
        """A deep copy, field by field (many times faster than copy.deepcopy or
        dataclasses.replace; every game action makes one). Held cards, offers and
        checks are never changed in place, so they are shared."""
        turn, hit, check = self.turn, self.hit, self.check
        return ClockmanState(
            options=self.options,
            seed=self.seed,
            rng=self.rng.copy(),
            players={
                seat: Player(
                    p.seat,
                    p.ring,
                    p.field,
                    p.furthest,
                    p.status,
                    dict(p.date),
                    dict(p.pending),
                    dict(p.hand),
                    list(p.cards),
                )
                for seat, p in self.players.items()
            },
            order=self.order,
            turn=None
            if turn is None
            else Turn(
                turn.seat,
                turn.number,
                turn.phase,
                turn.die,
                turn.rolls,
                turn.knocked,
                turn.outward,
                dict(turn.played),
            ),
            deck=list(self.deck),
            supply=dict(self.supply),
            rings=self.rings,
            straights=self.straights,
            opening=self.opening,
            hit=hit,
            offer=self.offer,
            check=check,
            cards_drawn=self.cards_drawn,
            offers_made=self.offers_made,
            winners=list(self.winners),
            reason=self.reason,
            undo_floor=self.undo_floor,
            data=self.data,
        )

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        turn, hit = self.turn, self.hit
        return {
            "options": self.options.to_json(),
            "seed": seed_to_hex(self.seed),
            "rng": self.rng.to_json(),
            "players": [
                {
                    "seat": p.seat,
                    "ring": p.ring,
                    "field": p.field,
                    "furthest": p.furthest,
                    "status": p.status,
                    "date": dict(p.date),
                    "pending": dict(p.pending),
                    "hand": dict(sorted(p.hand.items())),
                    "cards": [c.to_json() for c in p.cards],
                }
                for p in self.players.values()
            ],
            "order": list(self.order),
            "turn": None
            if turn is None
            else {
                "seat": turn.seat,
                "number": turn.number,
                "phase": turn.phase,
                "die": turn.die,
                "rolls": turn.rolls,
                "knocked": turn.knocked,
                "outward": turn.outward,
                "played": dict(turn.played),
            },
            "deck": list(self.deck),
            "supply": dict(self.supply),
            "rings": [list(r) for r in self.rings],
            "straights": dict(self.straights),
            "opening": [dict(r) for r in self.opening],
            "hit": None
            if hit is None
            else {
                "hitter": hit.hitter,
                "victim": hit.victim,
                "stage": hit.stage,
                "choices": list(hit.choices),
                "digit_protected": hit.digit_protected,
                "knock_protected": hit.knock_protected,
            },
            "offer": None if self.offer is None else self.offer.to_json(),
            "check": None if self.check is None else self.check.to_json(),
            "cards_drawn": self.cards_drawn,
            "offers_made": self.offers_made,
            "winners": list(self.winners),
            "reason": self.reason,
            "undo_floor": self.undo_floor,
        }

    @classmethod
    def from_json(cls, data: object) -> ClockmanState:
        if not isinstance(data, dict):
            raise SerializationError("a Clockman state must be a JSON object")
        try:
            state = cls._read(data)
        except (KeyError, TypeError, ValueError, AttributeError, IllegalAction) as exc:
            raise SerializationError(f"not a Clockman state: {exc!r}") from exc
        state.check_sound()
        return state

    @classmethod
    def _read(cls, data: dict[str, Any]) -> ClockmanState:
        def digits(raw: dict[str, Any]) -> Digits:
            return {d: int(raw[d]) for d in KEPT}

        players = {
            str(p["seat"]): Player(
                seat=str(p["seat"]),
                ring=int(p["ring"]),
                field=int(p["field"]),
                furthest=int(p["furthest"]),
                status=str(p["status"]),
                date=digits(p["date"]),
                pending=digits(p["pending"]),
                hand={str(k): int(v) for k, v in p["hand"].items()},
                cards=[HeldCard(str(c["id"]), str(c["kind"]), str(c["label"])) for c in p["cards"]],
            )
            for p in data["players"]
        }
        t, h, o, c = data["turn"], data["hit"], data["offer"], data["check"]
        return cls(
            options=ClockmanOptions.from_json(data["options"]),
            seed=seed_from_hex(data["seed"]),
            rng=Rng.from_json(data["rng"]),
            players=players,
            order=tuple(str(s) for s in data["order"]),
            turn=None
            if t is None
            else Turn(
                seat=str(t["seat"]),
                number=int(t["number"]),
                phase=str(t["phase"]),
                die=None if t["die"] is None else int(t["die"]),
                rolls=int(t["rolls"]),
                knocked=bool(t["knocked"]),
                outward=bool(t["outward"]),
                played={str(k): int(v) for k, v in t["played"].items()},
            ),
            deck=[str(p) for p in data["deck"]],
            supply={str(k): int(v) for k, v in data["supply"].items()},
            rings=[[str(p) for p in ring] for ring in data["rings"]],
            straights={str(k): str(v) for k, v in data["straights"].items()},
            opening=[{str(k): int(v) for k, v in r.items()} for r in data["opening"]],
            hit=None
            if h is None
            else Hit(
                hitter=str(h["hitter"]),
                victim=str(h["victim"]),
                stage=str(h["stage"]),
                choices=tuple(str(d) for d in h["choices"]),
                digit_protected=bool(h["digit_protected"]),
                knock_protected=bool(h["knock_protected"]),
            ),
            offer=None
            if o is None
            else Offer(
                int(o["number"]),
                str(o["seat"]),
                str(o["to"]),
                tuple(str(d) for d in o["give"]),
                tuple(str(d) for d in o["get"]),
            ),
            check=None
            if c is None
            else Check(
                str(c["winner"]),
                tuple(str(i) for i in c["cards"]),
                str(c["stage"]),
                tuple(str(k) for k in c["kinds"]),
            ),
            cards_drawn=int(data["cards_drawn"]),
            offers_made=int(data["offers_made"]),
            winners=[str(s) for s in data["winners"]],
            reason=None if data["reason"] is None else str(data["reason"]),
            undo_floor=int(data["undo_floor"]),
        )

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
