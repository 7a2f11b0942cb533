"""`clacks play`: a hot-seat game in the terminal, in any mode.

The board is drawn from the current player's side, every lamp labelled with its name so
placements can be typed as the lamps to flip. A player may act out of turn (a Fault
Report) by starting the command with their seat, e.g. ``north: fault 1 c2``. The map
games (co-op, solitaire, junior) add ``swap`` and ``transmit TOWER``; see terminal_map.
"""

from __future__ import annotations

import dataclasses
import shlex
import sys
import time
from collections.abc import Callable
from typing import TextIO

from clacks.narrate import Narrator
from clacks.terminal_hint import describe_plan
from clacks.terminal_lamps import OFF, ON, pattern_picture
from clacks.terminal_map import MAP_HELP, describe_map_turn
from engine.clacks import ClacksGame, Options, Seat, actions
from engine.clacks.bots import Bot, make_bot
from engine.clacks.effects import COMPETITIVE_EFFECTS, Target
from engine.clacks.geometry import (
    LAMP_NAMES,
    mask_of,
    placements,
    read_pattern,
    seat_view_cell,
    shape_size,
    tower,
)
from engine.clacks.hints import advise
from engine.core.errors import IllegalAction
from engine.core.interface import HINT_NOT_YOUR_TURN
from engine.core.rng import derive_seed

HELP = """Commands:
  move TOWER            move your pawn (e.g. move b2c2)
  play N LAMP...        play Jacquard N flipping those lamps (e.g. play 2 b1 b2 c2)
  options N             list every placement of Jacquard N
  fault N [TARGET]      play Fault Report N (target: lamps or a tower)
  transmit              send your next symbol from your tower
  end                   end your turn (or your sabotage attempt)
  discard N             discard Jacquard N when your time has run out
  undo                  take back your last action this turn
  hint                  the cheapest way to send your next symbol this turn
  board                 draw the board again
  help, quit
Start a command with a seat to act out of turn, e.g.  north: fault 1 c2"""


def draw_board(game: ClacksGame, seat: Seat) -> str:
    state = game.state
    lines = [f"        ({seat.opposite.label.capitalize()}'s side)"]
    for row in range(4):
        cells = []
        for col in range(4):
            index = seat_view_cell(seat, row, col)
            cells.append(f"{LAMP_NAMES[index]}{ON if state.board >> index & 1 else OFF}")
        lines.append("   " + "  ".join(cells))
    lines.append(f"        ({seat.label.capitalize()}, you)")
    return "\n".join(lines)


def describe_player(game: ClacksGame, seat: Seat) -> str:
    p = game.state.players[seat]
    sent = "".join(s[0] if len(s) > 1 else s for s in p.message[: p.progress])
    rest = " ".join(p.message[p.progress :])
    where = p.pawn or "start button"
    notes = []
    if p.must_leave:
        notes.append(f"must leave {p.must_leave}")
    if game.state.options.dwarf_seat is seat and game.state.dwarf:
        notes.append(f"Deep Dwarf on {game.state.dwarf}")
    extra = f" ({'; '.join(notes)})" if notes else ""
    return (
        f"  {seat.label.capitalize():6} {' '.join(p.words):12} sent [{sent}] to go [{rest}]"
        f"  on {where}{extra}  hand {len(p.hand)}, faults {len(p.faults)}"
    )


def draw_hand(game: ClacksGame, seat: Seat, words: Narrator | None = None) -> str:
    """The seat's Jacquards and Fault Reports, named as the pages name them."""
    words = words or Narrator(game)
    p = game.state.players[seat]
    lines = [words.t("clacks.your_jacquards") + ":"]
    for n, card_id in enumerate(p.hand, start=1):
        card = game.components.jacquards[card_id]
        stamp = f" [{words.t('clacks.fault_stamp')}]" if card.fault else ""
        name = words.jacquard_name(card_id, card.design.name)
        lines.append(
            f"  {n}) {name}, {words.t('clacks.cost', cost=card.cost)}{stamp}: "
            f"{' / '.join(card.design.picture())}"
        )
    if p.faults:
        lines.append(words.t("clacks.your_faults") + ":")
        for n, card_id in enumerate(p.faults, start=1):
            fault = game.components.faults[card_id]
            text = words.known(f"card.{fault.design.id}.text", fault.design.text)
            lines.append(f"  {n}) {words.card_name(card_id, fault.design.name)}: {text}")
    return "\n".join(lines)


