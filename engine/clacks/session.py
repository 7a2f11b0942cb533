"""Clacks behind the box's game-agnostic seam (engine.core.interface).

Every mode (competitive, coop, solitaire, junior) is one ``clacks`` game; the lobby
picks the mode and its variants from ``options_schema``. A press of a physical tower
button means, for the player whose turn it is:

- competitive: move your pawn to that tower (a button of your colour);
- coop, solitaire, junior: transmit your next symbol from that tower (any of the six
  towers of your colour; there are no pawns on the exchange). The press is refused,
  with the reason, when the tower does not show the symbol freshly.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.clacks import data
from engine.clacks.actions import (
    Move,
    PlayFault,
    PlayJacquard,
    ResumeClock,
    TimeUp,
    Transmit,
    action_from_json,
)
from engine.clacks.bots import LEVELS, make_bot
from engine.clacks.data import ROUTE_TOWERS, load_components
from engine.clacks.errors import BadOptions, NotYourTurn, WrongColour
from engine.clacks.game import ClacksGame
from engine.clacks.geometry import (
    LAMP_NAMES,
    TOWERS,
    Seat,
    lamps_of,
    reading_frame,
    seat_view_cell,
    tower,
    towers_of,
)
from engine.clacks.hints import Advice, advise
from engine.clacks.race_lessons import LESSONS as RACE_LESSONS
from engine.clacks.state import (
    MAX_WORD_LENGTH,
    MODE_SEATS,
    MODES,
    RANGES,
    ROUTES,
    WORD_LISTS,
    Options,
    default_seats,
)
from engine.clacks.tutorial import NAME as TUTORIAL
from engine.clacks.tutorial import OPTIONS as TUTORIAL_OPTIONS
from engine.clacks.tutorial import SCRIPTS as COMPETITIVE_SCRIPTS
from engine.clacks.tutorial import SEED as TUTORIAL_SEED
from engine.core.budget import Cancelled
from engine.core.data_check import DataCheck
from engine.core.errors import IllegalAction
from engine.core.interface import (
    HINT_NOT_YOUR_TURN,
    HINT_NOTHING_TO_DO,
    JSON,
    GameModule,
    LampFrame,
    SeatInfo,
    Session,
    Told,
)
from engine.core.rng import derive_seed
from engine.core.tutorial import (
    OpeningLesson,
    TutorialSession,
    chosen_script,
    replay_lesson_or_game,
)

# How often the first seat wins a two-player game between planner bots, in percent, with
# the published setup and with the balanced start: 5,000 games each (`clacks simulate
# --games 1000 --seed N` for seeds 1 to 5, with and without --balanced-start), so the
# figure is good to about a point and a half either way (docs/balance.md).
BALANCED_START_FIGURES = {"published": 61.8, "balanced": 44.3}


def _plural(count: object, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class ClacksSession(Session):
    game = "clacks"

    def __init__(self, game: ClacksGame) -> None:
        self.clacks = game

    @property
    def seats(self) -> list[SeatInfo]:
        return [SeatInfo(s.label, s.colour.value) for s in self.clacks.state.order]

    @property
    def active_seats(self) -> list[str]:
        return [] if self.clacks.over else [self.clacks.current_seat.label]

    @property
    def over(self) -> bool:
        return self.clacks.over

    def result(self) -> JSON | None:
        """Winners and reason; in co-op also ``team`` ("won" or "lost"): the whole team
        shares one result, and when the Post Office wins ``winners`` is empty."""
        state = self.clacks.state
        if not state.over:
            return None
        result: JSON = {"winners": [s.label for s in state.winners], "reason": state.end_reason}
        if state.team is not None:
            result["team"] = state.team.result
        return result

    def _parse(self, seat: str | None, action: JSON, now: float) -> Any:
        if not isinstance(action, dict):
            return action_from_json(action)
        data = dict(action)
        if seat is not None:
            data.setdefault("seat", seat)
        parsed = action_from_json(data)
        acting = Seat.parse(seat) if seat is not None else None
        if parsed.seat is not acting:
            sent_for = parsed.seat.label if parsed.seat else "table"
            raise NotYourTurn(reason="sender", target=sent_for, seat=acting.label if acting else "table")
        if self.clacks.state.options.express and (acting is not None or "at" not in action):
            # a seat's action happens when the companion receives it, whatever it claims
            parsed = dataclasses.replace(parsed, at=now)
        return parsed

    def apply(self, seat: str | None, action: JSON, now: float) -> list[JSON]:
        return self.apply_told(seat, action, now).events

    def apply_told(self, seat: str | None, action: JSON, now: float) -> Told:
        events = self.clacks.apply(self._parse(seat, action, now))
        private: dict[str, dict[int, JSON]] = {}
        for index, told in enumerate(events):
            for who, details in told.private.items():
                private.setdefault(who.label, {})[index] = details
        return Told(seat, [e.to_json() for e in events], private)

    def undo(self, seat: str) -> list[JSON]:
        return [e.to_json() for e in self.clacks.undo(Seat.parse(seat))]

    def can_undo(self, seat: str) -> bool:
        return self.clacks.can_undo(Seat.parse(seat))

    def view(self, seat: str | None) -> JSON:
        return self.clacks.view(Seat.parse(seat) if seat is not None else None)

    def legal_actions(self, seat: str | None, now: float) -> list[JSON]:
        at = now if self.clacks.state.options.express else None
        who = Seat.parse(seat) if seat is not None else None
        return [a.to_json() for a in self.clacks.legal_actions(who, at)]

    def log_json(self) -> JSON:
        return self.clacks.log_to_json()

    def deadline(self) -> float | None:
        state = self.clacks.state
        if self.over or state.turn.phase == "timeout_discard":
            return None
        return self.clacks.rules.deadline(state)

    def clock_action(self, now: float) -> JSON | None:
        deadline = self.deadline()
        if deadline is None or now < deadline:
            return None
        return TimeUp(None, at=now).to_json()

    def resume_action(self, now: float) -> JSON | None:
        # The turn's time stands still from the last acknowledged action (the latest time
        # the game knows of) until the companion is back: nobody loses a turn to a
        # pulled plug.
        if self.deadline() is None:
            return None
        known = [self.clacks.state.turn.started_at]
        known += [a.at for a in self.clacks.log if a.at is not None]
        paused = now - max(known)
        if paused <= 0:
            return None
        return ResumeClock(None, at=now, paused=paused).to_json()

    def lamps(self) -> LampFrame:
        state = self.clacks.state
        accent = tower(state.sabotage.tower).mask if state.sabotage else 0
        return LampFrame(lit=state.board, accent=accent)

    def previews_shared(self) -> bool:
        # in Long Distance nobody sees a teammate's hand, so neither the lamps its card
        # would flip
        return not self.clacks.state.options.long_distance

    def preview(self, seat: str, action: JSON) -> LampFrame | None:
        try:
            parsed = self._parse(seat, action, 0.0)
        except IllegalAction:
            return None
        if isinstance(parsed, PlayJacquard) and not parsed.lamps:
            return None
        if not isinstance(parsed, (PlayJacquard, PlayFault)):
            return None
        trial = self.clacks.clone()
        if self.clacks.state.options.express:
            parsed = dataclasses.replace(parsed, at=trial.state.turn.started_at)
        try:
            trial.apply(parsed)
        except IllegalAction:
            return None
        # a Fault Report shows what it changes: the lamps it flips or sets (none for
        # one that only changes stress), and the tower it names
        board = self.clacks.state.board
        flips = parsed.lamps if isinstance(parsed, PlayJacquard) else board ^ trial.state.board
        named = parsed.tower if isinstance(parsed, PlayFault) else None
        return LampFrame(lit=board, preview=flips, accent=tower(named).mask if named else 0)

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        """A tower button: in competitive play it moves the current player's pawn
        there; in the map games it transmits the current player's next symbol from it.
        A press is refused in front of the whole table, so in the words anyone may hear
        (``IllegalAction.public``: never the card a player lifted in secret)."""
        if self.over:
            return None
        seat = self.clacks.current_seat
        pressed = tower(button)
        if pressed.colour is not seat.colour:
            raise WrongColour(
                reason="button", seat=seat.label, tower=button, colour=seat.colour.value
            )
        if self.clacks.state.options.mode == "competitive":
            action: Move | Transmit = Move(seat, tower=button)
        else:
            action = Transmit(seat, tower=button)
        try:  # refuse the press now, with the reason
            self.clacks.clone().apply(self._parse(seat.label, action.to_json(), now))
        except IllegalAction as exc:
            raise exc.public() from None
        return seat.label, action.to_json()

    def refusal(self, seat: str | None, action: JSON, now: float) -> IllegalAction | None:
        try:
            parsed = self._parse(seat, action, now)
            self.clacks.clone().apply(parsed)
        except IllegalAction as exc:
            return exc
        return None

    def hint(self, seat: str, cancelled: Cancelled | None = None) -> JSON | None:
        """The solver's plan for ``seat`` (see engine.clacks.hints): ``goal``,
        ``tower``, ``complete``, ``cost``, ``wrong``, ``cards``, ``flips``, ``actions``
        and ``hopeless`` (every plan lets the Post Office reach Genua; this is the least
        bad); None in Long Distance, out of turn, or with nothing to do."""
        advice = self._advice(seat, cancelled)
        if advice.plan is None:
            return None
        return {**advice.plan.to_json(), "hopeless": advice.hopeless}

    def no_hint_reason(self, seat: str) -> str:
        return self._advice(seat).reason or HINT_NOTHING_TO_DO

    def hint_lamps(self, seat: str, cancelled: Cancelled | None = None) -> LampFrame | None:
        plan = self._advice(seat, cancelled).plan
        if plan is None:
            return None
        accent = tower(plan.tower).mask if plan.tower else 0
        return LampFrame(lit=self.clacks.state.board, preview=plan.lamps, accent=accent)

    def _advice(self, seat: str, cancelled: Cancelled | None = None) -> Advice:
        who = Seat.parse(seat)
        if who not in self.clacks.state.players:
            return Advice(None, HINT_NOT_YOUR_TURN)
        return advise(self.clacks.view(who), self.clacks.components, cancelled)

    def bot_levels(self) -> list[str]:
        return list(LEVELS)

    def bot_action(
        self, seat: str, level: str, now: float, cancelled: Cancelled | None = None
    ) -> JSON | None:
        """A bot's action for ``seat``, deterministic for a given game and moment: the
        bot is seeded from the game's seed, the seat and the number of actions so far."""
        who = Seat.parse(seat)
        if who not in self.clacks.state.players or self.over:
            return None
        state = self.clacks.state
        at = now if state.options.express else None
        legal = self.clacks.legal_actions(who, at)
        if not legal:
            return None
        seed = derive_seed(state.seed, "bot", who.label, len(self.clacks.log))
        bot = make_bot(level, self.clacks.components, seed, cancelled)
        action = bot.choose(self.clacks.view(who), legal)
        return None if action is None else action.to_json()

    def transmissions(self, events: list[JSON]) -> list[int]:
        return [tower(str(e["tower"])).mask for e in events if e.get("kind") == "transmitted"]

    def describe_event(self, event: JSON) -> str:
        return describe_event(event)


