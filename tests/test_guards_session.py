"""Guards! Guards! behind the box's seam: seats, whose move it is, the lamps (the die as
a bar, the quadrants) and the buttons acting for whoever the game waits for."""

from __future__ import annotations

from typing import Any

import pytest
from guards_support import GUILD_CARDS, rig, to_move, volunteer

from engine.core.errors import IllegalAction
from engine.games import game_module
from engine.guards.lamps import BAR, DICE_ROWS, REROLL_BAR, block_lamps
from engine.guards.session import GuardsSession


def session(players: int = 2) -> GuardsSession:
    made = game_module("guards").new({"players": players}, seed=5)
    assert isinstance(made, GuardsSession)
    return made


def pressed(s: GuardsSession, button: str) -> tuple[str | None, dict[str, Any]]:
    """The seat and report a press of ``button`` stands for; the press means something."""
    meant = s.button_action(button, 0)
    assert meant is not None, f"{button} means nothing now"
    return meant


def set_up(s: GuardsSession) -> None:
    for i, seat in enumerate(s.guards.seats):
        s.apply(seat, {"type": "choose_guild", "card": GUILD_CARDS[i]}, 0)
        for deck in ("lords_ladies", "man_beast"):
            s.apply(seat, {"type": "dealt", "deck": deck, "values": volunteer(deck=deck)}, 0)


def test_seats_and_who_must_act_through_the_set_up() -> None:
    s = session(3)
    assert [i.id for i in s.seats] == ["red", "blue", "green"]
    assert s.active_seats == ["red", "blue", "green"]
    s.apply("red", {"type": "choose_guild", "card": "fools-a"}, 0)
    assert s.active_seats == ["red", "blue", "green"]
    set_up(session(3))
    s = session(2)
    set_up(s)
    assert s.active_seats == ["red", "blue"]  # anyone may roll for the first player
    assert s.legal_actions("red", 0) == [{"type": "roll", "group": "now", "fields": []}]
    with pytest.raises(IllegalAction):
        s.apply(None, {"type": "roll"}, 0)


def test_a_roll_lights_its_bar_and_then_the_quadrants_come_back() -> None:
    s = session(2)
    set_up(s)
    rig(s.guards, [8, 3])
    events = s.apply("blue", {"type": "roll"}, 0)
    assert s.transmissions(events) == [DICE_ROWS]
    frame = s.lamps()
    assert frame.lit == sum(1 << BAR[i] for i in range(8))  # red rolled the 8
    assert frame.accent == frame.lit  # a natural 8 in the accent colour
    s.apply("red", {"type": "adjust", "dollars": 1}, 0)
    assert s.lamps().lit == 0  # no Dragon in the city yet
    assert REROLL_BAR[0] == 8


def test_the_quadrant_buttons_mark_blocks_and_the_panel_buttons_cycle() -> None:
    s = session(2)
    set_up(s)
    seat, action = pressed(s, "b2c2")
    assert action == {"type": "roll"}
    s.apply(seat, action, 0)
    turn = to_move(s.guards)
    seat, action = pressed(s, "a2b2")
    assert seat == turn and action["type"] == "mark"
    s.apply(seat, action, 0)
    quadrant = action["quadrant"]
    assert s.view(turn)["marked"] == [quadrant]
    blocks = s.guards.state.options.data.blocks
    assert s.lamps().preview == block_lamps(blocks[quadrant])
    seat, action = pressed(s, "c3c4")
    s.apply(seat, action, 0)
    assert s.view(None)["panel"] == "cards"
    seat, action = pressed(s, "b1b2")
    assert (seat, action) == (turn, {"type": "end_turn"})
    s.apply(seat, action, 0)
    assert to_move(s.guards) != turn
    assert s.view(None)["marked"] == []
    with pytest.raises(ValueError):
        s.button_action("a1a2", 0)


def test_the_result_ranks_everyone() -> None:
    s = session(2)
    set_up(s)
    s.apply("red", {"type": "roll"}, 0)
    s.apply("red", {"type": "stop_game"}, 0)
    result = s.result()
    assert result is not None and result["reason"] == "stopped"
    assert set(result["ranking"]) == {"red", "blue"}
    replayed = game_module("guards").replay(s.log_json())
    assert replayed.result() == result


def test_every_event_is_said_in_english_words() -> None:
    from refusals import event_kinds

    from engine.guards.describe import TEXTS, describe_event

    made_elsewhere = {"ability_worked", "ability_failed", "rolled", "panel_shown", "marked"}
    assert event_kinds("guards", "ev") | made_elsewhere <= set(TEXTS)
    assert describe_event({"kind": "rolled", "seat": "red", "faces": [8, 1], "purpose": "challenge", "total": 14,
                           "target": 13, "passed": True}) == "Red rolls 8 then 1 for challenge: 14 against 13, a pass."
    assert describe_event({"kind": "bribed", "seat": "blue", "name": "Nobby", "dollars": 3}) == "Blue bribes Nobby for $3."
