"""Random-report games: the companion played by players who report at random.

There are no bots for Guards! Guards! (the pieces are on a real board), so the engine is
exercised the way a table uses it: at every step some player sends a report drawn from
what their phone offers (``legal_forms``), its fields filled at random (cards typed with
random values, quadrants, prices, runners), and now and then a report that makes no
sense at all. After each step the game's invariants are checked:

- nobody's dollars below nothing, every attribute within its table, at most five Great
  Spells returned (and no more than the game's goal);
- every card in exactly one place, and every hand, pile and Saboteur agreeing with it;
- a refused report leaves the game exactly as it was;
- no seat's view holds another player's hand, Scrolls, Items or Saboteurs' quadrants.

At the end the game's log is replayed and must give the same state.
"""

from __future__ import annotations

import json
import pickle
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.rng import Rng, derive_seed
from engine.guards.actions import SCHEMAS, action_from_json
from engine.guards.cards import DECKS, SKILLS
from engine.guards.data import QUADRANTS
from engine.guards.forms import legal_forms
from engine.guards.game import GuardsGame
from engine.guards.options import GuardsOptions
from engine.guards.state import GameState, Player

NAMES = ("Nobby", "Colon", "Carrot", "Angua", "Detritus", "Cheery", "Dibbler", "Gaspode", "Sybil", "Wonse",
         "Ridcully", "Ponder", "Igor", "Reg Shoe", "Mrs Cake")


class InvariantBroken(AssertionError):
    """A random game reached a state the rules should never allow."""


@dataclass
class Outcome:
    seed: int
    players: int
    spells: int
    actions: int
    refused: int
    ending: str | None
    winners: list[str]
    events: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)  # rule codes of refused reports


