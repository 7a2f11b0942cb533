"""Scenarios from the Clockman rulebook (../shared/seeds/clockman-rules-de.txt), each
quoting the rule it checks, played through the game's own ``apply``; the rules the
companion refers the phone to are checked through the session, as a phone asks them.
Every refused report is checked to leave the game exactly as it was."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from clockman_support import act, kinds, new_game, place, refused, roll, to_turn
from shared_seeds import seed_text

from engine.clockman import ClockmanGame, ClockmanOptions
from engine.clockman.errors import (
    CannotKnock,
    NoEffectOnStraight,
    NotYourTurn,
    WrongCircle,
    WrongMoment,
)
from engine.clockman.session import ClockmanSession
from web.refusals import in_english

THREE = ("south", "west", "north")
FOUR = ("south", "west", "north", "east")
COMPLETE = "00000112"


def north_on_the_straight(cards: list[tuple[str, str]]) -> ClockmanGame:
    """South's turn, south on circle 3, west on circle 2, north on field 1 of the
    straight holding ``cards``."""
    game = new_game(seats=THREE)
    place(game, "south", ring=3)
    place(game, "west", ring=2)
    place(game, "north", ring=5, field=1, date=COMPLETE, cards=cards)
    return game


# 5.3 C, the Zielgeradenregel -------------------------------------------------------
#
# "Auf einen Spieler, der sich bereits auf seiner Zielgeraden befindet, haben die bei
# Bedarf auszuspielenden Ereigniskarten keine Auswirkungen mehr." (On a player who is
# already on their final straight, the event cards played when needed have no effect.)


def test_a_player_on_the_final_straight_may_still_play_a_card_on_a_player_on_a_circle() -> None:
    """The rule protects the player on the straight, not the cards they hold: a face-down
    card played by north from the straight sends south, on circle 3, one circle out."""
    game = north_on_the_straight([("hidden", "storm"), ("hidden", "lift")])
    events = act(game, "play", "north", card="e1", effect="circle_out", target="south")
    assert kinds(events) == ["card_played", "moved_by_card"]
    assert game.state.players["south"].ring == 2
    act(game, "play", "north", card="e2", effect="circle_in", target="west")
    assert game.state.players["west"].ring == 3
    assert game.state.players["north"].ring == 5  # the holder's own place is untouched


def test_no_event_card_acts_on_a_player_on_the_final_straight() -> None:
    """South's cards cannot move north on the straight, inward or outward; a card north
    plays cannot act on north either (a symbol card drawn, a roll again); each refusal
    names the rule and changes nothing."""
    game = north_on_the_straight([("hidden", "gift"), ("hidden", "again")])
    place(game, "south", cards=[("hidden", "push"), ("hidden", "pull")])
    for effect in ("circle_out", "circle_in"):
        error = refused(
            game, NoEffectOnStraight, "play", "south", card="e3", effect=effect, target="north"
        )
        assert "north is on the final straight" in in_english(error).lower()
        assert error.rule == "clockman_no_effect_on_straight"
    for effect in ("symbol_card", "roll_again"):
        refused(game, NoEffectOnStraight, "play", "north", card="e1", effect=effect)
    # a card that acts on the board alone may be played by anyone
    assert kinds(act(game, "play", "north", card="e1", effect="board")) == ["card_played"]


def test_a_card_drawn_and_played_at_once_cannot_reach_a_player_on_the_final_straight() -> None:
    """The same for a card read out at once from an event field: south draws it on
    circle 3 and may send west out, but not north on the straight."""
    game = north_on_the_straight([])  # south has rolled and lands on an event field
    refused(
        game, NoEffectOnStraight, "event", "south", kind="now", effect="circle_out", target="north"
    )
    act(game, "event", "south", kind="now", effect="circle_out", target="west")
    assert game.state.players["west"].ring == 1


def test_the_phone_is_offered_the_card_from_the_straight_and_told_why_not_onto_it() -> None:
    """What the phones are offered follows the rule: north's legal plays from the
    straight include south as a target; south's never include north, and asking about
    it gives the rule's reason."""
    game = north_on_the_straight([("hidden", "storm")])
    place(game, "south", cards=[("hidden", "push")])
    session = ClockmanSession(game)
    north_plays = [a for a in session.legal_actions("north", 0.0) if a["type"] == "play"]
    assert {
        "type": "play",
        "seat": "north",
        "card": "e1",
        "effect": "circle_out",
        "target": "south",
    } in north_plays
    assert not [a for a in north_plays if a["effect"] in ("symbol_card", "roll_again")]
    south_plays = [a for a in session.legal_actions("south", 0.0) if a["type"] == "play"]
    assert south_plays and not [a for a in south_plays if a.get("target") == "north"]
    reason = session.refusal(
        "south", {"type": "play", "card": "e2", "effect": "circle_out", "target": "north"}, 0.0
    )
    assert reason is not None and reason.rule == "clockman_no_effect_on_straight"


