"""The rules of Clockman as the companion referees them: set-up, rolls, landing reports,
the final straight, and the turn passing on.

The board stays on the table: after each roll the player moves the piece and *reports*
where it landed. The companion checks the report against everything it knows (the
circle, the date key, the cards in hand, the Whytooki set-up it dealt, the digits left on
the board) and refuses, with the reason, what the rules forbid. ``apply`` leaves the
state as it was whenever it refuses (the game applies actions to a copy).

Rulings on the rulebook's ambiguous points are in docs/clockman.md; the ones that shape
the code are repeated where they apply.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.clockman import cards, check, knocks, trades
from engine.clockman.actions import Action
from engine.clockman.data import ClockmanData
from engine.clockman.digits import REAL, complete, listed, may_take
from engine.clockman.errors import (
    DateIncomplete,
    DigitNotAllowed,
    NoMatchingCard,
    NotYourTurn,
    RuleNotInPlay,
    SupplyEmpty,
    UnknownPose,
    WrongCircle,
    WrongMoment,
)
from engine.clockman.events import Event
from engine.clockman.options import SEATS, ClockmanOptions
from engine.clockman.state import START, STRAIGHT, ClockmanState, Player, Turn
from engine.clockman.turns import (
    count_play,
    next_in_play,
    reach,
    require_turn,
    start_turn,
)
from engine.core.hidden import unusable
from engine.core.rng import Rng

INNERMOST = 4


# --------------------------------------------------------------------- set-up


def roll_off(rng: Rng, seats: tuple[str, ...], faces: int) -> tuple[list[dict[str, int]], str, int]:
    """Each player rolls once; the highest starts. Players tied for the highest roll
    again, alone, until one is highest (B4.1). Returns the rolls, the starter and the
    roll that decided it, with which the starter's piece enters the first circle."""
    rolls: list[dict[str, int]] = []
    contenders = list(seats)
    while True:
        faces_up = {seat: rng.below(faces) + 1 for seat in contenders}
        rolls.append(faces_up)
        high = max(faces_up.values())
        contenders = [seat for seat in contenders if faces_up[seat] == high]
        if len(contenders) == 1:
            return rolls, contenders[0], high


def deal_whytookis(rng: Rng, data: ClockmanData) -> tuple[list[list[str]], dict[str, str]]:
    """Poses for each ring's passages and each straight's last field, "as many different
    poses as possible" on each ring (section 4), from figures of each pose in the box.
    Each place takes a pose not yet on its ring if one is left, the one with the most
    figures left, ties broken by the die; each ring's order is left to chance."""
    left = {pose: data.figures_per_pose for pose in data.pose_ids}
    groups: list[list[str]] = []
    for size in [r.passages for r in data.rings] + [data.straights]:
        group: list[str] = []
        for _ in range(size):
            candidates = [p for p in data.pose_ids if left[p] > 0]
            fresh = [p for p in candidates if p not in group] or candidates
            most = max(left[p] for p in fresh)
            best = [p for p in fresh if left[p] == most]
            pose = best[rng.below(len(best))]
            left[pose] -= 1
            group.append(pose)
        rng.shuffle(group)
        groups.append(group)
    straights = groups.pop()
    return groups, dict(zip(SEATS, straights, strict=True))


def setup(
    options: ClockmanOptions, seed: int, data: ClockmanData
) -> tuple[ClockmanState, list[Event]]:
    rng = Rng(seed)
    opening, starter, first = roll_off(rng, options.seats, data.die_faces)
    rings, straights = deal_whytookis(rng, data)
    deck = [pose for pose in data.pose_ids for _ in range(data.symbol_cards_per_pose)]
    rng.shuffle(deck)
    order = tuple(SEATS[(SEATS.index(starter) + i) % 4] for i in range(4))
    state = ClockmanState(
        options=options,
        seed=seed,
        rng=rng,
        players={seat: Player(seat) for seat in options.seats},
        order=tuple(s for s in order if s in options.seats),
        turn=Turn(starter, 1, phase="report", die=first, rolls=1),
        deck=deck,
        supply=dict(data.digits),
        rings=rings,
        straights=straights,
        opening=opening,
        data=data,
    )
    reach(state.players[starter], 1)
    events = [
        Event.of("game_started", None, seats=list(options.seats), options=options.to_json()),
        Event.of("starter_rolled", starter, rolls=[dict(r) for r in opening], die=first),
        Event.of("entered", starter, die=first),
    ]
    return state, events


# --------------------------------------------------------------------- the roll


