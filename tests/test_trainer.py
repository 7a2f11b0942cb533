"""The alphabet trainer: seeded questions, answers, flips, the running score, and the
trainer behind the game-agnostic interface."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clacks.errors import BadOptions, GameIsOver, NothingToUndo, WrongPhase
from engine.clacks.geometry import Seat, pattern_mask, read_pattern, tower
from engine.clacks.trainer import (
    AlphabetTrainer,
    TrainerAction,
    TrainerOptions,
    trainer_action_from_json,
)
from engine.core.errors import MalformedAction, SerializationError
from engine.games import game_module, game_modules
from web.refusals import in_english


def trainer(
    kind: str = "mixed", seat: Seat = Seat.SOUTH, questions: int = 10, seed: int = 1
) -> AlphabetTrainer:
    return AlphabetTrainer.new(TrainerOptions(seat=seat, kind=kind, questions=questions), seed)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), seat=st.sampled_from(list(Seat)))
def test_a_read_question_shows_the_symbol_from_the_chosen_seat(seed: int, seat: Seat) -> None:
    t = AlphabetTrainer.new(TrainerOptions(seat=seat, kind="read", signals=True), seed)
    question = t.state.question
    assert question is not None and tower(question.tower).colour is seat.colour
    shown = read_pattern(t.state.board, seat, question.tower)
    assert shown == t.components.pattern(question.symbol)
    view = t.view()
    assert "symbol" not in view["question"]  # the answer is not in the view
    assert question.symbol not in json.dumps(view["question"])


def test_answers_score_and_accept_letters_with_diacritics() -> None:
    t = trainer("read", questions=3, seed=5)
    q = t.state.question
    assert q is not None
    answer = {"A": "á", "C": "č", "R": "ř"}.get(q.symbol, q.symbol.lower())
    events = t.apply(TrainerAction("answer", symbol=answer))
    assert events[0].data["correct"] is True
    assert t.view()["score"] == {
        "correct": 1,
        "asked": 1,
        "questions": 3,
        "streak": 1,
        "best_streak": 1,
    }
    q2 = t.state.question
    assert q2 is not None
    wrong = "B" if q2.symbol != "B" else "C"
    events = t.apply(TrainerAction("answer", symbol=wrong))
    assert events[0].data == {
        "symbol": q2.symbol,
        "answer": wrong,
        "correct": False,
        "score": 1,
        "asked": 2,
    }
    assert t.state.streak == 0 and t.state.best_streak == 1
    with pytest.raises(MalformedAction) as refused:
        t.apply(TrainerAction("answer", symbol="7"))
    assert re.search("not a Clacks symbol", in_english(refused.value))
    with pytest.raises(WrongPhase):
        t.apply(TrainerAction("check"))
    t.apply(TrainerAction("skip"))
    assert t.over and t.view()["score"]["asked"] == 3
    with pytest.raises(GameIsOver):
        t.apply(TrainerAction("skip"))


def test_set_a_letter_with_free_flips_then_check() -> None:
    t = trainer("set", seat=Seat.EAST, seed=8)
    q = t.state.question
    assert q is not None
    view = t.view()
    assert view["question"]["symbol"] == q.symbol and view["question"]["tower"] == q.tower
    want = pattern_mask(t.components.pattern(q.symbol), Seat.EAST, q.tower)
    to_flip = (t.state.board ^ want) & tower(q.tower).mask
    assert to_flip  # it was not already there
    for i in range(16):
        if to_flip >> i & 1:
            t.apply(TrainerAction("flip", lamps=1 << i))
    with pytest.raises(WrongPhase):
        t.apply(TrainerAction("answer", symbol="A"))
    events = t.apply(TrainerAction("check"))
    assert events[0].data["correct"] is True and t.state.correct == 1
    q2 = t.state.question
    assert q2 is not None
    events = t.apply(TrainerAction("check"))  # unchanged board: not the letter
    assert events[0].data["correct"] is False


def test_questions_are_seeded() -> None:
    def questions(seed: int) -> list[tuple[str, str, str]]:
        t = trainer("mixed", questions=6, seed=seed)
        seen = []
        while not t.over:
            q = t.state.question
            assert q is not None
            seen.append((q.kind, q.symbol, q.tower))
            t.apply(TrainerAction("skip"))
        return seen

    assert questions(3) == questions(3)
    assert questions(3) != questions(4)
    assert {k for k, _, _ in questions(3) + questions(4)} == {"read", "set"}


def test_legal_actions_are_legal() -> None:
    t = trainer("mixed", questions=4, seed=2)
    while not t.over:
        actions = t.legal_actions()
        assert actions
        for action in actions:
            copy = AlphabetTrainer.replay(t.log_to_json())
            copy.apply(action)
        t.apply(actions[-1])


def test_actions_from_json_are_checked() -> None:
    assert trainer_action_from_json({"type": "flip", "lamps": ["b2", "c3"]}).lamps
    for bad, message in (
        ({"type": "shout"}, "There is no action “shout”"),
        ({"type": "flip", "lamps": ["z9"]}, "There is no lamp “z9”"),
        ({"type": "flip", "lamps": ["b2", "b2"]}, "twice"),
        ({"type": "answer"}, "needs a symbol"),
        ({"type": "check", "lamps": ["b2"]}, "does not take"),
        ("check", "JSON object"),
    ):
        with pytest.raises(MalformedAction) as refused:
            trainer_action_from_json(bad)
        assert re.search(message, in_english(refused.value))


def test_options_are_checked() -> None:
    with pytest.raises(BadOptions) as refused:
        TrainerOptions(kind="sing")
    assert re.search("kinds are", in_english(refused.value))
    with pytest.raises(BadOptions) as refused:
        TrainerOptions(questions=0)
    assert re.search("from 1 to 100", in_english(refused.value))
    with pytest.raises(BadOptions) as refused:
        TrainerOptions.from_json({"seat": "up"})
    assert re.search("There is no seat “up”", in_english(refused.value))
    with pytest.raises(BadOptions) as refused:
        TrainerOptions.from_json({"colour": "red"})
    assert re.search("Unknown options: colour", in_english(refused.value))


def test_the_trainer_is_a_game_behind_the_interface() -> None:
    assert "clacks-trainer" in game_modules()
    module = game_module("clacks-trainer")
    assert module.options_schema()["choices"]["kind"]["choices"] == ["read", "set", "mixed"]
    session = module.new({"seat": "north", "kind": "set", "questions": 2}, 11)
    assert [s.id for s in session.seats] == ["north"] and session.active_seats == ["north"]
    question = session.view("north")["question"]
    frame = session.lamps()
    assert frame.accent == tower(question["tower"]).mask
    wrong = next(n for n in ("a2b2", "b2c2") if n != question["tower"])
    with pytest.raises(WrongPhase) as refused:
        session.button_action(wrong, 0.0)
    assert re.search("press that tower's button", in_english(refused.value))
    seat, action = session.button_action(question["tower"], 0.0) or (None, {})
    assert seat == "north" and action == {"type": "check"}
    session.apply(seat, action, 0.0)
    with pytest.raises(NothingToUndo):
        session.undo("north")
    session.apply("north", {"type": "skip"}, 0.0)
    assert session.over and session.result() == {
        "winners": ["north"],
        "reason": "finished",
        "score": 0,
        "asked": 2,
        "best_streak": 0,
    }
    again = module.replay(json.loads(json.dumps(session.log_json())))
    assert again.view("north") == session.view("north")
    with pytest.raises(SerializationError):
        module.replay({"game": "clacks"})
    with pytest.raises(BadOptions):
        module.new({"kind": 3}, 1)
