"""The `clacks` command. Each subcommand lives in its own module; this file only wires
them to argparse so that starting one never imports what another needs."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path


def _check_data(args: argparse.Namespace) -> int:
    from engine.clacks.data import check_path, default_data_path

    path = Path(args.path) if args.path else default_data_path()
    problems = check_path(path)
    if problems:
        for problem in problems:
            print(
                f"{path}/{problem}" if not problem.startswith(str(path)) else problem,
                file=sys.stderr,
            )
        print(f"{len(problems)} problem(s) in {path}", file=sys.stderr)
        return 1
    print(f"{path}: all Clacks data files are valid")
    return 0


def _play(args: argparse.Namespace) -> int:
    from clacks.terminal import play
    from engine.clacks.errors import BadOptions
    from engine.clacks.state import Options

    try:
        options = Options.for_players(
            args.players, express=args.express, long_message=args.long_message, quick=args.quick
        )
    except BadOptions as exc:
        print(f"clacks play: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"Seed {seed} (replay this deal with --seed {seed}).")
    return play(options, seed)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clacks",
        description="Clacks Exchange: a companion for the Discworld board game Clacks.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check-data", help="validate a directory of component data files")
    check.add_argument("path", nargs="?", help="data directory (default: the shipped house set)")
    check.set_defaults(run=_check_data)

    play = commands.add_parser("play", help="play a hot-seat game in the terminal")
    play.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    play.add_argument("--seed", type=int, help="deal seed, to replay a deal")
    play.add_argument("--express", action="store_true", help="Clacks Express: 60-second turns")
    play.add_argument("--long-message", action="store_true", help="two words, SPACE and END")
    play.add_argument("--quick", action="store_true", help="Quick Game: no sabotage")
    play.set_defaults(run=_play)
    from clacks import bench, simulate

    simulate_parser = commands.add_parser(
        "simulate", help="play many seeded games between bots and print balance figures"
    )
    simulate.add_arguments(simulate_parser)
    simulate_parser.set_defaults(run=simulate.run)

    bench_parser = commands.add_parser("bench", help="print speed and memory figures")
    bench.add_arguments(bench_parser)
    bench_parser.set_defaults(run=bench.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