def describe_event(event: JSON) -> str:
    """One event as an English sentence for the terminal and the logs."""
    who = str(event.get("seat") or "the table").capitalize()
    kind = event.get("kind")
    texts: dict[str, str] = {
        "game_started": "The game begins.",
        "turn_started": f"{who}'s turn (round {event.get('round')}).",
        "moved": f"{who} moves to {event.get('to')} for {event.get('cost')} stress.",
        "dwarf_moved": f"The Deep Dwarf follows {who} to {event.get('to')}.",
        "jacquard_played": f"{who} plays the {event.get('name')} on "
        f"{' '.join(event.get('lamps') or [])} for {event.get('cost')} stress.",
        "fault_played": f"{who} plays the Fault Report {event.get('name')}.",
        "lamps_changed": f"Lamps flipped: {' '.join(event.get('lamps') or [])}.",
        "stress_changed": f"{who} may now spend {event.get('limit')} stress this turn.",
        "transmitted": f"{who} transmits {event.get('symbol')} from {event.get('tower')} "
        f"({event.get('progress')}/{event.get('length')}).",
        "message_complete": f"{who} has sent their whole message!",
        "sabotage_started": f"{who} may try to sabotage {str(event.get('target')).capitalize()}'s "
        f"last symbol at {event.get('tower')}.",
        "sabotage_succeeded": f"{who} sabotages {str(event.get('target')).capitalize()}'s last symbol!",
        "sabotage_failed": f"{who}'s sabotage fails.",
        "turn_ended": f"{who} ends the turn having spent {event.get('stress')} stress.",
        "drew_jacquards": f"{who} draws {_plural(event.get('count'), 'Jacquard')}.",
        "drew_faults": f"{who} draws {_plural(event.get('count'), 'Fault Report')}.",
        "bag_refilled": "The discard pile goes back into the bag.",
        "time_up": f"{who}'s time is up.",
        "clock_resumed": f"The companion is back: {who} has {event.get('left')} seconds left.",
        "discarded": f"{who} discards a Jacquard.",
        "round_completed": "The round is complete.",
        "game_won": f"{who} wins!",
        "undone": f"{who} takes back an action.",
        "post_office_moved": _post_office_text(event),
        "post_office_capped": "This turn the Post Office moves at most "
        f"{_plural(event.get('steps'), 'step')} in all.",
        "swapped": f"{who} swaps a Jacquard for the one on {event.get('slot')}"
        + (f" (+{event.get('cost')} stress)." if event.get("cost") else "."),
        "card_revealed": f"{who} reveals {event.get('name')}: {event.get('text')}",
        "card_cancelled": f"Emergency Repair cancels {event.get('card')}.",
        "repair_wasted": "The Emergency Repair is wasted.",
        "repair_waiting": "Emergency Repair stands by for the next card.",
        "card_ignored": "The second Clacks Technician does nothing.",
        "effect_started": f"For a round (turns {event.get('first_turn')} to "
        f"{event.get('last_turn')}): {event.get('effect')}.",
        "jacquard_passed": f"{who} passes a Jacquard to {str(event.get('to')).capitalize()}"
        + (" (drawn from the bag)." if event.get("drawn") else "."),
        "race_won": "The message reaches Genua before the Post Office: the team wins!",
        "race_lost": "The Post Office reaches Genua first: the team loses.",
    }
    if kind == "transmitted" and event.get("lit"):
        return f"{texts['transmitted']} Tower lit: {event.get('lit')}."
    return texts.get(str(kind), str(kind))


