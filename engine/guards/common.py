"""What the rules modules share: whose turn it is, what the game waits for, and the
cards: naming a card a player has just turned over (one the game knows, or new values
typed on the phone) and moving cards between hands, piles and the board so that every
list agrees with every card's ``place``.

The rules check everything before they change anything: a refused action leaves the
state exactly as it was. Helpers named ``require_*`` and ``identify_*`` only check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from engine.core.hidden import refuse_unless_seen, unusable
from engine.guards.actions import Action
from engine.guards.cards import (
    Volunteer,
    read_dragon,
    read_item,
    read_scroll,
    read_volunteer,
)
from engine.guards.errors import (
    BadCard,
    CardElsewhere,
    GameIsOver,
    NotNow,
    NotYourCard,
    NotYourTurn,
    SetUpFirst,
    WaitForOthers,
    WrongDeck,
)
from engine.guards.events import Event, ev
from engine.guards.state import Card, CardValues, GameState, Pending, Player, Turn

KIND_PREFIX = {"volunteer": "v", "scroll": "s", "item": "i", "dragon": "d"}

Handler = Callable[[GameState, Action], list[Event]]


def handlers(*functions: Handler) -> dict[str, Handler]:
    """A section's handlers by the action type each answers, which is its own name."""
    return {function.__name__: function for function in functions}


# --------------------------------------------------------------------- moments


def require_playing(state: GameState) -> None:
    if state.phase == "over":
        raise GameIsOver(reason="over")
    if state.phase != "play":
        raise SetUpFirst(reason="not_begun")


def seat_in_play(state: GameState, action: Action) -> str:
    """The seat ``action`` comes from, once the game is known to be under way."""
    require_playing(state)
    seat = action.seat
    assert seat is not None
    return seat


def require_turn(state: GameState, seat: str | None) -> Turn:
    """``seat``'s own turn, with nothing else awaited first."""
    require_playing(state)
    turn = state.turn
    assert turn is not None
    if seat != turn.seat:
        raise NotYourTurn(reason="turn", current=turn.seat)
    require_free(state)
    return turn


def require_free(state: GameState) -> None:
    top = state.top
    if top is not None:
        if not top.seats:
            raise WaitForOthers(reason="someone")
        raise WaitForOthers(reason="first", players=list(top.seats))


def require_pending(state: GameState, seat: str | None, *kinds: str) -> Pending:
    """The pending step of one of ``kinds`` that ``seat`` must answer now."""
    require_playing(state)
    top = state.top
    if top is None or top.kind not in kinds:
        raise NotNow(reason="nothing_asks")
    if seat not in top.seats:
        raise WaitForOthers(reason="answer", players=list(top.seats), seat=seat or "table")
    return top


def mark_began(turn: Turn) -> None:
    turn.began = True


# --------------------------------------------------------------------- cards


def own(state: GameState, seat: str, uid: object, kind: str, where: str = "hand") -> Card:
    """``seat``'s card ``uid`` of ``kind``, held in ``where`` (hand, planted, run). A
    card the seat cannot see is refused without a word about it (engine.core.hidden)."""
    card = state.cards.get(uid) if isinstance(uid, str) else None
    if card is not None and card.kind == kind and card.place.startswith(f"{where}:{seat}"):
        return card
    if card is None:
        raise unusable()
    if card.kind != kind:
        refusal = NotYourCard(reason="kind", card=card_name(card), kind=kind)
    else:
        refusal = NotYourCard(reason="place", card=card_name(card), seat=seat, where=where)
    raise refuse_unless_seen(seen_by(state, seat, card), refusal)


PRIVATE_PLACES = ("hand:", "planted:", "carried:")


def seen_by(state: GameState, seat: str | None, card: Card) -> bool:
    """Whether ``seat`` may know where ``card`` is and what it is: its own cards, and
    the cards every player sees (face up, running, in the city or a fight, and the
    known cards a player may pick as the one turned over or bought). Another player's
    hand, Saboteurs and the Items they carry are theirs; the discards only while they
    may be picked (the deck they make again is empty)."""
    place = card.place
    if place.startswith(PRIVATE_PLACES):
        return seat is not None and place.split(":")[1] == seat
    if place == "discard":
        values = card.values
        return isinstance(values, Volunteer) and state.deck_left[values.deck] <= 0
    return place not in ("limbo",)


def card_name(card: Card) -> str:
    """The card's name as printed, or its price when it has none ($5): a refusal's value."""
    values = card.values
    name = getattr(values, "name", None)
    if name:
        return str(name)
    return f"${getattr(values, 'price', '?')}"


