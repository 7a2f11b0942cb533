"""Bots: they see only their own seat's view, play only legal actions, are deterministic,
finish games in every mode, and handle sabotage, Fault Reports, Express and Quick Game."""

from __future__ import annotations

import itertools

import pytest
from solver_states import states_from_games, states_from_map_games

from engine.clacks import ClacksGame, Options, Seat
from engine.clacks.actions import Discard, PlayFault, PlayJacquard
from engine.clacks.bots import LEVELS, PlannerBot, make_bot
from engine.clacks.data import load_components
from engine.clacks.geometry import mask_of, pattern_mask, read_pattern, tower
from engine.clacks.simulation import play_bot_game
from engine.clacks.state import ClacksState, PlayerState, Sabotage
from engine.core.rng import Rng

COMPONENTS = load_components()


def _twin(state: ClacksState, seat: Seat, rng: Rng) -> ClacksState:
    """The same game as ``seat`` sees it, with everything hidden from it dealt anew:
    other players' Jacquards and Fault Reports (where hidden), the bag, the decks and the
    generator."""
    twin = state.clone()
    hidden_hands = state.options.mode == "competitive" or state.options.long_distance
    pool = list(twin.bag)
    for other, player in twin.players.items():
        if other is seat:
            continue
        if hidden_hands:
            pool += player.hand
            player.hand = []
    rng.shuffle(pool)
    for other, player in twin.players.items():
        if other is not seat and hidden_hands:
            size = len(state.players[other].hand)
            player.hand, pool = pool[:size], pool[size:]
    twin.bag = pool
    if state.options.mode == "competitive":
        deck = list(twin.fault_deck)
        for other, player in twin.players.items():
            if other is not seat:
                deck += player.faults
        rng.shuffle(deck)
        for other, player in twin.players.items():
            if other is not seat:
                size = len(state.players[other].faults)
                player.faults, deck = deck[:size], deck[size:]
        twin.fault_deck = deck
    else:
        rng.shuffle(twin.fault_deck)
    if twin.team is not None:  # the Jacquards face down on the Operator's Logs
        logs = [s for s in twin.team.slots if s.kind == "log" and s.jacquard is not None]
        for slot in logs:
            swap_with = rng.below(len(twin.bag)) if twin.bag else None
            if swap_with is not None and slot.jacquard is not None:
                slot.jacquard, twin.bag[swap_with] = twin.bag[swap_with], slot.jacquard
    twin.rng = Rng(rng.next_u64())
    return twin


def _choices(state: ClacksState, seat: Seat, level: str) -> object:
    game = ClacksGame(state, COMPONENTS)
    at = state.turn.started_at + 1.0 if state.options.express else None
    legal = game.legal_actions(seat, at)
    bot = make_bot(level, COMPONENTS, seed=42)
    return bot.choose(game.view(seat), legal)


def test_a_bot_given_another_view_with_the_same_own_information_chooses_the_same() -> None:
    rng = Rng(5)
    competitive = itertools.islice(states_from_games(12, seed=4), 0, 600, 3)
    on_the_map = itertools.islice(states_from_map_games(10, seed=4), 0, 600, 3)
    checked = differs = 0
    for state in itertools.chain(competitive, on_the_map):
        for seat in state.players:
            twin = _twin(state, seat, rng)
            game, other = ClacksGame(state, COMPONENTS), ClacksGame(twin, COMPONENTS)
            differs += twin.to_json() != state.to_json()
            assert game.view(seat) == other.view(seat)  # nothing hidden reaches the view
            for level in LEVELS:
                assert _choices(state, seat, level) == _choices(twin, seat, level)
                checked += 1
    assert checked > 1000 and differs > 300


