"""The `clacks` command. Each subcommand lives in its own module; this file only wires
them to argparse so that starting one never imports what another needs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from clacks.house_rules import HOUSE_RULES, add_competitive_variants, house_rules
from clacks.seeds import seed_argument, seed_text
from web.refusals import in_english

if TYPE_CHECKING:
    from engine.clacks.state import Options
    from engine.clacks.trainer import TrainerOptions


def _check_data(args: argparse.Namespace) -> int:
    from clacks.check_data import run

    return run(args.path, args.game)


def _data_games() -> list[str]:
    from clacks.check_data import data_checks

    return list(data_checks())


def _play(args: argparse.Namespace) -> int:
    from engine.clacks.errors import BadOptions
    from firmware.entropy import new_seed

    # a drawn seed is the game's secret: it is told only once the game is over
    seed = args.seed if args.seed is not None else new_seed()
    try:
        if args.mode == "trainer":
            trainer_options = _trainer_options(args)
        else:
            options = _options(args)
    except (BadOptions, ValueError) as exc:
        print(f"clacks play: {in_english(exc)}", file=sys.stderr)
        return 2
    if args.mode == "trainer":
        from clacks.terminal_trainer import play_trainer

        result = play_trainer(trainer_options, seed)
        if result == 0:
            print(f"Seed {seed_text(seed)} (the same questions again with --seed).")
        return result
    from clacks.terminal import play
    from clacks.terminal_hint import parse_bots
    from engine.clacks.bots import LEVELS

    try:
        bots = parse_bots(args.bots, LEVELS)
    except ValueError as exc:
        print(f"clacks play: {exc}", file=sys.stderr)
        return 2
    unseated = [s.label for s in bots if s not in options.seats]
    if unseated:
        print(f"clacks play: {', '.join(unseated)} is not a seat in this game", file=sys.stderr)
        return 2
    result = play(options, seed, bots=bots, language=args.language)
    if result == 0:
        print(f"Seed {seed_text(seed)} (replay this deal with --seed).")
    return result


def _options(args: argparse.Namespace) -> Options:
    from engine.clacks.errors import BadOptions
    from engine.clacks.state import MODE_SEATS, Options

    players = args.players
    if players is None:
        players = min(MODE_SEATS[args.mode])
    words = tuple(tuple(w.split()) for w in args.words or ())
    if args.mode == "competitive":
        for name in ("route", "long_distance", "night_shift"):
            if getattr(args, name):
                raise BadOptions(f"--{name.replace('_', '-')} is not part of the competitive game")
        return Options.for_players(
            players,
            express=args.express,
            long_message=args.long_message,
            quick=args.quick,
            balanced_start=args.balanced_start,
            words=words,
            word_list=args.language,
            **house_rules(args),
        )
    for name in ("express", "long_message", "quick", "balanced_start", *HOUSE_RULES):
        if getattr(args, name) not in (None, False):
            raise BadOptions(f"--{name.replace('_', '-')} is a competitive variant")
    return Options.for_players(
        players,
        mode=args.mode,
        route=args.route or "easy",
        long_distance=args.long_distance,
        night_shift=args.night_shift,
        words=words,
        word_list=args.language,
    )


def _trainer_options(args: argparse.Namespace) -> TrainerOptions:
    from engine.clacks.geometry import Seat
    from engine.clacks.trainer import TrainerOptions

    return TrainerOptions(
        seat=Seat.parse(args.seat), kind=args.kind, questions=args.questions, signals=args.signals
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clacks",
        description="Clacks Exchange: a companion for the Discworld board game Clacks.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check-data", help="validate a directory of component data files")
    check.add_argument("path", nargs="?", help="data directory (default: the shipped house set)")
    check.add_argument(
        "--game",
        choices=_data_games(),
        help="whose data files PATH holds (default: told by the files; without PATH, all)",
    )
    check.set_defaults(run=_check_data)

    play = commands.add_parser("play", help="play a hot-seat game in the terminal")
    play.add_argument(
        "--mode",
        default="competitive",
        choices=("competitive", "coop", "solitaire", "junior", "trainer"),
        help="the game to play (default competitive)",
    )
    play.add_argument(
        "--players", type=int, choices=(1, 2, 3, 4), help="players (default: the mode's fewest)"
    )
    play.add_argument(
        "--seed",
        type=seed_argument,
        help="the seed printed after a game, to play its deal again (default: a new "
        "256-bit secret from the operating system)",
    )
    play.add_argument(
        "--language",
        choices=("en", "cs"),
        default="en",
        help="the language the game is told in; a Czech game deals the Czech edition's "
        "Clacks Cards (semaforové karty) unless --words gives your own",
    )
    play.add_argument(
        "--bots",
        metavar="SEAT=LEVEL,...",
        help="seats played by bots, e.g. north=planner or west=greedy,east=random "
        "(levels: random, greedy, planner)",
    )
    add_competitive_variants(play)
    play.add_argument(
        "--route", choices=("easy", "hard"), help="co-op route, or the red seat's junior route"
    )
    play.add_argument("--long-distance", action="store_true", help="co-op: hidden hands, no hints")
    play.add_argument(
        "--night-shift", action="store_true", help="co-op: Fault stamps reveal Fault Reports"
    )
    play.add_argument(
        "--words",
        action="append",
        metavar="WORDS",
        help="your own words instead of dealt cards, one --words per seat (co-op: one for the "
        'team), words separated by spaces, e.g. --words "GENUA MOIST"',
    )
    play.add_argument("--seat", default="south", help="trainer: whose side letters are read from")
    play.add_argument(
        "--kind", default="mixed", choices=("read", "set", "mixed"), help="trainer questions"
    )
    play.add_argument("--questions", type=int, default=10, help="trainer: questions to ask")
    play.add_argument("--signals", action="store_true", help="trainer: include SPACE and END")
    play.set_defaults(run=_play)
    from clacks import serve_args as serve

    serve_parser = commands.add_parser(
        "serve", help="start the companion: table screen, phone hand controllers, JSON API"
    )
    serve.add_arguments(serve_parser)
    serve_parser.set_defaults(run=serve.run)
    from clacks import bench
    from firmware import cli as hardware

    hardware_parser = commands.add_parser(
        "hardware", help="check, test or show off the lamps and buttons without a game"
    )
    hardware_actions = hardware.add_arguments(hardware_parser)
    hardware_parser.set_defaults(run=hardware.run)
    from clacks.case import command as case

    case.add_to(hardware_actions)
    from clacks import hotspot_cli

    hotspot_cli.add_to(commands)
    from clacks import simulate

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