def test_a_card_from_the_straight_played_in_its_holders_own_turn_still_acts_on_others() -> None:
    """North, on the straight, plays a face-down card in their own turn before rolling:
    it sends south one circle out, and north's roll on the straight goes on as usual."""
    game = north_on_the_straight([("hidden", "storm")])
    to_turn(game, "north")
    act(game, "play", "north", card="e1", effect="circle_out", target="south")
    assert game.state.players["south"].ring == 2
    assert kinds(roll(game, 1)) == ["rolled", "straight_moved"]
    assert game.state.players["north"].field == 2


# 5.3: "Eine Ereigniskarte wird gezogen, wenn ein Spieler auf ein Ereignisfeld gerückt
# ist." 5.3 A: "„Karte sofort ausspielen“: Sie wird, direkt nachdem sie gezogen wurde,
# laut verlesen und unter den Ereigniskartenstapel zurückgelegt"


def test_event_cards_are_drawn_on_landing_and_one_played_at_once_goes_under_the_deck() -> None:
    game = new_game()
    act(game, "plain")
    act(game, "end_turn")
    to_turn(game, "south")
    error = refused(game, WrongMoment, "event", "south", kind="now")  # no landing yet
    assert "Roll the die first" in in_english(error)
    roll(game, 4)
    deck = game.state.event_deck()
    assert kinds(act(game, "event", kind="now")) == ["event_drawn"]
    assert game.state.event_deck() == deck and game.state.players["south"].cards == []
    act(game, "end_turn")
    to_turn(game, "south")
    roll(game, 4)
    act(game, "event", kind="hidden")
    assert game.state.event_deck() == deck - 1 and len(game.state.players["south"].cards) == 1


# 2, Das Spielzubehör ----------------------------------------------------------------
#
# "20 Whytooki-Blockaden - 40 Symbolkarten - 40 Ziffern-Kärtchen; davon: 20 Null-…,
# 8 Einser-…, 4 Zweier-…, 2 Joker-…, 6 „Lift“-Kärtchen - 120 Ereigniskarten (60 deutsch /
# 60 englisch) - 4 sechseitige Würfel" and (5.1) "Zu jeder Pose gibt es acht Karten."


def test_the_companion_counts_the_boxs_components() -> None:
    """Forty symbol cards, eight of each pose, forty digit cards, twenty Whytookis, one
    language's sixty event cards, and a six-sided die."""
    game = new_game(seats=FOUR)
    state, data = game.state, game.state.data
    assert Counter(state.deck) == {pose: 8 for pose in data.pose_ids} and len(state.deck) == 40
    assert data.digits == {"0": 20, "1": 8, "2": 4, "X": 2, "L": 6}
    assert sum(data.digits.values()) == 40
    assert data.whytookis == 20 and state.event_deck() == 60 and data.die_faces == 6


# 4, Die Spielfiguren -----------------------------------------------------------------
#
# "Die Whytooki-Figuren … werden auf den roten Durchgangsfeldern sowie auf dem jeweils
# letzten Feld der vier Zielgeraden platziert. Dabei ist darauf zu achten, dass auf allen
# drei Whytooki-Kreisbahnen … möglichst viele verschiedene Posen vertreten sind. Die
# Reihenfolge der Posen in diesen Gruppen kann dem Zufall überlassen werden."


def test_the_whytookis_show_as_many_poses_as_possible_on_each_ring_in_a_random_order() -> None:
    orders = set()
    for seed in range(30):
        state = ClockmanGame.new(ClockmanOptions(seats=FOUR), seed).state
        assert [len(ring) for ring in state.rings] == [6, 5, 5]
        assert all(len(set(ring)) == 5 for ring in state.rings)  # all five poses on each
        placed = Counter(pose for ring in state.rings for pose in ring)
        placed.update(state.straights.values())
        assert sum(placed.values()) == 20 and max(placed.values()) <= 4  # the box's figures
        orders.add(tuple(state.rings[0]))
    assert len(orders) > 1


# 6, Der Spielverlauf ----------------------------------------------------------------
#
# "…der Spieler mit der höchsten Augenzahl beginnt und befördert seine Spielfigur mit
# dieser Zahl auf den ersten Spielkreis, gefolgt von den anderen Spielteilnehmern. Auf
# allen Spielkreisen wird ausschließlich im Uhrzeigersinn gezogen." (ruling 4: the turns
# go clockwise too)


