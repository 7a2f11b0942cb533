"""A cheap, seeded self-play policy that finishes games: for simulation tests and benches.

It plays legally and with a little sense (move where needed, play the Jacquard that brings
the tower closest to the next symbol, transmit when it can, try sabotage), and now and
then plays a Fault Report for a random seat, so long simulations visit every rule.
In the map games (co-op, solitaire, junior) it looks one or two Jacquards ahead for a
placement that makes the next symbol on one of the player's towers, otherwise plays the
one that brings a tower closest, and now and then swaps with a slot so the swap rules
and every card effect are visited. It reads the full state, so it is a test driver, not
a bot for real seats.
"""

from __future__ import annotations

from engine.clacks.actions import (
    Action,
    EndTurn,
    Move,
    PlayFault,
    PlayJacquard,
    Swap,
    TimeUp,
    Transmit,
)
from engine.clacks.game import ClacksGame
from engine.clacks.geometry import Seat, read_pattern, tower, towers_of
from engine.clacks.state import ClacksState
from engine.core.rng import Rng, derive_seed

MAX_ACTIONS = 5000


def _wrong_lamps(game: ClacksGame, board: int) -> int:
    state = game.state
    player = state.players[state.turn.seat]
    assert player.pawn is not None and player.next_symbol is not None
    wanted = game.components.alphabet[player.next_symbol]
    return (read_pattern(board, player.seat, player.pawn) ^ wanted).bit_count()


def choose_turn_action(game: ClacksGame, rng: Rng, at: float | None = None) -> Action:
    """The current player's next action under the heuristic policy."""
    state = game.state
    seat = state.turn.seat
    if state.options.express and at is None:
        at = state.turn.started_at + 1.0
    actions = [a for a in game.legal_actions(seat, at) if not isinstance(a, PlayFault)]
    if not actions:
        deadline = game.rules.deadline(state)
        return TimeUp(None, at=deadline)
    for action in actions:
        if isinstance(action, Transmit):
            return action
    plays = [a for a in actions if isinstance(a, PlayJacquard)]
    ends = [a for a in actions if isinstance(a, EndTurn)]
    if state.turn.phase == "sabotage":
        assert state.sabotage is not None
        mask = tower(state.sabotage.tower).mask
        lit_now = (state.board & mask).bit_count()
        best = min(plays, key=lambda a: ((state.board ^ a.lamps) & mask).bit_count(), default=None)
        if best is not None and ((state.board ^ best.lamps) & mask).bit_count() < lit_now:
            return best
        return ends[0] if ends else actions[0]
    player = state.players[seat]
    moves = [a for a in actions if isinstance(a, Move)]
    if moves and (player.pawn is None or player.pawn == player.must_leave or rng.below(5) == 0):
        return moves[rng.below(len(moves))]
    if player.pawn is not None and player.next_symbol is not None and plays:
        now = _wrong_lamps(game, state.board)
        scored = [(_wrong_lamps(game, state.board ^ a.lamps), rng.below(1000), a) for a in plays]
        wrong, _, best = min(scored, key=lambda t: (t[0], t[1]))
        if wrong < now or state.turn.jacquards_played == 0:
            return best
    if ends:
        return ends[0]
    return actions[rng.below(len(actions))]


def play_heuristic_game(
    game: ClacksGame, seed: int, fault_chance: int = 20, swap_chance: int = 0
) -> ClacksGame:
    """Play ``game`` to the end (or MAX_ACTIONS) and return it; 1 in ``fault_chance``
    steps plays a random Fault Report for a random seat instead (competitive), 1 in
    ``swap_chance`` turns starts with a random swap (co-op; 0 = only useful swaps)."""
    rng = Rng(derive_seed(seed, "self-play"))
    while not game.over and len(game.log) < MAX_ACTIONS:
        game.apply(next_action(game, rng, fault_chance, swap_chance))
    return game


def next_action(game: ClacksGame, rng: Rng, fault_chance: int = 20, swap_chance: int = 0) -> Action:
    if game.state.options.mode != "competitive":
        return choose_map_action(game, rng, swap_chance)
    if fault_chance and rng.below(fault_chance) == 0:
        seat = game.seats[rng.below(len(game.seats))]
        at = game.state.turn.started_at + 1.0 if game.state.options.express else None
        faults = [a for a in game.legal_actions(seat, at) if isinstance(a, PlayFault)]
        if faults:
            return faults[rng.below(len(faults))]
    return choose_turn_action(game, rng)


# ----------------------------------------------------------------- the map games


