"""The message's words as the Czech cards print them (KOČÁR) beside the plain letters
the lamps spell (KOCAR), in every mode's view, and the players' own words as they typed
them (ŘEKA beside REKA), kept in the game's options and its saves."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_server import companion
from web_client import call

from engine.clacks.data import load_components
from engine.clacks.errors import BadOptions
from engine.clacks.state import Options
from engine.games import game_module

COMPONENTS = load_components()


def test_the_czech_cards_keep_their_diacritics() -> None:
    assert COMPONENTS.spelled("KOCAR") == "KOČÁR"
    assert COMPONENTS.spelled("BUBAK") == "BUBÁK"
    assert COMPONENTS.spelled("TROLL") == "TROLL"  # an English card is as it is
    czech = COMPONENTS.words_for("cs")
    assert "KOCAR" in czech and sum(COMPONENTS.spelled(w) != w for w in czech) >= 10


def test_every_mode_shows_the_words_as_printed_beside_the_letters_sent() -> None:
    for options in (
        {"players": 2, "word_list": "cs"},
        {"mode": "coop", "players": 2, "word_list": "cs"},
        {"mode": "junior", "players": 2, "word_list": "cs"},
    ):
        spelled_somewhere = False
        for seed in range(40):
            view = game_module("clacks").new(options, seed).view(None)
            holders = [view["message"]] if "words" in view.get("message", {}) else view["players"]
            for holder in holders:
                assert [COMPONENTS.spelled(w) for w in holder["words"]] == holder["spelled"]
                spelled_somewhere |= holder["spelled"] != holder["words"]
        assert spelled_somewhere, options


def test_players_own_words_keep_the_spelling_they_typed() -> None:
    options = {"mode": "coop", "players": 2, "words": [["Ježek", "řekne"]]}
    view = game_module("clacks").new(options, 1).view(None)
    assert view["message"]["words"] == ["JEZEK", "REKNE"]
    assert view["message"]["spelled"] == ["JEŽEK", "ŘEKNE"]
    typed = Options.from_json({"words": [["Řeka"], ["TROLL"]]})
    assert typed.words == (("REKA",), ("TROLL",))
    assert typed.spellings == (("ŘEKA",), ("TROLL",))
    # a save holds both and loads to the same game
    assert Options.from_json(typed.to_json()) == typed


def test_a_save_from_before_the_typed_spelling_loads_with_the_plain_letters() -> None:
    clacks = game_module("clacks")
    save = clacks.new({"players": 2, "words": [["Řeka"], ["TROLL"]]}, 3).log_json()
    del save["options"]["spellings"]  # as saves were written before it
    view = clacks.replay(save).view(None)
    assert [p["spelled"] for p in view["players"]] == [["REKA"], ["TROLL"]]


@pytest.mark.parametrize(
    "spellings",
    [
        [["ŘEKA"], ["TROLLS"]],  # not the word sent
        [["ŘEKA"]],  # a list missing
        [["ŘEKA", "X"], ["TROLL"]],  # a word too many
        [["Ř€KA"], ["TROLL"]],  # a character the alphabet cannot send
    ],
)
def test_a_spelling_that_is_not_its_word_is_refused(spellings: list[list[str]]) -> None:
    with pytest.raises(BadOptions):
        Options.from_json({"words": [["REKA"], ["TROLL"]], "spellings": spellings})
    with pytest.raises(BadOptions):
        Options.from_json({"spellings": [["ŘEKA"], ["TROLL"]]})


def test_typed_words_reach_the_table_over_http_and_survive_a_restart(tmp_path: Path) -> None:
    with companion(data_dir=tmp_path) as server:
        body = {"options": {"players": 2, "words": [["Řeka"], ["kočár"]]}, "seed": 4}
        status, answer = call(
            server.base, "POST", f"/api/rooms/{server.code}/game", body, pin=server.pin
        )
        assert status == 201, answer
        code = server.code
        before = call(server.base, "GET", f"/api/rooms/{code}")[1]["view"]["players"]
    assert sorted((p["spelled"], p["words"]) for p in before) == [
        (["KOČÁR"], ["KOCAR"]),
        (["ŘEKA"], ["REKA"]),
    ]
    with companion(data_dir=tmp_path) as again:
        assert again.code == code
        after = call(again.base, "GET", f"/api/rooms/{code}")[1]["view"]["players"]
        assert after == before
