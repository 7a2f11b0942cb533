"""The Guards! Guards! data files: the house set is valid, an owner's files are checked
by `clacks check-data --game guards` naming the file and entry of every problem, and a
game plays with the catalogue it was started with."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clacks.cli import main
from engine.core.errors import DataError
from engine.guards import GuardsGame, GuardsOptions
from engine.guards.data import check_path, default_data_path, load_data, read_tables, shipped_data


def copy_set(tmp_path: Path) -> Path:
    target = tmp_path / "guards"
    shutil.copytree(default_data_path(), target)
    return target


def test_the_house_set_is_valid_and_says_what_is_a_house_value() -> None:
    assert check_path() == []
    data = shipped_data()
    assert len(data.guild_cards) == 8 and len(data.spells) == 8
    assert [c.number for c in data.challenges] == [1, 2, 3, 4]
    assert [t[0] for t in data.challenge(4).tests] == ["brawl", "streetwise"]
    assert data.house["challenges.toml"] and data.house["guilds.toml"]
    assert not data.house["volunteers.toml"]
    for card in data.guild_cards.values():
        assert len(set(card.spells)) == 5 and card.house
    guilds = sorted(c.guild for c in data.guild_cards.values())
    assert guilds == sorted(["alchemists", "assassins", "fools", "thieves"] * 2)


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("challenges.toml", "number = 2", "number = 9", "challenge 9: number must be 1 to 4"),
        ("challenges.toml", 'attribute = "toughness"', 'attribute = "charm"', "challenge 2: tests[0].attribute"),
        ("spells.toml", 'id = "red"', 'id = "Red Spell"', "spell Red Spell: id must be"),
        ("guilds.toml", 'guild = "fools"', 'guild = "wizards"', "guild card fools-a: guild must be one of"),
        ("guilds.toml", '"red", "yellow", "blue", "violet", "octarine"', '"red", "red", "blue", "violet", "octarine"',
         "guild card thieves-a: spells must list 5 different"),
        ("guilds.toml", "start = { magic = 1, guild = 3, charm = 2 }", "start = { magic = 9, guild = 3, charm = 2 }",
         "guild card thieves-a: start.magic (9) is above the top of its table (8)"),
        ("board.toml", 'fools = "nw"', 'fools = "ne"', "board.toml: blocks: must use each block once"),
        ("board.toml", '"fools", "thieves"', '"fools", "fools"', "board.toml: clockwise: must list the four"),
        ("guilds.toml", "ability = \"Cut Purse\"\n", "ability = \"Cut Purse\"\nabilty = 1\n", "unknown key 'abilty'"),
    ],
)
def test_each_problem_names_its_file_and_entry(tmp_path: Path, file: str, old: str, new: str, expected: str) -> None:
    path = copy_set(tmp_path)
    text = (path / file).read_text()
    assert old in text
    (path / file).write_text(text.replace(old, new, 1))
    problems = check_path(path)
    assert any(expected in p and p.startswith(file) for p in problems), problems
    with pytest.raises(DataError):
        load_data(path)


def test_an_owner_catalogue_is_checked_card_by_card(tmp_path: Path) -> None:
    path = copy_set(tmp_path)
    (path / "volunteers.toml").write_text(
        'house = false\n'
        '[[volunteer]]\nid = "nobby"\nname = "Nobby Nobbs"\ndeck = "man_beast"\ncharm = 3\n'
        'loyalty = 1\nstreetwise = 5\nbrawl = 2\ntoughness = 1\nwanted = true\n'
        '[[volunteer]]\nid = "colon"\nname = "Fred Colon"\ndeck = "watch"\ncharm = 40\n'
        'loyalty = 3\nstreetwise = 2\nbrawl = 2\ntoughness = 3\n'
    )
    problems = check_path(path)
    assert any(p.startswith("volunteers.toml: volunteer colon: deck must be one of") for p in problems)
    assert any("volunteer colon: charm must be a whole number from 1 to 20" in p for p in problems)
    assert not any("nobby" in p for p in problems)


def test_a_game_offers_the_catalogue_cards_to_name_a_card_turned_over(tmp_path: Path) -> None:
    path = copy_set(tmp_path)
    (path / "volunteers.toml").write_text(
        '[[volunteer]]\nid = "nobby"\nname = "Nobby Nobbs"\ndeck = "man_beast"\ncharm = 3\nbribe = 1\n'
        'loyalty = 1\nstreetwise = 5\nbrawl = 2\ntoughness = 1\n'
    )
    (path / "catalogue.toml").write_text('[[dragon]]\nid = "errol"\nname = "Errol"\ntoughness = 20\nbrawl = 6\n')
    tables, problems = read_tables(path)
    assert not problems
    game = GuardsGame.new(GuardsOptions.from_json({"players": 2, "data": tables}), 1)
    assert game.state.cards["cv-nobby"].place == "deck"
    assert game.state.cards["cd-errol"].place == "pool"
    game.apply_json({"type": "choose_guild", "card": "fools-a"}, "red")
    game.apply_json({"type": "dealt", "deck": "man_beast", "card": "cv-nobby"}, "red")
    assert game.state.players["red"].hand == ["cv-nobby"]
    replayed = GuardsGame.replay(game.log_to_json())
    assert replayed.state.players["red"].hand == ["cv-nobby"]


def test_the_cli_checks_a_guards_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-data", "--game", "guards"]) == 0
    assert "all Guards! Guards! data files are valid" in capsys.readouterr().out
    path = copy_set(tmp_path)
    (path / "spells.toml").unlink()
    assert main(["check-data", "--game", "guards", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path / 'spells.toml'}: file is missing" in err
    assert main(["check-data", "--game", "guards", str(tmp_path / "nothing")]) == 1
    assert "not a directory" in capsys.readouterr().err