def describe_turn(game: ClacksGame, words: Narrator | None = None) -> str:
    state = game.state
    if state.options.mode != "competitive":
        return describe_map_turn(game, draw_board, words)
    seat = state.turn.seat
    p = state.players[seat]
    out = [
        "",
        f"=== Round {state.turn.round}: {seat.label.capitalize()} to play "
        f"(stress {state.turn.stress_spent}/{state.turn.stress_limit}) ===",
    ]
    out.extend(describe_player(game, s) for s in state.order)
    out.append(draw_board(game, seat))
    if state.sabotage:
        out.append(
            f"SABOTAGE: turn all six lamps of {state.sabotage.tower} off to make "
            f"{state.sabotage.target.label.capitalize()} resend their last symbol, or 'end' to give up."
        )
    elif state.turn.phase == "timeout_discard":
        out.append("Your time ran out before you played a Jacquard: 'discard N'.")
    elif p.pawn and p.next_symbol:
        shown = pattern_picture(read_pattern(state.board, seat, p.pawn))
        wanted = pattern_picture(game.components.alphabet[p.next_symbol])
        out.append(f"At {p.pawn} you see    and you need {p.next_symbol}:")
        out.extend(f"        {a}              {b}" for a, b in zip(shown, wanted, strict=True))
    out.append(draw_hand(game, seat, words))
    return "\n".join(out)


