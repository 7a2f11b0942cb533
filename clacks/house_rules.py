"""Clacks' competitive variants and numeric house rules on the command line, shared by
`clacks play` and `clacks simulate`."""

from __future__ import annotations

import argparse
from typing import Any

HOUSE_RULES = ("stress_limit", "hand_size", "turn_seconds")  # numeric competitive options


def house_rules(args: argparse.Namespace) -> dict[str, Any]:
    """The numeric options given on the command line (checked against their ranges by
    ``Options``, which names the range of one that is out of it)."""
    return {name: getattr(args, name) for name in HOUSE_RULES if getattr(args, name) is not None}


def add_house_rules(parser: argparse.ArgumentParser) -> None:
    from engine.clacks.state import RANGES

    for name, kind, about in (
        ("stress_limit", int, "stress points a turn (the rules: 5)"),
        ("hand_size", int, "Jacquards in a hand (the rules: 3)"),
        ("turn_seconds", float, "Clacks Express: seconds a turn (the rules: 60)"),
    ):
        allowed = RANGES[name]
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            type=kind,
            metavar="N",
            help=f"house rule, {about}; {allowed.low} to {allowed.high}",
        )


def add_competitive_variants(parser: argparse.ArgumentParser) -> None:
    """The competitive game's variants, its house rules among them."""
    parser.add_argument("--express", action="store_true", help="Clacks Express: 60-second turns")
    parser.add_argument("--long-message", action="store_true", help="two words, SPACE and END")
    parser.add_argument("--quick", action="store_true", help="Quick Game: no sabotage")
    add_house_rules(parser)
    parser.add_argument(
        "--balanced-start",
        action="store_true",
        help="house rule for two players: the starting player is dealt no Fault Report "
        "(off: the published setup)",
    )
