"""The JSON API: everything the table screen and the phones do goes through here, so a
bot or another client can do the same (see docs/api.md and /api/openapi.json).

A seat's requests carry its token in the ``X-Seat-Token`` header (the event stream,
which browsers open without custom headers, takes it as ``?token=``). What only the
table may do carries the table's PIN in ``X-Table-Pin`` (see web/security.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from engine.core.errors import IllegalAction
from engine.games import DEFAULT_GAME, game_module, game_modules
from web.errors import ApiError
from web.game_log import PAGE_MAX
from web.hub import Hub
from web.i18n import LANGUAGES
from web.local_peer import is_own_user
from web.openapi import openapi_document
from web.room import Room
from web.security import PIN_HEADER, SCREEN_KEY_HEADER, is_own_screen, screen_key_matches
from web.stand_seats import SeatRequest, refusal

api = Blueprint("api", __name__)

TOKEN_HEADER = "X-Seat-Token"
IDEMPOTENCY_HEADER = "Idempotency-Key"
SEAT_ID_MAX = 16
LOG_PAGE = 50  # steps a log request gets unless it asks for another number


def hub() -> Hub:
    found: Hub = current_app.extensions["clacks_hub"]
    return found


def room(code: str) -> Room:
    return hub().room(code)


JSON_DEPTH_MAX = 32  # far beyond any request's own shape; deeper is rubbish


def request_json(error: str, what: str) -> Any:
    """The request's body as JSON (None if it is not JSON); a clear 400 (``error``,
    naming ``what``) for JSON nested deeper than any request needs, before anything
    recurses through it."""
    too_deep = ApiError(400, error, f"{what} is nested too deeply", depth_max=JSON_DEPTH_MAX)
    try:
        data = request.get_json(silent=True, force=True)
    except RecursionError:
        raise too_deep from None
    if _depth(data) > JSON_DEPTH_MAX:
        raise too_deep
    return data


def _depth(data: Any) -> int:
    deepest, todo = 0, [(data, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if level <= JSON_DEPTH_MAX:
                todo.extend(
                    (v, level + 1) for v in (item.values() if isinstance(item, dict) else item)
                )
    return deepest


def body() -> dict[str, Any]:
    """The request's JSON object; a clear 400 for anything else."""
    data = request_json("bad_json", "The request body") if request.content_length else {}
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "The request body must be a JSON object")
    return data


TOKEN_MAX = 128


def token() -> str | None:
    return checked_token(request.headers.get(TOKEN_HEADER))


def checked_token(given: str | None) -> str | None:
    """A seat token as sent (None if absent); a clear 400 for one no seat could have."""
    if given is not None and len(given) > TOKEN_MAX:
        raise ApiError(400, "bad_field", "The seat token is too long", field="token")
    return given or None


def from_own_screen() -> bool:
    """Whether this request comes from the companion's own screen: a browser on this
    machine, addressed by a loopback name, of the companion's own user or the user at
    the machine's display (web/local_peer.py), not any other program or user on it."""
    return is_own_screen(request.remote_addr, request.host) and is_own_user(
        request.remote_addr, request.environ.get("REMOTE_PORT")
    )


def require_table(found: Room, *others: Room, at_stand: bool = False) -> None:
    """Refuse unless the request carries ``found``'s table PIN (or one of ``others``'), or
    comes from the companion's own screen with its screen key. While the companion runs
    a convention stand the table's controls are refused to everyone, unless ``at_stand``
    (a tower button of the board's own, which plays in the game like a phone)."""
    if hub().stand is not None and not at_stand:
        raise ApiError(
            403,
            "stand_mode",
            "This companion runs a convention stand, whose settings cannot be changed here: "
            "choose a game on your phone from the stand's own choices",
        )
    own_screen = from_own_screen()
    if own_screen and screen_key_matches(hub().screen_key, request.headers.get(SCREEN_KEY_HEADER)):
        return
    hub().pins.check(
        (found.pin, *(other.pin for other in others)),
        request.headers.get(PIN_HEADER),
        request.remote_addr,
        own_screen,
    )


def table_room(code: str) -> Room:
    """The room ``code`` for a request only its table may make (``require_table``)."""
    found = room(code)
    require_table(found)
    return found


def stand_seat_rule(found: Room, asked: SeatRequest, seat: str) -> None:
    """At a convention stand, refuse a seat request the stand's one rule refuses
    (web/stand_seats.py); anywhere else, and for what it allows, do nothing."""
    if hub().stand is None:
        return
    with found.lock:
        lesson_bots = found.session.tutorial_bots() if found.session is not None else {}
    refused = refusal(asked, seat, lesson_bots)
    if refused is not None:
        raise refused


def idempotency_key() -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is not None and not 1 <= len(key) <= 64:
        raise ApiError(400, "bad_field", "Idempotency-Key must be 1 to 64 characters")
    return key


