"""`clacks play --mode trainer`: the alphabet trainer in the terminal.

The board is drawn from the trainee's seat with the question's tower marked. Read
questions take the symbol's name as the answer; set questions take ``flip LAMP...``,
``check`` and ``skip``.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from typing import TextIO

from clacks.terminal_lamps import OFF, ON, pattern_picture
from engine.clacks.geometry import LAMP_NAMES, mask_of, seat_view_cell, tower
from engine.clacks.trainer import AlphabetTrainer, TrainerAction, TrainerOptions
from engine.core.errors import IllegalAction
from web.refusals import in_english

TRAINER_HELP = """Read questions: type the symbol you see (a letter, SPACE or END), or 'skip'.
Set questions:  flip LAMP...  (e.g. flip b2 c3), then 'check'; or 'skip'.
Also: board, help, quit"""


def draw_trainer_board(trainer: AlphabetTrainer) -> str:
    state = trainer.state
    seat = state.options.seat
    question = state.question
    marked = tower(question.tower).mask if question else 0
    lines = [f"        ({seat.opposite.label.capitalize()}'s side)"]
    for row in range(4):
        cells = []
        for col in range(4):
            index = seat_view_cell(seat, row, col)
            lamp = ON if state.board >> index & 1 else OFF
            mark = "[" if marked >> index & 1 else " "
            end = "]" if marked >> index & 1 else " "
            cells.append(f"{mark}{LAMP_NAMES[index]}{lamp}{end}")
        lines.append("  " + " ".join(cells))
    lines.append(f"        ({seat.label.capitalize()}, you)")
    return "\n".join(lines)


def describe_question(trainer: AlphabetTrainer) -> str:
    view = trainer.view()
    score = view["score"]
    question = view["question"]
    out = ["", f"Score {score['correct']}/{score['asked']} (streak {score['streak']})"]
    out.append(draw_trainer_board(trainer))
    if question["kind"] == "read":
        out.append(f"Which symbol does tower {question['tower']} (in brackets) show you?")
    else:
        wanted = pattern_picture(int(question["pattern"], 2))
        out.append(f"Make {question['symbol']} at tower {question['tower']}, as you see it:")
        out.extend(f"        {row}" for row in wanted)
    return "\n".join(out)


def play_trainer(
    options: TrainerOptions,
    seed: int,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
) -> int:
    trainer = AlphabetTrainer.new(options, seed)

    def say(text: str) -> None:
        print(text, file=out)

    say("Clacks alphabet trainer. Type 'help' for commands.")
    shown = -1
    while not trainer.over:
        if trainer.state.asked != shown:
            shown = trainer.state.asked
            say(describe_question(trainer))
        try:
            line = read("answer> ")
        except EOFError:
            say("\nGoodbye.")
            return 1
        try:
            words = shlex.split(line)
        except ValueError as exc:
            say(f"Could not read that: {exc}")
            continue
        if not words:
            continue
        verb = words[0].lower()
        if verb in ("quit", "exit"):
            return 1
        if verb == "help":
            say(TRAINER_HELP)
            continue
        if verb == "board":
            say(describe_question(trainer))
            continue
        try:
            if verb == "flip":
                action = TrainerAction("flip", lamps=mask_of(words[1:]))
            elif verb in ("check", "skip"):
                action = TrainerAction(verb)
            else:
                action = TrainerAction("answer", symbol=" ".join(words))
            for e in trainer.apply(action):
                data = e.to_json()
                if data["kind"] == "answered":
                    verdict = "Right!" if data["correct"] else f"No: it was {data['symbol']}."
                    say(verdict)
                elif data["kind"] == "lamps_changed":
                    say(draw_trainer_board(trainer))
        except IllegalAction as exc:
            say(f"Not allowed: {in_english(exc)}")
        except ValueError as exc:
            say(f"Could not read that: {exc}. Type 'help'.")
    state = trainer.state
    say(f"\nFinished: {state.correct} of {state.asked} right, best streak {state.best_streak}.")
    return 0
