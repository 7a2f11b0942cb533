"""The OpenAPI 3.1 document of the JSON API, served at /api/openapi.json.

Kept beside the routes it describes; a test checks that every route the app serves under
/api is documented here and every documented path exists.
"""

from __future__ import annotations

from functools import cache

from engine.games import DEFAULT_GAME, game_modules
from web.openapi_parts import (
    JSON,
    answer,
    body,
    error,
    errors,
    parameter,
    ref,
    schema_object,
)
from web.openapi_stand import stand_paths
from web.openapi_tables import TABLE_PIN, table_paths

ERROR_TEXTS = {
    400: "the request could not be read (malformed JSON, wrong types, unknown action), "
    "or it was addressed to a name that is not this companion's (`unknown_host`)",
    403: "the seat token or table PIN is missing or wrong, the request came from "
    "another web site, or it needs the table PIN at a convention stand (`stand_mode`)",
    404: "no such table, seat, game or button",
    409: "no game yet, the seat is taken, or the game changed since (stale revision)",
    413: "the request body is too large",
    422: "the rules refuse the action; `rule`, `message` and `params` say why",
    429: "too many tables, too many wrong table PINs (from this device: `pin_locked`; "
    "from all: `table_locked`), or this device has too many streams open",
    503: "too many open event streams, or the change could not be saved; retry shortly",
}


def _body(properties: JSON, *required: str, needed: bool = True) -> JSON:
    """A JSON object request body with these properties."""
    return body(schema_object(properties, *required), needed)


def _errors(*codes: int) -> JSON:
    return errors(ERROR_TEXTS, *codes)


def _error(code: int, description: str) -> JSON:
    return {str(code): error(description)}


CODE = parameter(
    "code",
    "path",
    {"type": "string", "minLength": 1, "maxLength": 16},
    "the table's room code, e.g. KXMR",
)
SEAT = parameter(
    "seat",
    "path",
    {"type": "string", "minLength": 1, "maxLength": 16},
    "a seat id from the room's `seats`, e.g. south",
)
TOKEN = parameter(
    "X-Seat-Token",
    "header",
    {"type": "string", "maxLength": 128},
    "the token returned when the seat was claimed",
)
IDEMPOTENCY_KEY = parameter(
    "Idempotency-Key", "header", {"type": "string", "minLength": 1, "maxLength": 64}
)
REVISION_BODY: JSON = schema_object({"revision": {"type": ["integer", "null"]}})


def _per_game(part: str, wrapper: str) -> str:
    """Each registered game's note on ``part`` of the API (``GameModule.api_notes``),
    "Title: note" one after another, in ``wrapper``; nothing where no game has one."""
    notes = [
        f"{module.title}: {module.api_notes()[part]}"
        for module in game_modules().values()
        if part in module.api_notes()
    ]
    return wrapper.format(". ".join(notes)) if notes else ""


