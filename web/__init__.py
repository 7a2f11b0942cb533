"""The companion's web side: table screen, phone hand controllers and the JSON API."""

from web.app import create_app

__all__ = ["create_app"]
