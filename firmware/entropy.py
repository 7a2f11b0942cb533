"""Fresh game secrets from the operating system's CSPRNG.

The engine reads no entropy itself (engine/core/rng.py); every layer above it that starts
a game (the web app, the CLI) takes its seed from here.
"""

from __future__ import annotations

import secrets

from engine.core.rng import SEED_BITS


def new_seed() -> int:
    """A fresh game secret of ``SEED_BITS`` bits from the operating system's CSPRNG."""
    return secrets.randbits(SEED_BITS)