def roll(state: ClockmanState, action: Action) -> list[Event]:
    turn, player = require_turn(state, action.seat)
    if turn.phase == "report":
        raise WrongMoment(reason="rolled")
    if turn.phase == "done":
        raise WrongMoment(reason="move_over")
    die = state.rng.below(state.data.die_faces) + 1
    turn.die, turn.rolls = die, turn.rolls + 1
    turn.knocked = turn.outward = False
    turn.phase = "report"
    events = [Event.of("rolled", player.seat, die=die)]
    if player.ring == START:
        reach(player, 1)
        events.append(Event.of("entered", player.seat, die=die))
    elif player.ring == STRAIGHT:
        events += _straight_roll(state, turn, player, die)
    return events


def _straight_roll(state: ClockmanState, turn: Turn, player: Player, die: int) -> list[Event]:
    """On the final straight the companion moves the piece itself: an exact roll onto
    the last field's Whytooki with a card of its pose, anything shorter forward, anything
    higher forfeited; past the Whytooki only a 1 reaches the Clockman field."""
    turn.phase = "done"
    last = state.data.straight_fields
    if player.field == last:
        if die == 1:
            return check.reached_centre(state, player)
        return [Event.of("forfeited", player.seat, reason="needs_one", die=die)]
    target = player.field + die
    if target < last:
        player.field = target
        return [Event.of("straight_moved", player.seat, field=target)]
    if target > last:
        return [Event.of("forfeited", player.seat, reason="too_high", die=die)]
    pose = state.straights[player.seat]
    if not player.hand.get(pose):
        return [Event.of("forfeited", player.seat, reason="no_card", pose=pose, die=die)]
    cards.spend_symbol(state, player, pose)
    player.field = last
    return [Event.of("straight_passed", player.seat, pose=pose, field=last)]


# --------------------------------------------------------------------- landing reports


def _landing(state: ClockmanState, action: Action) -> tuple[Turn, Player]:
    turn, player = require_turn(state, action.seat)
    if turn.phase == "roll":
        raise WrongMoment(reason="roll_then_land")
    if turn.phase == "done":
        raise WrongMoment(reason="reported")
    # nothing more to check: the piece is on circles 1 to 4 whenever a landing is awaited
    # (a roll on the final straight, and a card that sends the piece back to its start,
    # end the move at once)
    return turn, player


def _plain(state: ClockmanState, action: Action) -> list[Event]:
    turn, player = _landing(state, action)
    turn.phase = "done"
    return [Event.of("landed", player.seat, ring=player.ring)]


def _symbol(state: ClockmanState, action: Action) -> list[Event]:
    turn, player = _landing(state, action)
    turn.phase = "done"
    return cards.draw_symbol(state, player)


def _event(state: ClockmanState, action: Action) -> list[Event]:
    turn, player = _landing(state, action)
    return cards.draw_event(state, turn, player, action)


def _digit(state: ClockmanState, action: Action) -> list[Event]:
    turn, player = _landing(state, action)
    digit = action.text("digit")
    data = state.data
    if digit in REAL and data.circles[digit] != player.ring:
        raise WrongCircle(reason="digit_circle", digit=digit, circle=data.circles[digit], ring=player.ring)
    if state.supply[digit] <= 0:
        raise SupplyEmpty(what=digit)
    allowance = state.options.allowance
    if not may_take(player.holdings, digit, state.need, allowance):
        raise DigitNotAllowed(digit=digit)
    state.supply[digit] -= 1
    aside = state.options.transfer
    (player.pending if aside else player.date)[digit] += 1
    turn.phase = "done"
    return [Event.of("digit_taken", player.seat, digit=digit, pending=aside)]


def _blockade(state: ClockmanState, action: Action) -> list[Event]:
    """A Whytooki hit with the exact roll: passed with a symbol card of its pose (which
    goes under the deck) or with a held event card; the piece then stands on the inner
    circle and the move is over (ruling 6). Outward, Whytookis never block (``outward``)."""
    turn, player = _landing(state, action)
    pose = action.text("pose")
    if pose not in state.data.pose_ids:
        raise UnknownPose(pose=pose)
    if player.ring >= INNERMOST:
        raise WrongCircle(reason="innermost_blockade")
    here = state.rings[player.ring - 1]
    if pose not in here:
        raise WrongCircle(reason="no_such_whytooki", pose=pose, ring=player.ring)
    card_id = action.maybe_text("card")
    if card_id is not None:
        card = player.card(card_id)
        if card is None:
            raise unusable("event_card")
        count_play(turn, player.seat)
        player.cards.remove(card)
        by = "event"
    elif player.hand.get(pose):
        cards.spend_symbol(state, player, pose)
        by = "symbol"
    else:
        raise NoMatchingCard(reason="blockade", pose=pose)
    reach(player, player.ring + 1)
    turn.phase = "done"
    return [
        Event.of("blockade_passed", player.seat, pose=pose, by=by, ring=player.ring, card=card_id)
    ]


