"""Refusals and reports about hidden objects, worded from what the asker may know.

A player may name any card id in a request, their own or not, real or made up. A
refusal that says *why* another player's card cannot be used (whose hand it is in,
which deck it belongs to, what it is called) answers a question the player had no
right to ask, so every game refuses a card the asker cannot see with the same words,
built here: no name, no deck, no holder, and the same answer for an id that names
nothing at all. A game words a refusal more precisely only for a card the asker may
see (their own, or one lying face up).

Likewise an action that is taken back may carry a secret (the note on a face-down card,
a card drawn), and the "undone" event goes to every page: it says only which kind of
action was taken back.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.errors import IllegalAction


class NotUsableHere(IllegalAction):
    """A card the asker may not use, said the same way whatever, wherever and whoever's
    it is (or whether it exists at all)."""

    rule = "not_usable_here"


def unusable(what: str = "card") -> NotUsableHere:
    """The one refusal for an object the asker cannot see: ``what`` is the kind of
    object the request asked for (``card``, ``event_card``), never one found there."""
    return NotUsableHere(what=what)


def refuse_unless_seen(seen: bool, precise: IllegalAction, what: str = "card") -> IllegalAction:
    """``precise`` (which may name the card and where it lies) for a card the asker may
    see, else the one refusal that names nothing."""
    return precise if seen else unusable(what)


def undone_action(action: Mapping[str, object]) -> str:
    """What every page may hear of an action taken back: its kind, not its details."""
    kind = action.get("type")
    return kind if isinstance(kind, str) else "action"