def _post_office_text(event: JSON) -> str:
    steps = int(event.get("steps") or 0)
    held = int(event.get("held") or 0)
    where = f"{event.get('position')}/{event.get('track')}"
    if steps < 0:
        text = f"The Post Office goes back {_plural(-steps, 'step')} ({where})."
    else:
        text = f"The Post Office moves {_plural(steps, 'step')} ({where})."
    return text + (f" {_plural(held, 'step')} held back." if held else "")


class ClacksModule(GameModule):
    name = "clacks"
    title = "Clacks"

    def api_notes(self) -> dict[str, str]:
        return {
            "options": "players or seats, express, long_message, quick, turn_seconds, words",
            "actions": "move, play_jacquard, play_fault, transmit, end_turn, discard; lamps "
            'as names like "b2"',
            "hint": "`goal`, `tower`, `complete`, `cost`, `wrong`, `cards`, `flips`, "
            "`actions` and `hopeless` (no plan keeps the Post Office from Genua: this is "
            "the least bad)",
        }

    def data_check(self) -> DataCheck:
        return DataCheck(self.title, data.FILES, data.default_data_path, data.check_path)

    def new(self, options: JSON, seed: int, now: float = 0.0) -> Session:
        """Options as in ``Options.from_json``, plus ``players`` (a count) to take the
        mode's usual seats; or ``tutorial`` (a lesson's name, ``SCRIPTS``) for the guided
        first game of a mode, whose deal is the lesson's own."""
        if not isinstance(options, dict):
            raise BadOptions(reason="not_object")
        if "tutorial" in options:
            return _tutorial(options, now)
        data = dict(options)
        players = data.pop("players", None)
        if players is not None and "seats" not in data:
            mode = data.get("mode", "competitive")
            if not isinstance(mode, str):
                raise BadOptions(reason="not_string", option="mode")
            if isinstance(players, bool) or not isinstance(players, int):
                raise BadOptions(reason="players_number", players=str(players))
            data["seats"] = [s.label for s in default_seats(mode, players)]
        if data.get("mode", "competitive") == "competitive":
            data.setdefault("start_time", now)
        return ClacksSession(ClacksGame.new(Options.from_json(data), seed))

    def replay(self, log: JSON) -> Session:
        # a Race to Genua lesson is over with its opening turns, the competitive one with its game
        race = isinstance(log, dict) and str(log.get("tutorial")) in RACE_SCRIPTS
        lesson = OpeningLesson if race else None
        return replay_lesson_or_game(
            log,
            SCRIPTS,
            self.title,
            lambda game: ClacksSession(ClacksGame.replay(game)),
            lesson,
        )

    def options_schema(self) -> JSON:
        def seats(mode: str) -> JSON:
            return {str(n): [s.label for s in ss] for n, ss in MODE_SEATS[mode].items()}

        # which edition's Clacks Cards are dealt: the table's language unless chosen
        word_list = {
            "word_list": {"choices": list(WORD_LISTS), "default": "en", "follows": "language"}
        }
        routes = {"route": {"choices": list(ROUTES), "default": "easy"}, **word_list}
        # own words as a lobby asks for them: one list per seat or one for the team; a
        # two-word message needs this many letters so SPACE and END make the route's towers
        map_words = {
            "words_per_list": 2,
            "message_letters": ROUTE_TOWERS - 2,
            "word_max_length": MAX_WORD_LENGTH,
        }
        return {
            "game": self.name,
            "modes": [
                {
                    "id": "competitive",
                    "title": "Competitive",
                    "players": [2, 3, 4],
                    "variants": ["express", "long_message", "quick", "balanced_start"],
                    "choices": word_list,
                    # the published setup unless the table ticks the house rule; the
                    # lobby shows the first seat's measured win rate beside it
                    "variant_figures": {"balanced_start": BALANCED_START_FIGURES},
                    "default_seats": seats("competitive"),
                    "words": "one list per seat: one word, two with long_message",
                    "word_lists": "seat",
                    "words_per_player": {"default": 1, "long_message": 2},
                    "word_max_length": MAX_WORD_LENGTH,
                    "turn_seconds": Options.turn_seconds,
                },
                {
                    "id": "coop",
                    "title": "Co-operative Race to Genua",
                    "players": [2, 3, 4],
                    "variants": ["long_distance", "night_shift"],
                    "choices": routes,
                    "default_seats": seats("coop"),
                    "hints_allowed": "not with long_distance",
                    "words": "one list of two words for the team, 10 letters together",
                    "word_lists": "team",
                    **map_words,
                },
                {
                    "id": "solitaire",
                    "title": "Solitaire Race to Genua",
                    "players": [1],
                    "variants": ["night_shift"],
                    "choices": routes,
                    "default_seats": seats("solitaire"),
                    "words": "one list of two words, 10 letters together",
                    "word_lists": "team",
                    **map_words,
                },
                {
                    "id": "junior",
                    "title": "Junior Race",
                    "players": [2],
                    "variants": [],
                    "choices": {
                        "route": {**routes["route"], "seat": "the red seat's route"},
                        **word_list,
                    },
                    "default_seats": seats("junior"),
                    "seating": "one red seat (south or north) and one green (west or east)",
                    "words": "one list of two words per seat, 10 letters together",
                    "word_lists": "seat",
                    **map_words,
                },
            ],
            "modes_order": list(MODES),
            "options": options_ranges(),
        }

    def reference(self) -> JSON:
        return clacks_reference()

    def tutorial_start(self, mode: str | None = None) -> JSON | None:
        """The lesson of ``mode`` (None: the competitive game, the box's first)."""
        if mode is None or mode == "competitive":
            return {"game": self.name, "options": {"tutorial": TUTORIAL}}
        lesson = RACE_LESSONS.get(mode)
        if lesson is None:
            return None
        return {"game": self.name, "options": {"tutorial": lesson.script.name}}


