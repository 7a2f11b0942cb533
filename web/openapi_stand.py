"""The OpenAPI description of a convention stand's own routes (web/stand_api.py), merged
into the document served at /api/openapi.json."""

from __future__ import annotations

from web.openapi_parts import JSON, answer, body, error, schema_object

CHOICE: JSON = {
    "type": "object",
    "properties": {
        "kind": {
            "type": "string",
            "enum": ["learn", "alone", "bots", "table"],
            "description": "learn: the game's guided first game; alone: a game for one; "
            "bots: against the box's bots (later visitors take over their seats); table: "
            "for several visitors, where the game has no bots",
        },
        "players": {"type": "array", "items": {"type": "integer"}},
    },
}
STAND: JSON = {
    "type": "object",
    "properties": {
        "entries": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": "game, or game:mode"},
                    "game": {"type": "string"},
                    "mode": {"type": ["string", "null"]},
                    "choices": {"type": "array", "items": CHOICE},
                },
            },
        },
        "idle_seconds": {
            "type": "number",
            "description": "a game nobody plays for this long ends",
        },
        "starts_per_minute": {
            "type": "integer",
            "description": "the most games visitors may start in a minute, all together "
            "(`stand_starts` past it)",
        },
        "ended": {
            "type": ["object", "null"],
            "description": "why the last game ended (`idle`, `finished`, or `left`: its "
            "visitors gave up their seats or closed their pages), and its game number",
            "properties": {
                "reason": {"type": "string", "enum": ["idle", "finished", "left"]},
                "game_number": {"type": "integer"},
            },
        },
        "waiting": {
            "type": "boolean",
            "description": "a table for several visitors waits for its players: nothing is "
            "dealt or played (`waiting_players`) until every seat is taken, then its game is "
            "dealt again for them",
        },
    },
}


def stand_paths(code: JSON) -> JSON:
    """The stand's paths; ``code`` is the room-code path parameter."""
    return {
        "/api/rooms/{code}/stand": {
            "get": {
                "summary": "A convention stand's choices: the games it offers and how each "
                "may be played (no PIN)",
                "parameters": [code],
                "responses": {
                    "200": answer(STAND, "the choices"),
                    "404": error("no such table, or it is not a convention stand (`no_stand`)"),
                },
            }
        },
        "/api/rooms/{code}/stand/games": {
            "post": {
                "summary": "A visitor starts one of the stand's choices and takes the seat to "
                "play: the answer holds the seat's token, as claiming a seat does (no PIN)",
                "parameters": [code],
                "requestBody": body(
                    schema_object(
                        {
                            "entry": {"type": "string"},
                            "choice": {"type": "string"},
                            "players": {"type": "integer"},
                            "name": {"type": "string", "maxLength": 64},
                        },
                        "entry",
                        "choice",
                    )
                ),
                "responses": {
                    "201": answer(
                        schema_object(
                            {
                                "seat": {"type": "string"},
                                "token": {"type": "string"},
                                "name": {"type": "string"},
                                "game": {"type": "string"},
                                "revision": {"type": "integer"},
                            }
                        ),
                        "the game started and the visitor's seat",
                    ),
                    "400": error("not a choice the stand offers (`not_offered`, `bad_field`)"),
                    "404": error("no such table or entry, or no stand (`no_stand`)"),
                    "409": error("a game is on at the stand (`stand_game_on`)"),
                    "413": error("the request body is too large"),
                    "429": error("too many games were started in the last minute"),
                    "503": error("the companion could not save; nothing changed"),
                },
            }
        },
    }