class Reporter:
    """Fills a form's fields at random, as a careless but honest player would."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def chance(self, percent: int) -> bool:
        return self.rng.below(100) < percent

    def pick(self, options: list[Any]) -> Any:
        return options[self.rng.below(len(options))]

    def volunteer(self, deck: str) -> dict[str, Any]:
        r = self.rng.below
        return {
            "name": f"{self.pick(list(NAMES))} {r(100)}",
            "deck": deck,
            "charm": 1 + r(10),
            "bribe": None if self.chance(15) else r(7),
            "loyalty": r(6), "streetwise": r(6), "brawl": r(6), "toughness": r(6),
            "luggage": r(5),
            "bonus": {self.pick(["magic", "guild", "charm"]): self.pick([-1, 1])} if self.chance(20) else {},
            "dollars": r(3) if self.chance(15) else 0,
            "scrolls": 1 if self.chance(10) else 0,
            "items": 1 if self.chance(10) else 0,
            "anti_magic": r(3) if self.chance(10) else 0,
            "brethren": self.chance(35),
            "wanted": self.chance(20),
            "infectious": self.chance(10),
            "fate": self.chance(15),
        }  # fmt: skip

    def value(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        """(give it, its value) for one field."""
        kind = spec["kind"]
        if spec.get("optional", False) and self.chance(40):
            return False, None
        fill = _FILLS.get(kind)
        if fill is None:
            raise ValueError(f"no way to fill a field of kind {kind!r}")
        return fill(self, spec, chosen)

    def _fixed(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        return True, spec["value"]

    def _choice(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        options = spec.get("options")
        if not options:
            return False, None
        option = self.pick(options)
        return True, option["uid"] if isinstance(option, dict) else option

    def _cards(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        uids = [o["uid"] for o in spec.get("options") or []]
        self.rng.shuffle(uids)
        low, high = spec.get("min", 0), min(spec.get("max", len(uids)), len(uids))
        if high < low:
            return True, uids[:low]
        return True, uids[: low + self.rng.below(high - low + 1)]

    def _items(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        runners = chosen.get(spec["runners"]) or []
        items = [o["uid"] for o in spec.get("options") or []]
        self.rng.shuffle(items)
        pairs = {r: i for r, i in zip(runners, items, strict=False) if self.chance(50)}
        return bool(pairs), pairs

    def _quadrants(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        quadrants = list(spec.get("options") or QUADRANTS)
        self.rng.shuffle(quadrants)
        return True, quadrants[: self.rng.below(len(quadrants) + 1)]

    def _int(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        # prices, payments and adjustments near what a table would really report
        low, high = spec.get("min", 0), spec.get("max", 9)
        if spec["name"] == "price":
            high = min(high, 6)
        if spec["name"] == "dollars" and low < 0:
            low, high = -3, 6
        if spec["name"] == "by":
            low, high = -1, 1
        return True, low + self.rng.below(high - low + 1)

    def _bool(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        return True, self.chance(50)

    def _text(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        return True, self.pick(list(NAMES))

    def _points(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        return True, {self.pick(["magic", "guild", "charm"]): self.rng.below(3)}

    def _volunteer(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        deck = chosen.get("deck") or (spec.get("known") and next(iter(spec["known"])))
        source = chosen.get("source")
        if source == "display" and spec.get("face_up", {}).get(deck):
            return False, None
        known = spec.get("known", {}).get(deck, [])
        if known and self.chance(50):
            return True, ("card", self.pick(known)["uid"])
        return True, ("values", self.volunteer(deck or self.pick(list(DECKS))))

    def _dragon(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        if spec.get("known") and (self.chance(60) or not spec.get("can_type")):
            return True, ("dragon", self.pick(spec["known"])["uid"])
        return True, ("values", {"name": f"Dragon {self.rng.below(99)}", "toughness": 6 + self.rng.below(20),
                                 "brawl": 2 + self.rng.below(8)})

    def _scroll_values(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        return True, {"target": 2 + self.rng.below(10)}

    def _card_values(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        scroll = str(chosen.get("card", "")).startswith(("s", "cs-"))
        return True, ({"target": 2 + self.rng.below(10)} if scroll
                      else {"bonus": {self.pick(list(SKILLS)): self.rng.below(3)}})

    def _nothing(self, spec: dict[str, Any], chosen: dict[str, Any]) -> tuple[bool, Any]:
        return False, None

    def action(self, spec: dict[str, Any]) -> dict[str, Any]:
        chosen: dict[str, Any] = {"type": spec["type"]}
        for f in spec["fields"]:
            give, value = self.value(f, chosen)
            if not give:
                continue
            if isinstance(value, tuple):  # a card named, or typed
                chosen[value[0]] = value[1]
            else:
                chosen[f["name"]] = value
        if spec["type"] == "adjust":
            chosen.pop("dollars" if self.chance(50) else "attribute", None)
        return chosen

    def nonsense(self, seats: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        """A report that makes little sense: a random type with random fields."""
        kind = self.pick(sorted(SCHEMAS))
        action: dict[str, Any] = {"type": kind}
        for name, (field_kind, _) in SCHEMAS[kind].items():
            if self.chance(50):
                action[name] = {
                    "seat": self.pick(list(seats)), "quadrant": self.pick(list(QUADRANTS)),
                    "deck": self.pick(list(DECKS)), "attribute": self.pick(["magic", "guild", "charm"]),
                    "int": self.rng.below(20) - 5, "bool": self.chance(50), "text": "display",
                    "uid": f"v{self.rng.below(5)}", "uids": [f"v{self.rng.below(5)}"],
                    "quadrants": [self.pick(list(QUADRANTS))], "values": {"target": 3},
                    "items": {}, "points": {"magic": 1},
                }[field_kind]
        return self.pick(list(seats)), action


Fill = Callable[[Reporter, dict[str, Any], dict[str, Any]], tuple[bool, Any]]
# a field's kind -> how the reporter fills it in
_FILLS: dict[str, Fill] = {
    "fixed": Reporter._fixed,
    "choice": Reporter._choice,
    "guild_card": Reporter._choice,
    "cards": Reporter._cards,
    "items": Reporter._items,
    "quadrants": Reporter._quadrants,
    "int": Reporter._int,
    "bool": Reporter._bool,
    "text": Reporter._text,
    "points": Reporter._points,
    "volunteer": Reporter._volunteer,
    "dragon": Reporter._dragon,
    "scroll_values": Reporter._scroll_values,
    "card_values": Reporter._card_values,
    "guild_values": Reporter._nothing,  # a Guild Card's values are never typed at random
}


def fingerprint(state: GameState) -> bytes:
    """The whole state but its (unchanging) options, compactly, to tell a change."""
    return pickle.dumps([v for k, v in vars(state).items() if k != "options"], protocol=pickle.HIGHEST_PROTOCOL)


def check_invariants(state: GameState) -> None:
    problems = [
        *(p for seat, player in state.players.items() for p in _player_problems(state, seat, player)),
        *_card_problems(state),
    ]
    if problems:
        raise InvariantBroken("; ".join(problems))


def _player_problems(state: GameState, seat: str, player: Player) -> list[str]:
    """One player's money, attributes, spells and Saboteurs, and where their cards lie."""
    problems = []
    goal = state.options.spells
    if player.dollars < 0:
        problems.append(f"{seat} has ${player.dollars}")
    if player.card is not None:
        for attribute, value in player.base.items():
            if not 0 <= value <= player.card.top[attribute]:
                problems.append(f"{seat}'s {attribute} is {value}, off its table")
    if len(player.returned) > min(5, goal) or len(set(player.returned)) != len(player.returned):
        problems.append(f"{seat} has returned {player.returned}")
    if len(player.planted) > 4:
        problems.append(f"{seat} has {len(player.planted)} Saboteurs")
    placed = [(uid, f"hand:{seat}", "is in {seat}'s hand") for uid in (*player.hand, *player.scrolls, *player.items)]
    placed += [(uid, f"planted:{seat}:{quadrant}", "is planted") for quadrant, uid in player.planted.items()]
    if player.run is not None:
        placed += [(uid, f"run:{seat}", "runs") for uid in player.run.runners]
    for uid, place, how in placed:
        if state.cards[uid].place != place:
            problems.append(f"{uid} {how.format(seat=seat)} but its place is {state.cards[uid].place}")
    return problems


