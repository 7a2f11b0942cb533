"""The Czech edition's Clacks Cards: a house list of 36 five-letter words, checked by
`clacks check-data`, dealt to a Czech table (its language, or chosen in the lobby)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from live_server import LiveServer
from refusals import raises_in_words
from web_client import call

from clacks.cli import main
from engine.clacks import ClacksGame, Options
from engine.clacks.data import check_path, default_data_path, load_components, plain_letters
from engine.clacks.errors import BadOptions
from engine.core.errors import SerializationError


def czech_words() -> set[str]:
    return set(load_components().word_lists["cs"])


def test_the_czech_list_has_36_five_letter_words_with_the_editions_bubak() -> None:
    words = load_components().word_lists["cs"]
    assert len(words) == len(set(words)) == 36
    assert all(len(w) == 5 and w.isascii() and w.isalpha() and w.isupper() for w in words)
    assert "BUBAK" in words  # printed BUBÁK: the alphabet has no diacritics
    text = (default_data_path() / "words_cs.toml").read_text(encoding="utf-8")
    assert "BUBÁK" in text and plain_letters("KOŠTĚ") in words
    assert set(words) != set(load_components().words)


def broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(default_data_path(), copy)
    words = copy / "words_cs.toml"
    text = words.read_text(encoding="utf-8")
    assert old in text
    words.write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('"KOŠTĚ",', '"KOŠTĚTE",', "words_cs.toml: KOŠTĚTE: must be 5 letters"),
        ('"KOŠTĚ",', '"BUBAK",', "words_cs.toml: BUBAK: duplicate word"),
        ('"KOŠTĚ",', "", "words_cs.toml: wrong count: 35 words, needs 36"),
        ('"KOŠTĚ",', '"KO-TĚ",', "words_cs.toml: KO-TĚ: must be 5 letters"),
    ],
)
def test_check_data_names_a_bad_czech_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, problem: str
) -> None:
    copy = broken_copy(tmp_path, old, new)
    assert any(p.startswith(problem) for p in check_path(copy)), check_path(copy)
    assert main(["check-data", str(copy)]) == 1
    assert problem.split(": ", 1)[1] in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["competitive", "coop", "solitaire", "junior"])
def test_a_czech_game_deals_only_czech_words(mode: str) -> None:
    czech = czech_words()
    for seed in range(40):
        game = ClacksGame.new(Options(mode=mode, word_list="cs"), seed)
        dealt = {w for p in game.state.players.values() for w in p.words}
        if game.state.team is not None:
            dealt |= set(game.state.team.words)
        assert dealt and dealt <= czech, dealt - czech


def test_an_unknown_word_list_is_refused() -> None:
    with raises_in_words(BadOptions, match="There is no word list “de”"):
        Options(word_list="de")
    assert Options.from_json({}).word_list == "en"  # saves made before the option


def new_game(server: LiveServer, options: dict[str, object], language: str | None) -> None:
    body: dict[str, object] = {"game": "clacks", "options": options, "seed": 5}
    if language:
        body["language"] = language
    status, reply = call(server.base, "POST", f"/api/rooms/{server.code}/game", body, pin=server.pin)
    assert status == 201, reply


def dealt_words(server: LiveServer) -> set[str]:
    session = server.room.session
    assert session is not None
    state = session.clacks.state  # type: ignore[attr-defined]
    words = {w for p in state.players.values() for w in p.words}
    return words | (set(state.team.words) if state.team is not None else set())


def test_a_czech_table_is_dealt_czech_words_unless_the_lobby_chooses(server: LiveServer) -> None:
    czech = czech_words()
    for seed_mode in ("competitive", "solitaire"):
        new_game(server, {"mode": seed_mode}, "cs")
        assert dealt_words(server) <= czech
        assert server.room.session.clacks.state.options.word_list == "cs"  # type: ignore[union-attr]
    new_game(server, {"mode": "competitive", "word_list": "en"}, "cs")
    assert server.room.session.clacks.state.options.word_list == "en"  # type: ignore[union-attr]
    new_game(server, {"mode": "competitive"}, "en")
    assert server.room.session.clacks.state.options.word_list == "en"  # type: ignore[union-attr]


def test_a_game_saved_before_the_czech_list_still_loads() -> None:
    """The Czech list lives in its own file, outside the digest an English game records,
    so a game saved by the release before it is still the same component set."""
    fixture = Path(__file__).parent / "data" / "earlier_release" / "clacks-competitive.json"
    saved = json.loads(fixture.read_text())
    game = ClacksGame.replay(saved)
    assert len(game.log) == len(saved["actions"])
    assert game.log_to_json()["components"] == saved["components"]


def test_a_czech_game_records_a_digest_that_covers_its_word_list(tmp_path: Path) -> None:
    shipped = load_components()
    czech = ClacksGame.new(Options(word_list="cs"), 3)
    english = ClacksGame.new(Options(word_list="en"), 3)
    assert czech.log_to_json()["components"] != english.log_to_json()["components"]
    edited = load_components(broken_copy(tmp_path, '"KOŠTĚ",', '"KOZEL",'))
    assert edited.digest_for("en") == shipped.digest_for("en")
    assert edited.digest_for("cs") != shipped.digest_for("cs")
    with pytest.raises(SerializationError, match="different component set"):
        ClacksGame.replay(czech.log_to_json(), edited)
    assert ClacksGame.replay(english.log_to_json(), edited) == english
