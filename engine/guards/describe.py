"""Guards! Guards! events in English words, for logs and terminals (the pages say them
from the message catalogs, in either language)."""

from __future__ import annotations

from engine.core.interface import JSON


def _who(event: JSON) -> str:
    return str(event.get("seat") or "the table").capitalize()


def describe_event(event: JSON) -> str:
    who = _who(event)
    kind = str(event.get("kind"))
    if kind == "rolled":
        faces = " then ".join(str(f) for f in event.get("faces") or [])
        verdict = {True: "passes", False: "fails", None: ""}[event.get("passed")]
        return (f"{who} rolls {faces} for {str(event.get('purpose')).replace('_', ' ')}: "
                f"{event.get('total')} against {event.get('target')}, {verdict}.").replace(", .", ".")
    if kind == "start_rolled":
        rounds = "; then ".join(", ".join(f"{s.capitalize()} {d}" for s, d in r.items())
                                for r in event.get("rolls") or [])
        return f"For the first turn: {rounds}. {who} begins."
    texts: dict[str, str] = {
        "guild_chosen": f"{who} plays {event.get('name')}.",
        "dealt_reported": f"{who} reports a dealt Volunteer.",
        "set_up_done": "Everyone is set up: roll for the first player.",
        "turn_began": f"{who}'s turn {event.get('number')} begins.",
        "turn_ended": f"{who}'s turn ends.",
        "turn_missed": f"{who} misses a turn.",
        "game_won": f"{who} returns the last Great Spell and wins!",
        "game_stopped": "The game is stopped and judged by spells, then dollars.",
        "undone": f"{who} takes back a report.",
        "dollars_changed": f"{who} now has ${event.get('dollars')}.",
        "attribute_changed": f"{who}'s {event.get('attribute')} goes from {event.get('before')} to "
        f"{event.get('after')}.",
    }
    return texts.get(kind, f"{who}: {kind.replace('_', ' ')}.")
