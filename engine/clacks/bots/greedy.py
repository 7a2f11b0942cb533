"""The greedy bot: one step at a time, whatever looks best right now.

It moves (once, at the start of its turn) to the tower that is fewest lamps away from its
next symbol, then lays the single Jacquard that leaves the fewest wrong lamps, as long as
that helps, and transmits the moment it can. It darkens a sabotaged tower the same way.
"""

from __future__ import annotations

from engine.clacks import actions
from engine.clacks.bots.base import (
    Bot,
    View,
    is_my_turn,
    my_seat,
    player,
    symbol_to_send,
    wrong_lamps,
)
from engine.clacks.geometry import tower, towers_of


class GreedyBot(Bot):
    level = "greedy"

    def choose(self, view: View, legal: list[actions.Action]) -> actions.Action | None:
        if not legal or not is_my_turn(view):
            return None
        turn = view["turn"]
        if turn.get("phase") == "timeout_discard":
            return self._discard(view, legal)
        for action in legal:
            if isinstance(action, actions.Transmit):
                return action
        ends = [a for a in legal if isinstance(a, actions.EndTurn)]
        if turn.get("phase") == "sabotage":
            return self._sabotage(view, legal) or (ends[0] if ends else legal[0])
        if view["mode"] != "competitive":
            return self._play_on_any_tower(view, legal) or (ends[0] if ends else legal[0])
        return self._play(view, legal) or (ends[0] if ends else legal[0])

    def _play_on_any_tower(self, view: View, legal: list[actions.Action]) -> actions.Action | None:
        """The map games: the Jacquard that brings any of the seat's towers closest."""
        seat = my_seat(view)
        symbol = symbol_to_send(view, seat)
        plays = [a for a in legal if isinstance(a, actions.PlayJacquard)]
        if symbol is None or not plays:
            return None
        board = int(view["board"])

        def nearest(lamps: int) -> int:
            return min(
                wrong_lamps(self.components, lamps, seat, name, symbol)
                for name in towers_of(seat.colour)
            )

        costs = {card["id"]: card["cost"] for card in view["you"]["hand"]}
        scored = [
            (nearest(board ^ a.lamps), costs[a.jacquard], a.jacquard, a.lamps, a) for a in plays
        ]
        best = min(scored, key=lambda s: s[:4])
        if best[0] < nearest(board) or view["turn"]["jacquards_played"] == 0:
            return best[4]
        return None

    def _discard(self, view: View, legal: list[actions.Action]) -> actions.Action:
        costs = {card["id"]: card["cost"] for card in view["you"]["hand"]}
        discards = [a for a in legal if isinstance(a, actions.Discard)]
        return max(discards, key=lambda a: (costs.get(a.jacquard, 0), a.jacquard))

    def _sabotage(self, view: View, legal: list[actions.Action]) -> actions.Action | None:
        target = view["sabotage"]["tower"]
        mask = tower(target).mask
        board = int(view["board"])
        for action in legal:
            if isinstance(action, actions.PlayFault) and action.tower == target:
                card = next(c for c in view["you"]["faults"] if c["id"] == action.card)
                if card["effect"] == "set_tower" and not card["params"].get("lit"):
                    return action
        plays = [a for a in legal if isinstance(a, actions.PlayJacquard)]
        if not plays:
            return None
        best = min(plays, key=lambda a: (((board ^ a.lamps) & mask).bit_count(), a.jacquard))
        if ((board ^ best.lamps) & mask).bit_count() < (board & mask).bit_count():
            return best
        return None

    def _play(self, view: View, legal: list[actions.Action]) -> actions.Action | None:
        seat = my_seat(view)
        me = player(view, seat)
        symbol = me["next_symbol"]
        turn = view["turn"]
        board = int(view["board"])
        if symbol is None:
            return None
        pawn = me["pawn"]
        moves = [a for a in legal if isinstance(a, actions.Move)]
        if moves and pawn == turn["start_tower"] and turn["jacquards_played"] == 0:
            options: list[tuple[int, int, str, actions.Action | None]] = []
            if pawn is not None and pawn != me["must_leave"]:
                options.append(
                    (wrong_lamps(self.components, board, seat, pawn, symbol), 0, pawn, None)
                )
            for move in moves:
                cost = 0 if pawn is None else tower(pawn).distance(tower(move.tower))
                wrong = wrong_lamps(self.components, board, seat, move.tower, symbol)
                options.append((wrong, cost, move.tower, move))
            if options:
                choice = min(options, key=lambda o: o[:3])[3]
                if choice is not None:
                    return choice
        if pawn is None:
            return None
        now = wrong_lamps(self.components, board, seat, pawn, symbol)
        plays = [a for a in legal if isinstance(a, actions.PlayJacquard)]
        if plays:
            costs = {card["id"]: card["cost"] for card in view["you"]["hand"]}
            scored = [
                (
                    wrong_lamps(self.components, board ^ a.lamps, seat, pawn, symbol),
                    costs[a.jacquard],
                    a.jacquard,
                    a.lamps,
                    a,
                )
                for a in plays
            ]
            best = min(scored, key=lambda s: s[:4])
            if best[0] < now or turn["jacquards_played"] == 0:
                return best[4]
        return None
