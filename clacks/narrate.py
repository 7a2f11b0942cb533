"""The terminal's words from the pages' catalogs: events, refusals and results.

`clacks play --language cs` narrates in Czech with the very texts and formatter the
table screen and phones use (``web/i18n``, ``web/messages``), so a count, a seat or a
card reads the same in the terminal as on a page. This mirrors ``describeEvent`` in
``web/static/games/clacks.js``: the event's values are turned into words (seats, card
and route names, symbols) and the catalog's sentence for the event is filled in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.clacks import ClacksGame
from engine.core.errors import IllegalAction
from web.i18n import DEFAULT_LANGUAGE, catalog, translate
from web.messages import format_message
from web.refusals import refusal_words

SEATS = ("south", "west", "north", "east")
# an event's kind -> the catalog key of a variant sentence, when the event asks for it
VARIANTS: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "moved": lambda e: "event.placed" if not e.get("from") else None,
    "transmitted": lambda e: "event.transmitted.lit" if e.get("lit") else None,
    "swapped": lambda e: "event.swapped.cost" if e.get("cost") else None,
    "jacquard_passed": lambda e: "event.jacquard_passed.drawn" if e.get("drawn") else None,
}


def _design(card_id: object) -> str:
    return re.sub(r"-\d+$", "", str(card_id))


class Narrator:
    """Words for one game in one language."""

    def __init__(self, game: ClacksGame, language: str = DEFAULT_LANGUAGE) -> None:
        self.game = game
        self.language = language
        self.texts = catalog(language)

    def t(self, key: str, **params: object) -> str:
        return translate(self.language, key, **params)

    def known(self, key: str, fallback: str) -> str:
        return self.t(key) if key in self.texts else fallback

    def seat(self, label: object) -> str:
        return self.t(f"seat.{label}") if label in SEATS else str(label)

    def symbol(self, symbol: object) -> str:
        return self.t(f"clacks.symbol.{symbol}") if symbol in ("SPACE", "END") else str(symbol)

    def card_name(self, card_id: object, fallback: object = None) -> str:
        design = _design(card_id)
        return self.known(f"card.{design}.name", str(fallback or card_id))

    def jacquard_name(self, card_id: object, fallback: object = None) -> str:
        return self.known(f"jacquard.{_design(card_id)}.name", str(fallback or card_id))

    def place(self, route: object, number: object, fallback: object) -> str:
        if not number:
            return self.known("route.start", "Ankh-Morpork")
        return self.known(f"route.{route}.place.{number}", str(fallback))

    def _route_of(self, seat: object) -> object:
        state = self.game.state
        if state.team is not None:
            return state.options.route
        view = self.game.view(None)
        for player in view.get("players", []):
            if player.get("seat") == seat:
                return player.get("route")
        return None

    def _effect(self, event: dict[str, Any]) -> str:
        key = f"clacks.effect.{event.get('effect')}"
        if key not in self.texts:
            return str(event.get("effect"))
        lasting = next(
            (e for e in self.game.view(None).get("effects", []) if e.get("card") == event.get("card")),
            None,
        )
        words, missing = format_message(
            self.language, self.texts[key], dict((lasting or {}).get("params") or {})
        )
        return self.t(f"{key}.plain") if missing else words

    def event(self, event: dict[str, Any]) -> str:
        """One event as the log on the table screen says it."""
        kind = event.get("kind")
        params = self._shared_params(event)
        self._add_kind_params(str(kind), event, params)
        key = self._event_key(str(kind), event, params)
        if key not in self.texts:
            return str(kind)
        return self.t(key, **params)

    def _shared_params(self, event: dict[str, Any]) -> dict[str, Any]:
        """The fields any kind of event may carry, in words: seats, lamps, a reason,
        symbols, a swap slot, a card."""
        params: dict[str, Any] = dict(event)
        for key in ("seat", "target", "to"):
            if event.get(key) in SEATS:
                params[key] = self.seat(event[key])
        if isinstance(event.get("lamps"), list):
            params["lamps"] = " ".join(event["lamps"])
        if event.get("reason"):
            params["reason"] = self.t(f"clacks.reason.{event['reason']}")
        for key in ("symbol", "answer"):
            if event.get(key):
                params[key] = self.symbol(event[key])
        if event.get("slot"):
            params["slot"] = self.t(f"clacks.slot.{event['slot']}")
        if event.get("card"):
            params["card"] = self.card_name(event["card"])
        return params

    def _add_kind_params(self, kind: str, event: dict[str, Any], params: dict[str, Any]) -> None:
        """What one kind of event says beyond the shared fields."""
        if kind == "jacquard_played":
            params["name"] = self.jacquard_name(event.get("jacquard"), event.get("name"))
        if kind == "fault_played":
            params["name"] = self.card_name(event.get("card"), event.get("name"))
        if kind == "card_revealed":
            params["name"] = self.card_name(event.get("card"), event.get("name"))
            params["text"] = self._revealed_text(event)
        if event.get("lit"):
            route = self._route_of(event.get("seat"))
            params["lit"] = self.place(route, event.get("progress"), event.get("lit"))
        if kind == "effect_started" and event.get("effect"):
            params["effect"] = self._effect(event)
        if kind in ("race_won", "race_lost"):
            params["mode"] = self.game.state.options.mode

    def _revealed_text(self, event: dict[str, Any]) -> str:
        """A revealed card's text as printed: a Fault Report reads as the Night Shift's
        (or the junior game's) card does."""
        reading = "text"
        if event.get("deck") == "fault":
            reading = "junior" if self.game.state.options.mode == "junior" else "night_shift"
        return self.known(f"card.{_design(event.get('card'))}.{reading}", str(event.get("text")))

    def _event_key(self, kind: str, event: dict[str, Any], params: dict[str, Any]) -> str:
        """The catalog key that says this event, with its variant when it has one."""
        key = f"event.{kind}"
        variant = VARIANTS.get(kind)
        if variant and variant(event):
            key = str(variant(event))
        if kind == "post_office_moved":
            steps = int(event.get("steps") or 0)
            if steps < 0:
                key, params["back"] = "event.post_office_moved.back", -steps
            elif event.get("held"):
                key = "event.post_office_moved.held"
        return key

    def refusal(self, error: IllegalAction) -> str:
        """A refused action in words: the catalog's sentence for the rule with the
        engine's values (or its plain sentence), as the pages say it."""
        if self.language == DEFAULT_LANGUAGE and error.message is not None:
            return error.message
        return refusal_words(self.language, error.rule, error.params) or error.message or str(error)

    def outcome(self) -> str:
        state = self.game.state
        reason = self.known(f"clacks.reason.{state.end_reason}", str(state.end_reason))
        if state.team is not None:
            key = "clacks.team_won" if state.team.result == "won" else "clacks.team_lost"
            return f"{self.t(key, mode=state.options.mode)} {reason}"
        winner = self.game.winner
        assert winner is not None
        return f"{self.t('clacks.winner', name=self.seat(winner.label))} {reason}"

    def turn_header(self) -> str:
        """Whose turn, the round and the stress spent, as the table screen shows them."""
        turn = self.game.state.turn
        parts = [
            self.t("clacks.turn_of", name=self.seat(turn.seat.label)),
            self.t("clacks.round", round=turn.round),
        ]
        if self.game.state.options.mode == "competitive":
            parts.append(self.t("clacks.stress", spent=turn.stress_spent, limit=turn.stress_limit))
        return " · ".join(parts)