class TerminalGame:
    def __init__(
        self,
        game: ClacksGame,
        read: Callable[[str], str],
        out: TextIO,
        now: Callable[[], float] = time.monotonic,
        bots: dict[Seat, Bot] | None = None,
        language: str = "en",
    ) -> None:
        self.game = game
        self.words = Narrator(game, language)
        self.read = read
        self.out = out
        self.now = now
        self.bots = bots or {}

    def check_clock(self) -> None:
        """Clacks Express: the terminal is the table clock and applies the timeout rule."""
        deadline = self.game.rules.deadline(self.game.state)
        if deadline is None or self.game.state.turn.phase == "timeout_discard":
            return
        now = self.now()
        if now >= deadline:
            self._apply(actions.TimeUp(None, at=now))

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def run(self) -> int:
        self.say("Clacks: hot-seat game. Type 'help' for commands.")
        shown_turn = -1
        while not self.game.over:
            if self.game.state.turn.number != shown_turn:
                shown_turn = self.game.state.turn.number
                self.say(describe_turn(self.game, self.words))
                self.say(self.words.turn_header())
            if self.game.current_seat in self.bots:
                self.bot_turn()
                continue
            deadline = self.game.rules.deadline(self.game.state)
            left = f" [{max(0.0, deadline - self.now()):.0f}s left]" if deadline else ""
            try:
                line = self.read(f"{self.game.current_seat.label}{left}> ")
            except EOFError:
                self.say("\nGoodbye.")
                return 1
            if line.strip() in ("quit", "exit"):
                return 1
            self.check_clock()
            if self.game.over or self.game.state.turn.number != shown_turn:
                continue
            self.command(line)
        self.say("\n" + self.words.outcome())
        return 0

    def command(self, line: str) -> None:
        seat = self.game.current_seat
        if ":" in line.split(" ", 1)[0]:
            who, line = line.split(":", 1)
            try:
                seat = Seat.parse(who)
            except ValueError as exc:
                self.say(str(exc))
                return
        try:
            words = shlex.split(line)
        except ValueError as exc:
            self.say(f"Could not read that: {exc}")
            return
        if not words:
            return
        verb, args = words[0].lower(), words[1:]
        try:
            self.dispatch(seat, verb, args)
        except IllegalAction as exc:
            self.say(f"{self.words.t('ui.refused')}: {self.words.refusal(exc)}")
        except (ValueError, IndexError) as exc:
            self.say(f"Could not read that: {exc}. Type 'help'.")

    def hint(self, seat: Seat) -> str:
        return _hint_text(self.game, seat)

    def _at(self) -> float | None:
        return self.now() if self.game.state.options.express else None

    def _apply(self, action: actions.Action) -> None:
        for e in self.game.apply(action):
            self.say("  " + self.words.event(e.to_json()))
        self.bots_interrupt()

    def bot_turn(self) -> None:
        """One action by the bot whose turn it is; it sees only its seat's view."""
        seat = self.game.current_seat
        legal = self.game.legal_actions(seat, self._at())
        action = self.bots[seat].choose(self.game.view(seat), legal) if legal else None
        if action is None:
            self.check_clock()
            return
        self._apply(action)

    def bots_interrupt(self) -> None:
        """Bots holding Fault Reports may play one in another player's turn."""
        for seat, bot in self.bots.items():
            if self.game.over or seat is self.game.current_seat:
                continue
            offers: list[actions.Action] = [
                a
                for a in self.game.legal_actions(seat, self._at())
                if isinstance(a, actions.PlayFault)
            ]
            if offers:
                reply = bot.choose(self.game.view(seat), offers)
                if reply is not None:
                    self._apply(reply)

    def dispatch(self, seat: Seat, verb: str, args: list[str]) -> None:
        player = self.game.state.players[seat]
        at = self._at()
        if verb == "help":
            self.say(HELP if self.game.state.options.mode == "competitive" else MAP_HELP)
        elif verb == "board":
            self.say(describe_turn(self.game, self.words))
        elif verb == "hint":
            self.say(self.hint(seat))
        elif verb == "move":
            self._apply(actions.Move(seat, tower=args[0], at=at))
        elif verb == "play":
            jacquard_id = player.hand[int(args[0]) - 1]
            self._apply(
                actions.PlayJacquard(seat, jacquard=jacquard_id, lamps=mask_of(args[1:]), at=at)
            )
        elif verb == "options":
            jacquard = self.game.components.jacquards[player.hand[int(args[0]) - 1]]
            masks = [p.mask for p in placements(jacquard.design.shape)]
            self.say(f"{jacquard.design.name} ({shape_size(jacquard.design.shape)}) can flip:")
            for mask in masks:
                self.say("  " + " ".join(LAMP_NAMES[i] for i in range(16) if mask >> i & 1))
        elif verb == "fault":
            card_id = player.faults[int(args[0]) - 1]
            fault = self.game.components.faults[card_id]
            kind = COMPETITIVE_EFFECTS[fault.design.effect].target
            lamps, target = 0, None
            if kind is Target.LAMPS:
                lamps = mask_of(args[1:])
            elif kind in (Target.TOWER, Target.OWN_TOWER):
                target = tower(args[1]).name
            self._apply(actions.PlayFault(seat, card=card_id, lamps=lamps, tower=target, at=at))
        elif verb == "transmit":
            self._apply(actions.Transmit(seat, tower=tower(args[0]).name if args else None, at=at))
        elif verb == "swap":
            swapped = player.hand[int(args[0]) - 1]
            self._apply(actions.Swap(seat, jacquard=swapped, slot=args[1]))
        elif verb == "end":
            self._apply(actions.EndTurn(seat, at=at))
        elif verb == "discard":
            self._apply(actions.Discard(seat, jacquard=player.hand[int(args[0]) - 1], at=at))
        elif verb == "undo":
            for e in self.game.undo(seat):
                self.say("  " + self.words.event(e.to_json()))
            self.say(describe_turn(self.game, self.words))
        else:
            self.say(f"Unknown command {verb!r}. Type 'help'.")


def _hint_text(game: ClacksGame, seat: Seat) -> str:
    view = game.view(seat)
    if not view.get("hints_allowed"):
        return "Hints are off in this game (Long Distance)."
    advice = advise(view, game.components)
    if advice.plan is None:
        if advice.reason == HINT_NOT_YOUR_TURN:
            return "No hint: it is not your turn."
        return "No hint: nothing is left for you to do this turn."
    told = describe_plan(advice.plan, game.components)
    if advice.hopeless:
        return f"No plan keeps the Post Office from Genua; the least bad: {told}"
    return told


def play(
    options: Options,
    seed: int,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
    now: Callable[[], float] = time.monotonic,
    bots: dict[Seat, str] | None = None,
    language: str = "en",
) -> int:
    """Play in the terminal; ``bots`` gives seats to bots by level, seeded from ``seed``;
    the game's events, refusals and result are told in ``language``."""
    options = dataclasses.replace(options, start_time=now())
    game = ClacksGame.new(options, seed)
    players = {
        seat: make_bot(level, game.components, derive_seed(seed, "bot", seat.label))
        for seat, level in (bots or {}).items()
        if seat in game.state.players
    }
    return TerminalGame(game, read, out, now, players, language).run()
