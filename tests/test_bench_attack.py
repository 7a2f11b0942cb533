"""`clacks bench --attack` runs on loopback and the phone plays through every attack (a
short run; the latency figures themselves are printed by the bench, never asserted)."""

from __future__ import annotations

from clacks.bench import SECTIONS
from clacks.bench_attack import measure
from clacks.cli import build_parser


def test_the_attack_soak_leaves_the_phone_and_the_table_screen_every_request() -> None:
    args = build_parser().parse_args(["bench", "--attack", "--attack-seconds", "4", "--json"])
    assert args.attack and ("attack", "clacks.bench_attack:measure") in SECTIONS
    figures = measure(args)
    assert figures["attack_phone_moves"] > 0, figures
    assert figures["attack_phone_failed"] == 0, figures
    assert figures["attack_screen_requests"] > 0 and figures["attack_screen_failed"] == 0
    # every big body was refused, none had taken 1 MB, and nothing was spooled
    assert figures["attack_bodies_sent"] > 0
    assert figures["attack_bodies_refused_413"] > 0
    assert figures["attack_body_most_taken_kb"] < 1024, figures
    assert figures["attack_server_temp_files_max"] == 0
    # the slowloris was under way, and the PIN spray got a handful of guesses at most
    assert figures["attack_slowloris_connections_opened"] >= 4 * 32
    assert figures["attack_pin_guesses_wrong"] <= 6 and figures["attack_pin_guesses_locked"] > 0
    for key in ("attack_phone_p50_ms", "attack_phone_p99_ms", "attack_server_rss_mb_max"):
        assert figures[key] > 0, key
