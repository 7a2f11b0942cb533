"""`clacks bench`: speed and memory figures, printed (never asserted in tests).

Each part of the box contributes a section: a function returning a dict of figures.
Sections are listed here by import path so that measuring one never imports another.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from typing import Any

Measure = Callable[[argparse.Namespace], dict[str, Any]]

# (section name, "module:function"); each function takes the parsed arguments.
SECTIONS: list[tuple[str, str]] = [
    ("engine", "clacks.bench_engine:measure"),
    ("modes", "clacks.bench_modes:measure"),
    ("klackers", "clacks.bench_klackers:measure"),
    ("web", "clacks.bench_web:measure"),
    ("hardware", "firmware.bench:measure"),
    ("solver", "clacks.bench_solver:measure"),
    ("load", "clacks.bench_load:measure"),  # minutes long: only with --load (or --only load)
    ("attack", "clacks.bench_attack:measure"),  # only with --attack (or --only attack)
]
ON_REQUEST = {"load", "attack"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--only", action="append", metavar="SECTION", help="measure only these sections"
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, rougher figures")
    parser.add_argument(
        "--load",
        action="store_true",
        help="also run the load test: 4 players and 50 spectators on loopback",
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="how long the load test plays (default 120)",
    )
    from clacks.bench_attack import add_arguments as add_attack_arguments

    add_attack_arguments(parser)


def _load(path: str) -> Measure:
    module_name, func = path.split(":")
    measure: Measure = getattr(importlib.import_module(module_name), func)
    return measure


def run(args: argparse.Namespace) -> int:
    wanted = set(args.only or [name for name, _ in SECTIONS if name not in ON_REQUEST])
    if args.load:
        wanted.add("load")
    if getattr(args, "attack", False):
        wanted.add("attack")
    unknown = wanted - {name for name, _ in SECTIONS}
    if unknown:
        print(f"clacks bench: unknown section(s) {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    figures: dict[str, Any] = {}
    for name, path in SECTIONS:
        if name not in wanted:
            continue
        if not args.json:
            print(f"measuring {name} ...", file=sys.stderr)
        figures.update(_load(path)(args))
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        width = max(len(k) for k in figures) if figures else 0
        for key in sorted(figures):
            print(f"{key:<{width}}  {figures[key]}")
    return 0
