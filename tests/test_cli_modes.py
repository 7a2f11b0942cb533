"""`clacks play --mode ...`: every mode reachable and playable in the terminal."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from clacks.terminal import TerminalGame
from clacks.terminal_trainer import play_trainer
from engine.clacks import ClacksGame, EndTurn, Options, PlayJacquard, Transmit
from engine.clacks.actions import Action, Swap
from engine.clacks.geometry import lamps_of
from engine.clacks.selfplay import choose_map_action
from engine.clacks.trainer import AlphabetTrainer, TrainerOptions
from engine.core.rng import Rng


def command_for(game: ClacksGame, action: Action) -> str:
    """The terminal command a player would type for ``action``."""
    hand = game.state.players[game.current_seat].hand
    if isinstance(action, PlayJacquard):
        return f"play {hand.index(action.jacquard) + 1} {' '.join(lamps_of(action.lamps))}"
    if isinstance(action, Swap):
        return f"swap {hand.index(action.jacquard) + 1} {action.slot}"
    if isinstance(action, Transmit):
        return f"transmit {action.tower or ''}".strip()
    assert isinstance(action, EndTurn)
    return "end"


def scripted(game: ClacksGame, seed: int) -> Callable[[str], str]:
    rng = Rng(seed)

    def read(prompt: str) -> str:
        return command_for(game, choose_map_action(game, rng, swap_chance=4))

    return read


@pytest.mark.parametrize(
    ("mode", "players", "variants"),
    [
        ("coop", 3, {"night_shift": True}),
        ("coop", 2, {"long_distance": True, "route": "hard"}),
        ("solitaire", 1, {}),
        ("junior", 2, {}),
    ],
)
def test_a_whole_map_game_played_by_typing_commands(
    mode: str, players: int, variants: dict[str, Any]
) -> None:
    game = ClacksGame.new(Options.for_players(players, mode=mode, **variants), 5)
    out = io.StringIO()
    assert TerminalGame(game, scripted(game, 5), out, now=lambda: 0.0).run() == 0
    text = out.getvalue()
    assert game.over
    assert "Refused" not in text and "Could not read" not in text
    if mode == "junior":
        assert f"{game.winners[0].label.capitalize()} wins! The pawn reached Genua." in text
        assert "pawn at" in text
    else:
        assert "Post Office:" in text and "Slots:" in text
        won = "You win!" if mode == "solitaire" else "The team wins!"
        assert (won in text) or ("The Post Office wins." in text)


def test_terminal_errors_are_clear_and_lose_nothing() -> None:
    game = ClacksGame.new(Options.for_players(2, mode="coop"), 2)  # the first card is no pin
    lines = iter(
        ["transmit", "swap 9 log-1", "swap 1 log-7", "play 1 a1 a1 a1 a1 a1", "help", "quit"]
    )
    out = io.StringIO()
    assert TerminalGame(game, lambda _: next(lines), out).run() == 1
    text = out.getvalue()
    assert "Refused: Play at least one Jacquard each turn" in text
    assert "Could not read that: list index out of range" in text
    assert "Refused: There is no slot “log-7”; the slots are incident-1" in text
    assert "swap N SLOT" in text
    assert game.log == []


def test_the_trainer_in_the_terminal() -> None:
    options = TrainerOptions(kind="read", questions=2)
    answers = AlphabetTrainer.new(options, 9)
    first = answers.state.question
    assert first is not None
    lines = iter([first.symbol.lower(), "flip b2", "skip"])
    out = io.StringIO()
    assert play_trainer(options, 9, lambda _: next(lines), out) == 0
    text = out.getvalue()
    assert "Which symbol does tower" in text and "Right!" in text
    assert "Not allowed: Name the symbol shown" in text
    assert "Finished: 1 of 2 right" in text


def run_cli(*args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clacks.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--mode", "coop", "--players", "3", "--night-shift"], "Race to Genua, turn 1"),
        (["--mode", "coop", "--long-distance", "--words", "GENUA MOIST"], "Message: GENUA MOIST"),
        (["--mode", "solitaire", "--route", "hard"], "Solitaire Race to Genua"),
        (["--mode", "junior", "--words", "WITCH NOBBY", "--words", "ANGUA DWARF"], "Junior Race"),
        (["--mode", "trainer", "--kind", "set", "--seat", "east"], "Make "),
        (["--players", "3"], "=== Round 1"),
    ],
)
def test_clacks_play_reaches_every_mode(args: list[str], expected: str) -> None:
    result = run_cli("--seed", "4", *args)
    assert result.returncode == 1, result.stderr  # quit before the end
    assert expected in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mode", "junior", "--players", "3"], "The junior race is for 2 players, not 3."),
        (["--mode", "coop", "--express"], "--express is a competitive variant"),
        (["--night-shift"], "--night-shift is not part of the competitive game"),
        (["--mode", "coop", "--words", "GENUA MOI$T"], "“$”"),
        (["--mode", "trainer", "--seat", "up"], "unknown seat"),
        (
            ["--mode", "trainer", "--questions", "0"],
            "questions must be a whole number from 1 to 100",
        ),
    ],
)
def test_clacks_play_refuses_bad_options(args: list[str], message: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert message in result.stderr


@pytest.mark.parametrize(
    ("args", "bots"),
    [
        (["--players", "3"], "south=planner,west=greedy,north=planner"),
        (["--mode", "coop", "--players", "2", "--night-shift"], "south=planner,north=planner"),
        (["--mode", "solitaire"], "south=planner"),
    ],
)
def test_clacks_play_tells_the_game_in_czech(args: list[str], bots: str) -> None:
    from engine.clacks.data import load_components

    result = run_cli("--language", "cs", "--seed", "5", "--bots", bots, *args, stdin="")
    assert result.returncode == 0, result.stderr
    told = result.stdout
    # the pages' sentences, with Czech plural forms, and no value left unfilled
    assert "si bere" in told and "končí tah za" in told and "Na tahu:" in told
    assert re.search(r"\b1 děrný štítek\b|\b[234] děrné štítky\b", told)
    assert not re.search(r"\b[5-9] body zátěže|\b1 bodů zátěže|\b[234] bodů zátěže", told)
    assert "{" not in told and "(s)" not in told
    assert re.search(r"Vítězí|vítězí|Vítězíte|Poštovní úřad", told)
    # and the Czech edition's words are dealt
    czech = set(load_components().word_lists["cs"])
    sent = re.findall(r"\b([A-Z]{5})\b", told)
    assert sent and set(sent) <= czech | {"SPACE", "KONEC"}, set(sent) - czech