def _next_symbol(state: ClacksState) -> str | None:
    if state.team is not None:
        return state.team.next_symbol
    return state.players[state.turn.seat].next_symbol


def _distance(game: ClacksGame, board: int, flipped: int, seat: Seat, symbol: str) -> int:
    """How far the seat's best tower is from showing ``symbol`` freshly: wrong lamps, or
    2 for a tower that shows it already but was not touched this turn."""
    wanted = game.components.alphabet[symbol]
    best = 99
    for name in towers_of(seat.colour):
        wrong = (read_pattern(board, seat, name) ^ wanted).bit_count()
        if wrong == 0 and not flipped & tower(name).mask:
            wrong = 2
        best = min(best, wrong)
    return best


def choose_map_action(game: ClacksGame, rng: Rng, swap_chance: int = 0) -> Action:
    """The current player's next action in a co-op, solitaire or junior game. At the
    start of a turn 1 in ``swap_chance`` turns swaps at random (0: never), so that
    simulations visit every slot and card."""
    state = game.state
    seat = state.turn.seat
    actions = game.legal_actions(seat)
    for action in actions:
        if isinstance(action, Transmit):
            return action
    symbol = _next_symbol(state)
    assert symbol is not None
    plays = [a for a in actions if isinstance(a, PlayJacquard)]
    ends = [a for a in actions if isinstance(a, EndTurn)]
    swaps = [a for a in actions if isinstance(a, Swap)]
    team = state.team
    if team is not None and team.lifted is not None:
        plays = [a for a in plays if a.jacquard == team.lifted] or plays
    board, flipped = state.board, state.turn.flipped
    first_play = state.turn.jacquards_played == 0
    if first_play and swaps and swap_chance and rng.below(swap_chance) == 0:
        return swaps[rng.below(len(swaps))]

    def after(play: PlayJacquard) -> int:
        return _distance(game, board ^ play.lamps, flipped | play.lamps, seat, symbol)

    now = _distance(game, board, flipped, seat, symbol)
    cost = {a.jacquard: game.components.jacquards[a.jacquard].cost for a in plays}
    scored = sorted(
        (((after(a), cost[a.jacquard], rng.below(1000)), a) for a in plays), key=lambda t: t[0]
    )
    if scored and scored[0][0][0] == 0:
        return scored[0][1]
    hand = state.players[seat].hand
    if first_play and len(hand) >= 2:
        finisher = _finishing_play(game, scored, hand, seat, symbol)
        if finisher is not None:
            return finisher
    if first_play and swaps:
        useful = _useful_swap(game, swaps, seat, symbol)
        if useful is not None:
            return useful
    improves = scored and (first_play or scored[0][0][0] < now)
    # in co-op a second Jacquard costs the team stress: play it only when nearly there
    if improves and (team is None or first_play or scored[0][0][0] <= 1):
        return scored[0][1]
    if ends:
        return ends[0]
    return actions[rng.below(len(actions))]


def _finishes_with(
    game: ClacksGame, board: int, flipped: int, card_id: str, seat: Seat, symbol: str
) -> bool:
    """Whether one placement of ``card_id`` makes the symbol."""
    for placement in game.components.jacquards[card_id].design.placements:
        mask = placement.mask
        if _distance(game, board ^ mask, flipped | mask, seat, symbol) == 0:
            return True
    return False


def _finishing_play(
    game: ClacksGame,
    scored: list[tuple[tuple[int, int, int], PlayJacquard]],
    hand: list[str],
    seat: Seat,
    symbol: str,
) -> PlayJacquard | None:
    """A first Jacquard after which another one in hand makes the symbol, cheapest pair."""
    state = game.state
    best: tuple[int, PlayJacquard] | None = None
    for (_, first_cost, _), first in scored:
        board = state.board ^ first.lamps
        flipped = state.turn.flipped | first.lamps
        for card_id in hand:
            total = first_cost + game.components.jacquards[card_id].cost
            if card_id == first.jacquard or (best is not None and total >= best[0]):
                continue
            if _finishes_with(game, board, flipped, card_id, seat, symbol):
                best = (total, first)
    return best[1] if best else None


def _useful_swap(game: ClacksGame, swaps: list[Swap], seat: Seat, symbol: str) -> Swap | None:
    """A swap for a face-up Incident Jacquard that makes the symbol on its own."""
    state = game.state
    team = state.team
    assert team is not None
    for action in swaps:
        slot = team.slot(action.slot)
        if slot is None or slot.kind != "incident" or slot.jacquard is None:
            continue
        if _finishes_with(game, state.board, state.turn.flipped, slot.jacquard, seat, symbol):
            return action
    return None
