"""Scenario tests of the card effects: the known Incident Report and Operator's Log, the
Night Shift's two special Fault Reports, and the rest of the vocabulary."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from map_helpers import (
    bag_only,
    copy_of,
    first,
    kinds,
    new_game,
    play_any,
    put_on_slot,
    set_hand,
    swap_in,
)
from refusals import raises_in_words

from engine.clacks import ClacksGame, EndTurn, Options, PlayJacquard, Seat
from engine.clacks import errors as E
from engine.clacks.actions import Swap
from engine.clacks.card_effects import EFFECTS
from engine.clacks.components import ComponentSet
from engine.clacks.data import default_data_path, load_components
from engine.clacks.effects import CARD_EFFECTS
from engine.clacks.events import Event
from engine.clacks.geometry import FULL_BOARD, mask_of

S, W, N = Seat.SOUTH, Seat.WEST, Seat.NORTH


def test_every_card_effect_name_has_an_interpreter() -> None:
    assert set(EFFECTS) == set(CARD_EFFECTS)


def test_character_sabotage_one_jacquard_per_turn_for_a_whole_round() -> None:
    game, (_, pair), events = swap_in("incident-2", "character-sabotage", ["pin", "pair"], players=3)
    started = first(events, "effect_started")
    assert (started.data["first_turn"], started.data["last_turn"]) == (2, 4)
    lifted = game.state.players[S].hand[-1]
    play_any(game, S, lifted)  # the revealer's own turn is not limited yet
    play_any(game, S, pair)
    game.apply(EndTurn(S))
    for seat in (W, N, S):  # the next turn of every player is limited to one Jacquard
        assert game.view(seat)["turn"]["jacquard_limit"] == 1
        hand = game.state.players[seat].hand
        assert len(hand) == 2
        play_any(game, seat, hand[0])
        with pytest.raises(E.JacquardLimit):
            play_any(game, seat, game.state.players[seat].hand[0])
        assert not any(a.TYPE == "play_jacquard" for a in game.legal_actions(seat))
        game.apply(EndTurn(seat))
    assert game.view(W)["turn"]["jacquard_limit"] is None  # the round is over
    play_any(game, W, game.state.players[W].hand[0])
    play_any(game, W, game.state.players[W].hand[0])


def test_a_swap_needs_room_to_play_the_lifted_jacquard() -> None:
    game, _, _ = swap_in("incident-1", "character-sabotage", ["pin", "pair"])
    play_any(game, S, game.state.players[S].hand[-1])
    game.apply(EndTurn(S))
    hand = game.state.players[N].hand
    play_any(game, N, hand[0])
    with raises_in_words(E.JacquardLimit, match="must be played"):
        game.apply(Swap(N, jacquard=game.state.players[N].hand[0], slot="incident-2"))


def test_gargoyle_on_shift_post_office_at_most_two_steps_this_turn() -> None:
    game, (_, block), events = swap_in("log-1", "gargoyle-on-shift", ["tee", "block"])
    team = game.state.team
    assert team is not None
    assert team.post_office == 1  # the Operator's Log's lifting cost comes first
    assert first(events, "post_office_capped").data["steps"] == 2
    play_any(game, S, game.state.players[S].hand[-1])
    play_any(game, S, block)
    assert team.post_office == 2
    assert team.stress_total == game.state.turn.stress_spent == 1 + 3 + 3
    game.apply(EndTurn(S))
    assert game.view(N)["turn"]["post_office_cap"] is None  # only that turn
    before = team.post_office
    card = game.state.players[N].hand[0]
    play_any(game, N, card)
    assert team.post_office == before + game.components.jacquards[card].cost


def test_gargoyle_holds_back_steps_and_says_so() -> None:
    game, (_, tee), _ = swap_in("log-2", "gargoyle-on-shift", ["pin", "tee"])
    lifted = game.state.players[S].hand[-1]
    play_any(game, S, lifted)
    mask = game.components.jacquards[tee].design.placements[0].mask
    events = game.apply(PlayJacquard(S, jacquard=tee, lamps=mask))
    moved = first(events, "post_office_moved")
    assert moved.data["steps"] + moved.data["held"] == 3
    assert game.state.team is not None and game.state.team.post_office == 2


def test_incident_lamp_effects_count_as_flips_this_turn() -> None:
    game = new_game("coop", 2)
    put_on_slot(game, "incident-1", "bright-golems")
    pin, _ = set_hand(game, S, ["pin", "pair"])
    game.state.board = 0
    game.apply(Swap(S, jacquard=pin, slot="incident-1"))
    corners = mask_of(["a1", "d1", "a4", "d4"])
    assert game.state.board == corners and game.state.turn.flipped & corners == corners


def test_post_office_never_goes_behind_ankh_morpork() -> None:
    game, _, events = swap_in("log-1", "lost-sack", ["pin", "pair"])
    team = game.state.team
    assert team is not None
    # lifting cost 1 step, then the card sends it back 3: only 1 was there to go back
    assert [e.data["steps"] for e in events if e.kind == "post_office_moved"] == [1, -1]
    assert team.post_office == 0


def test_stress_surcharge_for_a_round() -> None:
    game, _, _ = swap_in("incident-1", "nugganites", ["pin", "pair"])
    team = game.state.team
    assert team is not None
    play_any(game, S, game.state.players[S].hand[-1])
    game.apply(EndTurn(S))
    before = team.post_office
    card = game.state.players[N].hand[0]
    play_any(game, N, card)
    assert team.post_office == before + game.components.jacquards[card].cost + 1


# ----------------------------------------------------------------- Night Shift


def night_game(components: ComponentSet | None = None, seed: int = 2) -> ClacksGame:
    options = Options.for_players(2, mode="coop", night_shift=True)
    return ClacksGame.new(options, seed, components)


def stack_faults(game: ClacksGame, designs: list[str]) -> list[str]:
    """Put Fault Reports of these designs on top of the deck, in order."""
    deck = game.state.fault_deck
    top = []
    for design in designs:
        card = next(
            c for c in deck if game.components.faults[c].design.id == design and c not in top
        )
        top.append(card)
    game.state.fault_deck = top + [c for c in deck if c not in top]
    return top


def end_turn_drawing_stamped(game: ClacksGame, stamped: int, board: int = 0) -> list[Event]:
    """South plays both Jacquards and ends the turn, drawing one to pass and one for
    themselves: the bag holds just two, ``stamped`` of them with a Fault stamp. The
    lamps are set to ``board`` just before the turn ends."""
    pin, pair = set_hand(game, S, ["pin", "pair"])
    stamps = [copy_of(game, "bar", stamped=True), copy_of(game, "hook", stamped=True)]
    plain = [copy_of(game, "knight"), copy_of(game, "long")]
    bag_only(game, stamps[:stamped] + plain[: 2 - stamped])
    play_any(game, S, pin)
    play_any(game, S, pair)
    game.state.board = board
    return game.apply(EndTurn(S))


def test_night_shift_a_fault_stamp_reveals_a_fault_report_at_once() -> None:
    game = night_game()
    stack_faults(game, ["overload"])
    events = end_turn_drawing_stamped(game, 1)
    revealed = first(events, "card_revealed")
    assert revealed.data["name"] == "Overload" and revealed.data["deck"] == "fault"
    assert game.state.board == FULL_BOARD
    assert kinds(events).index("card_revealed") < kinds(events).index("turn_started")
    assert game.view(N)["revealed"][0]["name"] == "Overload"


def test_without_night_shift_fault_stamps_mean_nothing() -> None:
    game = new_game("coop", 2, seed=3)  # a deal that leaves the copies the scenario needs
    deck = list(game.state.fault_deck)
    events = end_turn_drawing_stamped(game, 2)
    assert "card_revealed" not in kinds(events)
    assert game.state.fault_deck == deck
    assert game.state.team is not None and game.state.team.ledger.revealed == []


def test_emergency_repair_cancels_a_named_card() -> None:
    game = night_game()
    stack_faults(game, ["emergency-repair", "overload"])
    events = end_turn_drawing_stamped(game, 2)
    assert "repair_waiting" in kinds(events)
    cancelled = first(events, "card_cancelled")
    assert game.components.faults[cancelled.data["card"]].design.id == "overload"
    assert game.state.board == 0  # Overload was cancelled
    assert game.state.team is not None and game.state.team.ledger.repair is None


def test_emergency_repair_is_wasted_on_another_card_and_cancels_a_later_incident() -> None:
    game = night_game()
    stack_faults(game, ["emergency-repair", "crossed-rods"])
    events = end_turn_drawing_stamped(game, 2)
    assert "repair_wasted" in kinds(events)
    assert game.state.board == mask_of(["a2", "d3"])  # Crossed Rods applied
    # a repair waiting when an Incident Report is revealed cancels it if named
    game2 = night_game()
    stack_faults(game2, ["emergency-repair"])
    end_turn_drawing_stamped(game2, 1)
    assert game2.state.team is not None and game2.state.team.ledger.repair is not None
    assert game2.view(N)["emergency_repair"]["cancels"] == [
        "overload",
        "jammed-loom",
        "character-sabotage",
    ]
    put_on_slot(game2, "incident-1", "character-sabotage")
    card = game2.state.players[N].hand[0]
    events = game2.apply(Swap(N, jacquard=card, slot="incident-1"))
    assert "card_cancelled" in kinds(events) and "effect_started" not in kinds(events)


def technician_set(tmp_path: Path) -> ComponentSet:
    """The house set with a second Clacks Technician in place of one Crossed Rods."""
    data = tmp_path / "data"
    shutil.copytree(default_data_path(), data)
    faults = data / "faults.toml"
    text = faults.read_text(encoding="utf-8")
    for design, before, after in (("crossed-rods", 2, 1), ("clacks-technician", 1, 2)):
        head = f'id = "{design}"'
        start = text.index(head)
        at = text.index(f"count = {before}", start)
        text = text[:at] + f"count = {after}" + text[at + len(f"count = {before}") :]
    faults.write_text(text, encoding="utf-8")
    return load_components(data)


def test_clacks_technician_reveals_the_next_two_and_ignores_a_second_technician(
    tmp_path: Path,
) -> None:
    components = technician_set(tmp_path)
    game = night_game(components)
    top = stack_faults(game, ["clacks-technician", "clacks-technician", "wick-fire", "overload"])
    events = end_turn_drawing_stamped(game, 1, board=FULL_BOARD)
    revealed = [e.data["card"] for e in events if e.kind == "card_revealed"]
    assert revealed == top[:3]  # the Technician, then two more; Overload stays in the deck
    assert "card_ignored" in kinds(events)
    assert game.state.board == FULL_BOARD & ~mask_of(["b2", "c2", "b3", "c3"])  # Wick Fire
    assert game.state.fault_deck[0] == top[3]


def test_clacks_technician_reveals_two() -> None:
    game = night_game()
    top = stack_faults(game, ["clacks-technician", "crossed-rods", "stuck-shutter"])
    events = end_turn_drawing_stamped(game, 1)
    assert [e.data["card"] for e in events if e.kind == "card_revealed"] == top
    assert game.state.board == mask_of(["a2", "d3", "b3"])