def optional_int(data: dict[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, "bad_field", f"{name} must be a whole number", field=name)
    return value


def query_int(name: str, low: int, high: int) -> int | None:
    """A whole-number query parameter between ``low`` and ``high`` (None if absent)."""
    text = request.args.get(name)
    if text is None or text == "":
        return None
    if not text.isdigit() or len(text) > 12 or not low <= int(text) <= high:
        raise ApiError(
            400,
            "bad_field",
            f"{name} must be a whole number from {low} to {high}",
            field=name,
            low=low,
            high=high,
        )
    return int(text)


def seat_id(seat: str) -> str:
    if len(seat) > SEAT_ID_MAX:
        raise ApiError(404, "unknown_seat", "No such seat")
    return seat


def json_text(text: str, status: int = 200) -> Response:
    return Response(text, status=status, mimetype="application/json")


# --------------------------------------------------------------------- games


@api.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())


@cache
def bot_levels_of(name: str) -> tuple[str, ...]:
    """The bot levels a game's sessions offer (one session of the game, asked once)."""
    try:
        return tuple(game_module(name).new({}, 0).bot_levels())
    except Exception:  # a game that cannot start with its defaults offers no bots here
        return ()


@api.get("/games")
def games() -> Response:
    return jsonify(
        {
            "games": [
                {
                    "name": m.name,
                    "title": m.title,
                    "options": m.options_schema(),
                    "bot_levels": list(bot_levels_of(m.name)),
                    # how its guided first game starts, where it has one
                    "tutorial": m.tutorial_start(),
                    # the lesson of each mode that has one, by the mode's id
                    "tutorials": m.tutorial_starts(),
                }
                for m in game_modules().values()
            ],
            "languages": list(LANGUAGES),
        }
    )


@api.get("/games/<name>/reference")
def reference(name: str) -> Response:
    try:
        module = game_module(name)
    except KeyError:
        raise ApiError(404, "unknown_game", f"unknown game {name!r}", game=name) from None
    return jsonify(module.reference())


# --------------------------------------------------------------------- rooms


@api.post("/rooms")
def create_room() -> tuple[Response, int]:
    """Another table; only the main table (its PIN) may open one."""
    require_table(hub().main)
    created = hub().create_room()
    return jsonify({"code": created.code, "pin": created.pin}), 201


@api.delete("/rooms/<code>")
def close_room(code: str) -> Response:
    """Close a table other than the main one, with its own PIN or the main table's; its
    game stays with the saved games."""
    found = room(code)
    require_table(found, hub().main)
    hub().close_room(found.code)
    return jsonify({"closed": found.code})


@api.get("/rooms/<code>")
def room_state(code: str) -> Response:
    """What the asker may see now: a seat's view with its token, else the table's."""
    found = room(code)
    seat = request.args.get("seat") or None
    visible = found.seats.seat_for_token(seat_id(seat) if seat else None, token())
    return json_text(found.fanout.snapshot(visible, None))


@api.get("/rooms/<code>/log")
def game_log(code: str) -> Response:
    """The log's steps before step ``before`` (default: up to the last), at most
    ``limit`` of them, oldest first: the game's as its saves tell it, or the replay's up
    to the step shown. With a seat and its token, that seat's own private details too."""
    found = room(code)
    seat = request.args.get("seat") or None
    visible = found.seats.seat_for_token(seat_id(seat) if seat else None, token())
    before = query_int("before", 0, 2**31)
    limit = query_int("limit", 1, PAGE_MAX)
    return jsonify(found.log_page(visible, before, LOG_PAGE if limit is None else limit))


@api.post("/rooms/<code>/game")
def new_game(code: str) -> tuple[Response, int]:
    found = table_room(code)
    data = body()
    game = data.get("game", DEFAULT_GAME)
    options = data.get("options", {})
    names = data.get("names")
    language = data.get("language")
    if not isinstance(game, str):
        raise ApiError(400, "bad_field", "game must be a game's name", field="game")
    if not isinstance(options, dict):
        raise ApiError(400, "bad_field", "options must be a JSON object", field="options")
    if names is not None and (
        not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values())
    ):
        raise ApiError(400, "bad_field", "names must map seats to names", field="names")
    if language is not None and language not in LANGUAGES:
        raise ApiError(
            400, "bad_field", f"language must be one of {', '.join(LANGUAGES)}", field="language"
        )
    seed = optional_int(data, "seed")
    if seed is not None and not 0 <= seed < 2**63:
        raise ApiError(400, "bad_field", "seed must be between 0 and 2**63", field="seed")
    bots = data.get("bots")
    if bots is not None and (
        not isinstance(bots, dict)
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in bots.items())
    ):
        raise ApiError(400, "bad_field", "bots must map seats to bot levels", field="bots")
    free = data.get("free")
    if free is not None and (
        not isinstance(free, list)
        or not all(isinstance(seat, str) and len(seat) <= SEAT_ID_MAX for seat in free)
    ):
        raise ApiError(400, "bad_field", "free must list the seats to let go", field="free")
    result = found.new_game(game, options, seed, names, language, bots, free)
    return jsonify(result), 201


# --------------------------------------------------------------------- seats


