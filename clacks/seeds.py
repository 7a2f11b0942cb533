"""Seeds on the command line: read as typed (a fresh one, when none is given, comes from
firmware/entropy.py), and printed so that a run or a finished deal can be repeated."""

from __future__ import annotations

import argparse

SHORT_SEED = 1 << 64  # seeds below this print in decimal, as they are usually typed


def seed_argument(text: str) -> int:
    """An argparse type: a whole number from 0 to 2**256 - 1, or the 64 hexadecimal
    digits a game or a run printed."""
    from engine.core.rng import SEED_BITS, SEED_HEX_DIGITS, check_seed, seed_from_hex

    try:
        if len(text) == SEED_HEX_DIGITS:
            return seed_from_hex(text)
        return check_seed(int(text, 10))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to 2**{SEED_BITS} - 1, or "
            f"{SEED_HEX_DIGITS} hexadecimal digits, not {text!r}"
        ) from None


def seed_text(seed: int) -> str:
    """The seed as ``seed_argument`` reads it back."""
    from engine.core.rng import seed_to_hex

    return str(seed) if seed < SHORT_SEED else seed_to_hex(seed)
