"""The planner bot: plays the exact solver's plan.

Each turn it asks the solver for the cheapest way to send its next symbol (or, as a
saboteur, to darken the finisher's tower). When the Jacquards alone cannot do it, it
tries its Fault Reports: those that flip lamps join the search as extra pieces, and each
other card it could play is tried by solving the puzzle as the card would leave it. When
nothing completes the symbol it follows the plan that leaves the fewest wrong lamps.

Out of turn it defends: against a saboteur of its last symbol, and against a player
about to send their own last one, it plays what hinders them (fewer stress points, all
lamps on).

Its thinking is bounded by ``max_solves`` solver calls per decision, and all of them
together by ``PLANNER_STEPS`` steps of work (engine.core.budget), whatever the hand and
the options: once they are spent it plays the best it has found.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.clacks.actions import Action, Discard, EndTurn, PlayFault
from engine.clacks.bots.base import Bot, View, is_my_turn, my_seat, pick_legal, player
from engine.clacks.components import ComponentSet
from engine.clacks.geometry import (
    Seat,
    lamps_of,
    mask_of,
    read_pattern,
    tower,
)
from engine.clacks.hints import discard_plan
from engine.clacks.mode_state import TEAM_MODES
from engine.clacks.own_faults import fault_outcomes as _fault_outcomes
from engine.clacks.puzzle import DARKEN, puzzle_from_view
from engine.clacks.solver import SOLVE_STEPS, STRESS_FIRST, WRONG_FIRST, Plan, Solution, solve
from engine.core.budget import Cancelled, WorkBudget

# Fault effects the planner tries before its turn's work, most expendable first.
OWN_TURN_EFFECTS = ("stress_bonus", "free_move", "set_tower", "light_all")
# Kept for Last Letter Sabotage (darkening a tower outright; all lamps on against a
# saboteur) unless they win the game now.
HELD_FOR_SABOTAGE = ("set_tower", "light_all")
PLANNER_STEPS = 4 * SOLVE_STEPS  # the work of one decision, all its solves together


class PlannerBot(Bot):
    level = "planner"

    def __init__(
        self,
        components: ComponentSet,
        seed: int = 0,
        cancelled: Cancelled | None = None,
        max_solves: int = 48,
        steps: int = PLANNER_STEPS,
    ) -> None:
        super().__init__(components, seed, cancelled)
        self.max_solves = max_solves
        self.steps = steps
        self.work = WorkBudget(steps, cancelled)

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        self.work = WorkBudget(self.steps, self.cancelled)  # each decision its own
        if not is_my_turn(view):
            return self._defend(view, legal)
        if view["turn"].get("phase") == "timeout_discard":
            return self._discard(view, legal)
        for wanted in self.plan(view)[:1]:
            found = pick_legal(wanted, legal)
            if found is not None:
                return found
        ends = [a for a in legal if isinstance(a, EndTurn)]
        return ends[0] if ends else legal[0]

    # ------------------------------------------------------------ own turn

    def plan(self, view: View) -> list[Action]:
        """The rest of this turn as the planner means to play it."""
        puzzle = puzzle_from_view(view, self.components, work=self.work)
        if puzzle is None:
            return []
        if puzzle.goal == DARKEN:
            routes = self._sabotage_routes(view)
            if routes:
                return routes
        team = view["mode"] in TEAM_MODES
        # in co-op every stress point moves the Post Office: when the symbol cannot be
        # sent, spend as little as the rules allow
        base = solve(puzzle, prefer=STRESS_FIRST if team else WRONG_FIRST, budget=self.work)
        if base.plan is not None:
            return base.plan.actions()
        if view["mode"] != "competitive":
            best = base.best
            return best.actions() if best is not None else []
        solves = 1
        for prefix, variant, with_faults in self._fault_variants(view):
            if solves >= self.max_solves:
                break
            solves += 1
            solution = self._solve_view(variant, with_faults)
            if solution is not None and solution.plan is not None:
                return [*prefix, *solution.plan.actions()]
        best = base.best
        return best.actions() if best is not None else []

    def _sabotage_routes(self, view: View) -> list[Action]:
        """Darken the finisher's tower in the way that best lets the seat go on to send its
        own next symbol in the same turn (the saboteur's turn continues, ruling 7)."""
        routes: list[tuple[tuple[int, int, int, int], list[Action]]] = []
        solves = 0
        seen: set[tuple[str, ...]] = set()
        for with_faults in (False, True):
            puzzle = puzzle_from_view(view, self.components, with_faults, self.work)
            if puzzle is None:
                return []
            pieces = puzzle.pieces
            if not self.work.spend(1 << len(pieces)):
                break  # too many cards to weigh every set of them
            subsets = sorted(
                (
                    tuple(p for i, p in enumerate(pieces) if bits >> i & 1)
                    for bits in range(1, 1 << len(pieces))
                ),
                key=lambda sub: (sum(p.cost for p in sub), len(sub)),
            )
            for subset in subsets:
                key = tuple(sorted(p.id for p in subset))
                if key in seen or solves + 2 > self.max_solves:
                    continue
                seen.add(key)
                solves += 1
                darken = solve(
                    dataclasses.replace(puzzle, pieces=subset), partial=False, budget=self.work
                ).plan
                if darken is None or len(darken.plays) != len(subset):
                    continue  # not possible, or found already with fewer cards
                solves += 1
                routes.append(self._route(darken.actions(), _after_plan(view, darken)))
        for card in view["you"]["faults"]:
            if card["effect"] == "set_tower" and not card["params"]["lit"]:
                target = view["sabotage"]["tower"]
                play = PlayFault(my_seat(view), card=card["id"], tower=target)
                for action, after in _fault_outcomes(view, my_seat(view), card):
                    if action == play:
                        routes.append(self._route([play], _after_sabotage(after, [card["id"]])))
                break
        if not routes:
            return []
        return min(routes, key=lambda r: r[0])[1]

    def _route(
        self, darkening: list[Action], after: View
    ) -> tuple[tuple[int, int, int, int], list[Action]]:
        """Rank a way to darken by what can follow it: sending the symbol first, then
        fewest Fault Reports spent, then least stress, then fewest cards."""
        follow = self._solve_view(after)
        rest = follow.plan.actions() if follow is not None and follow.plan is not None else []
        actions = [*darkening, *rest]
        faults = sum(1 for a in actions if isinstance(a, PlayFault))
        stress = int(after["turn"]["stress_spent"]) + (
            follow.plan.cost if rest and follow and follow.plan else 0
        )
        return (
            (0 if rest else 1, faults, stress, len(actions)),
            darkening if not rest else actions,
        )

    def _solve_view(self, view: View, with_faults: bool = False) -> Solution | None:
        puzzle = puzzle_from_view(view, self.components, with_faults, self.work)
        return None if puzzle is None else solve(puzzle, partial=False, budget=self.work)

    def _fault_variants(self, view: View) -> list[tuple[list[Action], View, bool]]:
        """Ways the seat's Fault Reports could change its puzzle: (the fault to play first,
        the view as it would then be, whether lamp-flipping Faults join the search)."""
        seat = my_seat(view)
        me = player(view, seat)
        faults = view["you"]["faults"]
        final = view["turn"]["phase"] == "sabotage" or me["progress"] == len(me["message"]) - 1
        variants: list[tuple[list[Action], View, bool]] = []
        if any(card["effect"] == "flip_lamps" for card in faults):
            variants.append(([], view, True))
        for effect in OWN_TURN_EFFECTS:
            for card in faults:
                if card["effect"] != effect or card["when"] == "others_turn":
                    continue
                if effect in HELD_FOR_SABOTAGE and not final:
                    continue
                for action, after in _fault_outcomes(view, seat, card):
                    variants.append(([action], after, False))
                break  # copies of one card behave alike
        return variants

    def _discard(self, view: View, legal: list[Action]) -> Action:
        """Out of time before playing: discard the card the seat will miss least, judged
        by how well the rest would do from here (the hint's own choice)."""
        discards = [a for a in legal if isinstance(a, Discard)]
        chosen = discard_plan(view, self.components, self.work).discard
        return next((a for a in discards if a.jacquard == chosen), discards[0])

    # ------------------------------------------------------------ other players' turns

    def _defend(self, view: View, legal: list[Action]) -> Action | None:
        turn = view["turn"]
        seat = my_seat(view)
        current = Seat.parse(turn["seat"])
        them = player(view, current)
        fresh_turn = turn["stress_spent"] == 0 and turn["jacquards_played"] == 0
        faults = [a for a in legal if isinstance(a, PlayFault)]
        effects = {c["id"]: c for c in view["you"]["faults"]}
        sabotage = view["sabotage"]
        if turn["phase"] == "sabotage" and sabotage and sabotage["target"] == seat.label:
            lit = (int(view["board"]) & tower(sabotage["tower"]).mask).bit_count()
            for action in faults:
                effect = effects[action.card]["effect"]
                if effect == "stress_penalty" and fresh_turn:
                    return action
                if effect == "light_all" and lit < 6 and (fresh_turn or lit <= 3):
                    return action
            return None
        if turn["phase"] != "play" or current is seat:
            return None
        me = player(view, seat)
        last_symbol = them["progress"] == len(them["message"]) - 1
        if not (last_symbol or them["progress"] > me["progress"]):
            return None  # only the leader, or a player about to finish, is worth a card
        if fresh_turn:
            for action in faults:
                if effects[action.card]["effect"] == "stress_penalty":
                    return action
        return self._break_pattern(view, current, them, faults, effects)

    def _break_pattern(
        self,
        view: View,
        current: Seat,
        them: dict[str, Any],
        faults: list[PlayFault],
        effects: dict[str, dict[str, Any]],
    ) -> Action | None:
        """When the player in turn could transmit right now, spoil their pattern with a
        Fault Report before they do (ruling 6: Faults may be played between any two
        actions): lamps of their tower flipped, or all lamps on."""
        pawn, symbol = them["pawn"], them["next_symbol"]
        turn = view["turn"]
        if pawn is None or symbol is None or pawn == them["must_leave"]:
            return None
        board = int(view["board"])
        mask = tower(pawn).mask
        ready = (
            turn["jacquards_played"] > 0
            and read_pattern(board, current, pawn) == self.components.pattern(symbol)
            and bool(mask_of(turn["flipped"]) & mask)
        )
        if not ready:
            return None
        # a Fault that darkens a tower is kept for a sure sabotage; all lamps on is kept
        # to defend against one, unless this is the player's last symbol
        last_symbol = them["progress"] == len(them["message"]) - 1
        preference = {"flip_lamps": 0, "light_all": 1} if last_symbol else {"flip_lamps": 0}
        spoilers = []
        for action in faults:
            effect = effects[action.card]["effect"]
            if effect == "flip_lamps" and action.lamps & ~mask:
                continue
            if effect in preference:
                spoilers.append((preference[effect], action.card, action.lamps, action))
        return min(spoilers, key=lambda s: s[:3])[3] if spoilers else None


def _after_plan(view: View, plan: Plan) -> View:
    """The view once ``plan``'s cards are played (a sabotage that darkens its tower)."""
    board = int(view["board"])
    union = 0
    for _, lamps in plan.plays:
        board ^= lamps
        union |= lamps
    turn = view["turn"]
    jacquards = sum(1 for piece, _ in plan.plays if piece.kind == "jacquard")
    after = {
        **view,
        "board": board,
        "turn": {
            **turn,
            "stress_spent": turn["stress_spent"] + plan.cost - plan.move_cost,
            "jacquards_played": turn["jacquards_played"] + jacquards,
            "flipped": lamps_of(mask_of(turn["flipped"]) | union),
        },
    }
    return _after_sabotage(after, list(plan.cards))


def _after_sabotage(view: View, used: list[str]) -> View:
    """The view once the finisher's tower is dark: an ordinary turn goes on (ruling 7)."""
    you = view["you"]
    return {
        **view,
        "sabotage": None,
        "turn": {**view["turn"], "phase": "play", "can_move": True},
        "you": {
            **you,
            "hand": [c for c in you["hand"] if c["id"] not in used],
            "faults": [c for c in you["faults"] if c["id"] not in used],
        },
    }
