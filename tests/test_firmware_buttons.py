"""The tower buttons on gpiozero MockFactory pins, through the debounce layer."""

from __future__ import annotations

import dataclasses
import queue
import threading
import time

import pytest
from firmware_support import FakeClock, mock_board
from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin

from engine.clacks.geometry import GREEN_TOWERS, RED_TOWERS, TOWERS
from engine.clacks.session import ClacksSession
from engine.core.errors import IllegalAction
from engine.core.interface import Session
from engine.games import game_module
from firmware.companion import Companion, SessionButtons
from firmware.config import DEFAULT_BUTTON_PINS, RESERVED_PINS, BoardConfig, ButtonConfig
from firmware.factory import create_board
from firmware.sinks import RecordingSink
from web.refusals import in_english

DEBOUNCE_S = ButtonConfig().debounce_ms / 1000


def pin_of(factory: MockFactory, button: str) -> object:
    return factory.pin(DEFAULT_BUTTON_PINS[button])


def test_default_pins_avoid_the_led_and_bus_pins() -> None:
    assert set(DEFAULT_BUTTON_PINS) == set(TOWERS)
    assert not set(DEFAULT_BUTTON_PINS.values()) & set(RESERVED_PINS)
    assert {10, 18, 7, 8, 9, 11} <= set(RESERVED_PINS)
    assert len(set(DEFAULT_BUTTON_PINS.values())) == 12


def test_a_press() -> None:
    board, _, clock, factory = mock_board()
    presses: list[str] = []
    board.on_press(presses.append)
    pin = factory.pin(DEFAULT_BUTTON_PINS["b2c2"])
    pin.drive_low()
    assert presses == ["b2c2"]
    assert board.status()["buttons"]["held"] == ["b2c2"]
    clock.advance(0.15)
    pin.drive_high()
    assert presses == ["b2c2"]
    assert board.status()["buttons"]["held"] == []
    assert board.status()["buttons"]["backend"] == "gpio"
    assert board.status()["buttons"]["pin_factory"] == "MockFactory"


def test_a_bounce_burst_gives_one_press() -> None:
    board, _, clock, factory = mock_board()
    presses: list[str] = []
    board.on_press(presses.append)
    pin = factory.pin(DEFAULT_BUTTON_PINS["c1c2"])
    for _ in range(4):  # contact chatter on closing: 1 ms apart
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.2)  # held for a while, then chatter on release
    for _ in range(3):
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.002)
    pin.drive_high()
    assert presses == ["c1c2"]
    clock.advance(DEBOUNCE_S * 0.5)
    pin.drive_low()  # too soon after letting go: still the same press bouncing
    pin.drive_high()
    assert presses == ["c1c2"]
    clock.advance(DEBOUNCE_S * 1.5)
    pin.drive_low()  # a real second press
    assert presses == ["c1c2", "c1c2"]


# One press of a real push button as the kernel timestamps its edges (seconds from the
# first touch, pin level): the contact chatters for about a millisecond as it closes,
# stays closed, and chatters again as it opens.
BOUNCING_PRESS = [
    (0.0000, 0), (0.0003, 1), (0.0005, 0), (0.0009, 1), (0.0011, 0), (0.0016, 1), (0.0018, 0),
    (0.0800, 1), (0.0802, 0), (0.0806, 1), (0.0809, 0), (0.0815, 1),
]  # fmt: skip
PRESS_EVERY_S = 0.2


