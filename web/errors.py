"""The one error type the web layer raises on purpose: an HTTP status, a stable code for
programs, a message for people and the values in it (so pages can translate it)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.core.errors import IllegalAction, MalformedAction
from web.i18n import DEFAULT_LANGUAGE
from web.refusals import refusal_words


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, /, **params: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = params

    @classmethod
    def from_illegal(cls, exc: IllegalAction, status: int | None = None) -> ApiError:
        """A refused action: 400 if it could not be understood, 422 if the rules say no."""
        if status is None:
            status = 400 if isinstance(exc, MalformedAction) else 422
        params = json.loads(json.dumps(exc.params, default=str))
        error = cls(status, exc.rule, illegal_words(exc, params), **params)
        error.rule = exc.rule
        return error

    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.code, "message": self.message, "params": self.params}
        if self.rule is not None:
            out["rule"] = self.rule
        return out


def illegal_words(exc: IllegalAction, params: dict[str, Any]) -> str:
    """A refusal's English for the API's body: the catalogue's sentence (the pages say
    the same in the reader's language), or the engine's own where it still writes one."""
    if exc.message is not None:
        return exc.message
    return refusal_words(DEFAULT_LANGUAGE, exc.rule, params) or str(exc)


def not_saved(exc: BaseException) -> ApiError:
    """A change the saves could not keep, so it was not made."""
    return ApiError(
        503,
        "not_saved",
        f"The companion could not save this, so nothing changed; try again ({exc})",
    )


@contextmanager
def saved_or_refused() -> Iterator[None]:
    """A write to the saves that must succeed for the change to be made: a database or
    disk error refuses it as ``not_saved``."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        raise not_saved(exc) from None
