"""The exchange's geometry against the reference: lamps, towers, reading frames, placements."""

from __future__ import annotations

import pytest

from engine.clacks.data import load_components
from engine.clacks.geometry import (
    GREEN_TOWERS,
    LAMP_NAMES,
    RED_TOWERS,
    TOWERS,
    Colour,
    Seat,
    lamp_index,
    lamp_rows_for,
    mask_of,
    orientations,
    pattern_mask,
    placements,
    read_pattern,
    reading_frame,
    shape_from_rows,
)


def frame_names(seat: Seat, tower: str) -> list[str]:
    return [LAMP_NAMES[i] for i in reading_frame(seat, tower)]


def test_lamps_are_named_from_south() -> None:
    assert LAMP_NAMES[0] == "a1" and LAMP_NAMES[15] == "d4"
    assert lamp_index("c2") == 1 * 4 + 2
    with pytest.raises(ValueError, match="lamps are a1 to d4"):
        lamp_index("e5")


def test_twelve_towers_named_by_their_lamp_pair() -> None:
    assert RED_TOWERS == ("a2b2", "b2c2", "c2d2", "a3b3", "b3c3", "c3d3")
    assert GREEN_TOWERS == ("b1b2", "b2b3", "b3b4", "c1c2", "c2c3", "c3c4")
    assert TOWERS["b2c2"].mask == mask_of(["b1", "c1", "b2", "c2", "b3", "c3"])
    assert TOWERS["b2b3"].mask == mask_of(["a2", "b2", "c2", "a3", "b3", "c3"])
    assert all(t.mask.bit_count() == 6 for t in TOWERS.values())


def test_seat_colours_follow_the_start_buttons() -> None:
    assert Seat.SOUTH.colour is Seat.NORTH.colour is Colour.RED
    assert Seat.WEST.colour is Seat.EAST.colour is Colour.GREEN
    assert Colour.RED.shape == "square" and Colour.GREEN.shape == "circle"
    assert [s.opposite for s in Seat] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]


def test_reading_frames_match_the_reference_examples() -> None:
    assert frame_names(Seat.SOUTH, "b2c2") == ["b3", "c3", "b2", "c2", "b1", "c1"]
    assert frame_names(Seat.NORTH, "b2c2") == ["c1", "b1", "c2", "b2", "c3", "b3"]
    assert frame_names(Seat.WEST, "b2b3") == ["c3", "c2", "b3", "b2", "a3", "a2"]
    assert frame_names(Seat.EAST, "b2b3") == ["a2", "a3", "b2", "b3", "c2", "c3"]


def test_a_seat_cannot_read_the_other_colour() -> None:
    with pytest.raises(ValueError, match="reads red towers"):
        reading_frame(Seat.SOUTH, "b2b3")


@pytest.mark.parametrize("seat", list(Seat))
def test_pattern_mask_and_read_pattern_are_inverse(seat: Seat) -> None:
    alphabet = load_components().alphabet
    towers = RED_TOWERS if seat.colour is Colour.RED else GREEN_TOWERS
    for tower in towers:
        for symbol, pattern in alphabet.items():
            board = pattern_mask(pattern, seat, tower)
            assert read_pattern(board, seat, tower) == pattern, (seat, tower, symbol)
            assert board & ~TOWERS[tower].mask == 0


def test_the_published_alphabet_reads_as_printed() -> None:
    alphabet = load_components().alphabet
    assert len(alphabet) == 28 and len(set(alphabet.values())) == 28
    assert 0 not in alphabet.values()
    # U = 00 01 11 seen by South at b2c2: c2, b1 and c1 lit.
    assert pattern_mask(alphabet["U"], Seat.SOUTH, "b2c2") == mask_of(["c2", "b1", "c1"])
    # The same lamps seen by North read top row c1 b1 = 11, middle c2 b2 = 10, bottom 00.
    assert read_pattern(mask_of(["c2", "b1", "c1"]), Seat.NORTH, "b2c2") == 0b111000


def test_board_drawn_from_each_seat_puts_that_seat_at_the_bottom() -> None:
    board = mask_of(["a1"])  # South's near-left lamp
    assert lamp_rows_for(Seat.SOUTH, board)[3][0]
    assert lamp_rows_for(Seat.NORTH, board)[0][3]
    assert lamp_rows_for(Seat.WEST, board)[3][3]  # West sits at the west edge: a1 is near-right
    assert lamp_rows_for(Seat.EAST, board)[0][0]


@pytest.mark.parametrize(
    ("rows", "orientation_count", "placement_count"),
    [
        (["X"], 1, 16),
        (["XX"], 2, 24),
        (["X.", ".X"], 2, 18),
        (["XXX"], 2, 16),
        (["X.", "XX"], 4, 36),
        (["XX", "XX"], 1, 9),
        (["XXXX"], 2, 8),
        ([".X.", "XXX", ".X."], 1, 4),
        (["XXX", ".X."], 4, 24),
        ([".XX", "XX."], 4, 24),
        (["X.", "X.", "XX"], 8, 48),
    ],
)
def test_placements_are_every_fitting_rotation_and_mirror_deduplicated(
    rows: list[str], orientation_count: int, placement_count: int
) -> None:
    shape = shape_from_rows(rows)
    assert len(orientations(shape)) == orientation_count
    found = placements(shape)
    masks = [p.mask for p in found]
    assert len(masks) == len(set(masks)) == placement_count
    assert all(0 < m < 1 << 16 and m.bit_count() == len(shape) for m in masks)


def test_every_house_jacquard_has_placements() -> None:
    for card in load_components().jacquards.values():
        assert card.masks, card.id