def test_the_turns_go_clockwise_round_the_table_from_the_starter() -> None:
    game = new_game(seats=FOUR, starter="north")
    seen = []
    for _ in range(5):
        turn = game.state.turn
        assert turn is not None
        seen.append(turn.seat)
        if turn.phase == "roll":
            roll(game, 1)
        act(game, "plain")
        act(game, "end_turn")
    assert seen == ["north", "east", "south", "west", "north"]


# 6.1: "Andere Möglichkeiten zur Blockadenüberwindung sind, eine entsprechende
# Ereigniskarte auszuspielen oder eine Liftkarte zu nutzen."


def test_a_whytooki_may_be_passed_with_an_event_card_instead_of_a_symbol_card() -> None:
    game = new_game()
    pose = game.state.rings[0][0]
    place(game, "south", ring=1, hand="", cards=[("hidden", "secret passage")])
    events = act(game, "blockade", pose=pose, card="e1")
    assert [(e.kind, e.data["by"]) for e in events] == [("blockade_passed", "event")]
    south = game.state.players["south"]
    turn = game.state.turn
    assert turn is not None and turn.played == {"south": 1}
    assert south.ring == 2 and south.cards == []


# 6.2: "Er bemüht sich, im zweiten Spielkreis fünf Nullen, im dritten Spielkreis drei
# Einsen und im vierten Spielkreis eine Zwei aufzulesen, indem er die entsprechenden
# Ziffernfelder genau trifft." (ruling 1: two 1s)


def test_each_digit_is_picked_up_on_its_own_circle() -> None:
    game = new_game()
    place(game, "south", ring=2)
    for digit in ("1", "2"):
        error = refused(game, WrongCircle, "digit", "south", digit=digit)
        assert f"The {digit}s lie on circle" in in_english(error)
    act(game, "digit", digit="0")
    assert game.state.players["south"].date["0"] == 1


# 6.3: "Der Tatbestand des Geschlagenwerdens tritt auch dann ein, wenn eine
# Clockman-Figur von einer anderen durch deren Wechsel der Spielkreise – z.B. durch
# Nutzung einer Liftkarte – getroffen wird."


def test_a_piece_that_changes_circle_by_a_lift_knocks_the_piece_it_lands_on() -> None:
    game = new_game()
    place(game, "south", ring=1)
    place(game, "north", ring=2)
    refused(game, CannotKnock, "knock", "south", victim="north")  # not on the same circle
    act(game, "lift", use=True)
    assert kinds(act(game, "knock", victim="north")) == ["knocked", "knocked_out"]
    assert game.state.players["north"].ring == 1 and game.state.players["south"].ring == 2


# 6.4: "Würfelt er eine zu hohe Augenzahl, um auf eines seiner drei Zielgeradenfelder
# gelangen zu können, so hat er … die Wahl, den vierten Kreis noch einmal zu umrunden …
# oder aber den Wurf verfallen zu lassen und stehen zu bleiben."


def test_a_roll_may_be_let_go_only_on_circle_4_with_a_complete_key() -> None:
    game = new_game()
    place(game, "south", ring=3, date=COMPLETE)
    refused(game, WrongMoment, "forfeit", "south")
    place(game, "south", ring=4, date="0000011")
    refused(game, WrongMoment, "forfeit", "south")
    place(game, "south", date=COMPLETE)
    assert [e.data["reason"] for e in act(game, "forfeit")] == ["stays"]
    assert game.state.players["south"].ring == 4
    act(game, "end_turn")
    to_turn(game, "south")
    roll(game, 2)
    error = refused(game, WrongMoment, "straight", "south", field=3)
    assert "A roll of 2 cannot reach field 3" in in_english(error)
    act(game, "straight", field=2)
    assert (game.state.players["south"].ring, game.state.players["south"].field) == (5, 2)


# 6.4: "Auf dem vierten Spielkreis angelangt, kann ein Spieler, sofern er das Datum
# komplettiert hat, ausschließlich über die in seiner Farbe dargestellte Zielgerade zum
# Clockman-Feld vordringen."


def test_the_final_straight_is_entered_only_from_circle_4() -> None:
    game = new_game()
    place(game, "south", ring=3, date=COMPLETE)
    error = refused(game, WrongCircle, "straight", "south", field=1)
    assert "starts from circle 4" in in_english(error)


# 7.2 Hamsterregel: "…kann sich im Falle des Hamsterns einer der Spieler gezwungen sehen,
# die ihm fehlende Ziffer zurückzugewinnen. Hierzu muss er dem Dieb nachsetzen und ihn
# schlagen, womit der Geschlagene die Position und die geklaute Ziffer den Besitzer
# wechselt."


