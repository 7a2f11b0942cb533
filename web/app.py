"""The Flask application factory.

Four blueprints: ``pages`` (HTML for the table screen and the phones), ``api`` (the
JSON API the pages use, documented by the OpenAPI document it serves), ``tables`` (what
only the table may do, with its PIN: saved games, the replay viewer) and ``stream``
(server-sent events pushing each page what it may see after every change).

Before a request is read at all, it must be addressed to one of the companion's own
names or addresses (web/hosts.py); before any request changes anything, one check
refuses requests a browser sent on another web site's behalf (web/security.py).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from web.errors import ApiError
from web.hosts import HostAllowList
from web.hub import Hub
from web.security import cross_site_refusal

MAX_REQUEST_BYTES = 16 * 1024  # the largest legal request (new game, custom words) is ~1 KB

# Every answer's. The pages load only the companion's own scripts, styles and images (the
# QR code is one; the icon is an empty data: URL) and talk only to it (fetch and the event
# stream); no inline script runs and no style attribute applies. No other site may frame
# a page: the table screen shows the PIN on the companion's own machine, and a page
# framed under someone else's could be clicked through unseen.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

log = logging.getLogger("clacks.web")


def create_app(
    hub: Hub | None = None,
    board: Any = None,
    public_url: str | None = None,
    stream_limit: int = 64,
    heartbeat_seconds: float = 15.0,
    allowed_hosts: Iterable[str] = (),
) -> Flask:
    """Build the app around ``hub`` (a fresh one if None). ``board`` is an optional
    ExchangeBoard attached to the main table; ``public_url`` is the address phones should
    open (the LAN address), defaulting to the address each request came to;
    ``stream_limit`` caps open event streams so they never take every server thread;
    ``allowed_hosts`` are names the companion answers to besides its own."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        JSON_SORT_KEYS=False,
        CLACKS_PUBLIC_URL=public_url.rstrip("/") if public_url else None,
        CLACKS_STREAM_LIMIT=stream_limit,
        CLACKS_HEARTBEAT=heartbeat_seconds,
        SEND_FILE_MAX_AGE_DEFAULT=0,
    )
    hub = hub or Hub()
    app.extensions["clacks_hub"] = hub
    if board is not None:
        hub.main.presses.attach(board)

    from web.api import api
    from web.connectivity import checks
    from web.pages import pages
    from web.stand_api import stand_routes
    from web.stream import StreamGate, stream
    from web.table_api import tables

    app.extensions["clacks_streams"] = StreamGate(stream_limit)

    app.register_blueprint(pages)
    app.register_blueprint(checks)
    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(tables, url_prefix="/api")
    app.register_blueprint(stream, url_prefix="/api")
    app.register_blueprint(stand_routes, url_prefix="/api")

    own_hosts = HostAllowList(allowed_hosts, public_url)

    @app.before_request
    def own_names_only() -> None:
        refusal = own_hosts.refusal(request.headers.get("Host"), request.path)
        if refusal is not None:
            raise refusal

    @app.before_request
    def same_site_only() -> None:
        refusal = cross_site_refusal(
            request.method,
            request.host,
            request.headers.get("Origin"),
            request.headers.get("Sec-Fetch-Site"),
        )
        if refusal is not None:
            raise refusal

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> tuple[Response, int]:
        response = jsonify(exc.to_json())
        if exc.status == 503:
            response.headers["Retry-After"] = "2"
        return response, exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if not request.path.startswith("/api/"):
            return exc
        code = (exc.name or "error").lower().replace(" ", "_")
        body = {"error": code, "message": exc.description or exc.name, "params": {}}
        response = jsonify(body)
        for name, value in exc.get_headers():  # e.g. Allow, with a 405
            if name.lower() != "content-type":
                response.headers[name] = value
        return response, exc.code or 500

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[Response, int]:
        log.exception("unexpected error on %s %s", request.method, request.path)
        body = {
            "error": "internal",
            "message": "The companion hit an unexpected error",
            "params": {},
        }
        return jsonify(body), 500

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        return response

    return app
