"""The Klackers bots: the planner's values are exact (checked against an independent
recursion over every standing set and all 36 throws), the levels rank as they should,
and a bot chooses from its own seat's view alone."""

from __future__ import annotations

import copy
from functools import cache

import pytest
from klackers_support import match, roll, set_standing

from engine.klackers import KlackersGame, KlackersOptions, Pull, Roll
from engine.klackers.bots import GreedyBot, NotMyTurn, PlannerBot, RandomBot, make_bot
from engine.klackers.numbers import ALL_STANDING, mask_of, numbers_of
from engine.klackers.strategy import best_pull, exact_values, one_roll_values


def brute_force(objective: str) -> dict[int, float]:
    """The optimal expected cost of every standing set, by plain recursion over the 36
    throws of two dice and the 6 faces of one, with every subset tried as a pull."""

    def cost(left: int) -> float:
        return float(left) if objective == "score" else float(left != 0)

    @cache
    def value(standing: tuple[int, ...]) -> float:
        if not standing:
            return cost(0)
        left = sum(standing)
        two = 0.0
        for a in range(1, 7):
            for b in range(1, 7):
                pulls = [
                    rest
                    for chosen in range(1, 1 << len(standing))
                    if sum(n for i, n in enumerate(standing) if chosen >> i & 1) == a + b
                    for rest in [tuple(n for i, n in enumerate(standing) if not chosen >> i & 1)]
                ]
                two += (min(value(r) for r in pulls) if pulls else cost(left)) / 36
        if left > 6:
            return two
        one = sum(cost(0) if face == left else cost(left) for face in range(1, 7)) / 6
        return min(two, one)

    return {mask: value(numbers_of(mask)) for mask in range(ALL_STANDING + 1)}


@pytest.mark.parametrize("objective", ["score", "klack"])
def test_the_planners_values_are_exact_for_every_standing_set(objective: str) -> None:
    exact = exact_values(objective)
    reference = brute_force(objective)
    assert all(abs(exact[m] - reference[m]) < 1e-9 for m in range(ALL_STANDING + 1))


def test_some_values_by_hand() -> None:
    values = exact_values("score")
    # a lone 1: no pair of dice makes 1, so only one die can (1 chance in 6)
    assert values[mask_of([1])] == pytest.approx(5 / 6)
    # a lone 7: two dice make 7 one time in 6 and one die is not allowed
    assert values[mask_of([7])] == pytest.approx(7 * 5 / 6)
    assert exact_values("klack")[ALL_STANDING] == pytest.approx(0.9082, abs=1e-4)
    assert 11 < values[ALL_STANDING] < 11.2
    # looking one roll ahead is never better than the exact optimum
    assert all(o >= e - 1e-9 for o, e in zip(one_roll_values("score"), values, strict=True))


def mean_score(level: str, matches: int = 120) -> float:
    scores: list[int] = []
    for seed in range(matches):
        game = KlackersGame.new(KlackersOptions(rounds=1), seed)
        bot = make_bot(level, seed)
        while not game.over:
            seat = game.current_seat
            assert seat is not None
            game.apply(bot.choose(game.view(seat)))
        scores += [s for r in game.state.results for s in r.scores.values()]
    return sum(scores) / len(scores)


def test_the_levels_rank_planner_greedy_random() -> None:
    planner, greedy, random = mean_score("planner"), mean_score("greedy"), mean_score("random")
    assert planner < greedy < random
    assert planner < 12 and random > 16


def test_a_bot_chooses_from_its_own_view_alone() -> None:
    game = match(seats=("south", "west", "north"), starter="south")
    set_standing(game, "south", [1, 2, 3, 5, 8])
    set_standing(game, "west", [9])
    roll(game, 4, 4)
    view = game.view("south")
    for bot in (PlannerBot(), GreedyBot()):
        chosen = bot.choose(view)
        assert isinstance(chosen, Pull) and sum(chosen.numbers) == 8
        # whatever the others hold, and whatever the table's screen shows, the same choice
        scrambled = copy.deepcopy(view)
        for player in scrambled["players"]:
            if player["seat"] != "south":
                player["standing"], player["chips"] = [], 99
        scrambled["results"] = [{"junk": True}]
        assert bot.choose(scrambled) == chosen
    random_bot = RandomBot(seed=3)
    assert random_bot.choose(view) in game.legal_actions("south")
    # another seat's view, or the table's, gives the bot nothing to act on
    for other in (game.view("west"), game.view(None)):
        with pytest.raises(NotMyTurn):
            PlannerBot().choose(other)


def test_the_planner_plays_for_the_klack_under_klack_to_win() -> None:
    # find a roll where the lowest expected score and the best Klack chance differ
    score, klack = exact_values("score"), exact_values("klack")
    for standing in range(ALL_STANDING, 0, -1):
        for total in range(2, 13):
            try:
                by_score, by_klack = (best_pull(standing, total, v) for v in (score, klack))
            except ValueError:
                continue
            if by_score != by_klack:
                break
        else:
            continue
        break
    else:
        raise AssertionError("the objectives never disagree")
    for klack_to_win, expected in ((False, by_score), (True, by_klack)):
        game = match(starter="south", klack_to_win=klack_to_win)
        game.state.players["south"].standing = standing
        faces = (1, total - 1) if total <= 7 else (6, total - 6)
        roll(game, *faces)
        assert PlannerBot().choose(game.view("south")) == Pull("south", numbers_of(expected))


def test_the_planner_rolls_one_die_when_it_is_better() -> None:
    game = match(starter="south")
    set_standing(game, "south", [1])  # two dice can never make 1
    assert PlannerBot().choose(game.view("south")) == Roll("south", 1)
    set_standing(game, "south", [1, 2, 3])  # 6: two dice make it more often than one die
    assert PlannerBot().choose(game.view("south")) == Roll("south", 2)


def test_unknown_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="levels are random, greedy, planner"):
        make_bot("genius")
