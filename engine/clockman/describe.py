"""Clockman events in English words, for logs, terminals and the English-only paths (the
pages say them from the message catalogs, in either language)."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.interface import JSON

KINDS = {"now": "to play at once", "hidden": "face down", "open": "face up"}
EFFECTS = {
    "board": "",
    "circle_in": "one circle inward",
    "circle_out": "one circle outward",
    "symbol_card": "a symbol card",
    "roll_again": "roll again",
}
REASONS = {
    "centre": "reaches the Clockman field and wins",
    "centre_checked": "wins: the face-down cards were all face-down cards",
    "centre_confirmed": "wins: the others let the win stand",
    "last_player": "wins as the last player left",
}
FORFEITS = {
    "stays": "lets the roll go and stays",
    "too_high": "rolled too high for the straight and stays",
    "no_card": "hit the last Whytooki without a card of its pose and stays",
    "needs_one": "needs a 1 to reach the Clockman field and stays",
}


def _name(value: object) -> str:
    return str(value or "the table").capitalize()


def _digits(values: object) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) and values else "nothing"


def _ring(value: object) -> str:
    return "the start field" if value == 0 else f"circle {value}"


def describe_event(event: JSON) -> str:
    """One event as an English sentence, for logs and terminals."""
    who = _name(event.get("seat"))
    get = event.get
    texts: dict[str, Callable[[], str]] = {
        "game_started": lambda: "A new game of Clockman begins.",
        "starter_rolled": lambda: (
            "Start rolls: "
            + "; then ".join(
                ", ".join(f"{_name(s)} {d}" for s, d in r.items()) for r in get("rolls") or []
            )
            + f". {who} starts."
        ),
        "entered": lambda: f"{who} enters circle 1 with a {get('die')}.",
        "rolled": lambda: f"{who} rolls {get('die')}.",
        "landed": lambda: f"{who} lands on a plain field.",
        "symbol_drawn": lambda: f"{who} draws a symbol card.",
        "symbol_deck_empty": lambda: f"{who} lands on a symbol field, but the deck is empty.",
        "event_drawn": lambda: (
            f"{who} draws an event card {KINDS.get(str(get('card_kind')), '')}"
            + (f": {get('label')}" if get("label") else "")
            + (
                f" ({EFFECTS.get(str(get('effect')), '')})"
                if get("effect") not in (None, "board")
                else ""
            )
            + "."
        ),
        "card_played": lambda: (
            f"{who} plays an event card"
            + (f": {get('label')}" if get("label") else "")
            + (f" ({EFFECTS.get(str(get('effect')), '')})" if get("effect") != "board" else "")
            + "."
        ),
        "moved_by_card": lambda: f"An event card moves {who} to {_ring(get('ring'))}.",
        "roll_again": lambda: f"{who} rolls again.",
        "digit_taken": lambda: (
            f"{who} takes a {get('digit')}"
            + (" (set aside until a transfer field)" if get("pending") else "")
            + "."
        ),
        "blockade_passed": lambda: (
            f"{who} passes a Whytooki of pose {get('pose')} to circle {get('ring')}"
            + (" with an event card." if get("by") == "event" else ".")
        ),
        "lift_used": lambda: f"{who} takes a lift to circle {get('ring')}.",
        "lift_declined": lambda: f"{who} leaves the lift where it lies.",
        "transferred": lambda: f"{who} transfers {_digits(get('digits'))} into the date key.",
        "straight_entered": lambda: f"{who} enters the final straight on field {get('field')}.",
        "straight_moved": lambda: f"{who} moves to field {get('field')} of the final straight.",
        "straight_passed": lambda: f"{who} passes the last Whytooki (pose {get('pose')}).",
        "forfeited": lambda: f"{who} {FORFEITS.get(str(get('reason')), 'stays')}.",
        "moved_outward": lambda: f"{who} passes outward to circle {get('ring')}.",
        "knocked": lambda: f"{who} knocks {_name(get('victim'))}.",
        "defence_asked": lambda: f"{who} may show an event card against the knock.",
        "protected": lambda: (
            f"{who} shows an event card protecting "
            + ("the digit." if get("against") == "digit" else "the piece.")
        ),
        "take_asked": lambda: f"{who} chooses a digit to take from {_name(get('victim'))}.",
        "digit_taken_from": lambda: f"{who} takes a {get('digit')} from {_name(get('victim'))}.",
        "knock_averted": lambda: f"{who} stays put.",
        "knocked_out": lambda: f"{who} goes back to {_ring(get('ring'))}.",
        "turn_ended": lambda: f"{who} ends the turn.",
        "turn_started": lambda: f"{who}'s turn.",
        "offer_made": lambda: (
            f"{who} offers {_digits(get('give'))} to {_name(get('to'))} for {_digits(get('get'))}."
        ),
        "offer_accepted": lambda: f"{who} accepts the trade with {_name(get('by'))}.",
        "offer_declined": lambda: f"{who} declines the trade.",
        "offer_withdrawn": lambda: f"{who} withdraws the offer.",
        "offer_lapsed": lambda: f"{who}'s offer lapses with the turn.",
        "reached_centre": lambda: f"{who} reaches the Clockman field!",
        "check_asked": lambda: f"{who} has face-down event cards: the others may check them.",
        "inspected": lambda: (
            f"{who} checks {_name(get('winner'))}'s face-down cards: "
            + (f"{get('misplayed')} misplayed." if get("misplayed") else "all in order.")
        ),
        "win_confirmed": lambda: f"{who} lets {_name(get('winner'))}'s win stand.",
        "win_revoked": lambda: f"{who}'s win is revoked: {who} is out.",
        "game_won": lambda: f"{who} {REASONS.get(str(get('reason')), 'wins')}!",
        "undone": lambda: f"{who} takes back a report.",
        "lamps_shown": lambda: (
            "The lamps show " + ("the race." if get("view") == "race" else "the turn.")
        ),
    }
    text = texts.get(str(event.get("kind")))
    return text() if text else str(event.get("kind"))