def _lift(state: ClockmanState, action: Action) -> list[Event]:
    """A lift card carries the piece straight inward to the next circle, and leaves the
    game; declined, it stays where it lies. Lifts on circle 4 lead nowhere (ruling 10)."""
    turn, player = _landing(state, action)
    if player.ring >= INNERMOST:
        raise WrongCircle(reason="lift_innermost")
    if not action.get("use"):
        turn.phase = "done"
        return [Event.of("lift_declined", player.seat, ring=player.ring)]
    if state.supply["L"] <= 0:
        raise SupplyEmpty(what="L")
    state.supply["L"] -= 1
    reach(player, player.ring + 1)
    turn.phase = "done"
    return [Event.of("lift_used", player.seat, ring=player.ring)]


def _transfer(state: ClockmanState, action: Action) -> list[Event]:
    if not state.options.transfer:
        raise RuleNotInPlay(rule_name="transfer")
    turn, player = _landing(state, action)
    moved = listed(player.pending)
    for digit in moved:
        player.date[digit] += 1
        player.pending[digit] -= 1
    turn.phase = "done"
    return [Event.of("transferred", player.seat, digits=moved)]


def _straight(state: ClockmanState, action: Action) -> list[Event]:
    turn, player = _landing(state, action)
    field = action.number("field")
    last = state.data.straight_fields
    if player.ring != INNERMOST:
        raise WrongCircle(reason="straight_from_4")
    if not complete(player.date, state.need):
        raise DateIncomplete()
    if field > last:
        raise WrongMoment(reason="straight_fields", field=field)
    assert turn.die is not None
    if field > turn.die:
        raise WrongMoment(reason="too_far", die=turn.die, field=field)
    pose = state.straights[player.seat]
    if field == last and not player.hand.get(pose):
        raise NoMatchingCard(reason="straight", pose=pose)
    if field == last:
        cards.spend_symbol(state, player, pose)
    reach(player, STRAIGHT)
    player.field = field
    turn.phase = "done"
    return [
        Event.of("straight_entered", player.seat, field=field, pose=pose if field == last else None)
    ]


def _forfeit(state: ClockmanState, action: Action) -> list[Event]:
    """Only a roll too high for the straight may be let go: on circle 4 with a complete
    date key the player may go round again or stay. Elsewhere the piece must move."""
    turn, player = _landing(state, action)
    if player.ring != INNERMOST or not complete(player.date, state.need):
        raise WrongMoment(reason="no_forfeit")
    turn.phase = "done"
    return [Event.of("forfeited", player.seat, reason="stays", die=turn.die)]


def _outward(state: ClockmanState, action: Action) -> list[Event]:
    """Back through a passage to the outer circle, which needs neither a card nor an exact
    roll (6.1); once per roll, before the landing is reported."""
    turn, player = _landing(state, action)
    if turn.outward:
        raise WrongMoment(reason="one_outward")
    if player.ring <= 1:
        raise WrongCircle(reason="outermost")
    turn.outward = True
    reach(player, player.ring - 1)
    return [Event.of("moved_outward", player.seat, ring=player.ring)]


def _end_turn(state: ClockmanState, action: Action) -> list[Event]:
    turn, player = require_turn(state, action.seat)
    if turn.phase == "roll":
        raise WrongMoment(reason="roll_first")
    if turn.phase == "report":
        raise WrongMoment(reason="report_first")
    events = [Event.of("turn_ended", player.seat)]
    if state.offer is not None:
        events.append(Event.of("offer_lapsed", player.seat, to=state.offer.to))
        state.offer = None
    following = next_in_play(state, player.seat)
    assert following is not None  # a revoked win that leaves one player ends the game
    return events + start_turn(state, following, turn.number + 1)


HANDLERS: dict[str, Callable[[ClockmanState, Action], list[Event]]] = {
    "roll": roll,
    "plain": _plain,
    "symbol": _symbol,
    "event": _event,
    "digit": _digit,
    "blockade": _blockade,
    "lift": _lift,
    "transfer": _transfer,
    "straight": _straight,
    "forfeit": _forfeit,
    "outward": _outward,
    "knock": knocks.knock,
    "end_turn": _end_turn,
    "play": cards.play,
    "defend": knocks.defend,
    "take": knocks.take,
    "offer": trades.offer,
    "accept": trades.accept,
    "decline": trades.decline,
    "withdraw": trades.withdraw,
    "inspect": check.inspect,
    "confirm": check.confirm,
    "revoke": check.revoke,
}


def apply(state: ClockmanState, action: Action) -> list[Event]:
    """Apply ``action`` to ``state`` in place; raises an IllegalAction subclass, possibly
    with the state partly changed (the game works on a copy and keeps the original)."""
    if action.seat not in state.players:
        raise NotYourTurn(reason="not_playing", seat=action.seat)
    return HANDLERS[action.type](state, action)
