"""A pytest plugin that registers the stand-in fifth game before the tests are collected
(``-p stand_in_game.plugin``, with tests/ on the path): its registry line, and where the
box would find its show module and its catalogues had it been written into the project."""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from pathlib import Path

import engine.games
import web.i18n
from stand_in_game import show
from stand_in_game.module import NAME, StandInModule

OWN_WORDS = Path(__file__).parent / "i18n"


def _catalogs_with_the_stand_in_s() -> Path:
    """A catalogue folder holding every catalogue of the project and the stand-in's."""
    folder = Path(tempfile.mkdtemp(prefix="stand-in-i18n-"))
    atexit.register(shutil.rmtree, folder, True)
    for language in web.i18n.CATALOG_DIR.iterdir():
        (folder / language.name).mkdir()
        for path in [*language.glob("*.json"), *(OWN_WORDS / language.name).glob("*.json")]:
            (folder / language.name / path.name).symlink_to(path)
    return folder


engine.games._REGISTRY[NAME] = StandInModule()  # its registry line
sys.modules["firmware.stand_in_show"] = show  # as firmware/stand_in_show.py
web.i18n.CATALOG_DIR = _catalogs_with_the_stand_in_s()  # as web/i18n/<language>/stand_in.json
