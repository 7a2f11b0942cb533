"""`clacks bench --load` runs and accounts for every event (a short run; the figures
themselves are printed by the bench, never asserted)."""

from __future__ import annotations

from clacks.bench import SECTIONS
from clacks.bench_load import PLAYERS, SPECTATORS, measure
from clacks.cli import build_parser


def test_the_load_bench_reports_its_figures_and_loses_no_event() -> None:
    args = build_parser().parse_args(["bench", "--load", "--duration", "3", "--json"])
    assert args.load and ("load", "clacks.bench_load:measure") in SECTIONS
    figures = measure(args)
    assert figures["load_clients"] == PLAYERS + SPECTATORS
    assert figures["load_actions"] > 10
    assert figures["events_lost"] == 0
    for key in (
        "action_to_clients_p50_ms",
        "action_to_clients_p99_ms",
        "rss_mb_idle",
        "rss_mb_after_load",
    ):
        assert figures[key] > 0, key
