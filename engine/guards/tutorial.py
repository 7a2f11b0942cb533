"""Guards! Guards!'s guided first game: two turns of a two-player game in which the
learner reports their own turns from the phone, and the other player's reports (a
Volunteer recruited, the end of the turn) come in between from the lesson's script.

The board stays on the table, so the lesson teaches the companion's side of a turn: the
roll for the first player, recruiting a Volunteer with a Charm roll, planting a Saboteur
at the beginning of a turn, a Spell Run and its Wizard's Challenge, the attribute point
it earns, and the goal. The set-up (each Guild Card and the two Volunteers dealt) is the
lesson's own and done before the learner sits down; its Volunteers come from the
lesson's small catalogue, so every card the learner touches is picked, never typed. The
deal is an ordinary game of the published rules on a fixed seed, chosen because on it the
learner begins and every roll the lesson makes passes. Every report goes through the
rules; the script only says which of the legal ones the lesson takes.

The phone draws Guards! Guards! reports as forms (engine.guards.forms): in the lesson a
step's form offers only the choices the step names, so a stranger sends it with the taps
its words name; the end of the turn, where the rules would take it but the lesson does
not, stays on the phone greyed out and says why when tapped.
"""

from __future__ import annotations

import copy
from functools import cache

from engine.core.companion_lesson import CompanionLesson
from engine.core.errors import IllegalAction
from engine.core.interface import JSON, Told
from engine.core.tutorial import OffScript, Opponent, Script, Step, two_seat_script
from engine.guards.actions import action_from_json
from engine.guards.data import shipped_data
from engine.guards.game import GuardsGame
from engine.guards.lamps import DICE_ROWS, block_lamps
from engine.guards.options import GuardsOptions
from engine.guards.session import GuardsSession

NAME = "first-game"
SEED = 4  # red begins, and both Charm rolls, the Guild test and the Challenge pass
LEARNER = "red"
OPPONENT = "blue"
LEVEL = "scripted"  # the script's other player, as the table names who plays a seat
LEARNER_GUILD = "thieves-a"  # Guild 3: a Saboteur is planted on 2 or more
OPPONENT_GUILD = "fools-a"

# the lesson's Volunteers: house values for a lesson, each picked by its id
CATALOGUE: tuple[JSON, ...] = (
    {"id": "lupine-wonse", "name": "Lupine Wonse", "deck": "lords_ladies", "charm": 6, "bribe": 4,
     "loyalty": 1, "streetwise": 3, "brawl": 1, "toughness": 2, "brethren": True},
    {"id": "the-librarian", "name": "The Librarian", "deck": "man_beast", "charm": 4, "bribe": 2,
     "loyalty": 4, "streetwise": 4, "brawl": 4, "toughness": 4},
    {"id": "lady-ramkin", "name": "Lady Sybil Ramkin", "deck": "lords_ladies", "charm": 4, "bribe": 3,
     "loyalty": 4, "streetwise": 3, "brawl": 2, "toughness": 3},
    {"id": "lord-rust", "name": "Lord Rust", "deck": "lords_ladies", "charm": 7, "bribe": 5,
     "loyalty": 2, "streetwise": 1, "brawl": 2, "toughness": 2},
    {"id": "gaspode", "name": "Gaspode", "deck": "man_beast", "charm": 5, "bribe": 1,
     "loyalty": 1, "streetwise": 4, "brawl": 1, "toughness": 1},
    {"id": "detritus", "name": "Detritus", "deck": "man_beast", "charm": 3, "bribe": 2,
     "loyalty": 3, "streetwise": 1, "brawl": 6, "toughness": 6},
)  # fmt: skip


def _card(key: str) -> str:
    return f"cv-{key}"  # the uid a catalogue card has in every game (engine.guards.state)


BRETHREN = _card("lupine-wonse")
LIBRARIAN = _card("the-librarian")
RECRUIT = _card("lady-ramkin")
SPELL = "red"  # the first of the Guild of Thieves' five Great Spells
SPELL_QUADRANT = "alchemists"
RUN_ROUTE = ["alchemists", "thieves"]  # home to the Start Gate, in the Thieves' Quadrant
STOP_QUADRANT = "fools"
SABOTEUR_QUADRANT = "assassins"


