"""What only the table may do, each request with the table's PIN (``X-Table-Pin``):
end the game on it, give a seat to a bot, the table's settings (hints), and the saved
games: list, resume, delete, export to and import
from a JSON replay file, and step through a finished one in the replay viewer.

Saved games belong to the whole companion, so any table (with its own PIN) sees them
all; a game on another table can be neither resumed here nor deleted.

A replay file is the game's own log (``Session.log_json()``: game, options, seed and
every action) with the players' ``names``. Its seed foretells every draw of an
unfinished game, so an unfinished game's file leaves the companion only on purpose:
``POST .../reveal`` (the PIN, logged), which ends the game's secrecy for good: it is
taken off its table and can no longer be resumed. A finished game exports freely.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from flask import Blueprint, Response, jsonify, request

from engine.games import game_module, game_modules
from web.api import (
    body,
    hub,
    optional_int,
    request_json,
    require_table,
    room,
    seat_id,
    stand_seat_rule,
    table_room,
)
from web.errors import ApiError, saved_or_refused
from web.i18n import LANGUAGES
from web.refusals import in_english
from web.stand_seats import SeatRequest
from web.store import DamagedGame

tables = Blueprint("tables", __name__)
log = logging.getLogger("clacks.web")

IMPORT_MAX_BYTES = 1024 * 1024  # a long game's log is some 10 KB
NAME_MAX = 24


@tables.post("/rooms/<code>/pin")
def check_pin(code: str) -> Response:
    """Whether the PIN is right, so the table page can say so as soon as it is typed."""
    require_table(room(code))
    return jsonify({"valid": True})


@tables.delete("/rooms/<code>/game")
def end_game(code: str) -> Response:
    found = table_room(code)
    return jsonify(found.end_game())


@tables.post("/rooms/<code>/seats/<seat>/bot")
def seat_bot(code: str, seat: str) -> Response:
    """A bot of the level given takes the seat (a free one, or a bot's); the table frees
    it again with DELETE /rooms/{code}/seats/{seat}."""
    found = room(code)
    stand_seat_rule(found, SeatRequest.BOT, seat_id(seat))
    require_table(found)
    level = body().get("level")
    if not isinstance(level, str):
        raise ApiError(400, "bad_field", "give the bot's level as level", field="level")
    return jsonify(found.seats.seat_bot(seat_id(seat), level))


@tables.post("/rooms/<code>/settings")
def settings(code: str) -> Response:
    """The table's settings: ``hints`` (whether phones may ask for hints)."""
    found = table_room(code)
    hints = body().get("hints")
    if not isinstance(hints, bool):
        raise ApiError(400, "bad_field", "hints must be true or false", field="hints")
    return jsonify(found.previews.set_hints(hints))


@tables.post("/rooms/<code>/language")
def table_language(code: str) -> Response:
    """The table's language (the table screen switched to it): phones follow it."""
    found = table_room(code)
    language = body().get("language")
    if language not in LANGUAGES:
        raise ApiError(
            400, "bad_field", f"language must be one of {', '.join(LANGUAGES)}", field="language"
        )
    return jsonify(found.set_language(language))


@tables.get("/rooms/<code>/saves")
def list_saves(code: str) -> Response:
    require_table(room(code))
    return jsonify({"saves": hub().store.listing(), "problems": hub().problems})


@tables.post("/rooms/<code>/saves/<int:game_id>/resume")
def resume(code: str, game_id: int) -> Response:
    found = table_room(code)
    with hub().saves_lock:
        return jsonify(found.resume(_saved_id(game_id)))


@tables.delete("/rooms/<code>/saves/<int:game_id>")
def delete_save(code: str, game_id: int) -> Response:
    require_table(room(code))
    store = hub().store
    with hub().saves_lock:
        _require_saved(game_id)
        table = store.table_of(game_id)
        if table is not None:
            raise ApiError(
                409,
                "on_a_table",
                f"That game is on table {table}; end it there first",
                table=table,
            )
        store.delete(game_id)
    return jsonify({"deleted": game_id})


@tables.get("/rooms/<code>/saves/<int:game_id>/export")
def export_save(code: str, game_id: int) -> Response:
    """A finished game's replay file (or one revealed before, or a damaged one)."""
    require_table(room(code))
    _require_saved(game_id)
    if not hub().store.finished_or_open(game_id):
        table = hub().store.table_of(game_id)
        raise ApiError(
            409,
            "unfinished",
            "This game is not finished, and its file would tell every hand and draw still "
            "to come; finish it, or reveal it (which closes it for play)",
            table=table,
        )
    return _replay_file(game_id)


@tables.post("/rooms/<code>/saves/<int:game_id>/reveal")
def reveal_save(code: str, game_id: int) -> Response:
    """An unfinished game's replay file, on purpose: its secrecy ends, so it is taken
    off its table and closed for play for good (and the companion's log says so)."""
    found = table_room(code)
    store = hub().store
    with hub().saves_lock:
        _require_saved(game_id)
        if store.finished_or_open(game_id):
            return _replay_file(game_id)  # nothing secret left to end
        table = store.table_of(game_id)
        if table is not None and table != found.code:
            raise ApiError(409, "on_another_table", f"That game is on table {table}", table=table)
        if table is not None:
            found.end_game()
        with saved_or_refused():
            store.reveal(game_id)
    log.warning(
        "saved game %s revealed at table %s from %s: closed for play",
        game_id,
        found.code,
        request.remote_addr,
    )
    return _replay_file(game_id)


def _replay_file(game_id: int) -> Response:
    store = hub().store
    try:
        record, names = store.load(game_id)
        replay_file: dict[str, Any] = {**record.log(), "names": names}
    except DamagedGame:
        # a damaged game is exported as stored, for whoever wants to look into it
        replay_file = {**store.raw_log(game_id), "names": {}}
    response = Response(
        json.dumps(replay_file, indent=1, ensure_ascii=False) + "\n",
        mimetype="application/json",
    )
    game = str(replay_file.get("game") or "game")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="clacks-{_safe(game)}-{game_id}.json"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@tables.post("/rooms/<code>/saves")
def import_save(code: str) -> tuple[Response, int]:
    """A replay file read back: checked by replaying it, then saved without a table."""
    require_table(room(code))
    request.max_content_length = IMPORT_MAX_BYTES
    data = request_json("bad_replay", "This replay file")
    if not isinstance(data, dict):
        raise ApiError(400, "bad_replay", "This is not a replay file: it is not a JSON object")
    game = data.get("game")
    if not isinstance(game, str) or game not in game_modules():
        raise ApiError(
            400,
            "bad_replay",
            f"This replay file is not of a game this companion plays (game = {game!r})",
        )
    try:
        session = game_module(game).replay(data)
        log_json = session.log_json()
    except Exception as exc:  # an untrusted file: any failure to rebuild it is its fault
        raise ApiError(
            400, "bad_replay", f"This replay file cannot be played back: {in_english(exc)}"
        ) from None
    seats = [s.id for s in session.seats]
    given = data.get("names")
    names = {
        seat: name[:NAME_MAX]
        for seat, name in (given.items() if isinstance(given, dict) else [])
        if seat in seats and isinstance(name, str) and name.isprintable()
    }
    game_id = hub().store.add_saved(game, log_json, seats, names, session.over, session.result())
    return jsonify({"id": game_id, "over": session.over, "moves": len(log_json["actions"])}), 201


@tables.post("/rooms/<code>/replay")
def start_replay(code: str) -> Response:
    found = table_room(code)
    data = body()
    game_id = optional_int(data, "save")
    if game_id is None:
        raise ApiError(400, "bad_field", "give the saved game to replay as save", field="save")
    with hub().saves_lock:
        return jsonify(found.replay.show(_saved_id(game_id), optional_int(data, "step")))


@tables.post("/rooms/<code>/replay/step")
def replay_step(code: str) -> Response:
    found = table_room(code)
    step = optional_int(body(), "step")
    if step is None:
        raise ApiError(400, "bad_field", "give the step to show as step", field="step")
    return jsonify(found.replay.step(step))


@tables.delete("/rooms/<code>/replay")
def close_replay(code: str) -> Response:
    found = table_room(code)
    return jsonify(found.replay.close())


def _saved_id(game_id: int | None) -> int:
    """A saved game's id as given; ids are positive 63-bit numbers, so others name none."""
    if game_id is None or not 0 < game_id < 2**63:
        raise ApiError(404, "unknown_save", "There is no such saved game", save=game_id)
    return game_id


def _require_saved(game_id: int) -> None:
    if not hub().store.exists(_saved_id(game_id)):
        raise ApiError(404, "unknown_save", "There is no such saved game", save=game_id)


def _safe(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum() or ch in "-_")[:32] or "game"
