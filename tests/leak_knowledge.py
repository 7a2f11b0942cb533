"""What each audience may know in each game, for the leak test (test_leaks_every_game).

For every game, from the full state: the secret *tokens* there are now (card ids, the
names typed for cards, the notes on face-down cards), which of them are hidden from a
seat (None: the table, spectators and strangers), which an event tells everyone, the
random moves the test plays and the requests that name a card for a probe. Everything
an audience receives over HTTP is searched for the tokens hidden from it.
"""

from __future__ import annotations

from typing import Any

from engine.clacks.selfplay import next_action
from engine.clacks.session import ClacksSession
from engine.clacks.state import ClacksState
from engine.clockman.session import ClockmanSession
from engine.clockman.simulation import random_action
from engine.core.interface import JSON, Session
from engine.core.rng import Rng
from engine.guards.actions import SCHEMAS
from engine.guards.cards import DECKS
from engine.guards.data import QUADRANTS
from engine.guards.session import GuardsSession
from engine.guards.simulation import Reporter, active, choose_form

UNKNOWN_CARD = "zz-nothing-7"  # an id that names no card: refused like a hidden one


class Knowledge:
    """A game without hidden cards: only its seed and generator are secret (checked
    for every game by the test itself)."""

    def tokens(self, session: Session) -> set[str]:
        return set()

    def hidden(self, session: Session, seat: str | None) -> set[str]:
        return set()

    def revealed(self, events: list[JSON]) -> set[str]:
        """Tokens an event shown to everyone makes public for good (a card played)."""
        return set()

    def card_ids(self, session: Session) -> list[str]:
        return []

    def probes(self, session: Session, seat: str, card: str) -> list[JSON]:
        """Requests by ``seat`` naming ``card``, to ask ``check`` and ``actions`` about."""
        return []

    def choose(self, session: Session, rng: Rng) -> tuple[str, JSON] | None:
        """A random move by someone the game waits for (it may be refused)."""
        seat = session.active_seats[rng.below(len(session.active_seats))]
        legal = session.legal_actions(seat, 0.0)
        return (seat, legal[rng.below(len(legal))]) if legal else None


# --------------------------------------------------------------------- Clacks


def clacks_hidden(state: ClacksState, seat: str | None) -> set[str]:
    """Card ids ``seat`` may not see now: the bag and the Fault Report deck, the cards
    set aside and face down in the swap slots, and the other hands (all open in the
    standard co-op game)."""
    hidden = set(state.bag) | set(state.fault_deck)
    team = state.team
    if team is not None:
        hidden |= set(team.set_aside)
        for slot in team.slots:
            if slot.card is not None:
                hidden.add(slot.card)
            if slot.jacquard is not None and slot.kind == "log":
                hidden.add(slot.jacquard)
    open_hands = team is not None and not state.options.long_distance
    for owner, player in state.players.items():
        if owner.label != seat and not open_hands:
            hidden |= set(player.hand) | set(player.faults)
    return hidden


class ClacksKnowledge(Knowledge):
    def tokens(self, session: Session) -> set[str]:
        assert isinstance(session, ClacksSession)
        parts = session.clacks.components
        return set(parts.jacquards) | set(parts.faults) | set(parts.incidents) | set(parts.logs)

    def hidden(self, session: Session, seat: str | None) -> set[str]:
        assert isinstance(session, ClacksSession)
        return clacks_hidden(session.clacks.state, seat)

    def revealed(self, events: list[JSON]) -> set[str]:
        # a Fault Report is played face up, then goes under the deck
        return {e["card"] for e in events if e.get("kind") == "fault_played"}

    def card_ids(self, session: Session) -> list[str]:
        assert isinstance(session, ClacksSession)
        parts = session.clacks.components
        return sorted(parts.jacquards) + sorted(parts.faults)

    def probes(self, session: Session, seat: str, card: str) -> list[JSON]:
        assert isinstance(session, ClacksSession)
        if card in session.clacks.components.faults:
            return [{"type": "play_fault", "card": card}]
        probes: list[JSON] = [{"type": "play_jacquard", "jacquard": card, "lamps": ["a1", "b2"]}]
        if session.clacks.state.team is not None:
            probes.append({"type": "swap", "jacquard": card, "slot": "log-1"})
        return probes

    def choose(self, session: Session, rng: Rng) -> tuple[str, JSON] | None:
        assert isinstance(session, ClacksSession)
        action = next_action(session.clacks, rng, swap_chance=3).to_json()
        return str(action["seat"]), action


# --------------------------------------------------------------------- Clockman


