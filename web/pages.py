"""The HTML pages: the table screen (TV or laptop) and the phone hand controller.

Pages are thin: the server renders the frame and the catalog, the static scripts draw
everything else from the same JSON API and event stream any other client would use.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from engine.games import game_modules
from web.api import from_own_screen, hub, room
from web.errors import ApiError
from web.i18n import LANGUAGES, best_language, catalog_json, translate
from web.store import default_data_dir
from web.wifi import Wifi, WifiLookup, wifi_qr_data_uri

pages = Blueprint("pages", __name__)


def language() -> str:
    """The page's language: asked for in the address, chosen before on this device, the
    table's language, or else the browser's."""
    accept = [lang for lang, _ in request.accept_languages]
    requested = request.args.get("lang") or request.cookies.get("lang")
    code = (request.view_args or {}).get("code")
    if requested not in LANGUAGES and code:
        with contextlib.suppress(ApiError):
            requested = room(code).language
    return best_language(requested, accept)


def public_base() -> str:
    configured: str | None = current_app.config.get("CLACKS_PUBLIC_URL")
    return configured or request.host_url.rstrip("/")


def wifi() -> Wifi:
    lookup: WifiLookup | None = current_app.extensions.get("clacks_wifi")
    if lookup is None:
        state_dir = hub().store.directory or default_data_dir()
        lookup = current_app.extensions.setdefault("clacks_wifi", WifiLookup(state_dir))
    return lookup.now()


def join_url(code: str) -> str:
    """On the box's own hotspot the phones reach it at its address there, whatever
    other network it is on too."""
    base = public_base()
    address = wifi().address
    if address:
        port = urlsplit(base).port
        base = f"http://{address}" + (f":{port}" if port else "")
    return f"{base}/join/{code}"


STATIC = Path(__file__).parent / "static"


def game_scripts() -> list[str]:
    """The drawing module of every registered game that has one (static/games/NAME.js),
    each followed by its parts (static/games/NAME/*.js, e.g. one per mode)."""
    scripts: list[str] = []
    games = STATIC / "games"
    for name in sorted(game_modules()):
        if (games / f"{name}.js").exists():
            scripts.append(f"games/{name}.js")
            scripts += [f"games/{name}/{p.name}" for p in sorted((games / name).glob("*.js"))]
    return scripts


def render(template: str, **context: object) -> Response:
    lang = language()
    html = render_template(
        template,
        lang=lang,
        languages=LANGUAGES,
        catalog=catalog_json(lang),
        game_scripts=game_scripts(),
        t=lambda key, **params: translate(lang, key, **params),
        **context,
    )
    response = Response(html, mimetype="text/html")
    if request.args.get("lang") in LANGUAGES:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@pages.get("/")
def home() -> BaseResponse:
    # the address's language (?lang=) goes with it
    table = url_for("pages.table", code=hub().main.code)
    wanted = request.args.get("lang")
    return redirect(f"{table}?lang={wanted}" if wanted in LANGUAGES else table)


@pages.get("/table/<code>")
def table(code: str) -> Response:
    """The table screen. Opened on the companion's own machine it is handed the table
    PIN (and shows it); anywhere else the PIN must be typed to use the table's controls."""
    found = room(code)
    own_screen = from_own_screen()
    url = join_url(found.code)
    # the Wi-Fi password is for the people at the table: only the box's own screen,
    # which no phone or other machine can open, is given it (as with the table PIN)
    network = wifi().settings if own_screen else None
    response = render(
        "table.html",
        code=found.code,
        join_url=url,
        short_url=f"{urlsplit(url).netloc}/join",
        wifi_ssid=network.ssid if network else "",
        wifi_qr=wifi_qr_data_uri(network) if network else "",
        # at a convention stand the table's controls are locked, so its PIN is not shown
        pin=found.pin if own_screen and hub().stand is None else "",
        stand=hub().stand is not None,
        screen_key=hub().screen_key if own_screen else "",
        main=found is hub().main,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@pages.get("/join")
def join_form() -> BaseResponse:
    code = (request.args.get("code") or "").strip().upper()
    error = None
    if code:
        try:
            return redirect(url_for("pages.phone", code=room(code).code))
        except ApiError:
            error = code
    return render("join.html", error=error, code=code)


@pages.get("/join/<code>")
def phone(code: str) -> BaseResponse:
    try:
        found = room(code)
    except ApiError:
        return redirect(url_for("pages.join_form", code=code))
    return render("phone.html", code=found.code)


@pages.get("/qr/<code>.svg")
def qr(code: str) -> Response:
    found = room(code)
    buffer = io.BytesIO()
    segno.make(join_url(found.code), error="m").save(
        buffer, kind="svg", scale=1, border=2, dark="#000", light="#fff", omitsize=True
    )
    return Response(buffer.getvalue(), mimetype="image/svg+xml")


@pages.get("/i18n/<lang>.json")
def messages(lang: str) -> Response:
    if lang not in LANGUAGES:
        raise ApiError(404, "unknown_language", f"no catalog for {lang!r}")
    return Response(catalog_json(lang), mimetype="application/json")
