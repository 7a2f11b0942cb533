"""The two decks: symbol cards (virtual, drawn by the companion, held privately) and
event cards (physical; the players report each card's kind and, where it matters to
the companion, its effect).

Symbol cards: one per exact landing on a green field; spent ones go under the deck; no
hand limit (ruling 5).

Event cards, by the three play kinds printed at the end of their text:

- ``now`` (sofort): read out and put under the deck at once; its effect is reported
  with the draw.
- ``hidden`` (verdeckt): laid face down, read out only when played, before or after the
  roll or in another player's turn (ruling 2 for the duplicated bullet).
- ``open`` (offen): read out and laid face up until what it describes has been done.

A card's text stays on the card. The companion tracks only the effects it must referee:
``board`` (the card acts on the board alone), ``circle_in`` and ``circle_out`` (a piece
one circle inward, past the Whytookis, or outward), ``symbol_card`` (draw a symbol card)
and ``roll_again``. A player plays at most three event cards in one turn
(Anzahlregel); they have no effect on a player on the final straight
(Zielgeradenregel).
"""

from __future__ import annotations

from engine.clockman.actions import Action
from engine.clockman.errors import (
    NoEffectOnStraight,
    SupplyEmpty,
    WrongCircle,
    WrongMoment,
)
from engine.clockman.events import Event
from engine.clockman.state import START, STRAIGHT, ClockmanState, HeldCard, Player, Turn
from engine.clockman.turns import count_play, reach, require_open
from engine.core.hidden import unusable

INNERMOST = 4


def draw_symbol(state: ClockmanState, player: Player) -> list[Event]:
    if not state.deck:
        return [Event.of("symbol_deck_empty", player.seat)]
    pose = state.deck.pop(0)
    player.hand[pose] = player.hand.get(pose, 0) + 1
    # the pose stays on the player's phone; the table hears only that a card was drawn
    return [Event.of("symbol_drawn", player.seat, cards=sum(player.hand.values()))]


def spend_symbol(state: ClockmanState, player: Player, pose: str) -> None:
    player.hand[pose] -= 1
    if not player.hand[pose]:
        del player.hand[pose]
    state.deck.append(pose)  # under the deck


def check_effect(
    state: ClockmanState, turn: Turn, holder: Player, effect: str, target_seat: str | None
) -> Player:
    """The player ``effect`` acts on, if the rules let it act now; refuses otherwise."""
    target = state.players[target_seat or holder.seat]
    if effect == "board":
        return target
    if not target.in_play:
        raise WrongMoment(reason="out", seat=target.seat)
    # The Zielgeradenregel protects the player *on* the straight: a card played by them
    # still acts on a player on a circle, but nothing acts on them (the cards that draw
    # a symbol card or roll again act on their holder).
    if target.ring == STRAIGHT:
        raise NoEffectOnStraight(seat=target.seat)
    if effect in ("symbol_card", "roll_again") and target is not holder:
        raise WrongMoment(reason="holder_only", seat=holder.seat)
    if effect == "circle_in" and target.ring == INNERMOST:
        raise WrongCircle(reason="straight_by_roll", seat=target.seat)
    if effect == "circle_out" and target.ring == START:
        raise WrongCircle(reason="at_start", seat=target.seat)
    if effect == "symbol_card" and not state.deck:
        raise SupplyEmpty(what="symbol")
    if effect == "roll_again" and (holder.seat != turn.seat or turn.phase == "roll"):
        raise WrongMoment(reason="roll_again")
    return target


def apply_effect(
    state: ClockmanState, turn: Turn, holder: Player, effect: str, target: Player
) -> list[Event]:
    if effect in ("circle_in", "circle_out"):
        reach(target, target.ring + (1 if effect == "circle_in" else -1))
        if target.seat == turn.seat and target.ring == START and turn.phase == "report":
            turn.phase = "done"  # back on the start field before landing: the move is over
        return [Event.of("moved_by_card", target.seat, ring=target.ring, by=holder.seat)]
    if effect == "symbol_card":
        return draw_symbol(state, holder)
    if effect == "roll_again":
        turn.phase, turn.die = "roll", None
        return [Event.of("roll_again", holder.seat)]
    return []


def draw_event(state: ClockmanState, turn: Turn, player: Player, action: Action) -> list[Event]:
    """The ``event`` landing report: an event card drawn from the physical deck."""
    kind = action.text("kind")
    label = action.maybe_text("label") or ""
    effect = action.maybe_text("effect")
    target_seat = action.maybe_text("target")
    if state.event_deck() <= 0:
        raise SupplyEmpty(what="event")
    if kind != "now" and (effect is not None or target_seat is not None):
        raise WrongMoment(reason="laid_down")
    turn.phase = "done"  # before an effect, which may give the die back (roll again)
    if kind == "now":
        target = check_effect(state, turn, player, effect or "board", target_seat)
        events = [
            Event.of(
                "event_drawn",
                player.seat,
                card_kind=kind,
                label=label,
                effect=effect or "board",
                target=target.seat,
            )
        ]
        return events + apply_effect(state, turn, player, effect or "board", target)
    state.cards_drawn += 1
    card = HeldCard(f"e{state.cards_drawn}", kind, label)
    player.cards.append(card)
    shown = label if kind == "open" else ""  # a face-down card's note is its holder's
    return [Event.of("event_drawn", player.seat, card_kind=kind, card=card.id, label=shown)]


def play(state: ClockmanState, action: Action) -> list[Event]:
    """A held event card played (hidden) or done with (open), by its holder, at any
    moment: in their turn or another's."""
    turn = require_open(state)
    holder = state.players[action.seat]
    if not holder.in_play:
        raise WrongMoment(reason="out", seat=holder.seat)
    card_id = action.text("card")
    card = holder.card(card_id)
    if card is None:
        raise unusable("event_card")
    effect = action.text("effect")
    target = check_effect(state, turn, holder, effect, action.maybe_text("target"))
    count_play(turn, holder.seat)
    holder.cards.remove(card)
    events = [
        Event.of(
            "card_played",
            holder.seat,
            card=card.id,
            card_kind=card.kind,
            label=card.label,
            effect=effect,
            target=target.seat,
        )
    ]
    return events + apply_effect(state, turn, holder, effect, target)
