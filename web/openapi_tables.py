"""The OpenAPI description of what only the table may do (web/table_api.py), merged into
the document served at /api/openapi.json."""

from __future__ import annotations

from web.openapi_parts import JSON, answer, body, errors, parameter

TABLE_PIN: JSON = parameter(
    "X-Table-Pin",
    "header",
    {"type": "string", "maxLength": 64},
    (
        "the table's PIN, shown on the table screen and in the terminal; "
        "required for what only the table may do"
    ),
)
GAME_ID: JSON = parameter(
    "game_id", "path", {"type": "integer"}, "a saved game's id, from the list of saved games"
)
ERROR_TEXTS = {
    400: "the request could not be read, or the replay file cannot be played back",
    403: "the table PIN is missing or wrong, or the companion runs a convention stand, "
    "whose controls are locked (`stand_mode`)",
    404: "no such table or saved game",
    409: "the game is on another table, damaged, not finished (`unfinished`), closed for "
    "play (`revealed`), or there is none",
    413: "the request body is too large",
    429: "too many wrong PINs from this device; wait",
    503: "the companion could not save; nothing changed",
}


def _errors(*codes: int) -> JSON:
    return errors(ERROR_TEXTS, *codes)


def _ok(description: str, schema: JSON | None = None) -> JSON:
    return answer(schema or {"type": "object"}, description)


def table_paths(code: JSON) -> JSON:
    """The table's paths; ``code`` is the room-code path parameter."""
    saved = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "game": {"type": "string"},
            "mode": {"type": ["string", "null"]},
            "seats": {"type": "array", "items": {"type": "string"}},
            "names": {"type": "object", "additionalProperties": {"type": "string"}},
            "created": {"type": "number"},
            "updated": {"type": "number"},
            "moves": {"type": "integer"},
            "over": {"type": "boolean"},
            "result": {"type": ["object", "null"]},
            "imported": {"type": "boolean"},
            "damaged": {"type": ["string", "null"]},
            "revealed": {
                "type": ["number", "null"],
                "description": "when its unfinished file was revealed (it is closed for play)",
            },
            "table": {"type": ["string", "null"], "description": "the table it is on"},
        },
    }
    return {
        "/api/rooms/{code}/pin": {
            "post": {
                "summary": "Check the table PIN (so the table page can say at once if it is wrong)",
                "parameters": [code, TABLE_PIN],
                "responses": {"200": _ok("the PIN is right"), **_errors(403, 404, 429)},
            }
        },
        "/api/rooms/{code}/game": {
            "delete": {
                "summary": "End the game on this table: it is put away with the saved games",
                "parameters": [code, TABLE_PIN],
                "responses": {"200": _ok("ended"), **_errors(403, 404, 409, 429, 503)},
            }
        },
        "/api/rooms/{code}/saves": {
            "get": {
                "summary": "Every saved game (newest first) and any problem found with the saves",
                "parameters": [code, TABLE_PIN],
                "responses": {
                    "200": _ok(
                        "saved games",
                        {
                            "type": "object",
                            "properties": {
                                "saves": {"type": "array", "items": saved},
                                "problems": {"type": "array", "items": {"type": "string"}},
                            },
                        },
                    ),
                    **_errors(403, 404, 429),
                },
            },
            "post": {
                "summary": "Import a replay file (as exported); it is checked by replaying it",
                "description": "The body is the file itself, at most 1 MiB: the game's log "
                "(game, format, options, seed, actions) with optional names.",
                "parameters": [code, TABLE_PIN],
                "requestBody": body({"type": "object", "required": ["game"]}),
                "responses": {
                    "201": _ok(
                        "saved",
                        {
                            "type": "object",
                            "properties": {
                                "id": {"type": "integer"},
                                "over": {"type": "boolean"},
                                "moves": {"type": "integer"},
                            },
                        },
                    ),
                    **_errors(400, 403, 404, 413, 429),
                },
            },
        },
        "/api/rooms/{code}/saves/{game_id}": {
            "delete": {
                "summary": "Delete a saved game that is on no table",
                "parameters": [code, GAME_ID, TABLE_PIN],
                "responses": {"200": _ok("deleted"), **_errors(403, 404, 409, 429)},
            }
        },
        "/api/rooms/{code}/saves/{game_id}/resume": {
            "post": {
                "summary": "Put a saved game on this table exactly as it was left",
                "description": "The game on the table, if any, stays saved. Its seats are "
                "held by the tokens that held them when it left its table, and only by them. "
                "A revealed game is refused (`409 revealed`).",
                "parameters": [code, GAME_ID, TABLE_PIN],
                "responses": {"200": _ok("resumed"), **_errors(403, 404, 409, 429, 503)},
            }
        },
        "/api/rooms/{code}/saves/{game_id}/export": {
            "get": {
                "summary": "Download a finished (or revealed, or damaged) saved game as a "
                "JSON replay file",
                "description": "The file holds the seed, which foretells every draw of an "
                "unfinished game: an unfinished game is refused (`409 unfinished`), in play "
                "or put away; see .../reveal.",
                "parameters": [code, GAME_ID, TABLE_PIN],
                "responses": {
                    "200": _ok("the replay file", {"type": "object"}),
                    **_errors(403, 404, 409, 429),
                },
            }
        },
        "/api/rooms/{code}/saves/{game_id}/reveal": {
            "post": {
                "summary": "Download an unfinished saved game's replay file, ending its secrecy",
                "description": "On purpose only: the game is taken off its table, marked "
                "revealed (`revealed` in the list) and can never be resumed; the companion's "
                "log says so. A finished game's file is given as by export. A game on "
                "another table is revealed there (`409 on_another_table`).",
                "parameters": [code, GAME_ID, TABLE_PIN],
                "responses": {
                    "200": _ok("the replay file", {"type": "object"}),
                    **_errors(403, 404, 409, 429, 503),
                },
            }
        },
        "/api/rooms/{code}/replay": {
            "post": {
                "summary": "Show a finished saved game in the replay viewer on this table",
                "description": "The game on the table, if any, is put away first. Every "
                "snapshot then carries `replay`: the step, and the table's view at it.",
                "parameters": [code, TABLE_PIN],
                "requestBody": body(
                    {
                        "type": "object",
                        "required": ["save"],
                        "properties": {
                            "save": {"type": "integer"},
                            "step": {"type": ["integer", "null"]},
                        },
                    }
                ),
                "responses": {"200": _ok("showing"), **_errors(400, 403, 404, 409, 429, 503)},
            },
            "delete": {
                "summary": "Close the replay viewer",
                "parameters": [code, TABLE_PIN],
                "responses": {"200": _ok("closed"), **_errors(403, 404, 429)},
            },
        },
        "/api/rooms/{code}/replay/step": {
            "post": {
                "summary": "Show another step of the replay (0: before the first action)",
                "parameters": [code, TABLE_PIN],
                "requestBody": body(
                    {
                        "type": "object",
                        "required": ["step"],
                        "properties": {"step": {"type": "integer"}},
                    }
                ),
                "responses": {"200": _ok("shown"), **_errors(400, 403, 404, 409, 429)},
            }
        },
    }