@cache
def openapi_document() -> JSON:
    schemas: JSON = {
        "Error": schema_object(
            {
                "error": {"type": "string", "description": "stable code, e.g. bad_token"},
                "rule": {"type": "string", "description": "the game rule that refused it"},
                "message": {"type": "string", "description": "in English words"},
                "params": {"type": "object", "description": "values named in the message"},
            },
            "error",
            "message",
            "params",
        ),
        "Frame": {
            "type": "object",
            "description": "lamp indices (bit row*4+col) lit, previewed and accented",
            "properties": {
                "lit": {"type": "array", "items": {"type": "integer"}},
                "preview": {"type": "array", "items": {"type": "integer"}},
                "accent": {"type": "array", "items": {"type": "integer"}},
            },
        },
        "Snapshot": {
            "type": "object",
            "description": (
                "What the asker may see: `view` is the game's own per-seat view "
                "(a hand only for the seat that holds it), `room` the table's seats and "
                "who is connected, `events` the public events announced since the "
                "previous stream message (none in a fresh page's first), `log_steps` the "
                "game log's steps the page lacks (see Step and /api/rooms/{code}/log)."
            ),
            "required": ["seq", "revision", "server_time", "room", "seat", "events", "view"],
            "properties": {
                "seq": {"type": "integer"},
                "revision": {"type": "integer"},
                "server_time": {"type": "number"},
                "room": {
                    "type": "object",
                    "description": "the table: `seats` (each with `name`, `claimed`, "
                    "`connected`, and `bot`: the level of the bot playing it, or null), "
                    "`bot_levels` (the game's), `hints` (the table's setting), `spectators`, "
                    "`hardware`, and `saving`: null while the saves take every change, else "
                    "`failing_since` (time) and `error` while they refuse (the disk full); "
                    "what the table does by itself is retried until they take it again; "
                    "`saves_set_aside`: what was set aside as the companion started, each with "
                    "`kind` (`game_set_aside`: a damaged game, with `game`, `table` and "
                    "`moves`, the actions it should have; `game_missing`: a table's game "
                    "the saves lacked; `file_set_aside`: an unreadable file, with `file`); "
                    "`stand`: at a convention stand its choices, as GET .../stand answers, "
                    "else null",
                },
                "seat": {"type": ["string", "null"]},
                "events": {"type": "array", "items": {"type": "object"}},
                "fresh": {"type": "boolean"},
                "log_steps": {
                    "type": "array",
                    "items": ref("Step"),
                    "description": "steps of the game's log, oldest first: the new ones "
                    "since the previous stream message, or with `log_reset` the latest "
                    "ones (60, or for a seat every step since its own last action, up to "
                    "200); older ones from /api/rooms/{code}/log",
                },
                "log_last": {
                    "type": ["integer", "null"],
                    "description": "the last step now (null: no game); a page drops any "
                    "step it holds beyond it (an action taken back)",
                },
                "log_reset": {
                    "type": "boolean",
                    "description": "true: drop the steps held and take `log_steps` as the "
                    "latest (a fresh page, a new game, the replay viewer)",
                },
                "view": {"type": ["object", "null"]},
                "active": {"type": "array", "items": {"type": "string"}},
                "over": {"type": "boolean"},
                "result": {"type": ["object", "null"]},
                "deadline": {"type": ["number", "null"]},
                "lamps": ref("Frame"),
                "preview": {
                    "type": ["object", "null"],
                    "description": "lamps a seat is about to flip: `seat`, `lit`, `preview`, "
                    "`accent`, and `hint` (true: the seat's hint, `accent` its tower)",
                },
                "notice": {"type": ["object", "null"]},
                "can_undo": {"type": "boolean"},
                "replay": {
                    "type": ["object", "null"],
                    "description": "the replay viewer, when the table shows a finished game: "
                    "save, game, step, steps, names, view (the table's view at that step), "
                    "lamps, active, events (the public events of the step's action), over, "
                    "result",
                },
            },
        },
        "Step": {
            "type": "object",
            "description": (
                "One step of the game's log, derived from its saved actions: step 0 is the "
                "game set up, step n the n-th action. The same after any restart."
            ),
            "required": ["step", "seat", "events"],
            "properties": {
                "step": {"type": "integer", "minimum": 0},
                "seat": {
                    "type": ["string", "null"],
                    "description": "the seat that took the action (null: the table itself, "
                    "such as its clock)",
                },
                "events": {
                    "type": "array",
                    "items": {"type": "object"},
                    "description": "the public events the action raised; for the seat "
                    "asking, with its own private details filled in (the Jacquards it "
                    'drew), such an event marked `"own": true`',
                },
            },
        },
        "Change": schema_object(
            {
                "revision": {"type": "integer"},
                "events": {"type": "array", "items": {"type": "object"}},
            },
            "revision",
        ),
    }
    paths: JSON = {
        "/api/games": {
            "get": {
                "summary": "The games this companion plays, with their lobby options",
                "description": "Each game's `tutorial`, where it has a guided first game, "
                "is the `game` and `options` that start it (POST .../game); `tutorials` "
                "holds the lesson of each mode that has one, by the mode's id (a mode "
                "missing from it has no lesson).",
                "responses": {"200": answer({"type": "object"}, "games and languages")},
            }
        },
        "/api/games/{name}/reference": {
            "get": {
                "summary": "Fixed facts for drawing a game: geometry, symbols",
                "parameters": [parameter("name", "path", {"type": "string"})],
                "responses": {
                    "200": answer({"type": "object"}, "the game's reference"),
                    **_errors(404),
                },
            }
        },
        "/api/rooms": {
            "post": {
                "summary": "Open another table (with the main table's PIN)",
                "parameters": [TABLE_PIN],
                "responses": {
                    "201": answer(
                        schema_object({"code": {"type": "string"}, "pin": {"type": "string"}}),
                        "its code and PIN",
                    ),
                    **_errors(403, 429, 503),
                },
            }
        },
        "/api/rooms/{code}": {
            "delete": {
                "summary": "Close a table other than the main one (its PIN or the main table's)",
                "description": "Its game stays with the saved games; its pages and bots stop. "
                "A table no page has shown and nobody has played at for a while (clacks "
                "serve --table-idle, 2 hours) closes by itself.",
                "parameters": [CODE, TABLE_PIN],
                "responses": {
                    "200": answer(
                        schema_object({"closed": {"type": "string"}}),
                        "closed",
                    ),
                    **_error(409, "the main table cannot be closed (`main_table`)"),
                    **_errors(403, 404, 429, 503),
                },
            },
            "get": {
                "summary": "What the asker may see now (a seat's view with ?seat= and its token)",
                "parameters": [
                    CODE,
                    parameter("seat", "query", {"type": "string"}),
                    TOKEN,
                ],
                "responses": {"200": answer(ref("Snapshot"), "the snapshot"), **_errors(403, 404)},
            },
        },
        "/api/rooms/{code}/log": {
            "get": {
                "summary": "Steps of the game's log, oldest first, for paging back",
                "description": (
                    "The log the table shows: the game's, derived from its saved actions "
                    "(complete after any restart), or while the replay viewer is on the "
                    "replay's up to the step shown. With ?seat= and its token, that seat's "
                    "own private details are filled in; nobody else's ever are."
                ),
                "parameters": [
                    CODE,
                    parameter(
                        "before",
                        "query",
                        {"type": "integer", "minimum": 0},
                        "only steps before this one (default: up to the last)",
                    ),
                    parameter(
                        "limit",
                        "query",
                        {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
                        "at most this many steps, the latest of those asked for",
                    ),
                    parameter("seat", "query", {"type": "string"}),
                    TOKEN,
                ],
                "responses": {
                    "200": answer(
                        schema_object(
                            {
                                "steps": {"type": "array", "items": ref("Step")},
                                "last": {
                                    "type": ["integer", "null"],
                                    "description": "the last step (null: no game)",
                                },
                                "game_number": {"type": "integer"},
                                "replay": {
                                    "type": "boolean",
                                    "description": "the replay viewer's log",
                                },
                                "limit_max": {"type": "integer"},
                            },
                            "steps",
                            "last",
                        ),
                        "the steps",
                    ),
                    **_errors(400, 403, 404, 409),
                },
            }
        },
        "/api/rooms/{code}/game": {
            "post": {
                "summary": "Start a new game on this table (the table PIN)",
                "parameters": [CODE, TABLE_PIN],
                "requestBody": _body(
                    {
                        "game": {"type": "string", "default": DEFAULT_GAME},
                        "options": {
                            "type": "object",
                            "description": "the game's options, see /api/games"
                            + _per_game("options", " ({})"),
                        },
                        "seed": {"type": ["integer", "null"], "minimum": 0},
                        "names": {
                            "type": ["object", "null"],
                            "additionalProperties": {"type": "string"},
                        },
                        "language": {
                            "type": ["string", "null"],
                            "enum": ["en", "cs", None],
                        },
                        "bots": {
                            "type": ["object", "null"],
                            "description": "seats bots play in the new game, "
                            'with their level (e.g. {"north": "planner"}; '
                            "the levels are the game's `bot_levels` in "
                            "/api/games); without it, the table's bots keep the "
                            "seats the new game also has",
                            "additionalProperties": {"type": "string"},
                        },
                        "free": {
                            "type": ["array", "null"],
                            "description": "seats whose people the new game lets go (for "
                            "someone else, or for the bot `bots` names)",
                            "items": {"type": "string"},
                        },
                    }
                ),
                "responses": {
                    "201": answer(
                        schema_object({"revision": {"type": "integer"}}),
                        "started",
                    ),
                    **_errors(400, 403, 404, 413, 429, 503),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}": {
            "post": {
                "summary": "Claim a free seat (or, with its token, rename it; or with a move "
                "ticket, take it over from another device); returns its token",
                "parameters": [CODE, SEAT, TOKEN],
                "requestBody": _body(
                    {
                        "name": {"type": "string", "maxLength": 100},
                        "ticket": {
                            "type": "string",
                            "description": "a move ticket from POST .../move: the seat's "
                            "token changes, and the old one holds nothing",
                        },
                    },
                    needed=False,
                ),
                "responses": {
                    "200": answer(
                        schema_object(
                            {
                                "seat": {"type": "string"},
                                "token": {"type": "string"},
                                "name": {"type": "string"},
                            },
                            "seat",
                            "token",
                            "name",
                        ),
                        "the seat is yours",
                    ),
                    **_error(
                        403, "a move ticket that was used, expired or replaced (`bad_ticket`)"
                    ),
                    **_errors(400, 404, 409, 503),
                },
            },
            "delete": {
                "summary": "Give up your seat (its token), or free it as the table (the PIN), "
                "from a person or a bot",
                "parameters": [CODE, SEAT, TOKEN, TABLE_PIN],
                "responses": {
                    "200": answer({"type": "object"}, "released"),
                    **_errors(403, 404, 409),
                },
            },
        },
        "/api/rooms/{code}/seats/{seat}/move": {
            "post": {
                "summary": "A one-time ticket (this seat's token) that moves the seat to "
                "another device",
                "description": "The device that claims the seat with the ticket gets a new "
                "token, and this one stops holding the seat. A ticket works once, for "
                "`expires_in` seconds, and a newer one voids it.",
                "parameters": [CODE, SEAT, TOKEN],
                "responses": {
                    "200": answer(
                        schema_object({
                            "seat": {"type": "string"},
                            "ticket": {"type": "string"},
                            "expires_in": {"type": "number"},
                        }),
                        "the ticket",
                    ),
                    **_errors(403, 404, 409),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/actions": {
            "post": {
                "summary": "Take an action as this seat",
                "description": (
                    "The action is the game's JSON action"
                    + _per_game("actions", " ({})")
                    + ". With `revision`, an action made against an older state is refused with "
                    "409; with an Idempotency-Key header, repeating a request returns the "
                    "first answer instead of acting twice."
                ),
                "parameters": [CODE, SEAT, TOKEN, IDEMPOTENCY_KEY],
                "requestBody": _body(
                    {
                        "action": {"type": "object"},
                        "revision": {"type": ["integer", "null"]},
                    },
                    "action",
                ),
                "responses": {
                    "200": answer(ref("Change"), "applied"),
                    **_errors(400, 403, 404, 409, 413, 422),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/after-lesson": {
            "post": {
                "summary": "The learner who finished a guided first game starts the real game "
                "it leads to, keeping their seat (no table PIN)",
                "description": "Only while the table's game is a finished lesson "
                "(`view.tutorial.finished`), and only for its learner's seat; the game, its "
                "options and bots are the lesson's `next_game`.",
                "parameters": [CODE, SEAT, TOKEN],
                "responses": {
                    "201": answer(
                        {"type": "object", "properties": {"revision": {"type": "integer"}}},
                        "started",
                    ),
                    **_errors(403, 404, 409, 503),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/undo": {
            "post": {
                "summary": "Take back your last action, as the game's rules allow",
                "parameters": [CODE, SEAT, TOKEN, IDEMPOTENCY_KEY],
                "requestBody": {"content": {"application/json": {"schema": REVISION_BODY}}},
                "responses": {
                    "200": answer(ref("Change"), "undone"),
                    **_errors(400, 403, 404, 409, 422),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/preview": {
            "post": {
                "summary": "Show the lamps an action would flip on every screen and the board",
                "description": "`action: null` clears your preview. `frame` is null when "
                "the action would not be legal now.",
                "parameters": [CODE, SEAT, TOKEN],
                "requestBody": _body({"action": {"type": ["object", "null"]}}),
                "responses": {
                    "200": answer(
                        schema_object({"frame": {"oneOf": [ref("Frame"), {"type": "null"}]}}),
                        "the previewed frame",
                    ),
                    **_errors(400, 403, 404, 409),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/bot": {
            "post": {
                "summary": "Give a seat to a bot of a level (the table PIN)",
                "description": "A free seat, or a bot's (its level changes). The bot plays "
                "the seat's turns through the same path as people, a moment after each change. "
                "`DELETE /api/rooms/{code}/seats/{seat}` with the PIN takes the seat back.",
                "parameters": [CODE, SEAT, TABLE_PIN],
                "requestBody": _body(
                    {
                        "level": {
                            "type": "string",
                            "description": "one of the room's `bot_levels`, "
                            "e.g. random, greedy, planner",
                        }
                    },
                    "level",
                ),
                "responses": {
                    "200": answer(
                        schema_object({"seat": {"type": "string"}, "bot": {"type": "string"}}),
                        "the bot plays the seat",
                    ),
                    **_errors(400, 403, 404, 413, 429, 503),
                    **_error(409, "no game yet, the game has no bots, or a person holds the seat"),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/hint": {
            "post": {
                "summary": "A hint for this seat's turn (its token), when the table allows hints",
                "description": "The game's plan for the seat, from its own view only; its "
                "lamps are previewed on every screen and the LED board (the snapshot's "
                "`preview` with `hint: true`)"
                + _per_game("hint", ". {}")
                + ". `actions` are in the form the actions endpoint takes.",
                "parameters": [CODE, SEAT, TOKEN],
                "responses": {
                    "200": answer(
                        schema_object(
                            {
                                "revision": {"type": "integer"},
                                "hint": schema_object(
                                    {"actions": {"type": "array", "items": {"type": "object"}}},
                                    "actions",
                                ),
                                "frame": {"oneOf": [ref("Frame"), {"type": "null"}]},
                            },
                            "revision",
                            "hint",
                        ),
                        "the hint",
                    ),
                    **_errors(400, 403, 404),
                    **_error(
                        409,
                        "no game yet, hints are off at this table (`hints_off`), the game's "
                        "rules allow none (`hints_forbidden`: Long Distance), or there is no "
                        "hint now (`no_hint`, with `reason`: `not_your_turn` or `nothing_to_do`)",
                    ),
                },
            }
        },
        "/api/rooms/{code}/settings": {
            "post": {
                "summary": "The table's settings (the table PIN): whether phones may ask for hints",
                "parameters": [CODE, TABLE_PIN],
                "requestBody": _body({"hints": {"type": "boolean"}}, "hints"),
                "responses": {
                    "200": answer(
                        schema_object({"hints": {"type": "boolean"}}),
                        "the settings now",
                    ),
                    **_errors(400, 403, 404, 413, 429, 503),
                },
            }
        },
        "/api/rooms/{code}/language": {
            "post": {
                "summary": "The table's language (the table PIN): the phones whose players "
                "picked none follow it",
                "parameters": [CODE, TABLE_PIN],
                "requestBody": _body(
                    {"language": {"type": "string", "enum": ["en", "cs"]}}, "language"
                ),
                "responses": {
                    "200": answer(
                        schema_object({"language": {"type": "string"}}),
                        "the table's language now",
                    ),
                    **_errors(400, 403, 404, 413, 429, 503),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/legal": {
            "get": {
                "summary": "Every action this seat may take now",
                "parameters": [CODE, SEAT, TOKEN],
                "responses": {
                    "200": answer(
                        schema_object({
                            "revision": {"type": "integer"},
                            "actions": {"type": "array", "items": {"type": "object"}},
                        }),
                        "legal actions",
                    ),
                    **_errors(403, 404, 409),
                },
            }
        },
        "/api/rooms/{code}/seats/{seat}/check": {
            "post": {
                "summary": "Whether this seat may take an action now, and if not why",
                "description": "Nothing changes. `error` is what the actions endpoint "
                "would answer (its `rule`, `message` and `params`); the phones ask it when "
                "a greyed-out control is tapped or focused.",
                "parameters": [CODE, SEAT, TOKEN],
                "requestBody": _body({"action": {"type": "object"}}, "action"),
                "responses": {
                    "200": answer(
                        schema_object(
                            {
                                "revision": {"type": "integer"},
                                "allowed": {"type": "boolean"},
                                "error": {"oneOf": [ref("Error"), {"type": "null"}]},
                            },
                            "revision",
                            "allowed",
                            "error",
                        ),
                        "allowed, or the rules' reason",
                    ),
                    **_errors(400, 403, 404, 409),
                },
            }
        },
        "/api/rooms/{code}/buttons/{button}": {
            "post": {
                "summary": "Press a button of the exchange (the table screen's simulated "
                "buttons; the table PIN)",
                "parameters": [
                    CODE,
                    TABLE_PIN,
                    parameter("button", "path", {"type": "string", "maxLength": 16}),
                ],
                "responses": {
                    "200": answer(ref("Change"), "what the press did"),
                    **_errors(403, 404, 409, 422, 429),
                },
            }
        },
        "/api/rooms/{code}/board": {
            "get": {
                "summary": "The exchange board's LEDs now (for drawing a simulated board)",
                "parameters": [CODE],
                "responses": {
                    "200": answer(
                        schema_object({
                            "pixels": {
                                "type": "array",
                                "description": "the 16 LEDs' drive values, lamp order "
                                "a1..d4 (bit row*4+col), as [r, g, b]",
                                "items": {"type": "array", "items": {"type": "integer"}},
                            },
                            "screen": {
                                "type": "array",
                                "description": "the same lamps as screen colours "
                                "(gamma undone)",
                                "items": {"type": "array", "items": {"type": "integer"}},
                            },
                            "leds": {
                                "type": "string",
                                "description": "the LED backend: simulator, spi, pwm, pi5",
                            },
                        }),
                        "the lamps as lit, animations included",
                    ),
                    **_errors(404),
                },
            }
        },
        "/api/rooms/{code}/stream": {
            "get": {
                "summary": "Server-sent events: a `state` message with a Snapshot after every change",
                "parameters": [
                    CODE,
                    parameter("seat", "query", {"type": "string"}),
                    parameter("token", "query", {"type": "string", "maxLength": 128}),
                    parameter(
                        "board",
                        "query",
                        {"type": "string", "enum": ["1"]},
                        (
                            "1: also `board` events, the board's LEDs as lit "
                            "whenever a frame is written (as GET /api/rooms/{code}/board), at "
                            "most 20 a second"
                        ),
                    ),
                ],
                "responses": {
                    "200": {
                        "description": "an endless text/event-stream that begins with "
                        "`retry: 500`: `state` events, each with a Snapshot as JSON in its "
                        "data, and with ?board=1 `board` events",
                        "content": {
                            "text/event-stream": {
                                "schema": schema_object({
                                    "event": {
                                        "type": "string",
                                        "enum": ["state", "board"],
                                    },
                                    "data": {
                                        "type": "string",
                                        "contentMediaType": "application/json",
                                    },
                                })
                            }
                        },
                    },
                    **_error(
                        429,
                        "this device has as many streams of tables open as it may "
                        "(`too_many_streams`)",
                    ),
                    **_errors(400, 403, 404, 503),
                },
            }
        },
        "/api/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": answer({"type": "object"}, "OpenAPI 3.1")},
            }
        },
    }
    for path, operations in (*table_paths(CODE).items(), *stand_paths(CODE).items()):
        paths.setdefault(path, {}).update(operations)
    for operations in paths.values():
        for operation in operations.values():
            if TOKEN in operation.get("parameters", []):  # a token no seat could have
                operation["responses"].setdefault("400", _errors(400)["400"])
            if TABLE_PIN in operation.get("parameters", []):
                # a PIN can be missing or wrong, and wrong ones lock a device out a while
                for code in (403, 429):
                    operation["responses"].setdefault(str(code), _errors(code)[str(code)])
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Clacks Exchange companion API",
            "version": "1",
            "description": "Play a game on a Clacks Exchange table: join a seat, see your own "
            "hand, act, and follow the table through server-sent events. docs/api.md "
            "explains it with examples.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