def _card_problems(state: GameState) -> list[str]:
    """Every card in one place at most, and no deck or supply below nothing."""
    problems = []
    listed = Counter(
        uid
        for player in state.players.values()
        for uid in (*player.hand, *player.scrolls, *player.items, *player.planted.values(),
                    *(player.run.runners if player.run else ()))
    )
    listed.update(u for pile in state.display.values() for u in pile if u is not None)
    listed.update(u for pile in state.discards.values() for u in pile)
    listed.update(state.dragons.values())
    if state.fight is not None:
        listed.update(u for sent in state.fight.sent.values() for u in sent)
    twice = [u for u, n in listed.items() if n > 1]
    if twice:
        problems.append(f"cards in two places: {twice}")
    for deck in DECKS:
        if state.deck_left[deck] < 0:
            problems.append(f"the {deck} deck holds {state.deck_left[deck]}")
    for kind, count in state.supply.items():
        if count < 0:
            problems.append(f"{count} {kind} cards in the decks")
    return problems


def check_privacy(game: GuardsGame) -> None:
    """No seat's view (and not the table's) names another player's private cards or where
    their Saboteurs are."""
    state = game.state
    for viewer in (None, *state.seats):
        view = game.view(viewer)
        text = json.dumps(view)
        for seat, player in state.players.items():
            if seat == viewer:
                continue
            for uid in (*player.hand, *player.scrolls, *player.items, *player.planted.values()):
                if f'"{uid}"' in text:
                    raise InvariantBroken(f"{viewer or 'the table'} sees {seat}'s card {uid}")
            public = next(p for p in view["players"] if p["seat"] == seat)
            if not isinstance(public["saboteurs"], int) or "saboteurs" in json.dumps(public["run"] or {}):
                raise InvariantBroken(f"{viewer or 'the table'} sees {seat}'s Saboteurs")
        you = view["you"]
        if viewer is None and you is not None:
            raise InvariantBroken("the table's view has a seat's private part")
        if you is not None and you["seat"] != viewer:
            raise InvariantBroken(f"{viewer} sees {you['seat']}'s private part")


def play_random_game(
    seed: int, max_actions: int = 250, nonsense: int = 8, check_every: int = 50,
    players: int | None = None, spells: int | None = None,
) -> Outcome:
    """One game of random reports from ``seed`` (players and spells drawn from it unless
    given); raises InvariantBroken, naming the seed, on a broken rule."""
    try:
        return _play(seed, max_actions, nonsense, check_every, players, spells)
    except InvariantBroken as exc:
        raise InvariantBroken(f"game {seed}: {exc}") from exc