@cache
def lesson_options() -> GuardsOptions:
    """Two players on the shipped tables, with the lesson's Volunteers as its catalogue."""
    tables = copy.deepcopy(shipped_data().to_json())
    tables["volunteers.toml"] = {"house": True, "volunteer": [dict(card) for card in CATALOGUE]}
    return GuardsOptions.from_json({"seats": [LEARNER, OPPONENT], "data": tables})


def _quadrants(*quadrants: str) -> int:
    blocks = lesson_options().data.blocks
    lamps = 0
    for quadrant in quadrants:
        lamps |= block_lamps(blocks[quadrant])
    return lamps


def _set_up(seat: str, guild: str, lords: str, beasts: str) -> tuple[JSON, ...]:
    return (
        {"type": "choose_guild", "seat": seat, "card": guild},
        {"type": "dealt", "seat": seat, "deck": "lords_ladies", "card": _card(lords)},
        {"type": "dealt", "seat": seat, "deck": "man_beast", "card": _card(beasts)},
    )


# the set-up, done by the lesson before the learner arrives (in the log, not the script)
SET_UP: tuple[JSON, ...] = (
    *_set_up(LEARNER, LEARNER_GUILD, "lupine-wonse", "the-librarian"),
    *_set_up(OPPONENT, OPPONENT_GUILD, "lord-rust", "gaspode"),
)


def _tap(key: str, **params: JSON) -> JSON:
    return {"key": key, "params": params} if params else {"key": key}


def _words(*taps: JSON) -> dict[str, JSON]:
    """The controls a step names, in the order they are tapped, by their own labels."""
    return {f"tap{i}": tap for i, tap in enumerate(taps)}


def _learner(key: str, expect: JSON, words: dict[str, JSON], lights: int = 0) -> Step:
    # a route is walked in its order: the same quadrants the other way round are another run
    ordered = ("route",) if "route" in expect else ()
    return Step(f"tutorial.guards.{key}", {"seat": LEARNER, **expect}, words, lights,
                ordered=ordered)


def _roll(key: str, purpose: str) -> Step:
    button = _tap("guards.roll_for", what=_tap(f"guards.purpose.{purpose}"))
    return _learner(key, {"type": "roll"}, _words(button), DICE_ROWS)


def _report(key: str, expect: JSON, lights: int = 0, route: bool = False) -> Step:
    """A report with a form: open it by its name, (tap the quadrants of its route in
    order,) then send it."""
    form = _tap(f"guards.form.{expect['type']}")
    way = [_tap(f"guards.quadrant.{q}") for q in expect["route"]] if route else []
    return _learner(key, expect, _words(form, *way, _tap("guards.send")), lights)


def _other(kind: str, **fields: str) -> Opponent:
    return Opponent({"type": kind, "seat": OPPONENT, **fields})


def _end(key: str) -> Step:
    return _learner(key, {"type": "end_turn"}, _words(_tap("guards.form.end_turn")))


ENTRIES: tuple[Step | Opponent, ...] = (
    _learner("start", {"type": "roll"}, _words(_tap("guards.roll_start")), DICE_ROWS),
    # turn 1: a Volunteer tile in the Fools' Quadrant
    _report(
        "recruit",
        {"type": "recruit", "deck": "lords_ladies", "source": "deck", "quadrant": STOP_QUADRANT,
         "card": RECRUIT},
        _quadrants(STOP_QUADRANT),
    ),
    _roll("charm", "recruit"),
    _end("end_turn"),
    # the other player's turn: a Volunteer tile in the Alchemists' Quadrant
    _other("recruit", deck="man_beast", source="deck", quadrant="alchemists", card=_card("detritus")),
    _other("roll"),
    _other("end_turn"),
    # turn 2: a Saboteur first, then a Spell tile
    _report(
        "plant",
        {"type": "plant", "card": BRETHREN, "quadrant": SABOTEUR_QUADRANT},
        _quadrants(SABOTEUR_QUADRANT),
    ),
    _report(
        "spell_run",
        {"type": "spell_run", "spell": SPELL, "quadrant": SPELL_QUADRANT, "runners": [RECRUIT, LIBRARIAN],
         "route": RUN_ROUTE},
        _quadrants(*RUN_ROUTE),
        route=True,
    ),
    _roll("challenge", "challenge"),
    # the form is open at once: what the game waits for
    _learner("point", {"type": "spend_point", "attribute": "magic"}, _words(_tap("guards.send"))),
    _end("end_turn_goal"),
)