@pytest.mark.parametrize(
    ("mode", "players", "route"),
    [
        ("competitive", 2, "easy"),
        ("competitive", 3, "easy"),
        ("competitive", 4, "easy"),
        ("coop", 3, "hard"),
        ("coop", 4, "easy"),
        ("solitaire", 1, "hard"),
        ("junior", 2, "easy"),
    ],
)
def test_every_level_plays_legal_games_to_the_end(mode: str, players: int, route: str) -> None:
    for number in range(6):
        levels = [LEVELS[(number + i) % len(LEVELS)] for i in range(players)]
        if mode == "competitive" and "random" in levels and number % 2:
            levels = ["greedy" if lv == "random" else lv for lv in levels]
        if mode == "competitive":
            options = Options.for_players(players)
        else:
            options = Options.for_players(players, mode=mode, route=route)
        record = play_bot_game(options, 1000 + number, levels, max_rounds=60)
        # every action went through ClacksGame.apply, which refuses anything illegal
        assert record.turns > 0
        if "random" not in levels:
            assert record.finished, (mode, levels, record)


def test_express_and_quick_games_with_bots_finish() -> None:
    for seed in range(4):
        express = play_bot_game(Options.for_players(2, express=True), seed, ["planner", "greedy"])
        quick = play_bot_game(Options.for_players(3, quick=True), seed, ["planner"] * 3)
        assert express.finished and quick.finished
        assert quick.sabotage_attempts == 0


def test_bots_are_deterministic() -> None:
    for level in LEVELS:
        first = play_bot_game(Options.for_players(2), 77, [level, "planner"], max_rounds=30)
        again = play_bot_game(Options.for_players(2), 77, [level, "planner"], max_rounds=30)
        assert first == again


def _competitive(seat: Seat = Seat.SOUTH) -> ClacksState:
    game = ClacksGame.new(Options.for_players(2), 1)
    state = game.state
    state.turn.seat = seat
    state.order = [seat] + [s for s in state.order if s is not seat]
    return state


def _south_sends_i_from_b2c2(north_at: str) -> tuple[ClacksState, PlayerState, int]:
    """South's turn begun on b2c2 with the letter I to send, North's pawn on ``north_at``:
    the state, South, and the lamps that show I from b2c2."""
    state = _competitive()
    south = state.players[Seat.SOUTH]
    south.message, south.progress, south.pawn = ["I"], 0, "b2c2"
    state.turn.start_tower = "b2c2"
    state.players[Seat.NORTH].pawn = north_at
    return state, south, pattern_mask(COMPONENTS.pattern("I"), Seat.SOUTH, "b2c2")


def _act(state: ClacksState, seat: Seat, level: str = "planner") -> object:
    game = ClacksGame(state, COMPONENTS)
    return make_bot(level, COMPONENTS, 1).choose(game.view(seat), game.legal_actions(seat))


def _play_out_turn(state: ClacksState, seat: Seat, level: str = "planner") -> list[str]:
    """Let the bot finish its turn; the kinds of every event that happened."""
    game = ClacksGame(state, COMPONENTS)
    bot = make_bot(level, COMPONENTS, 1)
    kinds: list[str] = []
    start = game.state.turn.number
    while not game.over and game.state.turn.number == start:
        action = bot.choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        kinds += [e.kind for e in game.apply(action)]
    return kinds


def test_the_planner_sabotages_with_jacquards_and_goes_on_to_transmit() -> None:
    state = _competitive(Seat.NORTH)
    state.sabotage = Sabotage(Seat.SOUTH, "b2c2")
    state.turn.phase, state.turn.can_move = "sabotage", False
    state.board = mask_of(["b2", "c2", "c3"])
    north = state.players[Seat.NORTH]
    north.hand, north.faults = ["elbow-2", "pin-2", "pin-3"], []
    north.message, north.progress = ["I"], 0  # "10 10 10": a column of three
    kinds = _play_out_turn(state, Seat.NORTH)
    assert "sabotage_succeeded" in kinds


