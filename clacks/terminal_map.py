"""What the terminal shows in the map games: co-op, solitaire and the junior race.

Drawn from the game's own per-seat view, so the terminal shows exactly what the rules
let the current player see (in Long Distance, no teammate's hand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clacks.terminal_lamps import pattern_picture
from engine.clacks import ClacksGame, Seat
from engine.clacks.geometry import read_pattern, towers_of

if TYPE_CHECKING:
    from clacks.narrate import Narrator

MAP_HELP = """Commands:
  play N LAMP...        play Jacquard N flipping those lamps (e.g. play 2 b1 b2 c2)
  options N             list every placement of Jacquard N
  swap N SLOT           co-op: swap Jacquard N for the one on a slot (e.g. swap 1 log-2)
  transmit [TOWER]      send the next symbol from a tower of your colour (any, if none given)
  end                   end your turn
  undo                  take back your last action this turn
  hint                  the cheapest way to send the next symbol this turn
  board                 draw the board again
  help, quit"""


def _hand_line(card: dict[str, Any], words: Narrator) -> str:
    stamp = f" [{words.t('clacks.fault_stamp')}]" if card["fault"] else ""
    name = words.jacquard_name(card["id"], card["name"])
    cost = words.t("clacks.cost", cost=card["cost"])
    return f"{name}, {cost}{stamp}: {' / '.join(card['holes'])}"


def describe_team(game: ClacksGame, view: dict[str, Any]) -> list[str]:
    message, post = view["message"], view["post_office"]
    sent = " ".join(message["symbols"][: message["progress"]]) or "-"
    lines = [
        f"Message: {' '.join(message['words'])}   sent [{sent}]   next: {message['next_symbol']}",
        f"Towers lit on {view['route']['name']}: {message['progress']}/{len(view['route']['towers'])}"
        + (f" (last: {message['towers_lit'][-1]})" if message["towers_lit"] else ""),
        f"Post Office: {post['position']}/{post['track']} steps ({post['steps_left']} to Genua)",
    ]
    turn = view["turn"]
    notes = []
    if turn["jacquard_limit"] is not None:
        limit = turn["jacquard_limit"]
        notes.append(f"at most {limit} {'Jacquard' if limit == 1 else 'Jacquards'} this turn")
    if turn["stress_surcharge"]:
        notes.append(f"every Jacquard costs {turn['stress_surcharge']} more")
    if turn["post_office_cap"] is not None:
        notes.append(f"Post Office moves at most {turn['post_office_cap']} steps this turn")
    if turn["lifted_pending"]:
        notes.append("the lifted Jacquard must be played")
    if view["emergency_repair"]:
        notes.append(
            f"Emergency Repair stands by for {', '.join(view['emergency_repair']['cancels'])}"
        )
    if notes:
        lines.append("This turn: " + "; ".join(notes))
    slots = []
    for slot in view["slots"]:
        if slot["taken"]:
            slots.append(f"{slot['id']}: taken")
        elif slot["jacquard"]:
            slots.append(f"{slot['id']}: {slot['jacquard']['name']} face up")
        else:
            slots.append(f"{slot['id']}: face down (+{slot['lift_cost']} stress)")
    lines.append("Slots: " + " | ".join(slots))
    if view["revealed"]:
        last = view["revealed"][-1]
        lines.append(f"Last card revealed: {last['name']}: {last['text']}")
    me = view["turn"]["seat"]
    for player in view["players"]:
        if player["seat"] == me:
            continue
        hand = (
            "; ".join(c["name"] for c in player["hand"])
            if "hand" in player
            else f"{player['hand_count']} hidden"
        )
        lines.append(f"  {player['seat'].capitalize()}'s hand: {hand}")
    if not view["hints_allowed"]:
        lines.append("Long Distance: no talking, no hints.")
    return lines


def describe_junior(game: ClacksGame, view: dict[str, Any]) -> list[str]:
    lines = []
    for player in view["players"]:
        sent = " ".join(player["message"][: player["progress"]]) or "-"
        lines.append(
            f"  {player['seat'].capitalize():6} {' '.join(player['words']):12} sent [{sent}] "
            f"next {player['next_symbol']}; pawn at {player['pawn_at']} "
            f"({player['route']} route, {player['progress']}/12)"
        )
    if view["revealed"]:
        last = view["revealed"][-1]
        lines.append(f"Last Fault Report: {last['name']}: {last['text']}")
    return lines


def describe_map_turn(game: ClacksGame, draw_board: Any, words: Narrator | None = None) -> str:
    from clacks.narrate import Narrator

    words = words or Narrator(game)
    state = game.state
    seat = state.turn.seat
    view = game.view(seat)
    title = {
        "coop": "Race to Genua",
        "solitaire": "Solitaire Race to Genua",
        "junior": "Junior Race",
    }[state.options.mode]
    out = [
        "",
        f"=== {title}, turn {state.turn.number} (round {state.turn.round}): "
        f"{seat.label.capitalize()} to play ===",
    ]
    out += describe_team(game, view) if state.team is not None else describe_junior(game, view)
    out.append(draw_board(game, seat))
    symbol = view["message"]["next_symbol"] if state.team else state.players[seat].next_symbol
    if symbol:
        out.extend(_towers_picture(game, seat, symbol))
    out.append(words.t("clacks.your_jacquards") + ":")
    out.extend(
        f"  {n}) {_hand_line(card, words)}" for n, card in enumerate(view["you"]["hand"], start=1)
    )
    return "\n".join(out)


def _towers_picture(game: ClacksGame, seat: Seat, symbol: str) -> list[str]:
    names = towers_of(seat.colour)
    pictures = [pattern_picture(read_pattern(game.state.board, seat, n)) for n in names]
    wanted = pattern_picture(game.components.alphabet[symbol])
    lines = [f"Your towers as you see them, and the {symbol} you need:"]
    lines.append("   " + "  ".join(f"{n:>6}" for n in names) + "      need")
    for row in range(3):
        cells = "  ".join(f"{p[row]:>6}" for p in pictures)
        lines.append(f"   {cells}      {wanted[row]}")
    return lines