def test_with_the_hoarding_rule_a_knock_wins_back_a_spare_digit() -> None:
    game = new_game(hamster="on")
    place(game, "south", ring=2, date="0000")
    place(game, "north", ring=2, date="000000")
    events = act(game, "knock", victim="north")
    assert kinds(events) == ["knocked", "digit_taken_from", "knocked_out"]
    south, north = game.state.players["south"], game.state.players["north"]
    assert (south.date["0"], north.date["0"], north.ring) == (5, 5, 1)
    # without the rule a knock takes nothing
    game = new_game()
    place(game, "south", ring=2, date="0000")
    place(game, "north", ring=2, date="00000")
    assert kinds(act(game, "knock", victim="north")) == ["knocked", "knocked_out"]


# 7.1 Übertragungsregel: "…muss, um dies tun zu können, eines der Übertragungsfelder
# aufsuchen, indem er genau darauf zu stehen kommt. Dies muss er nicht für jede Ziffer
# einzeln tun."


def test_one_transfer_field_carries_every_digit_set_aside_into_the_key() -> None:
    game = new_game(transfer=True)
    place(game, "south", ring=2, date="000", pending="00X")
    assert [e.data["digits"] for e in act(game, "transfer")] == [["0", "0", "X"]]
    south = game.state.players["south"]
    assert (south.date["0"], south.date["X"], sum(south.pending.values())) == (5, 1, 0)


# 7.4 Tauschregel: "Ziffern, selbst solche, die bereits Bestandteil eines Datums
# geworden sind, können vom jeweils gerade am Zug befindlichen Spieler zum Tausch gegen
# andere Ziffern angeboten werden."


def test_only_the_player_whose_turn_it_is_offers_a_trade() -> None:
    game = new_game(seats=THREE, swap=True)
    place(game, "south", date="00000")
    place(game, "west", date="1")
    error = refused(game, NotYourTurn, "offer", "west", to="south", give=["1"], get=["0"])
    assert "South is playing" in in_english(error)
    assert kinds(act(game, "offer", "south", to="west", give=["0"], get=["1"])) == ["offer_made"]


# the rule-coverage table in docs/clockman.md ------------------------------------------

DOC = Path(__file__).resolve().parents[1] / "docs" / "clockman.md"
TESTS = Path(__file__).resolve().parent
KINDS = {"refereed", "tracked", "on the board", "story"}
NAMED_TEST = re.compile(r"`(test_\w+\.py)::(test_\w+)`")


def coverage_rows() -> list[list[str]]:
    """The table's rows (section, German, English, companion, tests), each a list of
    its cells."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("\n## Rule coverage\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    cells = [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]
    return [row for row in cells if row[0] != "§"]


def flat(text: str) -> str:
    return " ".join(text.replace("**", "").split()).lower()


def rulebook() -> str | None:
    """The German rulebook beside the checkout (the project's shared references), if
    there."""
    text = seed_text("clockman-rules-de.txt")
    return flat(text) if text is not None else None


def test_the_coverage_table_names_a_real_test_for_every_refereed_or_tracked_rule() -> None:
    rows = coverage_rows()
    assert len(rows) >= 60
    sections = {row[0].split()[0].split(".")[0] for row in rows}
    assert sections == {"1", "2", "3", "4", "5", "6", "7"}
    sources = {}
    for section, german, english, kind, tests in rows:
        assert german and english, section
        assert kind in KINDS, (section, kind)
        named = NAMED_TEST.findall(tests)
        if kind in ("refereed", "tracked"):
            assert named, f"§{section} {german[:40]}: a {kind} rule with no test"
        else:
            assert tests == "—", (section, tests)
        for file, test in named:
            if file not in sources:
                path = TESTS / file
                assert path.is_file(), file
                sources[file] = path.read_text(encoding="utf-8")
            assert f"def {test}(" in sources[file], f"{file}::{test} does not exist"
    # the rules this change refers to are in the table with their tests
    zielgerade = next(row for row in rows if row[0] == "5.3 C")
    assert "test_no_event_card_acts_on_a_player_on_the_final_straight" in zielgerade[4]


def test_the_coverage_tables_quotations_are_the_rulebooks_words() -> None:
    book = rulebook()
    if book is None:
        pytest.skip("the rulebook is not beside this checkout")
    for section, german, *_ in coverage_rows():
        for fragment in german.split("…"):
            words = flat(fragment).strip(" ;")
            assert not words or words in book, f"§{section}: {fragment!r} is not the rulebook's"