def test_bouncing_presses_delivered_late_by_a_callback_thread_count_once_each() -> None:
    # As on a Pi: the kernel timestamps each edge and lgpio's single callback thread
    # hands gpiozero its reports (LGPIOPin._call_when_changed -> PiPin._call_when_changed
    # with the ticks), falling behind the contact. Real time throughout.
    factory = MockFactory()
    board = create_board(BoardConfig(), model=None, sink=RecordingSink(), pin_factory=factory)
    board.start_buttons()
    presses: list[tuple[str, float]] = []
    board.on_press(lambda button: presses.append((button, time.monotonic())))
    pin = factory.pin(DEFAULT_BUTTON_PINS["b2b3"])
    reports: queue.Queue[tuple[float, int] | None] = queue.Queue()
    start = factory.ticks() + 0.01
    timeline = [
        (start + n * PRESS_EVERY_S + at, level) for n in range(3) for at, level in BOUNCING_PRESS
    ]

    def kernel() -> None:  # each edge reported once it has happened, stamped when it did
        for ticks, level in timeline:
            while factory.ticks() < ticks:
                time.sleep(0.0002)
            reports.put((ticks, level))
        reports.put(None)

    def lgpio_callback_thread() -> None:
        # lgpio reads its pipe one 16-byte report at a time and runs the callbacks for
        # each; on a busy Pi Zero 2 W the thread is now and then held up for longer than
        # the debounce time: here after every opening edge, the worst moment
        while (report := reports.get()) is not None:
            PiPin._call_when_changed(pin, *report)
            if report[1] == 1:
                time.sleep(0.025)

    threads = [
        threading.Thread(target=kernel),
        threading.Thread(target=lgpio_callback_thread, name="lgpio callback"),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert [button for button, _ in presses] == ["b2b3"] * 3
    assert board.status()["buttons"]["held"] == []
    board.stop()


def test_presses_of_different_buttons_do_not_debounce_each_other() -> None:
    board, _, clock, factory = mock_board()
    presses: list[str] = []
    board.on_press(presses.append)
    a, b = pin_of(factory, "a2b2"), pin_of(factory, "b2c2")
    a.drive_low()  # type: ignore[attr-defined]
    a.drive_high()  # type: ignore[attr-defined]
    clock.advance(0.001)
    b.drive_low()  # type: ignore[attr-defined]
    assert presses == ["a2b2", "b2c2"]


def test_a_held_button_presses_once_and_is_reported_held() -> None:
    board, _, clock, factory = mock_board()
    presses: list[str] = []
    board.on_press(presses.append)
    pin = factory.pin(DEFAULT_BUTTON_PINS["b3b4"])
    # MockFactory stamps the edge with the real clock, so the edge is this much older
    # than the test's clock says (microseconds here, tens of them under emulation)
    before = time.monotonic()
    pin.drive_low()
    edge_delivery_s = time.monotonic() - before
    for _ in range(20):  # ten seconds down: no repeats
        clock.advance(0.5)
        assert board.status()["buttons"]["held"] == ["b3b4"]
    assert presses == ["b3b4"]
    assert board.status()["buttons"]["stuck"] == []
    assert board.status()["warnings"] == []
    assert 10.0 <= board.debouncer.held()["b3b4"] <= 10.0 + edge_delivery_s
    pin.drive_high()
    clock.advance(0.1)
    pin.drive_low()
    assert presses == ["b3b4", "b3b4"]


def test_a_stuck_button_is_reported_and_does_not_block_the_others() -> None:
    config = BoardConfig(buttons=dataclasses.replace(ButtonConfig(), stuck_s=5.0))
    board, _, clock, factory = mock_board(config)
    presses: list[str] = []
    board.on_press(presses.append)
    stuck = factory.pin(DEFAULT_BUTTON_PINS["a3b3"])
    stuck.drive_low()
    clock.advance(6.0)
    status = board.status()
    assert status["buttons"]["stuck"] == ["a3b3"]
    assert any("a3b3" in w and "stuck" in w for w in status["warnings"])
    other = factory.pin(DEFAULT_BUTTON_PINS["c2d2"])
    other.drive_low()
    other.drive_high()
    assert presses == ["a3b3", "c2d2"]
    stuck.drive_high()  # freed: the warning goes
    assert board.status()["buttons"]["stuck"] == []
    assert board.status()["warnings"] == []


class JammedPin(MockPin):  # type: ignore[misc]
    """A pin held to ground (a jammed switch) before anything reads it: the pull-up
    that the Button sets cannot raise it."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._state = False


def test_a_button_down_at_start_up_is_no_press_until_released() -> None:
    factory = MockFactory()
    factory.pin(DEFAULT_BUTTON_PINS["b1b2"], pin_class=JammedPin)
    clock = FakeClock()
    board = create_board(
        BoardConfig(), model=None, sink=RecordingSink(), pin_factory=factory, clock=clock
    )
    presses: list[str] = []
    board.on_press(presses.append)
    board.start_buttons()
    assert presses == []
    assert board.status()["buttons"]["held"] == ["b1b2"]
    pin = factory.pin(DEFAULT_BUTTON_PINS["b1b2"])
    pin.drive_high()
    clock.advance(0.1)
    pin.drive_low()
    assert presses == ["b1b2"]
    board.stop()


def test_simulated_presses_go_to_the_same_handlers_and_unknown_names_are_refused() -> None:
    board, _, _, _ = mock_board()
    presses: list[str] = []
    board.on_press(presses.append)
    board.press("c3c4")
    assert presses == ["c3c4"]
    with pytest.raises(ValueError, match="unknown button 'e5'"):
        board.press("e5")


def test_simulated_presses_are_debounced_like_the_contacts() -> None:
    board, _, clock, factory = mock_board()
    presses: list[str] = []
    board.on_press(presses.append)
    board.press("b2c2")
    board.press("b2c2")  # a double click within the debounce time: one press
    clock.advance(0.5)
    board.press("b2c2")
    assert presses == ["b2c2", "b2c2"]
    # the real button held down: the on-screen one cannot press it again or let it go
    pin = factory.pin(DEFAULT_BUTTON_PINS["a3b3"])
    pin.drive_low()
    clock.advance(0.5)
    board.press("a3b3")
    assert presses[-1] == "a3b3" and presses.count("a3b3") == 1
    assert board.status()["buttons"]["held"] == ["a3b3"]
    pin.drive_high()
    assert board.status()["buttons"]["held"] == []


def test_a_failing_handler_does_not_stop_the_others() -> None:
    board, _, _, factory = mock_board()
    presses: list[str] = []

    def broken(button: str) -> None:
        raise RuntimeError("handler bug")

    board.on_press(broken)
    board.on_press(presses.append)
    factory.pin(DEFAULT_BUTTON_PINS["c2c3"]).drive_low()
    assert presses == ["c2c3"]


def test_gpio_that_cannot_start_leaves_a_warning_and_the_on_screen_buttons() -> None:
    factory = MockFactory()
    first = create_board(BoardConfig(), model=None, sink=RecordingSink(), pin_factory=factory)
    first.start_buttons()
    second = create_board(BoardConfig(), model=None, sink=RecordingSink(), pin_factory=factory)
    second.start_buttons()  # the pins are taken: gpiozero refuses
    status = second.status()
    assert status["buttons"]["backend"] == "none"
    assert any("GPIO buttons could not be set up" in w for w in status["warnings"])
    presses: list[str] = []
    second.on_press(presses.append)
    second.press("a2b2")
    assert presses == ["a2b2"]
    first.stop()
    second.stop()


def test_pins_come_from_the_configuration() -> None:
    pins = dict(DEFAULT_BUTTON_PINS, a2b2=21)
    config = BoardConfig(buttons=dataclasses.replace(ButtonConfig(), pins=pins))
    board, _, _, factory = mock_board(config)
    presses: list[str] = []
    board.on_press(presses.append)
    factory.pin(4).drive_low()  # the default pin is no longer a button
    factory.pin(21).drive_low()
    assert presses == ["a2b2"]


# ------------------------------------------------------------------ meaning of a press


def clacks_session(players: int = 2, seed: int = 4) -> ClacksSession:
    session = game_module("clacks").new({"players": players}, seed)
    assert isinstance(session, ClacksSession)
    return session


def wired(
    session: Session,
) -> tuple[object, RecordingSink, object, MockFactory, list[IllegalAction]]:
    board, sink, clock, factory = mock_board()
    companion = Companion(board)
    refusals: list[IllegalAction] = []
    companion.set_press_handler(
        SessionButtons(
            companion, lambda: session, clock=lambda: 0.0, refused=lambda s, e: refusals.append(e)
        )
    )
    companion.game_changed(session)
    board.renderer.tick()
    return board, sink, clock, factory, refusals


def test_a_press_of_the_right_colour_moves_the_current_players_pawn() -> None:
    session = clacks_session()
    board, _sink, _, factory, refusals = wired(session)
    assert session.active_seats == ["south"]
    target = RED_TOWERS[1]
    pin_of(factory, target).drive_low()  # type: ignore[attr-defined]
    assert refusals == []
    (south,) = [p for p in session.view(None)["players"] if p["seat"] == "south"]
    assert south["pawn"] == target
    board.renderer.tick()  # type: ignore[attr-defined]
    shown = board.pixels()  # type: ignore[attr-defined]
    lit = session.lamps().lit
    mask = TOWERS[target].mask
    amber = (153, 54, 3)
    for lamp in range(16):
        if mask >> lamp & 1:
            assert shown[lamp] not in (amber, (0, 0, 0))  # the new tower is picked out
        else:
            assert (shown[lamp] == amber) == bool(lit >> lamp & 1)


def test_a_press_of_the_wrong_colour_is_refused_with_the_flash() -> None:
    session = clacks_session()
    board, sink, _clock, factory, refusals = wired(session)
    before = session.log_json()
    frames_before = len(sink.frames)
    pin_of(factory, GREEN_TOWERS[0]).drive_low()  # type: ignore[attr-defined]
    assert [e.rule for e in refusals] == ["wrong_colour"]
    assert "red (square) buttons" in in_english(refusals[0])
    assert session.log_json() == before  # nothing changed in the game
    board.renderer.tick()  # type: ignore[attr-defined]
    assert len(sink.frames) == frames_before + 1
    red = (153, 0, 0)
    assert sink.frames[-1] == [red] * 16