def read_values(kind: str, values: object) -> CardValues:
    readers: dict[str, Callable[[object], tuple[CardValues | None, list[str]]]] = {"volunteer": read_volunteer, "scroll": read_scroll, "item": read_item, "dragon": read_dragon}
    card, problems = readers[kind](values)
    if card is None:
        raise BadCard(reason="values", kind=kind, problems="; ".join(problems))
    return card


def identify_volunteer(
    state: GameState, deck: str, card: object, values: object, face_up: str | None = None
) -> tuple[str | None, Volunteer]:
    """The Volunteer a player has just turned over (or picked face up) from ``deck``:
    a card the game knows, by ``card``, or one described by typed ``values``. Returns
    (its uid, or None for a new card, and its values); checks only. A known card in
    anyone's hand cannot be the one turned over, and is refused as one nobody sees."""
    if face_up is not None:
        if card is not None and card != face_up:
            shown = state.cards[face_up]
            raise CardElsewhere(reason="face_up", card=card_name(shown))
        return face_up, state.volunteer(face_up)
    if card is not None:
        found = state.cards.get(card) if isinstance(card, str) else None
        if found is None or found.kind != "volunteer" or not seen_by(state, None, found):
            raise unusable()
        values_ = found.values
        assert isinstance(values_, Volunteer)
        if values_.deck != deck:
            raise WrongDeck(reason="known", card=values_.name, deck=values_.deck, wanted_deck=deck)
        # an empty deck is made again from its discards before its top card is turned
        places = ("deck", "discard") if state.deck_left[deck] <= 0 else ("deck",)
        if found.place not in places:
            raise CardElsewhere(
                reason="not_in_deck", card=values_.name, where=place_of(found), seat=runner_of(found)
            )
        return found.uid, values_
    if values is None:
        raise BadCard(reason="which_card")
    new = read_values("volunteer", values)
    assert isinstance(new, Volunteer)
    if new.deck != deck:
        raise WrongDeck(reason="typed", deck=new.deck, wanted_deck=deck)
    return None, new


def place_of(card: Card) -> str:
    """Where a card lies as everyone may be told: a hand, a Saboteur or what a player
    carries is ``private``; a runner's is ``run``; else display, discard or fight."""
    place = card.place
    if place.startswith(PRIVATE_PLACES):
        return "private"
    if place.startswith("run:"):
        return "run"
    return place if place in ("display", "discard", "fight") else "private"


def runner_of(card: Card) -> str:
    """The seat running with ``card``, or "" when nobody is."""
    return card.place.split(":")[1] if card.place.startswith("run:") else ""


def create(state: GameState, kind: str, values: CardValues, place: str) -> str:
    """A newly typed card, kept for the rest of the game (and in its log)."""
    count = state.typed.get(kind, 0) + 1
    state.typed[kind] = count
    uid = f"{KIND_PREFIX[kind]}{count}"
    state.cards[uid] = Card(uid, kind, values, "typed", "limbo")
    put(state, uid, place)
    return uid


def take_from_deck(state: GameState, deck: str) -> list[Event]:
    """One card leaves the face-down ``deck``; an empty deck is made again from its
    discards first (the rulebook's answer to a deck that runs out)."""
    events: list[Event] = []
    if state.deck_left[deck] <= 0:
        events += reshuffle(state, deck)
    state.deck_left[deck] = max(0, state.deck_left[deck] - 1)
    return events


def reshuffle(state: GameState, deck: str) -> list[Event]:
    pile = list(state.discards[deck])
    for uid in pile:
        put(state, uid, "deck")
    state.deck_left[deck] += len(pile)
    return [ev("deck_reshuffled", None, deck=deck, cards=len(pile))]


def put(state: GameState, uid: str, place: str) -> None:
    """Move card ``uid`` to ``place``, keeping every list in step."""
    card = state.cards[uid]
    _take_out(state, card)
    card.place = place
    kind, _, rest = place.partition(":")
    if kind == "hand":
        player = state.players[rest]
        {"volunteer": player.hand, "scroll": player.scrolls, "item": player.items}[card.kind].append(uid)
    elif kind == "planted":
        seat, _, quadrant = rest.partition(":")
        state.players[seat].planted[quadrant] = uid
    elif kind == "run":
        state.run_of(rest).runners.append(uid)
    elif kind == "display":
        values = card.values
        assert isinstance(values, Volunteer)
        state.display[values.deck].append(uid)
    elif kind == "discard":
        values = card.values
        assert isinstance(values, Volunteer)
        state.discards[values.deck].append(uid)
    elif kind == "supply":
        state.supply[card.kind] += 1
    elif kind == "fight":
        fight = state.fight
        assert fight is not None
        fight.sent.setdefault(rest, []).append(uid)
    elif kind == "city":
        state.dragons[rest] = uid