# no bots in this game: the real game is a table for the players of its seats, as the
# stand says it
SCRIPT = two_seat_script(NAME, "guards", LEARNER, OPPONENT, LEVEL, ENTRIES, next_table=True)

SCRIPTS = {NAME: SCRIPT}

# the form fields whose choices a step narrows to the value it expects, by field kind
_CHOICE_KINDS = ("choice", "guild_card", "quadrants")


class GuardsLesson(CompanionLesson):
    """The lesson over a game whose set-up it did itself, and whose reports the phone
    draws as forms (engine.guards.forms) rather than as whole actions."""

    def position(self) -> int:
        """How many entries of the script are done: the actions after the set-up."""
        return super().position() - len(SET_UP)

    def legal_actions(self, seat: str | None, now: float) -> list[JSON]:
        """The step's own form, offering only the choices the step names; and the end of
        the turn greyed out (a tap asks why) where the rules would take it but the step
        is another."""
        entry = self.entry()
        if not isinstance(entry, Step) or seat != self.script.learner:
            return []
        wanted = entry.expect["type"]
        forms = self.inner.legal_actions(seat, now)
        shown = [_narrowed(form, entry.expect) for form in forms if form["type"] == wanted]
        if wanted != "end_turn" and any(form["type"] == "end_turn" for form in forms):
            shown.append({"type": "end_turn", "group": "end", "fields": [], "out": True,
                          "probe": {"type": "end_turn"}})
        return shown

    def apply_told(self, seat: str | None, action: JSON, now: float) -> Told:
        if _box_only(action):  # the box's quadrant marks and table panels: not logged
            return self.inner.apply_told(seat, action, now)
        return super().apply_told(seat, action, now)

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        pressed = self.inner.button_action(button, now)
        if pressed is not None and _box_only(pressed[1]):
            return pressed
        return super().button_action(button, now)

    def refusal(self, seat: str | None, action: JSON, now: float) -> IllegalAction | None:
        if _box_only(action):
            return self.inner.refusal(seat, action, now)
        try:
            action_from_json(action, seat)
        except IllegalAction:
            # not a whole report (a greyed button's question): the lesson's words alone
            step = self.step()
            return OffScript(because=None, step=step.key if step else None)
        return super().refusal(seat, action, now)


def _box_only(action: object) -> bool:
    return isinstance(action, dict) and action.get("type") in ("mark", "panel")


def _narrowed(form: JSON, expect: JSON) -> JSON:
    """``form`` offering only what ``expect`` names: a choice of one (the phone picks
    it), the cards to send ticked, the Volunteer to take picked."""
    fields = []
    for field in form["fields"]:
        name = field["name"]
        if name not in expect:
            if not field.get("optional"):
                fields.append(field)
            continue  # what the step leaves out is left out of the form
        wanted = expect[name]
        if field["kind"] == "volunteer":
            known = {deck: [c for c in cards if c["uid"] == wanted] for deck, cards in field["known"].items()}
            field = {**field, "known": known, "face_up": {}, "pick": wanted}
        elif field["kind"] == "cards":
            options = [o for o in field["options"] if o["uid"] in wanted]
            field = {**field, "options": options, "must": list(wanted), "min": len(wanted), "max": len(wanted)}
        elif field["kind"] in _CHOICE_KINDS:
            # in the order the step names them: a route's quadrants as the words say them
            named = wanted if isinstance(wanted, list) else [wanted]
            options = sorted(
                (o for o in field["options"] if _option_value(o) in named),
                key=lambda o: named.index(_option_value(o)),
            )
            field = {**field, "options": options}
        fields.append(field)
    return {**form, "fields": fields}


def _option_value(option: object) -> object:
    """A choice as sent: a card's uid, else the option itself (a quadrant, a deck)."""
    return option["uid"] if isinstance(option, dict) else option


def new_lesson(script: Script) -> GuardsLesson:
    """The lesson from its start: the deal on the lesson's seed, the set-up done."""
    game = GuardsGame.new(lesson_options(), SEED)
    session = GuardsSession(game)
    for action in SET_UP:
        session.apply(action["seat"], action, 0.0)
    return GuardsLesson(session, script)
