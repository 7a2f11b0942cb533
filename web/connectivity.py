"""The answers to the phones' connectivity checks (firmware/connectivity_checks.py): under
a check's own name, what tells the phone the network works; under any other name (the
companion's own), nothing."""

from __future__ import annotations

from flask import Blueprint, Response, abort, request

from firmware.connectivity_checks import CHECKS, answer
from web.hosts import host_name

checks = Blueprint("connectivity_checks", __name__)


def answer_check() -> Response:
    found = answer(host_name(request.host), request.path)
    if found is None:
        abort(404)
    response = Response(found.body, status=found.status, content_type=found.content_type)
    response.headers["Cache-Control"] = "no-store"  # each check asks anew
    return response


for path in dict.fromkeys(check.path for check in CHECKS):
    checks.add_url_rule(path, endpoint=path.strip("/").replace(".", "_"), view_func=answer_check)