# every lesson, by name: the competitive game's and each Race to Genua mode's
RACE_SCRIPTS = {lesson.script.name: lesson for lesson in RACE_LESSONS.values()}
SCRIPTS = {**COMPETITIVE_SCRIPTS, **{name: lesson.script for name, lesson in RACE_SCRIPTS.items()}}


def _tutorial(options: JSON, now: float) -> Session:
    """The guided first game: the lesson's own seats, words and deal. The table's
    language (which edition's cards would be dealt) is all else it takes: the lesson
    deals its own words."""
    script = chosen_script(options, SCRIPTS, {"word_list"}, BadOptions)
    race = RACE_SCRIPTS.get(script.name)
    if race is not None:
        game = ClacksGame.new(Options.from_json(race.options), race.seed)
        return OpeningLesson(ClacksSession(game), script)
    data = {**TUTORIAL_OPTIONS, "start_time": now}
    game = ClacksGame.new(Options.from_json(data), TUTORIAL_SEED)
    return TutorialSession(ClacksSession(game), script)


def options_ranges() -> JSON:
    """Every option ``new`` takes with what it may be: a range (``min``, ``max``) or the
    allowed values (``choices``); anything else is refused naming them. Each mode's
    entry in the schema says which of them it uses."""
    flags = (
        "express",
        "long_message",
        "quick",
        "balanced_start",
        "long_distance",
        "night_shift",
    )
    defaults = Options()
    counts = sorted({n for by_count in MODE_SEATS.values() for n in by_count})
    return {
        "mode": {"choices": list(MODES), "default": defaults.mode},
        "players": {"type": "integer", "min": counts[0], "max": counts[-1], "per_mode": True},
        "seats": {"choices": [s.label for s in Seat], "distinct": True, "per_mode": True},
        "route": {"choices": list(ROUTES), "default": defaults.route},
        "word_list": {"choices": list(WORD_LISTS), "default": defaults.word_list},
        **{name: {"type": "bool", "default": getattr(defaults, name)} for name in flags},
        **{name: allowed.schema(getattr(defaults, name)) for name, allowed in RANGES.items()},
        "words": {
            "type": "word lists",
            "letters": "A-Z (diacritics are sent as the plain letter)",
            "word_min_length": 1,
            "word_max_length": MAX_WORD_LENGTH,
            "per_mode": True,
        },
        # the same words as typed (ŘEKA), kept from ``words`` when not given
        # the guided first game (engine.clacks.tutorial): with it, no other option
        "tutorial": {"choices": list(SCRIPTS)},
        "spellings": {
            "type": "word lists",
            "letters": "each word of words as typed, with its diacritics",
            "per_mode": True,
        },
    }


