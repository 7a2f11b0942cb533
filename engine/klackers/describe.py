"""Klackers events in English words, for logs, terminals and the English-only paths (the
pages say them from the message catalogs, in either language)."""

from __future__ import annotations

from engine.core.interface import JSON


def _numbers(values: object) -> str:
    if not isinstance(values, list) or not values:
        return "nothing"
    return " + ".join(str(v) for v in values)


def describe_event(event: JSON) -> str:
    """One event as an English sentence, for logs and terminals."""
    who = str(event.get("seat") or "the table").capitalize()
    kind = event.get("kind")
    if kind == "starter_rolled":
        rolls = event.get("rolls") or []
        spelled = "; then ".join(
            ", ".join(f"{s.capitalize()} {d}" for s, d in r.items()) for r in rolls
        )
        return f"For the first roll: {spelled}. {who} starts."
    if kind == "rolled":
        dice = event.get("dice") or []
        shown = " and ".join(str(d) for d in dice)
        return f"{who} rolls {shown}" + (f" ({event.get('total')})." if len(dice) > 1 else ".")
    if kind == "turn_ended":
        reasons = {
            "no_fit": "no combination fits",
            "one_die_missed": "the one die missed",
            "klack": "all nine are down",
        }
        why = reasons.get(str(event.get("reason")), str(event.get("reason")))
        return f"{who}'s turn is over ({why}): score {event.get('score')}."
    if kind == "round_ended":
        return _round_text(event)
    texts: dict[str, str] = {
        "game_started": "A new match of Klackers begins.",
        "round_started": f"Round {event.get('round')}, worth {event.get('value')}: {who} starts.",
        "turn_started": f"{who} has the dice.",
        "pulled": f"{who} pulled {_numbers(event.get('numbers'))} forward.",
        "marked": f"{who} marks {_numbers(event.get('numbers'))}.",
        "klacked": f"{who} KLACKS!",
        "klack_bonus": f"Every other player gives {who} a chip for the Klack.",
        "game_won": f"{who} wins the match!",
        "undone": f"{who} takes back a pull.",
    }
    return texts.get(str(kind), str(kind))


def _round_text(event: JSON) -> str:
    reason = event.get("reason")
    if event.get("outcome") == "won":
        winner = str(event.get("seat")).capitalize()
        how = "with a Klack" if reason == "klack" else "with the lowest score"
        return f"{winner} wins round {event.get('number')} {how}."
    pushes = {
        "tie": "Two tie, all tie",
        "klack_tie": "A Klack tie",
        "no_point": "Nobody scored nine or less",
        "no_klack": "Nobody Klacked",
    }
    return (
        f"{pushes.get(str(reason), 'Push')}: the round is pushed and the next is worth "
        f"{int(event.get('value') or 1) + 1}."
    )