def back_to_hand(state: GameState, seat: str, uid: str) -> None:
    """A card, and the item it carries, back to ``seat``'s hand."""
    card = state.cards[uid]
    put(state, uid, f"hand:{seat}")
    if card.item is not None:
        put(state, card.item, f"hand:{seat}")
        card.item = None


def _take_out(state: GameState, card: Card) -> None:
    kind, _, rest = card.place.partition(":")
    take = _TAKE_FROM.get(kind)
    if take is not None:
        take(state, card, rest)


Pile = TypeVar("Pile", str, str | None)  # a pile's entries: cards, or a display's places


def _remove_from(piles: Iterable[list[Pile]], uid: str) -> None:
    for pile in piles:
        if uid in pile:
            pile.remove(uid)


def _from_hand(state: GameState, card: Card, seat: str) -> None:
    player = state.players[seat]
    _remove_from((player.hand, player.scrolls, player.items), card.uid)


def _from_planted(state: GameState, card: Card, rest: str) -> None:
    seat, _, quadrant = rest.partition(":")
    state.players[seat].planted.pop(quadrant, None)


def _from_run(state: GameState, card: Card, seat: str) -> None:
    run = state.players[seat].run
    if run is not None:
        _remove_from((run.runners,), card.uid)


def _from_display(state: GameState, card: Card, rest: str) -> None:
    _remove_from(state.display.values(), card.uid)


def _from_discard(state: GameState, card: Card, rest: str) -> None:
    _remove_from(state.discards.values(), card.uid)


def _from_supply(state: GameState, card: Card, rest: str) -> None:
    state.supply[card.kind] -= 1


def _from_fight(state: GameState, card: Card, rest: str) -> None:
    if state.fight is not None:
        _remove_from(state.fight.sent.values(), card.uid)


def _from_city(state: GameState, card: Card, quadrant: str) -> None:
    state.dragons.pop(quadrant, None)


# a card's place (before the first ":") -> how it is taken from there
_TAKE_FROM: dict[str, Callable[[GameState, Card, str], None]] = {
    "hand": _from_hand,
    "planted": _from_planted,
    "run": _from_run,
    "display": _from_display,
    "discard": _from_discard,
    "supply": _from_supply,
    "fight": _from_fight,
    "city": _from_city,
}


def discard_volunteer(state: GameState, uid: str) -> None:
    """A Volunteer to its deck's discards; the Item it carried to the bottom of an
    Odds & Sods deck."""
    card = state.cards[uid]
    if card.item is not None:
        put(state, card.item, "supply")
        card.item = None
    put(state, uid, "discard")


def apply_bonuses(state: GameState, seat: str, values: Volunteer) -> list[Event]:
    """A recruited (or dealt) Volunteer's red text: permanent changes to the Guild
    Card's attributes (within their tables) and money."""
    player = state.players[seat]
    events: list[Event] = []
    for attribute, amount in values.bonus.items():
        before = player.base[attribute]
        player.base[attribute] = clamp(player, attribute, before + amount)
        if player.base[attribute] != before:
            events.append(ev("attribute_changed", seat, attribute=attribute, before=before,
                             after=player.base[attribute]))
    if values.dollars:
        player.dollars += values.dollars
        events.append(ev("dollars_changed", seat, by=values.dollars, dollars=player.dollars))
    return events


def clamp(player: Player, attribute: str, value: int) -> int:
    top = player.card.top[attribute] if player.card is not None else 20
    return max(0, min(top, value))


def anti_magic(state: GameState, seat: str) -> int:
    """The bonus against Magic of ``seat``'s Volunteers in hand: the best one (ruling
    12), or all of them added up with the ``anti_magic_sum`` option."""
    values = [state.volunteer(uid).anti_magic for uid in state.players[seat].hand]
    values = [v for v in values if v]
    if not values:
        return 0
    return sum(values) if state.options.anti_magic_sum else max(values)


def other_seats(state: GameState, seat: str) -> list[str]:
    """The other players, in turn order starting after ``seat``."""
    seats = list(state.seats)
    i = seats.index(seat)
    return seats[i + 1:] + seats[:i]


def own_turn(state: GameState, player: Player) -> int:
    """The number of the player's turn now, for "two consecutive turns" (ruling 9): a
    turn missed in a Hospital or the Watch House is one of the player's turns too, so a
    visit either side of it is not on consecutive turns."""
    return player.turns + (player.missed if state.options.letter else 0)
