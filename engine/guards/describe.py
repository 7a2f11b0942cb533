"""Guards! Guards! events in English words, for logs, terminals and other clients of the
API (the pages say them from the message catalogs, in either language)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from engine.core.interface import JSON

TEXTS: dict[str, str] = {
    "rolled": "{seat} rolls {faces} for {purpose}: {total} against {target}{verdict}.",
    "start_rolled": "For the first turn: {rolls}. {seat} begins.",
    "guild_chosen": "{seat} plays {name}.",
    "dealt_reported": "{seat} reports a dealt {deck} card.",
    "cards_taken": "{seat} takes {scrolls} Scroll(s) and {items} Item(s), unseen.",
    "set_up_done": "Everyone is set up: roll for the first player.",
    "turn_began": "{seat}: turn {number}.",
    "turn_ended": "{seat}'s turn ends ({reason}).",
    "turn_missed": "{seat} misses a turn.",
    "saboteurs_unlocked": "{seat}'s Spell Run round is over: Saboteurs may move again.",
    "released": "{seat} leaves the Watch House ({how}).",
    "stays_in_jail": "{seat} stays in the cells for a turn.",
    "game_won": "{seat} returns the last Great Spell and wins!",
    "game_stopped": "The game is stopped and judged by spells, then dollars: {winners} win(s).",
    "attribute_changed": "{seat}'s {attribute} goes from {before} to {after}.",
    "dollars_changed": "{seat} now has ${dollars}.",
    "modifier_changed": "{seat}'s {attribute} now counts {effective}.",
    "cursed": "{seat} is cursed: {curse}.",
    "cured": "{seat} is cured ({how}).",
    "will_miss": "{seat} will miss {turns} turn(s).",
    "discarded": "{seat} discards a {card_kind}.",
    "paid": "{seat} pays {to} ${dollars}.",
    "point_lost": "{seat}'s attribute point is lost: every table is full.",
    "volunteer_touched": "{seat} turns to {name} ({deck}): Charm {charm}, Bribe {bribe}.",
    "pox_caught": "{seat} catches the Pox ({how}).",
    "recruited": "{seat} recruits {name} ({how}).",
    "luggage_moves": "The Luggage moves {spaces} spaces clockwise.",
    "fate_drawn": "{seat} draws a Fate card.",
    "fate_reshuffled": "The Fate cards are shuffled into a new deck.",
    "extra_recruit_won": "A natural 8: {seat} may try one more {deck} Volunteer.",
    "deck_reshuffled": "The {deck} discards are shuffled into a new deck ({cards} cards).",
    "not_recruited": "{name} is not recruited and goes face up.",
    "bribed": "{seat} bribes {name} for ${dollars}.",
    "declined": "{seat} declines the {what}.",
    "face_up": "{seat} turns {name} face up on the {deck} pile.",
    "tavern_rolled": "{seat} rolls {roll} on the Tavern table.",
    "guild_paid": "{seat} collects ${dollars} at the Guild House.",
    "points_bought": "{seat} buys {points} {attribute} point(s) for ${dollars}.",
    "bought": "{seat} buys a {card_kind} for ${dollars}.",
    "luggage_hit": "{seat} is hit by the Luggage.",
    "arrested": "{seat} is arrested.",
    "dragon_drawn": "The companion draws a Dragon for {seat} ({how}): {dragon}.",
    "combat_magic_done": "{seat} has cast what they will before the Brawl roll ({side}).",
    "fire_water_thrown": "{seat}'s Fire Water lands on {victim} ({tokens} token(s) left).",
    "fire_water_settled": "The Fire Water on {seat} is settled ({how}); its token goes back to {alchemist}.",
    "sent_home": "{seat} is forced back to the Guild House: no pay or points there for it.",
    "turned_in": "{seat} turns in {name} for ${dollars}.",
    "run_announced": "{seat} makes a Spell Run with {spell} through {route}.",
    "runners_at_gate": "{seat}'s runners reach the Start Gate.",
    "run_failed": "{seat}'s Spell Run fails: no runners left.",
    "spell_returned": "{seat} returns {spell} (Challenge {challenge}).",
    "reattempt": "{seat} tries the Challenge again with {runners} runner(s).",
    "final_collected": "{seat} collects the Final Spell, {spell}.",
    "at_gate": "{seat} is at the Start Gate with the Final Spell.",
    "final_failed": "{seat} has no Volunteer left for the Final Spell.",
    "final_waits": "{seat} tries only {left} again next turn.",
    "sabotage_window": "Saboteurs may strike at {seat}'s runners.",
    "let_pass": "{seat} lets the runners pass.",
    "saboteurs_contest": "Saboteurs contest the {quadrant}: {seat}'s strikes.",
    "alter_allegiance": "{seat}'s Saboteur tries to turn {runner} ({target}) in the {quadrant}.",
    "ambush": "{seat}'s Saboteur ambushes {target}'s runners in the {quadrant}.",
    "combat": "{runner} ({target}) faces {saboteur} ({seat}).",
    "allegiance_held": "{runner} stays loyal to {seat}.",
    "allegiance_changed": "{runner} leaves {seat} for {to}.",
    "replanted": "{seat} plants the Saboteur again, in secret.",
    "blow_missed": "{seat}'s blow misses.",
    "defeated": "{card} ({seat}) is defeated by {by}.",
    "planted": "{seat} plants a Saboteur, in secret.",
    "plant_failed": "{seat} fails to plant a Saboteur.",
    "recalled": "{seat} recalls a Saboteur.",
    "scroll_cast": "{seat} casts {name}.",
    "scroll_failed": "{seat} fails to cast {name}.",
    "item_used": "{seat} uses {name}.",
    "card_described": "{seat} types a {card_kind}'s values.",
    "ability_worked": "{seat}'s {ability} works on {victim}.",
    "ability_failed": "{seat}'s {ability} fails against {victim}.",
    "dragon_summoned": "{dragon} comes to the {quadrant} ({how}).",
    "call_answered": "The Call: {total} Brethren show themselves.",
    "call_unanswered": "Two or fewer Brethren answer the Call.",
    "four_dragons": "Four Dragons in the city: one last fight.",
    "dragon_fight": "{seat} sends {fighters} Volunteer(s) against the Dragon in the {quadrant}.",
    "sent_against_dragon": "{seat} sends {fighters} Volunteer(s) against the Dragon.",
    "nobody_fought": "Nobody faces the Dragon.",
    "dragon_wounded": "{dragon} is wounded and leaves the {quadrant}.",
    "survived_dragon": "{card} ({seat}) survives the Dragon.",
    "lost_to_dragon": "{card} ({seat}) falls to the Dragon.",
    "dragon_stays": "The Dragon stays in the {quadrant}.",
    "dragons_win": "The Dragons win: everyone loses.",
    "dragon_flew": "The Dragon flies from the {origin} to the {quadrant}.",
    "dragon_stayed": "The Dragon in the {quadrant} has nowhere to fly.",
    "undone": "{seat} takes back a report ({action}).",
    "panel_shown": "The table screen shows {panel}.",
    "marked": "Marked on the box: {quadrants}.",
}


def _words(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_words(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    return str(value).replace("_", " ")


def describe_event(event: JSON) -> str:
    """One event as an English sentence."""
    kind = str(event.get("kind"))
    values: dict[str, str] = defaultdict(lambda: "-")
    values.update({k: _words(v) for k, v in event.items()})
    values["seat"] = str(event.get("seat") or "the table").capitalize()
    if kind == "rolled":
        values["faces"] = " then ".join(str(f) for f in event.get("faces") or [])
        passed = event.get("passed")
        values["verdict"] = "" if passed is None else ", a pass" if passed else ", a failure"
        if event.get("purpose") == "final" and event.get("attribute"):
            # the Final Spell's two rolls by name: which one passed, which is tried again
            values["purpose"] = f"the Final Spell's {event['attribute'].capitalize()} roll"
    if kind == "final_waits":
        values["left"] = " and ".join(f"the {str(a).capitalize()} roll" for a in event.get("left") or [])
    if kind == "start_rolled":
        values["rolls"] = "; then ".join(
            ", ".join(f"{s.capitalize()} {d}" for s, d in r.items()) for r in event.get("rolls") or [])
    text = TEXTS.get(kind)
    return text.format_map(values) if text else f"{values['seat']}: {kind.replace('_', ' ')}."