class ClockmanKnowledge(Knowledge):
    """The note a player keeps on a face-down event card is theirs until it is played.
    The test gives each such card a note no page could hold by chance."""

    def tokens(self, session: Session) -> set[str]:
        assert isinstance(session, ClockmanSession)
        players = session.clockman.state.players.values()
        return {c.label for p in players for c in p.cards if c.label}

    def hidden(self, session: Session, seat: str | None) -> set[str]:
        assert isinstance(session, ClockmanSession)
        players = session.clockman.state.players.values()
        return {
            c.label
            for p in players
            if p.seat != seat
            for c in p.cards
            if c.kind == "hidden" and c.label
        }

    def revealed(self, events: list[JSON]) -> set[str]:
        return {e["label"] for e in events if e.get("kind") == "card_played" and e.get("label")}

    def card_ids(self, session: Session) -> list[str]:
        assert isinstance(session, ClockmanSession)
        players = session.clockman.state.players.values()
        return sorted(c.id for p in players for c in p.cards)

    def probes(self, session: Session, seat: str, card: str) -> list[JSON]:
        return [
            {"type": "play", "card": card, "effect": "board"},
            {"type": "defend", "digit": card},
            {"type": "blockade", "pose": "A", "card": card},
        ]

    def choose(self, session: Session, rng: Rng) -> tuple[str, JSON] | None:
        assert isinstance(session, ClockmanSession)
        action = random_action(session.clockman, rng)
        if action is None:
            return None
        out = action.to_json()
        turn = session.clockman.state.turn
        landing = turn is not None and turn.phase == "report" and out["seat"] == turn.seat
        if landing and rng.below(3) == 0:  # face-down event cards, more often than by chance
            out = {"type": "event", "seat": out["seat"], "kind": "hidden"}
        if out["type"] == "event" and out.get("kind") == "hidden":
            out["label"] = f"Secret note {rng.below(10**6)}"
        return str(out["seat"]), out


# --------------------------------------------------------------------- Guards! Guards!

PRIVATE_PLACES = ("hand:", "planted:", "carried:")
GUARDS_READ_OUT = {
    "scroll_cast", "scroll_failed", "item_used", "turned_in", "volunteer_touched", "recruited",
    "not_recruited", "bribed", "face_up", "pox_caught", "survived_dragon", "lost_to_dragon",
    "defeated", "run_announced", "ambush",
}  # fmt: skip


class GuardsKnowledge(Knowledge):
    """A card's id and the name typed for it are hidden while it lies in another
    player's hand, among their Saboteurs or carried by one of them."""

    def __init__(self, rng: Rng) -> None:
        self.reporter = Reporter(rng)

    def tokens(self, session: Session) -> set[str]:
        assert isinstance(session, GuardsSession)
        out: set[str] = set()
        for card in session.guards.state.cards.values():
            out |= _guards_tokens(card)
        return out

    def hidden(self, session: Session, seat: str | None) -> set[str]:
        assert isinstance(session, GuardsSession)
        out: set[str] = set()
        for card in session.guards.state.cards.values():
            if card.place.startswith(PRIVATE_PLACES) and card.place.split(":")[1] != seat:
                out |= _guards_tokens(card)
        return out

    def revealed(self, events: list[JSON]) -> set[str]:
        """The cards named in the open: a Scroll cast, an Item used, a Volunteer turned
        over, recruited, turned in or fighting, the runners of a Spell Run set out at the
        Gate, a Saboteur that ambushes them (combat is fought with its values in the open):
        the rules read them out at the table."""
        out: set[str] = set()
        for event in events:
            if event.get("kind") in GUARDS_READ_OUT:
                named = ("name", "card", "saboteur")
                out |= {event[k] for k in named if isinstance(event.get(k), str)}
                out |= {name for name in event.get("runners") or () if isinstance(name, str)}
        return out

    def card_ids(self, session: Session) -> list[str]:
        assert isinstance(session, GuardsSession)
        return sorted(session.guards.state.cards)

    def probes(self, session: Session, seat: str, card: str) -> list[JSON]:
        probes: list[JSON] = []
        for kind, fields in SCHEMAS.items():
            named = [n for n, (f, _) in fields.items() if f in ("uid", "uids")]
            if not named or kind == "choose_guild":
                continue
            decks = DECKS if "deck" in fields else ("",)
            for deck in decks:
                action: dict[str, Any] = {"type": kind}
                for name, (field_kind, required) in fields.items():
                    if name in named:
                        action[name] = [card] if field_kind == "uids" else card
                    elif name == "deck":
                        action[name] = deck
                    elif required:
                        assert isinstance(session, GuardsSession)
                        action[name] = _filler(name, field_kind, seat, session)
                probes.append(action)
        return probes

    def choose(self, session: Session, rng: Rng) -> tuple[str, JSON] | None:
        assert isinstance(session, GuardsSession)
        reporter = self.reporter
        seat = reporter.pick(active(session.guards))
        forms = session.legal_actions(seat, 0.0)
        if not forms:
            return None
        return seat, reporter.action(choose_form(reporter, forms))


def _guards_tokens(card: Any) -> set[str]:
    name = getattr(card.values, "name", None)
    return {card.uid, name} if name else {card.uid}


def _filler(name: str, kind: str, seat: str, session: GuardsSession) -> Any:
    """A plausible value for a field a probe does not care about."""
    others = [s for s in session.guards.seats if s != seat]
    return {
        "quadrant": QUADRANTS[0],
        "quadrants": [QUADRANTS[0]],
        "seat": others[0] if others else seat,
        "int": 1,
        "bool": False,
        "text": {"source": "deck", "kind": "scroll", "method": "ambush"}.get(name, "deck"),
        "attribute": "magic",
        "values": {},
        "items": {},
        "points": {},
    }[kind]


def knowledge_for(game: str, rng: Rng) -> Knowledge:
    if game == "clacks":
        return ClacksKnowledge()
    if game == "clockman":
        return ClockmanKnowledge()
    if game == "guards":
        return GuardsKnowledge(rng)
    return Knowledge()
