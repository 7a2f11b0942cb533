"""Every refusal and every event of Klackers can be said in both languages."""

from __future__ import annotations

import pytest
from refusals import assert_every_refusal_said, event_kinds

from engine.klackers import errors
from web.i18n import LANGUAGES, catalog


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_klackers_refusal_and_event_can_be_said(language: str) -> None:
    messages = catalog(language)
    assert_every_refusal_said(errors, messages, "roll_first", "wrong_sum", "one_die_not_allowed")
    kinds = event_kinds("klackers", "event") | {"marked", "rolled_one"}
    assert {"rolled", "pulled", "klack_bonus", "round_ended"} <= kinds
    kinds.discard("round_ended")  # said from the round's outcome, below
    assert {f"klackers.event.{kind}" for kind in kinds} <= set(messages)
    outcomes = {"won.low_score", "won.klack", "push.tie", "push.klack_tie", "push.no_point"}
    assert {f"klackers.{o}" for o in outcomes | {"push.no_klack"}} <= set(messages)
    for variant in ("hughie", "klack_to_win", "klack_worth_two"):
        assert f"variant.{variant}.about" in messages
