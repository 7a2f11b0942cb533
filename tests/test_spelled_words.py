"""The message's words as the Czech cards print them (KOČÁR) beside the plain letters
the lamps spell (KOCAR), in every mode's view."""

from __future__ import annotations

from engine.clacks.data import load_components
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
