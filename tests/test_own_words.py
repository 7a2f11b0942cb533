"""Players' own words: letters A to Z after removing diacritics, anything else refused
with a message naming the character, in every mode that uses words."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clacks import ClacksGame, Options, Seat
from engine.clacks.errors import BadOptions
from engine.clacks.state import MAX_WORD_LENGTH, clean_word


def sendable(ch: str) -> str | None:
    """The letter a character is sent as, or None if the alphabet cannot send it."""
    plain = "".join(
        c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
    ).upper()
    return plain if len(plain) == 1 and "A" <= plain <= "Z" else None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x17F), max_size=14))
def test_clean_word_keeps_letters_and_names_anything_else(word: str) -> None:
    letters = [sendable(ch) for ch in word.strip()]
    bad = [ch for ch, letter in zip(word.strip(), letters, strict=True) if letter is None]
    if not bad and 1 <= len(letters) <= MAX_WORD_LENGTH:
        assert clean_word(word) == "".join(letter or "" for letter in letters)
        return
    with pytest.raises(BadOptions) as caught:
        clean_word(word)
    assert (repr(bad[0]) in str(caught.value)) if bad else ("letters" in str(caught.value))


def test_czech_words_are_sent_as_plain_letters() -> None:
    assert clean_word("Bubák") == "BUBAK"
    assert clean_word("  řeka ") == "REKA"
    with pytest.raises(BadOptions, match="'-'"):
        clean_word("Ankh-Morpork")


@pytest.mark.parametrize(
    ("mode", "seats", "words"),
    [
        ("competitive", (Seat.SOUTH, Seat.NORTH), (("Bubák",), ("Quirm",))),
        ("coop", (Seat.SOUTH, Seat.EAST), (("Bubák", "Žluťo"),)),
        ("solitaire", (Seat.WEST,), (("Bubák", "Quirm"),)),
        ("junior", (Seat.NORTH, Seat.EAST), (("Bubák", "Quirm"), ("Genua", "Troll"))),
    ],
)
def test_own_words_in_every_mode(
    mode: str, seats: tuple[Seat, ...], words: tuple[tuple[str, ...], ...]
) -> None:
    game = ClacksGame.new(Options(mode=mode, seats=seats, words=words), 2)
    view = game.view(None)
    shown = (
        view["message"]["words"]
        if "message" in view
        else [w for p in view["players"] for w in p["words"]]
    )
    assert "BUBAK" in shown
    bad = tuple(tuple(w.replace("B", "9") for w in ws) for ws in words)
    with pytest.raises(BadOptions, match="'9'"):
        Options(mode=mode, seats=seats, words=bad)
