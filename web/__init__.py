"""The companion's web side: table screen, phone hand controllers and the JSON API.

The app is imported on first use, so the catalogs and their formatter (``web.i18n``,
``web.messages``) serve the terminal without loading Flask."""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from web.app import create_app

        return create_app
    raise AttributeError(f"module 'web' has no attribute {name!r}")