def _play(
    seed: int, max_actions: int, nonsense: int, check_every: int, players: int | None, spells: int | None
) -> Outcome:
    pick = Rng(derive_seed(seed, "guards-simulation"))
    players = players or 2 + pick.below(5)
    spells = spells or 1 + pick.below(5)
    options = GuardsOptions.from_json({"players": players, "spells": spells, "cap_eights": pick.below(4) == 0,
                                       "anti_magic_sum": pick.below(4) == 0})
    game = GuardsGame.new(options, seed)
    reporter = Reporter(pick)
    outcome = Outcome(seed, players, spells, 0, 0, None, [])
    steps = 0
    while not game.over and steps < max_actions:
        steps += 1
        state = game.state
        if reporter.chance(nonsense):
            seat, action = reporter.nonsense(state.seats)
            before = fingerprint(state)
            try:
                events = game.apply(action_from_json(action, seat))
            except IllegalAction:
                outcome.refused += 1
                if fingerprint(game.state) != before:
                    raise InvariantBroken(f"a refused {action['type']} changed the game") from None
                continue
        else:
            seats = active(game)
            seat = reporter.pick(seats)
            forms = legal_forms(state, seat)
            if not forms:
                continue
            spec = choose_form(reporter, forms)
            action = reporter.action(spec)
            try:
                events = game.apply(action_from_json(action, seat))
            except IllegalAction as exc:
                outcome.refused += 1
                outcome.refusals[f"{action['type']}:{exc.rule}"] += 1
                continue
        outcome.actions += 1
        outcome.events.update(e.kind for e in events)
        check_invariants(game.state)
        if steps % check_every == 0:
            check_privacy(game)
    if not game.over:
        game.apply(action_from_json({"type": "stop_game"}, game.seats[0]))
    check_invariants(game.state)
    check_privacy(game)
    replayed = GuardsGame.replay(json.loads(json.dumps(game.log_to_json())))
    if replayed.state.to_json() != game.state.to_json():
        raise InvariantBroken(f"game {seed}: the replayed log is not the same game")
    outcome.ending = game.state.ending
    outcome.winners = list(game.state.winners)
    return outcome


def active(game: GuardsGame) -> list[str]:
    state = game.state
    if state.phase == "setup":
        waiting = [s for s, p in state.players.items() if p.card is None or len(p.dealt) < 2]
        return waiting or list(state.seats)
    top = state.top
    if top is not None and top.seats:
        # mostly whoever is asked; sometimes someone else reacts
        return list(top.seats) * 4 + list(state.seats)
    turn = state.turn
    return [turn.seat] * 6 + list(state.seats) if turn else list(state.seats)


# how much more often a careless player picks a report of each group, and of some types
WEIGHTS = {"now": 40, "setup": 40, "start": 6, "stop": 6, "pass": 3, "free": 1, "react": 2, "track": 1, "end": 5}
TYPES = {"stop_game": 0, "miss_turn": 0, "arrested": 0, "luggage_hit": 0, "call": 1, "spell_run": 30,
         "collect_final": 30, "at_gate": 40, "reattempt": 40, "plant": 12, "summon": 8}


def choose_form(reporter: Reporter, forms: list[dict[str, Any]]) -> dict[str, Any]:
    # a greyed report is not sent: a tap on it only asks the rules why
    forms = [f for f in forms if not f.get("out")] or forms
    weights = [TYPES.get(f["type"], WEIGHTS.get(f["group"], 1)) for f in forms]
    weights = [w if w else (1 if reporter.chance(2) else 0) for w in weights]
    total = sum(weights)
    if total <= 0:
        return forms[0]
    at = reporter.rng.below(total)
    for spec, weight in zip(forms, weights, strict=True):
        at -= weight
        if at < 0:
            return spec
    return forms[-1]


def simulate(
    games: int, seed: int, max_actions: int = 250, players: int | None = None, spells: int | None = None
) -> dict[str, Any]:
    outcomes = [play_random_game(seed + i, max_actions, players=players, spells=spells) for i in range(games)]
    endings = Counter(o.ending for o in outcomes)
    events: Counter[str] = Counter()
    for outcome in outcomes:
        events.update(outcome.events)
    return {
        "game": "guards",
        "games": games,
        "seed": seed,
        "endings": dict(endings),
        "actions_per_game": round(sum(o.actions for o in outcomes) / games, 1),
        "refused_per_game": round(sum(o.refused for o in outcomes) / games, 1),
        "players": dict(sorted(Counter(o.players for o in outcomes).items())),
        "won_by_spells": sum(1 for o in outcomes if o.ending == "spells"),
        "rolls": events["rolled"],
        "spells_returned": events["spell_returned"],
        "dragons_summoned": events["dragon_summoned"],
        "events": dict(sorted(events.items())),
    }
