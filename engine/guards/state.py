"""A game's state: plain data the rules change, rebuilt from the action log on replay.

The companion keeps what the players would otherwise keep on paper or in their heads:
each player's Guild Card (attribute markers, dollars, spells returned, ailments), their
hand (Volunteers, Scrolls, Items, held privately), their Saboteurs and where they are
planted (secret), the Spell Runs under way, the face-up Volunteers and what is left in
each deck, the Dragons in the city, and what the game is waiting for (``pending``: a
roll, a choice, a window in which other players may answer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import serial
from engine.core.rng import Rng, seed_to_hex
from engine.guards.cards import ATTRIBUTES, DECKS, Dragon, Item, Scroll, Volunteer
from engine.guards.data import GuildCard
from engine.guards.options import GuardsOptions

VOLUNTEERS_PER_DECK = 30
SCROLL_CARDS = 20
ITEM_CARDS = 20
FATE_CARDS = 36
START_DOLLARS = 5
FIRE_WATER = 3
PLACES = ("street", "hospital", "watch_house")
PHASES = ("setup", "start", "play", "over")

CardValues = Volunteer | Scroll | Item | Dragon


@dataclass
class Card:
    """A physical card the companion has been told about, and where it is now:
    ``deck``, ``display``, ``discard``, ``hand:<seat>``, ``planted:<seat>``,
    ``run:<seat>`` (a runner), ``fight`` (sent against a Dragon), ``pool`` (a face-down
    Dragon), ``city:<quadrant>`` (a Dragon in play), ``supply`` (a Scroll or Item in
    its deck) or ``gone`` (used up)."""

    uid: str
    kind: str  # volunteer, scroll, item, dragon
    values: CardValues
    origin: str  # catalogue or typed
    place: str
    item: str | None = None  # the Item a Volunteer carries (a runner, a Saboteur)


@dataclass
class Run:
    """A Spell Run: its runners on the way to (or waiting at) the player's Start Gate."""

    spell: str
    challenge: int  # 1 to 4
    runners: list[str]
    route: list[str]  # the Guild Quadrants announced
    stage: str = "window"  # window, strikes, gate
    passed: list[int] = field(default_factory=list)  # tests of the challenge passed
    struck: list[str] = field(default_factory=list)  # Saboteurs that acted on this run


@dataclass
class Final:
    """The Final Spell, collected in person: Magic 9 and Guild 9 at the Start Gate."""

    spell: str
    passed: list[str] = field(default_factory=list)  # "magic", "guild"
    at_gate: bool = False


@dataclass
class Player:
    seat: str
    card: GuildCard | None = None
    base: dict[str, int] = field(default_factory=dict)  # the attribute markers
    modifiers: dict[str, int] = field(default_factory=dict)  # lasting effects typed in
    dollars: int = START_DOLLARS
    returned: list[str] = field(default_factory=list)  # Great Spells returned, in order
    pox: bool = False
    injuries: int = 0
    curses: list[str] = field(default_factory=list)  # effects "until healed"
    hand: list[str] = field(default_factory=list)  # Volunteers
    scrolls: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    planted: dict[str, str] = field(default_factory=dict)  # quadrant -> Saboteur
    fire_water: int = 0  # an Alchemist's Fire Water tokens in hand
    fire_water_on: list[str] = field(default_factory=list)  # Alchemists whose token is on this player
    points: int = 0  # attribute points won and not yet placed
    house_turn: int | None = None  # own turn of the last Guild House visit (missed ones counted)
    turns: int = 0  # own turns begun
    missed: int = 0  # own turns missed (a Hospital's, a Watch House's)
    sent_home: int | None = None  # own turn in which a forced return bars the Guild House
    forced_home: int = 0  # times forced back to the Guild House (a Fate card, another player)
    place: str = "street"
    miss: int = 0  # turns still to miss
    jail_served: bool = False
    run: Run | None = None
    final: Final | None = None
    dealt: list[str] = field(default_factory=list)  # decks dealt from at set-up

    @property
    def guild(self) -> str | None:
        return self.card.guild if self.card is not None else None

    def effective(self, attribute: str) -> int:
        value = self.base.get(attribute, 0) + self.modifiers.get(attribute, 0)
        if attribute == "charm" and self.pox:
            value -= 1
        return value

    @property
    def ailments(self) -> int:
        return int(self.pox) + self.injuries + len(self.curses)

    @property
    def protected(self) -> bool:
        return self.place != "street"


@dataclass
class Turn:
    seat: str
    number: int  # turns of the game so far, this one included
    began: bool = False  # moved: a pass-through or stop report has been made
    planted: bool = False
    recalled: bool = False
    stopped: str | None = None  # the tile stopped on: recruit, tavern, spell, hospital, gate
    house: bool = False
    cast: list[str] = field(default_factory=list)  # Scrolls tried this turn, by anyone
    summoned: bool = False
    recruited: list[str] = field(default_factory=list)  # Volunteers recruited this turn


@dataclass
class Pending:
    """What the game waits for: ``kind`` (a roll, a choice, a window) from ``seats``."""

    kind: str
    seats: list[str]
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Recruiting:
    """A Volunteer being recruited: charmed, then perhaps bribed."""

    seat: str
    card: str
    deck: str
    source: str  # display, deck, tavern
    extra: bool = False  # the one extra recruit after a natural 8
    quadrant: str | None = None


