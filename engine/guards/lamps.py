"""Guards! Guards! on the box's sixteen lamps and twelve buttons.

The four 2x2 blocks are the Guild Quadrants (board.toml says which is which): a Dragon
lights its block, a Spell Run's announced route blinks, the quadrant of a fight glows
in the accent colour. Right after a roll the lamps show the die instead: the first face
as a bar of 1 to 8 lamps along rows 1 and 2 (a1 b1 c1 d1 a2 b2 c2 d2), a natural 8's
next face along rows 3 and 4; a natural 8 in the accent colour, a natural 1 blinking.

The buttons act for whoever the game waits for (else the player whose turn it is):
``a2b2 c2d2 a3b3 c3d3`` mark the quadrant block they touch (for the phone's next report:
a route, where you stopped, a Dragon), ``b2c2`` rolls the test waiting, ``b3c3`` goes on
with what is asked (rolls, or says yes), ``b2b3`` says yes (bribe), ``c2c3`` no,
``b1b2`` ends the turn, ``c1c2`` undoes, ``b3b4`` and ``c3c4`` cycle the table screen's
panels.
"""

from __future__ import annotations

from engine.core.interface import JSON, LampFrame
from engine.guards.data import QUADRANTS
from engine.guards.state import GameState

BLOCK_LAMPS = {
    "sw": (0, 1, 4, 5),
    "se": (2, 3, 6, 7),
    "nw": (8, 9, 12, 13),
    "ne": (10, 11, 14, 15),
}
BAR = (0, 1, 2, 3, 4, 5, 6, 7)  # rows 1 and 2, left to right
REROLL_BAR = (8, 9, 10, 11, 12, 13, 14, 15)
DICE_ROWS = sum(1 << i for i in BAR)
BUTTONS: dict[str, str] = {
    "a2b2": "block:sw",
    "c2d2": "block:se",
    "a3b3": "block:nw",
    "c3d3": "block:ne",
    "b2c2": "roll",
    "b3c3": "confirm",
    "b2b3": "yes",
    "c2c3": "no",
    "b1b2": "end_turn",
    "c1c2": "undo",
    "b3b4": "panel_back",
    "c3c4": "panel_next",
}


def block_lamps(block: str) -> int:
    return sum(1 << i for i in BLOCK_LAMPS[block])


def quadrant_lamps(state: GameState, quadrants: list[str] | tuple[str, ...]) -> int:
    blocks = state.options.data.blocks
    return sum(block_lamps(blocks[q]) for q in quadrants if q in blocks)


def bar(faces: int, lamps: tuple[int, ...]) -> int:
    return sum(1 << lamps[i] for i in range(min(faces, len(lamps))))


def roll_frame(state: GameState) -> LampFrame | None:
    """The latest roll, while nothing has happened since."""
    roll = state.last_roll
    if roll is None or roll.get("step") != state.steps:
        return None
    faces = roll["faces"]
    lit = bar(faces[0], BAR) | (bar(faces[1], REROLL_BAR) if len(faces) > 1 else 0)
    accent = bar(faces[0], BAR) if faces[0] == 8 else 0
    preview = bar(1, BAR) if faces[0] == 1 else 0
    return LampFrame(lit=lit, preview=preview, accent=accent)


def frame(state: GameState, marked: list[str] | None = None) -> LampFrame:
    shown = None if marked else roll_frame(state)
    if shown is not None:
        return shown
    lit = quadrant_lamps(state, list(state.dragons))
    if state.over:
        if state.winners:
            return LampFrame(lit=0, accent=quadrant_lamps(state, QUADRANTS))
        return LampFrame(lit=lit, accent=lit)
    route: list[str] = []
    for player in state.players.values():
        if player.run is not None and player.run.stage != "gate":
            route += player.run.route
    accent = 0
    if state.fight is not None:
        accent |= quadrant_lamps(state, [state.fight.quadrant])
    if state.combat is not None:
        accent |= quadrant_lamps(state, [state.combat.quadrant])
    preview = quadrant_lamps(state, route) | quadrant_lamps(state, marked or [])
    return LampFrame(lit=lit, preview=preview, accent=accent)


def quadrant_of_block(state: GameState, block: str) -> str:
    return next(q for q, b in state.options.data.blocks.items() if b == block)


def acting_seat(state: GameState) -> str | None:
    """Whom the buttons act for: the one the game waits for, else whose turn it is."""
    top = state.top
    if top is not None and top.seats:
        return top.seats[0]
    if state.phase == "start" and state.seats:
        return state.seats[0]
    return state.turn.seat if state.turn is not None else None


def button_action(state: GameState, button: str) -> tuple[str | None, JSON] | None:
    meaning = BUTTONS.get(button)
    if meaning is None:
        raise ValueError(f"no button {button!r} on the Guards! Guards! box")
    if state.over:
        return None
    seat = acting_seat(state)
    top = state.top
    if meaning.startswith("block:"):
        return seat, {"type": "mark", "quadrant": quadrant_of_block(state, meaning[6:])}
    if meaning in ("panel_back", "panel_next"):
        return None, {"type": "panel", "step": -1 if meaning == "panel_back" else 1}
    if seat is None:
        return None
    if meaning == "roll" or (meaning == "confirm" and (top is None or top.kind in ("test", "start"))):
        return seat, {"type": "roll"}
    if meaning in ("yes", "confirm"):
        if top is not None and top.kind == "bribe":
            return seat, {"type": "bribe"}
        if top is not None and top.kind in ("magic_attack", "magic_defence"):
            return seat, {"type": "decline"}  # done with magic: on to the Brawl roll
        return seat, {"type": "roll"}
    if meaning == "no":
        return seat, {"type": "decline"}
    if meaning == "end_turn":
        turn = state.turn
        return (turn.seat if turn else seat), {"type": "end_turn"}
    return seat, {"type": "undo"}
