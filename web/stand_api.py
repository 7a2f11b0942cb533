"""What a visitor at a convention stand may do besides playing: see the stand's choices
and start one of them (web/stand.py). No PIN: a stand has nobody at its controls, and
these routes offer nothing but the stand's own bounded choices."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.api import body, hub, room
from web.errors import ApiError
from web.stand import Stand

stand_routes = Blueprint("stand", __name__)


def the_stand(code: str) -> Stand:
    """The stand run at table ``code``; a clear 404 where the companion runs none."""
    found = room(code)
    stand = hub().stand
    if stand is None or stand.room is not found:
        raise ApiError(
            404,
            "no_stand",
            "This table is not a convention stand: its host starts the games",
            code=found.code,
        )
    return stand


@stand_routes.get("/rooms/<code>/stand")
def stand_choices(code: str) -> Response:
    return jsonify(the_stand(code).to_json())


@stand_routes.post("/rooms/<code>/stand/games")
def start_stand_game(code: str) -> tuple[Response, int]:
    """A visitor starts one of the stand's choices and gets the seat to play."""
    stand = the_stand(code)
    data = body()
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise ApiError(400, "bad_field", "name must be text", field="name")
    started = stand.start(data.get("entry"), data.get("choice"), data.get("players"), name)
    return jsonify(started), 201
