"""Seeded puzzle states for solver tests and benches: from real games and at random."""

from __future__ import annotations

from collections.abc import Iterator

from engine.clacks import ClacksGame, Options
from engine.clacks.geometry import TOWER_NAMES, tower, towers_of
from engine.clacks.mode_state import LastingEffect
from engine.clacks.selfplay import next_action
from engine.clacks.state import ClacksState, Sabotage
from engine.core.rng import Rng


def states_from_games(games: int, seed: int = 0) -> Iterator[ClacksState]:
    """Every state the current player meets in seeded self-play games (2 to 4 players),
    each a copy."""
    for number in range(games):
        game_seed = seed * 100_003 + number
        game = ClacksGame.new(Options.for_players(2 + number % 3), game_seed)
        rng = Rng(game_seed)
        while not game.over and len(game.log) < 400:
            yield game.state.clone()
            game.apply(next_action(game, rng))


def random_state(rng: Rng, with_faults: bool = False, max_hand: int = 4) -> ClacksState:
    """A state with a random board, hand (and, ``with_faults``, at most one Fault Report),
    pawns, Deep Dwarf and turn so far; one in eight is a Last Letter Sabotage attempt."""
    players = 2 + rng.below(3)
    game = ClacksGame.new(Options.for_players(players), rng.below(1 << 30))
    state = game.state
    components = game.components
    state.board = rng.below(1 << 16)
    seat = state.turn.seat
    me = state.players[seat]
    size = rng.below(4) if rng.below(40) else 4  # hands of four are rare (Junior Race)
    me.hand = rng.sample(sorted(components.jacquards), min(size, max_hand))
    me.faults = rng.sample(sorted(components.faults), rng.below(2)) if with_faults else []
    taken: set[str] = set()
    for player in state.players.values():
        free = [t for t in towers_of(player.seat.colour) if t not in taken]
        player.pawn = None if rng.below(5) == 0 else free[rng.below(len(free))]
        if player.pawn:
            taken.add(player.pawn)
    if state.options.dwarf_seat is not None and rng.below(4):
        free = [t for t in towers_of(state.options.dwarf_seat.colour) if t not in taken]
        state.dwarf = free[rng.below(len(free))]
    me.progress = rng.below(len(me.message))
    me.must_leave = me.pawn if me.pawn and rng.below(3) == 0 else None
    turn = state.turn
    turn.start_tower = me.pawn
    turn.stress_limit = (3, 5, 5, 5, 7)[rng.below(5)]
    turn.stress_spent = rng.below(3)
    turn.jacquards_played = 1 if rng.below(4) == 0 else 0
    turn.can_move = turn.jacquards_played == 0 or rng.below(3) == 0
    turn.flipped = rng.below(1 << 16) & rng.below(1 << 16) & rng.below(1 << 16)
    if rng.below(8) == 0:
        target = next(s for s in state.players if s is not seat)
        state.sabotage = Sabotage(target, TOWER_NAMES[rng.below(len(TOWER_NAMES))])
        turn.phase = "sabotage"
        turn.can_move = False
        if not state.board & tower(state.sabotage.tower).mask:
            state.board |= tower(state.sabotage.tower).mask & 0b1010_0101_1010_0101
    return state


MAP_GAMES = (("coop", 2), ("coop", 3), ("coop", 4), ("solitaire", 1), ("junior", 2))


def states_from_map_games(games: int, seed: int = 0) -> Iterator[ClacksState]:
    """States met in seeded self-play co-op, solitaire and junior games (easy and hard
    routes), swapping now and then; each a copy."""
    for number in range(games):
        mode, players = MAP_GAMES[number % len(MAP_GAMES)]
        game_seed = seed * 100_003 + number
        route = ("easy", "hard")[number // len(MAP_GAMES) % 2]
        game = ClacksGame.new(Options.for_players(players, mode=mode, route=route), game_seed)
        rng = Rng(game_seed)
        while not game.over and len(game.log) < 600:
            yield game.state.clone()
            game.apply(next_action(game, rng, swap_chance=4))


def random_map_state(rng: Rng) -> ClacksState:
    """A co-op, solitaire or junior state with a random board, hand (up to three
    Jacquards), turn so far, Post Office, taken slots, a Jacquard limit or surcharge
    from a card, and sometimes a lifted Jacquard still to play."""
    mode, players = MAP_GAMES[rng.below(len(MAP_GAMES))]
    game = ClacksGame.new(
        Options.for_players(players, mode=mode, route=("easy", "hard")[rng.below(2)]),
        rng.below(1 << 30),
    )
    state = game.state
    components = game.components
    state.board = rng.below(1 << 16)
    seat = state.turn.seat
    me = state.players[seat]
    me.hand = rng.sample(sorted(components.jacquards), rng.below(4))
    turn = state.turn
    turn.jacquards_played = rng.below(2)
    turn.flipped = rng.below(1 << 16) & rng.below(1 << 16) & rng.below(1 << 16)
    ledger = state.team.ledger if state.team is not None else state.race.ledger  # type: ignore[union-attr]
    if rng.below(4) == 0:  # Character Sabotage or the Nugganites' surcharge this turn
        card, effect, params = (
            ("character-sabotage-1", "limit_jacquards", {"per_turn": 1}),
            ("nugganites-1", "stress_surcharge", {"amount": 1}),
        )[rng.below(2)]
        ledger.lasting.append(LastingEffect(card, effect, params, turn.number, turn.number))
    team = state.team
    if team is not None:
        team.progress = rng.below(len(team.message))
        team.post_office = team.track - 1 - rng.below(team.track // 2 if rng.below(3) else 6)
        for slot in team.slots:
            if rng.below(3) == 0:
                slot.card = slot.jacquard = None
        if me.hand and rng.below(6) == 0:
            team.lifted, team.swapped = me.hand[0], True
        elif rng.below(6) == 0:
            team.swapped = True
        if rng.below(8) == 0:
            team.turn_cap, team.turn_steps = 2, rng.below(3)
    else:
        me.progress = rng.below(len(me.message))
    return state