def clacks_reference() -> JSON:
    """The exchange's geometry and the alphabet card, as lamp names, for drawing."""
    components = load_components()
    return {
        "game": "clacks",
        "lamps": list(LAMP_NAMES),
        "seats": [
            {
                "id": seat.label,
                "colour": seat.colour.value,
                "shape": seat.colour.shape,
                # the board drawn from this seat: four rows, far side first, left to right
                "grid": [
                    [LAMP_NAMES[seat_view_cell(seat, r, c)] for c in range(4)] for r in range(4)
                ],
                "frames": {
                    name: [LAMP_NAMES[i] for i in reading_frame(seat, name)]
                    for name in towers_of(seat.colour)
                },
            }
            for seat in Seat
        ],
        "towers": [
            {
                "id": t.name,
                "colour": t.colour.value,
                "shape": t.colour.shape,
                "between": [t.name[:2], t.name[2:]],
                "lamps": lamps_of(t.mask),
            }
            for t in TOWERS.values()
        ],
        "alphabet": {
            symbol: format(pattern, "06b") for symbol, pattern in components.alphabet.items()
        },
        "jacquards": [
            {"design": d.id, "name": d.name, "cost": d.cost, "holes": d.picture()}
            for d in {j.design.id: j.design for j in components.jacquards.values()}.values()
        ],
    }
