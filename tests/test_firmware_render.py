"""The lamp pipeline on the recording sink: pixel map, gamma, current limiter, animations."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from firmware_support import FakeClock, estimate_ma, mock_board
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clacks.data import load_components
from engine.clacks.geometry import TOWERS, Seat, lamp_index, read_pattern
from engine.core.interface import LampFrame
from firmware.clacks_show import ATTRACT_MESSAGE, attract, symbols_of
from firmware.config import BoardConfig, LedConfig
from firmware.light import CurrentModel, Light, gamma_table, limit
from firmware.pixelmap import PixelMap
from firmware.scene import BLINK_S, FLASH_S, HIGHLIGHT_S, PULSE_S, REFUSED_S, TRANSMIT_S
from firmware.sinks import SimulatorSink, render_terminal

FULL = (1 << 16) - 1


def lamps(*names: str) -> int:
    return sum(1 << lamp_index(n) for n in names)


# ------------------------------------------------------------------ pixel map


def test_default_map_starts_at_a4_row_by_row() -> None:
    leds = PixelMap().leds
    assert leds[lamp_index("a4")] == 0
    assert leds[lamp_index("d4")] == 3
    assert leds[lamp_index("a3")] == 4
    assert leds[lamp_index("a1")] == 12
    assert leds[lamp_index("d1")] == 15


def test_serpentine_runs_every_other_row_backwards() -> None:
    leds = PixelMap(serpentine=True).leds
    assert [leds[lamp_index(n)] for n in ("a4", "b4", "c4", "d4")] == [0, 1, 2, 3]
    assert [leds[lamp_index(n)] for n in ("d3", "c3", "b3", "a3")] == [4, 5, 6, 7]
    assert [leds[lamp_index(n)] for n in ("a2", "b2", "c2", "d2")] == [8, 9, 10, 11]
    assert [leds[lamp_index(n)] for n in ("d1", "c1", "b1", "a1")] == [12, 13, 14, 15]


def test_rotation_and_mirroring_move_led_zero_round_the_corners() -> None:
    # LED 0 is the matrix's top-left corner: turning the matrix clockwise carries it
    # from a4 to d4, d1 and a1; seen through its back it starts at d4 instead.
    corner = {0: "a4", 90: "d4", 180: "d1", 270: "a1"}
    for rotation, lamp in corner.items():
        assert PixelMap(rotation=rotation).leds[lamp_index(lamp)] == 0
    assert PixelMap(mirrored=True).leds[lamp_index("d4")] == 0
    assert PixelMap(mirrored=True).leds[lamp_index("a4")] == 3
    # a quarter turn clockwise: the matrix's first row now runs down the east side
    turned = PixelMap(rotation=90).leds
    assert [turned[lamp_index(n)] for n in ("d4", "d3", "d2", "d1")] == [0, 1, 2, 3]


@pytest.mark.parametrize("serpentine", [False, True])
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("mirrored", [False, True])
def test_every_mounting_is_a_one_to_one_map(
    serpentine: bool, rotation: int, mirrored: bool
) -> None:
    pixel_map = PixelMap(serpentine, rotation, mirrored)
    assert sorted(pixel_map.leds) == list(range(16))
    values = [f"lamp{i}" for i in range(16)]
    assert pixel_map.to_lamps(pixel_map.to_strip(values)) == values


def test_bad_rotation_is_refused() -> None:
    with pytest.raises(ValueError, match="multiple of 90"):
        PixelMap(rotation=45)


# ------------------------------------------------------------------ gamma and current


def test_gamma_table() -> None:
    table = gamma_table(2.8)
    assert table[0] == 0 and table[255] == 255
    assert table[128] == 37  # 255 * (128/255)^2.8
    assert all(a <= b for a, b in itertools.pairwise(table))
    assert gamma_table(1.0) == tuple(range(256))


def test_lit_lamp_gets_gamma_corrected_amber_at_the_set_brightness() -> None:
    board, sink, _, _ = mock_board()
    board.show(LampFrame(lit=lamps("b2")))
    board.renderer.tick()
    r, g, b = LedConfig().lit
    expected = tuple(round(255 * (v / 255) ** 2.8 * 0.6) for v in (r, g, b))
    shown = board.pixels()
    assert shown[lamp_index("b2")] == expected == (153, 54, 3)
    assert shown[lamp_index("a1")] == (0, 0, 0)  # glow is off by default
    assert sink.last is not None and sink.last[PixelMap().leds[lamp_index("b2")]] == expected
    # the table screen gets the colour back as a screen shows it
    assert board.screen_pixels()[lamp_index("b2")] == pytest.approx(LedConfig().lit, abs=3)


def test_glow_lights_dark_lamps_faintly() -> None:
    config = BoardConfig(leds=dataclasses.replace(LedConfig(), glow=0.3))
    board, _, _, _ = mock_board(config)
    board.show(LampFrame(lit=lamps("a1")))
    board.renderer.tick()
    lit, dark = board.pixels()[lamp_index("a1")], board.pixels()[lamp_index("b1")]
    assert dark != (0, 0, 0)
    assert sum(dark) < sum(lit) / 10


def test_limiter_caps_a_bright_board_and_keeps_its_hue() -> None:
    config = BoardConfig(leds=dataclasses.replace(LedConfig(), brightness=1.0, budget_ma=300))
    board, sink, _, _ = mock_board(config)
    board.show(LampFrame(lit=FULL))
    board.renderer.tick()
    assert sink.last is not None
    assert estimate_ma(sink.last) <= 300
    assert board.status()["leds"]["limited"] is True
    r, g, _ = board.pixels()[0]
    assert g / r == pytest.approx(90 / 255, abs=0.02)  # amber stays amber


def test_limiter_leaves_frames_within_budget_alone() -> None:
    pixels = [(10, 20, 30)] * 16
    assert limit(pixels, CurrentModel(20, 1), 400) == (pixels, False)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
        min_size=16,
        max_size=16,
    ),
    st.floats(17, 1000),
    st.floats(5, 60),
)
def test_limited_frames_never_exceed_the_budget(
    pixels: list[tuple[int, int, int]], budget: float, per_channel: float
) -> None:
    limited, _ = limit(pixels, CurrentModel(per_channel, 1.0), budget)
    assert estimate_ma(limited, per_channel, 1.0) <= budget + 1e-9
    assert all(
        a <= b for p, q in zip(limited, pixels, strict=True) for a, b in zip(p, q, strict=True)
    )


def test_drive_clips_out_of_range_shades() -> None:
    light = Light(2.0, 1.0, CurrentModel(20, 1), 2000)
    assert light.drive([(2.0, -1.0, 0.5)])[0] == [(255, 0, 64)]


# ------------------------------------------------------------------ animations


def test_frames_are_written_only_when_something_changed() -> None:
    board, sink, clock, _ = mock_board()
    board.show(LampFrame(lit=lamps("a1", "b2")))
    assert board.renderer.tick() is True
    assert board.renderer.tick() is False
    clock.advance(5)
    assert board.renderer.tick() is False
    board.show(LampFrame(lit=lamps("a1", "b2")))  # the same frame again
    assert board.renderer.tick() is False
    assert board.renderer.scene.next_change(clock()) is None  # nothing moves: sleep
    board.show(LampFrame(lit=lamps("a1")))
    assert board.renderer.tick() is True
    assert len(sink.frames) == 2


def test_preview_lamps_blink_between_what_would_be_and_what_is() -> None:
    board, _, clock, _ = mock_board()
    board.show(LampFrame(lit=lamps("a1", "b1"), preview=lamps("b1", "c1")))
    amber = (153, 54, 3)
    seen = []
    for _ in range(4):
        board.renderer.tick()
        p = board.pixels()
        seen.append(tuple(p[lamp_index(n)] == amber for n in ("a1", "b1", "c1")))
        assert board.renderer.scene.next_change(clock()) == pytest.approx(clock() + BLINK_S / 2)
        clock.advance(BLINK_S / 2)
    flipped, current = (True, False, True), (True, True, False)
    assert seen == [flipped, current, flipped, current]


def test_transmit_animation_pulses_the_tower_and_dims_the_rest() -> None:
    board, _, clock, _ = mock_board()
    tower = TOWERS["b2c2"].mask
    board.show(LampFrame(lit=lamps("b2", "c3", "a4")))
    board.renderer.tick()
    before = board.pixels()
    board.transmitted(tower)
    start = clock()
    board.renderer.tick()
    open_ = board.pixels()
    signal = open_[lamp_index("b2")]
    assert signal != before[lamp_index("b2")] and sum(signal) > sum(before[lamp_index("b2")])
    assert open_[lamp_index("c3")] == signal
    assert open_[lamp_index("b1")] == (0, 0, 0)  # dark lamps of the tower stay dark
    assert sum(open_[lamp_index("a4")]) < sum(before[lamp_index("a4")])  # the rest dims
    clock.advance(PULSE_S)
    board.renderer.tick()
    assert board.pixels()[lamp_index("b2")] == (0, 0, 0)  # shutters closed
    clock.now = start + TRANSMIT_S
    board.renderer.tick()
    assert board.pixels() == before
    assert board.renderer.scene.next_change(clock()) is None


def test_refused_flash_shows_red_twice_then_the_board_again() -> None:
    board, sink, clock, _ = mock_board()
    board.show(LampFrame(lit=lamps("c2")))
    board.renderer.tick()
    before = board.pixels()
    board.refused()
    states = []
    for step in range(4):
        clock.now = 1000.0 + step * FLASH_S
        board.renderer.tick()
        states.append(board.pixels())
    red = (153, 0, 0)
    assert states[0] == [red] * 16
    assert states[1] == before
    assert states[2] == [red] * 16
    assert states[3] == before
    assert clock() - 1000.0 >= REFUSED_S
    assert all(estimate_ma(f) <= 400 for f in sink.frames)


def test_highlight_picks_out_lamps_then_fades() -> None:
    board, _, clock, _ = mock_board()
    board.show(LampFrame(lit=lamps("a2")))
    board.renderer.tick()
    before = board.pixels()
    board.highlight(TOWERS["a2b2"].mask)
    board.renderer.tick()
    during = board.pixels()
    for name in ("a1", "b1", "a2", "b2", "a3", "b3"):
        assert during[lamp_index(name)] not in (before[lamp_index(name)], (0, 0, 0))
    clock.advance(HIGHLIGHT_S)
    board.renderer.tick()
    assert board.pixels() == before


def test_accent_lamps_glow_in_the_accent_colour() -> None:
    board, _, _, _ = mock_board()
    board.show(LampFrame(lit=lamps("b2"), accent=TOWERS["b2c2"].mask))
    board.renderer.tick()
    p = board.pixels()
    assert p[lamp_index("b2")] == (153, 54, 3)
    r, g, b = p[lamp_index("c2")]
    assert b > r and b > g
    assert p[lamp_index("a4")] == (0, 0, 0)


# ------------------------------------------------------------------ attract mode


def test_attract_programme_sends_gnu_terry_pratchett_through_the_towers() -> None:
    alphabet = load_components().alphabet
    symbols = [s for s in symbols_of(ATTRACT_MESSAGE)]
    assert symbols[:4] == ["G", "N", "U", "SPACE"] and symbols[-1] == "END"
    shown = [step for step in attract() if step.frame.accent]
    assert len(shown) == len(symbols)
    towers_used = []
    for step, symbol in zip(shown, symbols, strict=True):
        (name,) = [n for n, t in TOWERS.items() if t.mask == step.frame.accent]
        towers_used.append(name)
        tower = TOWERS[name]
        assert step.frame.lit & ~tower.mask == 0  # only the sending tower shows anything
        readers = [s for s in Seat if s.colour is tower.colour]
        assert any(read_pattern(step.frame.lit, s, name) == alphabet[symbol] for s in readers)
    assert len(set(towers_used)) == 12  # the message visits every tower
    assert all(a != b for a, b in itertools.pairwise(towers_used))


def test_attract_mode_runs_on_the_renderer_and_loops() -> None:
    board, _sink, clock, _ = mock_board()
    board.show(LampFrame(lit=FULL))
    board.attract(True)
    steps = board.renderer.scene.attract_steps
    cycle = sum(s.seconds for s in steps)
    frames = []
    t = clock()
    for step in steps:
        clock.now = t + 0.01
        board.renderer.tick()
        frames.append(board.pixels())
        t += step.seconds
    clock.now = t + 0.01  # round again: the first symbol
    board.renderer.tick()
    assert board.pixels() == frames[0]
    amber = (153, 54, 3)
    lit_first = {i for i, p in enumerate(frames[0]) if p == amber}
    assert lit_first == {i for i in range(16) if steps[0].frame.lit >> i & 1}
    assert cycle > 20
    board.attract(False)
    board.renderer.tick()
    assert board.pixels() == [amber] * 16


# ------------------------------------------------------------------ failures and the simulator


class BrokenSink:
    name = "spi"

    def write(self, pixels: object) -> None:
        raise OSError("SPI transfer failed")

    def close(self) -> None:
        pass


def test_a_driver_that_fails_mid_game_falls_back_to_the_simulator() -> None:
    board, _, _, _ = mock_board()
    board.renderer.sink = BrokenSink()
    board.show(LampFrame(lit=lamps("a1")))
    board.renderer.tick()
    status = board.status()
    assert status["leds"]["backend"] == "simulator"
    assert any("SPI transfer failed" in w for w in status["warnings"])
    assert board.pixels()[0] == (153, 54, 3)


def test_simulator_draws_the_board_in_a_terminal() -> None:
    import io

    out = io.StringIO()
    sink = SimulatorSink(PixelMap(), out)
    lamps_in_order = [(0, 0, 0)] * 16
    lamps_in_order[lamp_index("a1")] = (255, 0, 0)
    sink.write(PixelMap().to_strip(lamps_in_order))
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0].split() == ["a", "b", "c", "d"]
    assert lines[4].startswith("  1 ") and "48;2;255;0;0" in lines[4]
    assert "48;2;255;0;0" not in "".join(lines[1:4])
    assert render_terminal(lamps_in_order) == text


def test_renderer_thread_draws_without_being_asked_and_turns_off_on_stop() -> None:
    from engine.core.interface import LampFrame as Frame
    from firmware.factory import create_board
    from firmware.sinks import RecordingSink

    # The thread's own clock is a fake one the test moves on: a thread starved of the CPU
    # for longer than a flash (a loaded machine, an emulated Pi) would otherwise skip
    # straight to its end. The thread still draws each step unasked when its time comes.
    clock = FakeClock()
    sink = RecordingSink()
    board = create_board(BoardConfig(), model=None, sink=sink, clock=clock)
    board.start()
    try:
        board.show(Frame(lit=lamps("d4")))
        assert sink.wait_for(2, timeout=60)  # the lamps off as it starts, then d4
        refused_at = clock.now
        board.refused()  # a flash: red, back, red, back
        assert sink.wait_for(3, timeout=60)
        for count, into_flash in ((4, 1.5), (5, 2.5), (6, 3.5)):  # the middle of each step
            clock.now = refused_at + into_flash * FLASH_S
            assert sink.wait_for(count, timeout=60), count
    finally:
        board.stop()
    shown, red, back, red_again, after = sink.frames[1:6]
    assert red == red_again == [red[0]] * 16 and red != shown
    assert back == after == shown
    assert sink.frames[-1] == [(0, 0, 0)] * 16 and sink.closed
    assert not board.status()["leds"]["running"]
