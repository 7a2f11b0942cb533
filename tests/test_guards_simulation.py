"""A thousand seeded Guards! Guards! games of random reports: the companion's invariants
hold at every step and every game replays from its log (engine.guards.simulation)."""

from __future__ import annotations

import json

import pytest
from guards_support import act, set_up, started
from refusals import raises_in_words

from clacks.cli import main
from engine.guards import GuardsGame
from engine.guards import views as guard_views
from engine.guards.simulation import (
    InvariantBroken,
    check_invariants,
    check_privacy,
    play_random_game,
)

GAMES = 1000
CHUNKS = 4


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_thousand_random_games_keep_every_rule(chunk: int) -> None:
    per = GAMES // CHUNKS
    endings = set()
    players = set()
    returned = actions = 0
    for seed in range(chunk * per, (chunk + 1) * per):
        outcome = play_random_game(seed)  # raises InvariantBroken naming what broke
        endings.add(outcome.ending)
        players.add(outcome.players)
        returned += outcome.events["spell_returned"]
        actions += outcome.actions
    assert actions / per > 100  # long games, not a few reports each
    assert players == {2, 3, 4, 5, 6}
    assert "spells" in endings and "stopped" in endings  # some are won, some judged
    assert returned > per  # the runs get through


def test_the_checks_catch_a_broken_game() -> None:
    game = started(2)
    check_invariants(game.state)
    game.state.players["red"].dollars = -1
    with raises_in_words(InvariantBroken, match="red has \\$-1"):
        check_invariants(game.state)
    game = started(2)
    game.state.players["blue"].base["charm"] = 99
    with raises_in_words(InvariantBroken, match="off its table"):
        check_invariants(game.state)


def test_the_privacy_check_catches_a_leaking_view(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GuardsGame.new(seed=2)
    set_up(game)
    act(game, "red", "roll")
    check_privacy(game)
    honest = guard_views.player_json

    def leaky(state, player):  # type: ignore[no-untyped-def]
        out = honest(state, player)
        out["hand"] = list(player.hand)
        return out

    monkeypatch.setattr(guard_views, "player_json", leaky)
    with raises_in_words(InvariantBroken, match="sees"):
        check_privacy(game)


def test_the_cli_simulates_guards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "guards", "--games", "4", "--seed", "9", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 4 and figures["game"] == "guards"
    assert figures["rolls"] > 0 and sum(figures["endings"].values()) == 4
    assert main(["simulate", "--game", "guards", "--games", "2", "--players", "6", "--spells", "2"]) == 0
    assert "every check held" in capsys.readouterr().out
    assert main(["simulate", "--game", "guards", "--players", "1"]) == 2