@api.post("/rooms/<code>/seats/<seat>")
def claim_seat(code: str, seat: str) -> Response:
    """Take a free seat (or rename your own), or with ``ticket`` take over a seat moved
    from another device."""
    data = body()
    name = data.get("name")
    ticket = data.get("ticket")
    if name is not None and not isinstance(name, str):
        raise ApiError(400, "bad_field", "name must be text", field="name")
    found = room(code)
    if ticket is not None:
        if not isinstance(ticket, str) or not ticket:
            raise ApiError(400, "bad_field", "ticket must be a move ticket", field="ticket")
        stand_seat_rule(found, SeatRequest.MOVE, seat_id(seat))
        return jsonify(found.seats.take_over(seat_id(seat), ticket))
    stand_seat_rule(found, SeatRequest.TAKE, seat_id(seat))
    return jsonify(found.seats.claim(seat_id(seat), name, token()))


@api.post("/rooms/<code>/seats/<seat>/move")
def move_seat(code: str, seat: str) -> Response:
    """A one-time ticket (this seat's token) that moves the seat to another device."""
    found = room(code)
    stand_seat_rule(found, SeatRequest.MOVE, seat_id(seat))
    return jsonify(found.seats.move_ticket(seat_id(seat), token()))


@api.delete("/rooms/<code>/seats/<seat>")
def release_seat(code: str, seat: str) -> Response:
    """A phone gives up its seat (its token), or the table frees it (the table PIN)."""
    found = room(code)
    # without a seat's token it is the table freeing the seat (refused at a stand)
    if token() is None and (request.headers.get(PIN_HEADER) is not None or hub().stand):
        stand_seat_rule(found, SeatRequest.FREE, seat_id(seat))
        require_table(found)
        found.seats.free_seat(seat_id(seat))
    else:
        stand_seat_rule(found, SeatRequest.LEAVE, seat_id(seat))
        found.seats.release(seat_id(seat), token())
    return jsonify({"released": seat})


@api.post("/rooms/<code>/seats/<seat>/actions")
def act(code: str, seat: str) -> Response:
    data = body()
    if "action" not in data:
        raise ApiError(400, "bad_field", "give the action to take as action", field="action")
    key = idempotency_key()
    result = room(code).act(
        seat_id(seat), token(), data["action"], optional_int(data, "revision"), key
    )
    return jsonify(result)


@api.post("/rooms/<code>/seats/<seat>/after-lesson")
def after_lesson(code: str, seat: str) -> tuple[Response, int]:
    """The learner who finished a guided first game starts the real game it leads to."""
    return jsonify(room(code).after_lesson(seat_id(seat), token())), 201


@api.post("/rooms/<code>/seats/<seat>/undo")
def undo(code: str, seat: str) -> Response:
    data = body()
    key = idempotency_key()
    return jsonify(room(code).undo(seat_id(seat), token(), optional_int(data, "revision"), key))


@api.post("/rooms/<code>/seats/<seat>/preview")
def preview(code: str, seat: str) -> Response:
    data = body()
    action = data.get("action")
    if action is None:
        room(code).previews.clear(seat_id(seat), token())
        return jsonify({"frame": None})
    return jsonify(room(code).previews.show(seat_id(seat), token(), action))


@api.post("/rooms/<code>/seats/<seat>/hint")
def hint(code: str, seat: str) -> Response:
    """A hint for this seat (its token), when the table allows hints; its lamps are
    previewed on every screen and the board."""
    return jsonify(room(code).previews.hint(seat_id(seat), token()))


@api.get("/rooms/<code>/seats/<seat>/legal")
def legal(code: str, seat: str) -> Response:
    found = room(code)
    with found.lock:
        found.seats.authorize(seat_id(seat), token())
        session = found.require_session()
        try:
            actions = session.legal_actions(seat, found.clock())
        except IllegalAction as exc:
            raise ApiError.from_illegal(exc) from None
        return jsonify({"revision": found.revision, "actions": actions})


@api.post("/rooms/<code>/seats/<seat>/check")
def check(code: str, seat: str) -> Response:
    """Whether the seat may take ``action`` now and, if not, the rules' reason: the
    error the actions endpoint would answer. Nothing changes. A phone asks it when a
    greyed-out control is tapped or focused, to say why it is out of reach."""
    data = body()
    if "action" not in data:
        raise ApiError(400, "bad_field", "give the action to check as action", field="action")
    found = room(code)
    with found.lock:
        found.seats.authorize(seat_id(seat), token())
        session = found.require_session()
        try:
            refused = session.refusal(seat, data["action"], found.clock())
        except (TypeError, ValueError) as exc:
            raise ApiError(
                400, "bad_field", f"action cannot be read: {exc}", field="action"
            ) from None
        return jsonify(
            {
                "revision": found.revision,
                "allowed": refused is None,
                "error": None if refused is None else ApiError.from_illegal(refused).to_json(),
            }
        )


@api.get("/rooms/<code>/board")
def board(code: str) -> Response:
    """The exchange board's LED colours now, for the table screen's simulated board."""
    return jsonify(room(code).presses.board_json())


@api.post("/rooms/<code>/buttons/<button>")
def press(code: str, button: str) -> Response:
    found = room(code)
    require_table(found, at_stand=True)
    if len(button) > SEAT_ID_MAX:
        raise ApiError(404, "unknown_button", "No such button")
    return jsonify(found.presses.press(button))