def test_the_planner_uses_a_wick_fire_when_jacquards_cannot_darken() -> None:
    state = _competitive(Seat.NORTH)
    state.sabotage = Sabotage(Seat.SOUTH, "b2c2")
    state.turn.phase, state.turn.can_move = "sabotage", False
    state.board = tower("b2c2").mask
    north = state.players[Seat.NORTH]
    north.hand, north.faults = ["pin-2"], ["wick-fire-1"]
    action = _act(state, Seat.NORTH)
    assert isinstance(action, PlayFault) and action.card == "wick-fire-1"
    assert action.tower == "b2c2"


def test_the_planner_plays_a_fault_report_that_completes_its_letter() -> None:
    state, south, wanted = _south_sends_i_from_b2c2(north_at="a2b2")
    state.board = wanted ^ mask_of(["b3", "c1"])  # one lamp of I missing, one extra
    # a Pin alone mends one lamp of two, and moving would leave nothing for it
    south.hand, south.faults = ["pin-2"], ["crossed-rods-1"]
    state.turn.stress_limit = 1
    kinds = _play_out_turn(state, Seat.SOUTH)
    assert "fault_played" in kinds and "transmitted" in kinds


def test_the_planner_spoils_an_opponents_last_symbol_before_it_is_sent() -> None:
    state = _competitive()
    south = state.players[Seat.SOUTH]
    south.message, south.progress, south.pawn = ["I"], 0, "b2c2"
    wanted = pattern_mask(COMPONENTS.pattern("I"), Seat.SOUTH, "b2c2")
    state.board = wanted
    state.turn.jacquards_played, state.turn.flipped, state.turn.can_move = 1, wanted, False
    north = state.players[Seat.NORTH]
    north.faults = ["stuck-shutter-1"]
    game = ClacksGame(state, COMPONENTS)
    offers = [a for a in game.legal_actions(Seat.NORTH) if isinstance(a, PlayFault)]
    reply = make_bot("planner", COMPONENTS, 1).choose(game.view(Seat.NORTH), list(offers))
    assert isinstance(reply, PlayFault) and reply.lamps & tower("b2c2").mask
    game.apply(reply)
    shown = read_pattern(game.state.board, Seat.SOUTH, "b2c2")
    assert shown != COMPONENTS.pattern("I")


def test_out_of_time_bots_discard() -> None:
    state = _competitive()
    state.turn.phase = "timeout_discard"
    state.players[Seat.SOUTH].hand = ["pin-2", "hook-1", "pair-3"]
    for level in LEVELS:
        assert isinstance(_act(state, Seat.SOUTH, level), Discard)


def test_the_planners_thinking_is_bounded_and_still_legal() -> None:
    state = _competitive()
    game = ClacksGame(state, COMPONENTS)
    bot = PlannerBot(COMPONENTS, seed=3, max_solves=1)
    legal = game.legal_actions(Seat.SOUTH)
    assert bot.choose(game.view(Seat.SOUTH), legal) in legal


def test_bots_do_not_act_in_others_turns_without_a_fault_report() -> None:
    state = _competitive()
    state.players[Seat.NORTH].faults = []
    game = ClacksGame(state, COMPONENTS)
    for level in LEVELS:
        bot = make_bot(level, COMPONENTS, 0)
        assert bot.choose(game.view(Seat.NORTH), game.legal_actions(Seat.NORTH)) is None


def test_the_greedy_bot_plays_the_jacquard_that_helps_most() -> None:
    state, south, wanted = _south_sends_i_from_b2c2(north_at="a3b3")
    state.board = wanted ^ mask_of(["b2"])
    south.hand = ["pin-2", "block-1"]
    game = ClacksGame(state, COMPONENTS)
    bot = make_bot("greedy", COMPONENTS, 0)
    moves = game.legal_actions(Seat.SOUTH)
    action = bot.choose(game.view(Seat.SOUTH), moves)
    assert isinstance(action, PlayJacquard) and action.lamps == mask_of(["b2"])
