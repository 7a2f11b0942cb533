"""The companion glue with a real Clacks session: frames, transmit animation, previews,
attract mode and the press handler."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from firmware_support import AMBER, lit_lamps, mock_board

from engine.clacks.actions import PlayJacquard
from engine.clacks.geometry import RED_TOWERS, TOWERS
from engine.clacks.selfplay import next_action, play_heuristic_game
from engine.clacks.session import ClacksSession
from engine.core.interface import JSON, Session
from engine.core.rng import Rng
from engine.games import game_module
from firmware.companion import Companion, SessionButtons
from firmware.config import DEFAULT_BUTTON_PINS
from firmware.exchange import Exchange
from firmware.scene import TRANSMIT_S


def new_session(seed: int = 11, players: int = 2) -> ClacksSession:
    session = game_module("clacks").new({"players": players}, seed)
    assert isinstance(session, ClacksSession)
    return session


def lit_after_a_frame(board: Exchange) -> int:
    """The lamps the board lights once its renderer has drawn the next frame."""
    board.renderer.tick()
    return lit_lamps(board.pixels())


def test_game_changed_shows_the_sessions_lamps() -> None:
    session = new_session()
    board, sink, _, _ = mock_board()
    companion = Companion(board)
    companion.game_changed(session)
    assert lit_after_a_frame(board) == session.lamps().lit
    assert sink.last is not None


def test_a_transmit_event_plays_the_animation_on_the_towers_lamps() -> None:
    session = new_session(seed=5)
    game, rng = session.clacks, Rng(5)
    board, _, clock, _ = mock_board()
    companion = Companion(board)
    companion.game_changed(session)
    events: list[JSON] = []
    while not any(e["kind"] == "transmitted" for e in events):
        assert not game.over, "no transmission in this game"
        action = next_action(game, rng)
        events = session.apply(action.seat.label if action.seat else None, action.to_json(), 0.0)
        companion.game_changed(session, events)
        board.renderer.tick()
        clock.advance(TRANSMIT_S)
    (sent,) = [e for e in events if e["kind"] == "transmitted"]
    clock.advance(-TRANSMIT_S)  # back to the moment of the transmit
    board.renderer.tick()
    shown = board.pixels()
    tower = TOWERS[sent["tower"]].mask
    lit = session.lamps().lit
    signal = max(shown, key=sum)
    assert signal != AMBER
    for lamp in range(16):
        if tower >> lamp & 1:
            assert shown[lamp] == (signal if lit >> lamp & 1 else (0, 0, 0))
        elif lit >> lamp & 1:
            assert 0 < sum(shown[lamp]) < sum(AMBER)  # the rest of the board dimmed
    clock.advance(TRANSMIT_S)
    assert lit_after_a_frame(board) == session.lamps().lit


def test_preview_blinks_the_lamps_a_jacquard_would_flip_and_stops() -> None:
    session = new_session(seed=8)
    board, _, _, _ = mock_board()
    companion = Companion(board)
    seat = session.active_seats[0]
    plays = [a for a in session.legal_actions(seat, 0.0) if a["type"] == PlayJacquard.TYPE]
    assert plays
    # placing the pawn first may be needed before playing; find one the game previews
    previewed = [a for a in plays if session.preview(seat, a) is not None]
    assert previewed
    action = previewed[0]
    companion.preview(session, seat, action)
    board.renderer.tick()
    frame = session.preview(seat, action)
    assert frame is not None
    assert lit_lamps(board.pixels()) == frame.lit ^ frame.preview
    companion.preview(session, seat, None)
    assert lit_after_a_frame(board) == session.lamps().lit


def test_idle_runs_attract_mode_until_the_game_changes() -> None:
    session = new_session()
    board, _, clock, _ = mock_board()
    companion = Companion(board)
    companion.idle(True)
    board.renderer.tick()
    first_step = board.renderer.scene.attract_steps[0].frame
    assert lit_lamps(board.pixels()) == first_step.lit
    companion.game_changed(session)
    clock.advance(0.01)
    assert lit_after_a_frame(board) == session.lamps().lit


def test_presses_through_the_session_with_the_serve_lock_held() -> None:
    session = new_session()
    board, _, _, factory = mock_board()
    companion = Companion(board)
    lock = threading.RLock()
    applied: list[list[JSON]] = []
    held_during: list[bool] = []

    def on_applied(s: object, events: list[JSON]) -> None:
        held_during.append(lock._is_owned())  # type: ignore[attr-defined]
        applied.append(events)

    companion.set_press_handler(
        SessionButtons(companion, lambda: session, lock=lock, clock=lambda: 0.0, applied=on_applied)
    )
    factory.pin(DEFAULT_BUTTON_PINS[RED_TOWERS[0]]).drive_low()
    assert [e["kind"] for e in applied[0]][:1] == ["moved"]
    assert held_during == [True]


def test_a_press_is_kept_before_the_lamps_show_it() -> None:
    session = new_session()
    board, _, _, factory = mock_board()
    companion = Companion(board)
    order: list[str] = []
    shown = companion.game_changed
    def game_changed(session: Session, events: Sequence[JSON] = ()) -> None:
        order.append("lamps")
        shown(session, events)

    companion.game_changed = game_changed  # type: ignore[method-assign]
    refused = companion.refused
    def refused_in_order() -> None:
        order.append("refused")
        refused()

    companion.refused = refused_in_order  # type: ignore[method-assign]
    failing = [False]

    def keep(s: object, events: list[JSON]) -> None:
        order.append("kept")
        if failing[0]:
            raise OSError("disk full")

    companion.set_press_handler(
        SessionButtons(
            companion,
            lambda: session,
            clock=lambda: 0.0,
            kept=keep,
            applied=lambda s, events: order.append("told"),
        )
    )
    factory.pin(DEFAULT_BUTTON_PINS[RED_TOWERS[0]]).drive_low()
    assert order == ["kept", "lamps", "told"]
    factory.pin(DEFAULT_BUTTON_PINS[RED_TOWERS[0]]).drive_high()
    failing[0] = True
    order.clear()
    factory.pin(DEFAULT_BUTTON_PINS[RED_TOWERS[1]]).drive_low()
    assert order == ["kept", "refused"]


def test_presses_with_no_game_or_after_the_game_change_nothing() -> None:
    board, _, clock, _ = mock_board()
    companion = Companion(board)
    current: list[ClacksSession | None] = [None]
    refusals: list[object] = []
    companion.set_press_handler(
        SessionButtons(companion, lambda: current[0], refused=lambda s, e: refusals.append(e))
    )
    board.press("a2b2")  # no game in play
    finished = new_session(seed=2)
    play_heuristic_game(finished.clacks, 2)
    assert finished.over
    current[0] = finished
    log = finished.log_json()
    clock.advance(1.0)  # past the debounce: a new press, not the first one bouncing
    board.press("a2b2")  # the game is over: a press means nothing
    assert finished.log_json() == log
    assert refusals == []
    assert board.renderer.scene.refused_since is None


def test_games_without_a_show_module_get_frames_but_no_highlights() -> None:
    from firmware import shows

    moved = {"kind": "moved", "to": "b2c2"}
    assert shows.effects("clacks", [moved]) == [("highlight", TOWERS["b2c2"].mask)]
    assert shows.effects("clacks-trainer", [moved]) == []
    assert shows.button_lamps("clacks-trainer", "b2c2") == 0
    assert shows.attract_programme("clacks-trainer") == []


def test_the_transmit_animation_comes_from_the_session_alone() -> None:
    """One path for the animation: the lamps ``Session.transmissions`` names, so a game
    with no show module still animates its transmissions, and a Clacks transmit is
    animated once."""
    from firmware import shows

    sent = {"kind": "transmitted", "tower": "b2c2", "symbol": "A"}
    assert shows.effects("clacks", [sent]) == []
    session = new_session()
    board, _, _, _ = mock_board()
    calls: list[int] = []
    board.transmitted = calls.append  # type: ignore[method-assign,assignment]
    Companion(board).game_changed(session, [sent])
    assert calls == session.transmissions([sent]) == [TOWERS["b2c2"].mask]


def test_a_press_the_game_cannot_read_flashes_and_changes_nothing() -> None:
    session = new_session()
    board, _, _, _ = mock_board()
    companion = Companion(board)
    refusals: list[object] = []
    companion.set_press_handler(
        SessionButtons(companion, lambda: session, refused=lambda s, e: refusals.append(e))
    )
    before = session.log_json()
    companion._pressed("e5")  # a pin the settings named after no tower
    assert session.log_json() == before and refusals == []
    assert board.renderer.scene.refused_since is not None
