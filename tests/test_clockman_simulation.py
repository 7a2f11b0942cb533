"""A thousand seeded games of random reports, over two to four players and every mix of
the four optional rules. After every step: every digit card is either on the board or
in a player's hands, no date key holds more than the rules allow, the symbol cards add
up, nobody is on the straight with an incomplete key. Refused reports change nothing.
Every few steps and at the end: no view holds another player's symbol hand or notes,
nor the seed, the dice generator or the deck's order. At the end: the log replays to
the same game and the state reads back from its JSON; a sample of undos is checked
against replaying the log without the undone report."""

from __future__ import annotations

from collections import Counter

import pytest
from seed_tiers import fast_then_slow_batches

from engine.clockman.simulation import options_for, play_random_game

GAMES = 1000
FAST_GAMES = 100  # the first games, in the fast tier: every kind of event comes by the 50th
CHUNKS = 3  # the other games, in the full tier, run side by side by the test runner's workers


@pytest.mark.parametrize("games", fast_then_slow_batches(GAMES, FAST_GAMES, CHUNKS))
def test_a_thousand_games_of_random_reports_keep_every_invariant(games: range) -> None:
    problems: list[str] = []
    events: Counter[str] = Counter()
    finished = refused = undone = 0
    for index in games:
        outcome = play_random_game(options_for(index), seed=index)
        problems += [f"game {index}: {p}" for p in outcome.problems]
        events += outcome.events
        finished += outcome.game.over
        refused += outcome.refused
        undone += outcome.undone
    assert not problems, problems[:10]
    # the run went through every part of the rules, not only the easy ones
    assert finished >= len(games) * 0.95
    assert refused > len(games) and undone > len(games)
    for kind in (
        "digit_taken",
        "blockade_passed",
        "lift_used",
        "lift_declined",
        "transferred",
        "moved_outward",
        "knocked_out",
        "digit_taken_from",
        "protected",
        "offer_accepted",
        "offer_declined",
        "card_played",
        "moved_by_card",
        "roll_again",
        "straight_entered",
        "straight_passed",
        "reached_centre",
        "check_asked",
        "inspected",
        "win_revoked",
        "game_won",
    ):
        assert events[kind] > 0, kind
