"""The rules of Klackers: the roll-off, turns, rounds, settling chips, the match's end.

``apply`` checks an action completely before it changes anything, so a refused action
leaves the state as it was. Everything that follows from an action by the rules alone
(a turn that ends because no combination fits, the round's settlement, the next round's
start, the end of the match) happens inside the same ``apply`` and is reported as events.
Rulings on the rulebook's ambiguous points are in docs/klackers.md; the ones that shape
the code are repeated where they apply.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.klackers import errors
from engine.klackers.actions import Action, Pull, Roll
from engine.klackers.events import Event, event
from engine.klackers.numbers import (
    ALL_STANDING,
    FACES,
    combinations,
    fits,
    mask_of,
    numbers_of,
    one_die_allowed,
    total,
)
from engine.klackers.options import SEATS, KlackersOptions
from engine.klackers.state import KlackersState, Player, Round, RoundResult, Turn

HUGHIE_LIMIT = 9  # with the Hughie Rule a score above this is "no point"


def klackwise_from(starter: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """The seats in playing order, starting with ``starter``."""
    ordered = [s for s in SEATS if s in seats]
    at = ordered.index(starter)
    return tuple(ordered[at:] + ordered[:at])


def roll_off(rng: Rng, seats: tuple[str, ...]) -> tuple[list[dict[str, int]], str]:
    """Each player rolls one die; the high roller starts. Players tied for the highest
    roll again, alone, until one is highest."""
    rolls: list[dict[str, int]] = []
    contenders = list(seats)
    while True:
        faces = {seat: rng.below(FACES) + 1 for seat in contenders}
        rolls.append(faces)
        high = max(faces.values())
        contenders = [seat for seat in contenders if faces[seat] == high]
        if len(contenders) == 1:
            return rolls, contenders[0]


def setup(
    options: KlackersOptions, seed: int, legacy: bool = False
) -> tuple[KlackersState, list[Event]]:
    """A new match rolled by the generator keyed by ``seed`` (``legacy``: a match saved
    before HMAC_DRBG, see engine.core.rng)."""
    rng = Rng.for_seed(seed, legacy)
    opening, starter = roll_off(rng, options.seats)
    first = Round(number=1, value=1, order=klackwise_from(starter, options.seats))
    state = KlackersState(
        options=options,
        seed=seed,
        rng=rng,
        players={seat: Player(seat) for seat in options.seats},
        round=first,
        turn=Turn(starter),
        opening=opening,
    )
    events = [
        event("game_started", None, seats=list(options.seats)),
        event("starter_rolled", starter, rolls=[dict(r) for r in opening]),
        *_round_opening(state),
    ]
    return state, events


def _round_opening(state: KlackersState) -> list[Event]:
    rnd = state.round
    starter = rnd.order[0]
    return [
        event("round_started", starter, round=rnd.number, value=rnd.value, order=list(rnd.order)),
        event("turn_started", starter, round=rnd.number),
    ]


# --------------------------------------------------------------------- legal actions


def legal_actions(state: KlackersState, seat: str | None) -> list[Action]:
    turn = state.turn
    if turn is None or seat != turn.seat:
        return []
    standing = state.players[seat].standing
    if turn.phase == "roll":
        rolls: list[Action] = [Roll(seat, 2)]
        if one_die_allowed(standing):
            rolls.append(Roll(seat, 1))
        return rolls
    return [Pull(seat, numbers_of(c)) for c in combinations(standing, turn.roll_total)]


# --------------------------------------------------------------------- applying


def apply(state: KlackersState, action: Action) -> list[Event]:
    turn = _current_turn(state, action.seat)
    if isinstance(action, Roll):
        return _roll(state, turn, action)
    return _pull(state, turn, action)


def _current_turn(state: KlackersState, seat: str) -> Turn:
    turn = state.turn
    if turn is None:
        raise errors.GameIsOver(reason="over")
    if seat not in state.players:
        raise errors.NotYourTurn(reason="not_playing", seat=seat)
    if seat != turn.seat:
        raise errors.NotYourTurn(reason="turn", current=turn.seat)
    return turn


def _roll(state: KlackersState, turn: Turn, action: Roll) -> list[Event]:
    player = state.players[turn.seat]
    if turn.phase == "pull":
        raise errors.PullFirst(total=turn.roll_total)
    remaining = total(player.standing)
    if action.dice == 1 and not one_die_allowed(player.standing):
        raise errors.OneDieNotAllowed(standing=remaining)
    faces = tuple(state.rng.below(FACES) + 1 for _ in range(action.dice))
    turn.dice = faces
    turn.rolls += 1
    events = [
        event("rolled", turn.seat, dice=list(faces), total=sum(faces), one_die=action.dice == 1)
    ]
    if action.dice == 1:
        # The one-die roll is the last: it must equal the whole remaining total, which
        # then comes down at once (ruling: no separate pull is asked for).
        if faces[0] == remaining:
            return events + _take(state, turn, player, player.standing, automatic=True)
        return events + _end_turn(state, "one_die_missed")
    if not fits(player.standing, sum(faces)):
        return events + _end_turn(state, "no_fit")
    turn.phase = "pull"
    return events


def _pull(state: KlackersState, turn: Turn, action: Pull) -> list[Event]:
    player = state.players[turn.seat]
    if turn.phase == "roll":
        raise errors.RollFirst(reason="pull")
    wanted = mask_of(action.numbers)
    down = numbers_of(wanted & ~player.standing)
    if down:
        raise errors.NotStanding(number=down[0])
    if total(wanted) != turn.roll_total:
        spelled = " + ".join(str(n) for n in action.numbers)
        raise errors.WrongSum(
            numbers=spelled,
            sum=total(wanted),
            total=turn.roll_total,
        )
    return _take(state, turn, player, wanted, automatic=False)


def _take(
    state: KlackersState, turn: Turn, player: Player, pulled: int, automatic: bool
) -> list[Event]:
    player.standing &= ~pulled
    turn.pulls.append(numbers_of(pulled))
    events = [
        event(
            "pulled",
            turn.seat,
            numbers=list(numbers_of(pulled)),
            standing=list(numbers_of(player.standing)),
            automatic=automatic,
        )
    ]
    if player.standing == 0:
        return events + _end_turn(state, "klack")
    turn.phase = "roll"
    return events


# --------------------------------------------------------------------- turns and rounds


def _end_turn(state: KlackersState, reason: str) -> list[Event]:
    turn = state.turn
    assert turn is not None
    player = state.players[turn.seat]
    rnd = state.round
    player.score = total(player.standing)
    rnd.played += 1
    events = [
        event(
            "turn_ended",
            turn.seat,
            score=player.score,
            reason=reason,
            standing=list(numbers_of(player.standing)),
        )
    ]
    if player.score == 0:
        player.klacks += 1
        rnd.klackers.append(turn.seat)
        events.append(event("klacked", turn.seat, round=rnd.number, count=len(rnd.klackers)))
        if state.options.klack_worth_two:
            events.append(_klack_bonus(state, turn.seat))
        if len(rnd.klackers) >= 2:
            # A Klack tie pushes the round at once: nobody else rolls in it.
            return events + _end_round(state)
    if rnd.played == len(rnd.order):
        return events + _end_round(state)
    following = rnd.order[rnd.played]
    state.turn = Turn(following)
    events.append(event("turn_started", following, round=rnd.number))
    return events


def _pay(state: KlackersState, payer: str, payee: str, chips: int) -> None:
    state.players[payer].chips -= chips
    state.players[payee].chips += chips
    rnd = state.round
    rnd.chips[payer] = rnd.chips.get(payer, 0) - chips
    rnd.chips[payee] = rnd.chips.get(payee, 0) + chips


def _klack_bonus(state: KlackersState, klacker: str) -> Event:
    """Klack is Worth Two: every other player gives the Klacker one chip straight away,
    whatever becomes of the round (ruling: one chip, however much the round is worth)."""
    payers = [seat for seat in state.options.seats if seat != klacker]
    for payer in payers:
        _pay(state, payer, klacker, 1)
    return event("klack_bonus", klacker, chips=len(payers), payers=payers)


def settle(
    options: KlackersOptions, scores: dict[str, int], klackers: list[str]
) -> tuple[str, str, str | None, str]:
    """A finished round's (outcome, reason, winner, next starter); ``scores`` in the
    order the players took their turns.

    Two tie, all tie: when the lowest score is shared the round is pushed for everyone.
    After a push the next round starts with the last player who had the round's lowest
    score (for a Klack tie, the second Klacker), and after a win with the winner.
    """
    lowest = min(scores.values())
    last_lowest = [seat for seat, score in scores.items() if score == lowest][-1]
    if len(klackers) >= 2:
        return "push", "klack_tie", None, last_lowest
    if options.klack_to_win:
        if klackers:
            return "won", "klack", klackers[0], klackers[0]
        return "push", "no_klack", None, last_lowest
    eligible = {
        seat: score
        for seat, score in scores.items()
        if not (options.hughie and score > HUGHIE_LIMIT)
    }
    if not eligible:
        return "push", "no_point", None, last_lowest
    low = min(eligible.values())
    tied = [seat for seat, score in eligible.items() if score == low]
    if len(tied) > 1:
        return "push", "tie", None, last_lowest
    return "won", "klack" if low == 0 else "low_score", tied[0], tied[0]


def _end_round(state: KlackersState) -> list[Event]:
    rnd = state.round
    options = state.options
    scores = {seat: score for seat in rnd.order if (score := state.players[seat].score) is not None}
    outcome, reason, winner, starter = settle(options, scores, rnd.klackers)
    if winner is not None:
        for payer in options.seats:
            if payer != winner:
                _pay(state, payer, winner, rnd.value)
        state.players[winner].rounds_won += 1
    result = RoundResult(
        number=rnd.number,
        value=rnd.value,
        order=rnd.order,
        scores=scores,
        outcome=outcome,
        reason=reason,
        winner=winner,
        next_starter=starter,
        chips={seat: rnd.chips.get(seat, 0) for seat in options.seats},
    )
    state.results.append(result)
    events = [
        event(
            "round_ended",
            winner,
            **result.to_json(),
            totals={seat: p.chips for seat, p in state.players.items()},
        )
    ]
    leader = _match_winner(state, outcome)
    if leader is not None:
        state.turn = None
        state.winners = [leader]
        chips = {seat: p.chips for seat, p in state.players.items()}
        return [*events, event("game_won", leader, chips=chips, rounds=rnd.number)]
    value = rnd.value + 1 if outcome == "push" else 1
    for player in state.players.values():
        player.standing = ALL_STANDING
        player.score = None
    state.round = Round(
        number=rnd.number + 1, value=value, order=klackwise_from(starter, options.seats)
    )
    state.turn = Turn(starter)
    return events + _round_opening(state)


def _match_winner(state: KlackersState, outcome: str) -> str | None:
    """The match ends after a won round (never a push: the pot is always settled) once
    its rounds are played or a player holds the target, and only with one clear leader:
    if the most chips are shared, another round is played."""
    if outcome != "won":
        return None
    options = state.options
    chips = {seat: p.chips for seat, p in state.players.items()}
    done = options.rounds is not None and state.round.number >= options.rounds
    reached = options.target is not None and max(chips.values()) >= options.target
    if not (done or reached):
        return None
    most = max(chips.values())
    leaders = [seat for seat, count in chips.items() if count == most]
    return leaders[0] if len(leaders) == 1 else None