@dataclass
class Combat:
    """An Ambush: a Saboteur against one runner, and at most one counter-attack."""

    attacker: str  # seat
    saboteur: str  # card
    quadrant: str
    defender: str  # seat
    runner: str  # card
    stage: str = "attack"  # attack, defence, counter, counter_defence
    attack_total: int = 0
    attack_natural: int = 0


@dataclass
class Fight:
    """Volunteers sent against a Dragon."""

    quadrant: str
    dragon: str
    reason: str  # summoned, called, chosen, last
    sent: dict[str, list[str]] = field(default_factory=dict)  # seat -> Volunteers
    exempt: list[str] = field(default_factory=list)  # the summoner with three Brethren
    forced: bool = True
    starter: str | None = None  # whose turn it is (for "nearest in turn order")


@dataclass
class GameState:
    # the options without the data tables, which the options' own JSON carries
    options: GuardsOptions = field(metadata=serial.rule(save=GuardsOptions.public_json))
    seed: int = field(metadata=serial.rule(save=seed_to_hex))
    rng: Rng
    players: dict[str, Player]
    phase: str = "setup"
    turn: Turn | None = None
    turns: int = 0
    steps: int = 0  # actions applied: a roll is shown on the lamps until the next one
    pending: list[Pending] = field(default_factory=list)
    cards: dict[str, Card] = field(default_factory=dict)
    typed: dict[str, int] = field(default_factory=dict)  # kind -> cards typed so far
    display: dict[str, list[str | None]] = field(default_factory=dict)  # face-up piles
    deck_left: dict[str, int] = field(default_factory=dict)
    discards: dict[str, list[str]] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=dict)  # scroll, item cards in the decks
    fate_left: int = FATE_CARDS
    fate_used: int = 0
    dragons: dict[str, str] = field(default_factory=dict)  # quadrant -> Dragon card
    lock: str | None = None  # the seat whose Spell Run froze the Saboteurs (the latest)
    locks: list[str] = field(default_factory=list)  # every announcer whose round runs on
    ability_used: dict[str, int] = field(default_factory=dict)  # seat -> game turn tried
    recruiting: Recruiting | None = None
    combat: Combat | None = None
    fight: Fight | None = None
    raid: dict[str, Any] | None = None  # the Spell Run (or Final Spell) being sabotaged
    strikes: list[dict[str, Any]] = field(default_factory=list)  # chosen, to resolve
    last_roll: dict[str, Any] | None = None  # the latest test, for the lamps and pages
    start_rolls: list[dict[str, int]] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    ending: str | None = None  # why the game ended
    ranking: list[str] = field(default_factory=list)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.options.seats

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def player(self, seat: str) -> Player:
        return self.players[seat]

    def card(self, uid: str) -> Card:
        return self.cards[uid]

    def volunteer(self, uid: str) -> Volunteer:
        values = self.cards[uid].values
        assert isinstance(values, Volunteer)
        return values

    def run_of(self, seat: str) -> Run:
        """The Spell Run ``seat`` is on; only asked where the rules know there is one."""
        run = self.players[seat].run
        assert run is not None
        return run

    def final_of(self, seat: str) -> Final:
        """The Final Challenge ``seat`` is taking; only asked where there is one."""
        final = self.players[seat].final
        assert final is not None
        return final

    @property
    def top(self) -> Pending | None:
        return self.pending[-1] if self.pending else None

    def to_json(self) -> dict[str, Any]:
        """Everything, for comparing two states (a replay against the game) and tests."""
        return serial.to_json(self)


def new_state(options: GuardsOptions, seed: int) -> GameState:
    state = GameState(
        options=options,
        seed=seed,
        rng=Rng(seed),
        players={seat: Player(seat) for seat in options.seats},
    )
    state.display = {deck: [None] for deck in DECKS}
    # each player is dealt a Lords & Ladies and a Man & Beast card; one of each deck is
    # turned face up
    dealt = len(options.seats)
    state.deck_left = {
        "lords_ladies": VOLUNTEERS_PER_DECK - dealt - 1,
        "man_beast": VOLUNTEERS_PER_DECK - dealt - 1,
        "shades_shadows": VOLUNTEERS_PER_DECK - 1,
    }
    state.discards = {deck: [] for deck in DECKS}
    state.supply = {"scroll": SCROLL_CARDS, "item": ITEM_CARDS}
    data = options.data
    # the catalogue's cards: (uid prefix, kind, the cards by key, where they start)
    catalogue: tuple[tuple[str, str, Mapping[str, CardValues], str], ...] = (
        ("cv", "volunteer", data.volunteers, "deck"),
        ("cs", "scroll", data.scrolls, "supply"),
        ("ci", "item", data.items, "supply"),
        ("cd", "dragon", data.dragons, "pool"),
    )
    for prefix, kind, cards, place in catalogue:
        for key, values in cards.items():
            uid = f"{prefix}-{key}"
            state.cards[uid] = Card(uid, kind, values, "catalogue", place)
    for player in state.players.values():
        player.base = dict.fromkeys(ATTRIBUTES, 0)
    return state
