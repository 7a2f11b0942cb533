"""The competitive game's rules: setup, validation and effects of each action.

Every handler checks everything before it changes anything, so a rejected action leaves
the state exactly as it was. Rulings from the project's reference are cited as "ruling N".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

from engine.clacks import actions
from engine.clacks import errors as E
from engine.clacks.base_rules import BaseRules, message_for
from engine.clacks.components import Card, ComponentSet
from engine.clacks.effects import COMPETITIVE_EFFECTS, Target, Timing
from engine.clacks.events import Event, event
from engine.clacks.geometry import (
    FULL_BOARD,
    TOWER_LIST,
    TOWER_NAMES,
    Seat,
    lamps_of,
    tower,
    towers_of,
)
from engine.clacks.state import ClacksState, Options, PlayerState, Sabotage, TurnState
from engine.core.errors import IllegalAction
from engine.core.hidden import unusable

__all__ = ["CompetitiveRules", "message_for"]


class CompetitiveRules(BaseRules):
    """The competitive game for 2 to 4 players with its three variants."""

    def __init__(self, components: ComponentSet) -> None:
        super().__init__(components, {
            actions.Move: self._move,
            actions.PlayJacquard: self._play_jacquard,
            actions.PlayFault: self._play_fault,
            actions.Transmit: self._transmit,
            actions.EndTurn: self._end_turn_action,
            actions.TimeUp: self._time_up,
            actions.ResumeClock: self._resume_clock,
            actions.Discard: self._discard,
        })

    # ----------------------------------------------------------------- setup

    def setup(self, options: Options, seed: int, legacy: bool = False) -> ClacksState:
        rng, players, fault_deck, bag = self.deal_seats(options, seed, legacy)
        for seat in options.seats:
            players[seat].faults.append(fault_deck.pop(0))
        for seat in options.seats:  # the opening deal never triggers Fault draws (ruling 11)
            for _ in range(options.hand_size):
                players[seat].hand.append(bag.pop(rng.below(len(bag))))
        clockwise = sorted(options.seats)
        first = min(options.seats, key=lambda s: (" ".join(players[s].words), s))
        start = clockwise.index(first)
        order = clockwise[start:] + clockwise[:start]
        if options.balanced_start and len(options.seats) == 2:
            fault_deck.append(players[first].faults.pop())  # the house rule's compensation
        state = ClacksState(
            options=options,
            seed=seed,
            board=self.components.layout,
            players=players,
            order=order,
            turn=TurnState(
                seat=first, stress_limit=options.stress_limit, started_at=options.start_time
            ),
            bag=bag,
            discard=[],
            fault_deck=fault_deck,
            rng=rng,
        )
        return state

    # ----------------------------------------------------------------- helpers

    @staticmethod
    def remaining(state: ClacksState) -> int:
        return state.turn.stress_limit - state.turn.stress_spent

    def occupant(self, state: ClacksState, tower_name: str, mover: Seat) -> str | None:
        """Who blocks ``tower_name`` for ``mover``: ``dwarf`` (the Deep Dwarf) or the seat
        of another pawn."""
        if state.dwarf == tower_name:
            return "dwarf"
        for seat, player in state.players.items():
            if seat is not mover and player.pawn == tower_name:
                return seat.label
        return None

    def _check_turn(self, state: ClacksState, action: actions.Action) -> PlayerState:
        player = self.seat_in_turn(state, action)
        self._check_clock(state, action)
        return player

    def deadline(self, state: ClacksState) -> float | None:
        if not state.options.express:
            return None
        return state.turn.started_at + state.options.turn_seconds

    def _check_clock(self, state: ClacksState, action: actions.Action) -> None:
        deadline = self.deadline(state)
        if deadline is None or state.turn.phase == "timeout_discard":
            return
        at = getattr(action, "at", None)
        if at is None:
            raise E.TimeRules(reason="needs_time")
        if at > deadline:
            raise E.TimeRules(reason="ran_out", seconds=state.options.turn_seconds, late=round(at - deadline, 1))

    def _move_cost(self, player: PlayerState, target: str) -> int:
        if player.pawn is None:  # the first placement from the start button is free (ruling 1)
            return 0
        return tower(player.pawn).distance(tower(target))

    def _check_destination(self, state: ClacksState, player: PlayerState, target: str) -> int:
        try:
            t = tower(target)
        except ValueError:
            raise E.MoveNotAllowed(
                reason="unknown_tower", tower=target, towers=TOWER_LIST
            ) from None
        if t.colour is not player.seat.colour:
            raise E.WrongColour(
                reason="tower", seat=player.seat.label, tower=target, colour=player.seat.colour.value
            )
        if player.pawn == target:
            raise E.MoveNotAllowed(reason="already_there", tower=target)
        blocker = self.occupant(state, target, player.seat)
        if blocker:
            raise E.TowerOccupied(reason="pass_through", tower=target, blocker=blocker)
        return self._move_cost(player, target)

    def _check_stress(
        self, state: ClacksState, cost: int, *, tower: str | None = None, design: str = ""
    ) -> None:
        """Refuse a move to ``tower``, or a Jacquard of ``design``, that costs more than
        the turn has left."""
        left = self.remaining(state)
        if cost > left:
            limit = state.turn.stress_limit
            limit_from = "fault_report" if limit != state.options.stress_limit else "rules"
            if tower is not None:
                raise E.StressLimit(
                    reason="move", tower=tower, cost=cost, left=left, limit=limit, limit_from=limit_from
                )
            raise E.StressLimit(
                reason="jacquard", design=design, cost=cost, left=left, limit=limit, limit_from=limit_from
            )

    # ----------------------------------------------------------------- actions

    def game_over_error(self, state: ClacksState) -> IllegalAction:
        assert state.winner is not None
        return E.GameIsOver(reason="won", seat=state.winner.label)

    def after_action(self, state: ClacksState, events: list[Event]) -> None:
        self._check_sabotage(state, events)

    def _move(self, state: ClacksState, action: actions.Move) -> list[Event]:
        player = self._check_turn(state, action)
        turn = state.turn
        if turn.phase == "sabotage":
            raise E.WrongPhase(reason="sabotage")
        if turn.phase == "timeout_discard":
            raise E.WrongPhase(reason="timeout_discard")
        if not turn.can_move:
            raise E.MoveNotAllowed(reason="played", played=turn.jacquards_played)
        cost = self._check_destination(state, player, action.tower)
        self._check_stress(state, cost, tower=action.tower)
        problem = self._strands_hand_problem(state, player, action.tower, cost)
        if problem:
            raise problem
        return self._relocate(state, player, action.tower, cost)

    def _strands_hand_problem(
        self, state: ClacksState, player: PlayerState, target: str, cost: int
    ) -> IllegalAction | None:
        """A move before any Jacquard may not spend the stress the cheapest one needs:
        at least one Jacquard is played each turn (ruling 5), and a player who could play
        one may not move so that they cannot."""
        if state.turn.jacquards_played or not player.hand:
            return None
        cheapest = min((self.jacquard(j) for j in player.hand), key=lambda j: j.cost)
        left = self.remaining(state)
        if cheapest.cost <= left < cheapest.cost + cost:
            return E.MoveStrandsHand(
                reason="hand",
                design=cheapest.design.id,
                tower=target,
                cost=cost,
                left=left - cost,
                cheapest=cheapest.cost,
            )
        return None

    def _relocate(
        self, state: ClacksState, player: PlayerState, target: str, cost: int
    ) -> list[Event]:
        turn = state.turn
        own_turn = player.seat is turn.seat  # else a Fault Report moves it in another's turn
        events = [event("moved", player.seat, to=target, cost=cost, **{"from": player.pawn})]
        behind = turn.start_tower if own_turn else player.pawn
        if (
            player.seat is state.options.dwarf_seat and behind is not None and state.dwarf != behind
        ):  # the Deep Dwarf stays one tower behind (ruling 4)
            state.dwarf = behind
            events.append(event("dwarf_moved", player.seat, to=state.dwarf))
        player.pawn = target
        if own_turn:
            turn.stress_spent += cost
        return events

    def _play_jacquard(self, state: ClacksState, action: actions.PlayJacquard) -> list[Event]:
        player = self._check_turn(state, action)
        turn = state.turn
        if turn.phase == "timeout_discard":
            raise E.WrongPhase(reason="timeout_discard")
        card = self.card_in_hand(player, action.jacquard)
        problem = self.placement_problem(card, action.lamps)
        if problem:
            raise problem
        self._check_stress(state, card.cost, design=card.design.id)
        return [self.flip_jacquard(state, player, card, action.lamps, card.cost)]

    def fault_target_problem(
        self,
        state: ClacksState,
        player: PlayerState,
        card: Card,
        lamps: int,
        target_tower: str | None,
    ) -> IllegalAction | None:
        """Why the chosen target does not suit the card, or None when it does."""
        spec_target = self.target_kind(card)
        fault = card.design.id
        if spec_target is Target.NONE:
            if lamps or target_tower:
                return E.CardTarget(reason="no_target", fault=fault)
            return None
        if spec_target is Target.LAMPS:
            count = int(card.design.params["count"])
            if target_tower or lamps.bit_count() != count:
                return E.CardTarget(
                    reason="lamps", fault=fault, count=count, chosen=lamps.bit_count()
                )
            return None
        if lamps or target_tower is None:
            return E.CardTarget(reason="needs_tower", fault=fault)
        try:
            t = tower(target_tower)
        except ValueError:
            return E.CardTarget(reason="unknown_tower", tower=target_tower, towers=TOWER_LIST)
        if spec_target is Target.OWN_TOWER:
            if t.colour is not player.seat.colour:
                return E.CardTarget(
                    reason="colour", fault=fault, tower=target_tower, colour=player.seat.colour.value
                )
            if player.pawn == target_tower:
                return E.CardTarget(reason="already_there", tower=target_tower)
            blocker = self.occupant(state, target_tower, player.seat)
            if blocker:
                return E.CardTarget(reason="taken", tower=target_tower, blocker=blocker)
        return None

    @staticmethod
    def target_kind(card: Card) -> Target:
        return COMPETITIVE_EFFECTS[card.design.effect].target

    def _play_fault(self, state: ClacksState, action: actions.PlayFault) -> list[Event]:
        seat = action.seat
        if seat is None or seat not in state.players:
            raise E.NotYourTurn(reason="fault_holder")
        player = state.players[seat]
        if action.card not in player.faults:
            raise unusable()
        card = self.fault(action.card)
        own_turn = seat is state.turn.seat
        if card.design.when is Timing.OWN_TURN and not own_turn:
            raise E.CardTiming(reason="own_turn", fault=card.design.id)
        if card.design.when is Timing.OTHERS_TURN and own_turn:
            raise E.CardTiming(reason="others_turn", fault=card.design.id)
        effect = card.design.effect
        if effect in ("free_move", "redraw_hand") and state.turn.phase == "timeout_discard":
            raise E.WrongPhase(reason="timeout_discard")
        problem = self.fault_target_problem(state, player, card, action.lamps, action.tower)
        if problem:
            raise problem
        player.faults.remove(card.id)
        state.fault_deck.append(card.id)  # played Fault Reports go under the deck
        events = [
            event(
                "fault_played",
                seat,
                card=card.id,
                name=card.design.name,
                effect=effect,
                lamps=lamps_of(action.lamps),
                tower=action.tower,
            )
        ]
        events += self._fault_effect(state, player, card, action)
        return events

    def _fault_effect(
        self, state: ClacksState, player: PlayerState, card: Card, action: actions.PlayFault
    ) -> list[Event]:
        turn = state.turn
        effect, params = card.design.effect, card.design.params
        before = state.board
        if effect == "light_all":
            state.board = FULL_BOARD
        elif effect == "set_tower":
            assert action.tower is not None
            mask = tower(action.tower).mask
            state.board = state.board | mask if params["lit"] else state.board & ~mask
        elif effect == "flip_lamps":
            state.board ^= action.lamps
        elif effect == "stress_bonus":
            turn.stress_limit += int(params["amount"])
            return [event("stress_changed", turn.seat, limit=turn.stress_limit)]
        elif effect == "stress_penalty":
            turn.stress_limit = max(0, turn.stress_limit - int(params["amount"]))
            return [event("stress_changed", turn.seat, limit=turn.stress_limit)]
        elif effect == "free_move":
            assert action.tower is not None
            return self._relocate(state, player, action.tower, 0)
        elif effect == "redraw_hand":
            count = len(player.hand)
            state.discard.extend(player.hand)
            player.hand.clear()
            return self._draw(state, player, count, reason="redraw")
        turn.flipped |= before ^ state.board
        if before ^ state.board:
            return [event("lamps_changed", None, lamps=lamps_of(before ^ state.board))]
        return []

    def transmit_problem(self, state: ClacksState, player: PlayerState) -> IllegalAction | None:
        """Why the player cannot transmit now, or None if they can."""
        turn = state.turn
        if turn.phase == "sabotage":
            assert state.sabotage is not None
            return E.WrongPhase(reason="darken_first", tower=state.sabotage.tower)
        if turn.phase == "timeout_discard":
            return E.WrongPhase(reason="timeout_discard")
        symbol = player.next_symbol
        if symbol is None:
            return E.WrongPhase(reason="message_complete")
        if player.pawn is None:
            return E.NotOnTower(reason="no_pawn")
        if player.pawn == player.must_leave:
            return E.MustChangeTower(tower=player.pawn)
        if state.dwarf == player.pawn:
            return E.TowerOccupied(reason="dwarf", tower=player.pawn)
        if turn.jacquards_played == 0:
            return E.JacquardRequired(reason="transmit")
        return self.pattern_problem(state, player.seat, player.pawn, symbol)

    def _transmit(self, state: ClacksState, action: actions.Transmit) -> list[Event]:
        player = self._check_turn(state, action)
        if action.tower is not None and action.tower != player.pawn:
            raise E.NotOnTower(reason="pawn_tower", pawn=player.pawn or "none", tower=action.tower)
        problem = self.transmit_problem(state, player)
        if problem:
            raise problem
        symbol = player.next_symbol
        assert player.pawn is not None
        player.progress += 1
        events = [
            event(
                "transmitted",
                player.seat,
                symbol=symbol,
                tower=player.pawn,
                progress=player.progress,
                length=len(player.message),
            )
        ]
        if player.progress == len(player.message):
            player.finished = True
            events.append(event("message_complete", player.seat))
            if state.options.quick:
                state.finishers.append(player.seat)
            elif player.sabotaged:
                self._win(state, player.seat, "message_complete", events)
            else:
                state.sabotage = Sabotage(player.seat, player.pawn)
        return events + self._finish_turn(state, transmitted=True, at=action.at)

    def end_turn_problem(self, state: ClacksState, player: PlayerState) -> IllegalAction | None:
        turn = state.turn
        if turn.phase == "timeout_discard":
            return E.WrongPhase(reason="timeout_discard")
        if turn.phase == "play" and turn.jacquards_played == 0:
            affordable = [
                self.jacquard(j)
                for j in player.hand
                if self.jacquard(j).cost <= self.remaining(state)
            ]
            if affordable:
                cheapest = min(affordable, key=lambda j: j.cost)
                return E.JacquardRequired(
                    reason="cheapest",
                    design=cheapest.design.id,
                    cost=cheapest.cost,
                    left=self.remaining(state),
                )
        return None

    def _end_turn_action(self, state: ClacksState, action: actions.EndTurn) -> list[Event]:
        player = self._check_turn(state, action)
        problem = self.end_turn_problem(state, player)
        if problem:
            raise problem
        if state.turn.phase == "sabotage":
            assert state.sabotage is not None
            events = [event("sabotage_failed", player.seat, target=state.sabotage.target.label)]
            self._win(state, state.sabotage.target, "sabotage_failed", events)
            return events
        return self._finish_turn(state, transmitted=False, at=action.at)

    def _time_up(self, state: ClacksState, action: actions.TimeUp) -> list[Event]:
        deadline = self.deadline(state)
        if deadline is None:
            raise E.TimeRules(reason="untimed")
        if action.at is None:
            raise E.TimeRules(reason="needs_clock", action="time_up")
        if state.turn.phase == "timeout_discard":
            raise E.WrongPhase(reason="time_up")
        if action.at < deadline:
            raise E.TimeRules(reason="time_left", left=round(deadline - action.at, 1))
        seat = state.turn.seat
        events = [event("time_up", seat)]
        if state.turn.phase == "sabotage":
            assert state.sabotage is not None
            events.append(event("sabotage_failed", seat, target=state.sabotage.target.label))
            self._win(state, state.sabotage.target, "sabotage_failed", events)
            return events
        if state.turn.jacquards_played == 0 and state.players[seat].hand:
            state.turn.phase = "timeout_discard"  # ruling 5: discard one, no draw
            state.turn.started_at = action.at  # the discard is untimed; the next turn starts now
            return events
        return events + self._finish_turn(state, transmitted=False, at=action.at)

    def _resume_clock(self, state: ClacksState, action: actions.ResumeClock) -> list[Event]:
        deadline = self.deadline(state)
        if deadline is None:
            raise E.TimeRules(reason="untimed")
        if action.seat is not None:
            raise E.TimeRules(reason="table_resumes")
        if action.at is None:
            raise E.TimeRules(reason="needs_clock", action="resume_clock")
        if state.turn.phase == "timeout_discard":
            raise E.WrongPhase(reason="time_up")
        state.turn.started_at += action.paused
        left = deadline + action.paused - action.at
        return [
            event(
                "clock_resumed",
                state.turn.seat,
                paused=round(action.paused, 1),
                left=round(max(left, 0.0), 1),
            )
        ]

    def _discard(self, state: ClacksState, action: actions.Discard) -> list[Event]:
        player = self._check_turn(state, action)
        if state.turn.phase != "timeout_discard":
            raise E.WrongPhase(reason="discard_only")
        if action.jacquard not in player.hand:
            raise unusable()
        player.hand.remove(action.jacquard)
        state.discard.append(action.jacquard)
        events = [event("discarded", player.seat, jacquard=action.jacquard)]
        return events + self._finish_turn(state, transmitted=False, at=action.at, draw=False)

    # ----------------------------------------------------------------- turn flow

    def _draw(
        self, state: ClacksState, player: PlayerState, count: int, reason: str
    ) -> list[Event]:
        drawn, events = self.draw_from_bag(state, count)
        player.hand.extend(drawn)
        faults: list[str] = []
        for card_id in drawn:
            if self.jacquard(card_id).fault and state.fault_deck:
                faults.append(state.fault_deck.pop(0))
        player.faults.extend(faults)
        events.append(
            event("drew_jacquards", player.seat, count=len(drawn), reason=reason).telling(
                player.seat, jacquards=list(drawn)
            )
        )
        if faults:
            events.append(
                event("drew_faults", player.seat, count=len(faults)).telling(
                    player.seat, faults=faults
                )
            )
        return events

    def _finish_turn(
        self, state: ClacksState, transmitted: bool, at: float | None, draw: bool = True
    ) -> list[Event]:
        turn = state.turn
        player = state.players[turn.seat]
        player.last_turn_stress = turn.stress_spent
        if transmitted:  # ruling 2: the next letter goes out from another tower, whatever
            player.must_leave = player.pawn  # turns without a letter come in between
        elif state.rng.legacy:
            # a game saved in format 1 was played when a turn without a letter freed the
            # tower again; it replays and goes on under the rule it was played with
            player.must_leave = None
        events = [event("turn_ended", turn.seat, stress=turn.stress_spent, transmitted=transmitted)]
        if draw:
            events += self._draw(
                state, player, state.options.hand_size - len(player.hand), "turn_end"
            )
        if state.over:
            return events
        index = state.order.index(turn.seat)
        next_seat = state.order[(index + 1) % len(state.order)]
        new_round = next_seat is state.order[0]
        if new_round and state.finishers:
            self._quick_game_winner(state, events)
            return events
        state.turn = TurnState(
            seat=next_seat,
            number=turn.number + 1,
            round=turn.round + (1 if new_round else 0),
            phase="sabotage" if state.sabotage else "play",
            stress_limit=state.options.stress_limit,
            can_move=state.sabotage is None,
            start_tower=state.players[next_seat].pawn,
            started_at=at if at is not None else turn.started_at,
        )
        events.append(
            event("turn_started", next_seat, round=state.turn.round, number=state.turn.number)
        )
        if state.sabotage:
            events.append(
                event(
                    "sabotage_started",
                    next_seat,
                    target=state.sabotage.target.label,
                    tower=state.sabotage.tower,
                )
            )
        return events

    def _quick_game_winner(self, state: ClacksState, events: list[Event]) -> None:
        """Ruling 8: the lowest stress on the last turn wins, then the first word alphabetically."""
        winner = min(
            state.finishers,
            key=lambda s: (state.players[s].last_turn_stress, " ".join(state.players[s].words)),
        )
        events.append(event("round_completed", None, finishers=[s.label for s in state.finishers]))
        self._win(state, winner, "quick_game", events)

    def _win(self, state: ClacksState, seat: Seat, reason: str, events: list[Event]) -> None:
        state.winner = seat
        state.end_reason = reason
        state.sabotage = None
        events.append(event("game_won", seat, reason=reason))

    def _check_sabotage(self, state: ClacksState, events: list[Event]) -> None:
        """Ruling 7: the attempt succeeds the moment the finisher's tower is dark."""
        sabotage = state.sabotage
        if sabotage is None:  # there is one only in the saboteur's turn, and a win clears it
            return
        if state.board & tower(sabotage.tower).mask:
            return
        target = state.players[sabotage.target]
        target.progress -= 1
        target.finished = False
        target.sabotaged = True
        state.sabotage = None
        state.turn.phase = "play"
        state.turn.can_move = True
        events.append(
            event(
                "sabotage_succeeded",
                state.turn.seat,
                target=target.seat.label,
                tower=sabotage.tower,
            )
        )

    # ----------------------------------------------------------------- legal actions

    def legal_actions(
        self, state: ClacksState, seat: Seat | None, at: float | None = None
    ) -> list[actions.Action]:
        if state.over:
            return []
        legal: list[actions.Action] = []
        if seat is None:
            deadline = self.deadline(state)
            if (
                deadline is not None
                and at is not None
                and at >= deadline
                and state.turn.phase != "timeout_discard"
            ):
                legal.append(actions.TimeUp(None, at=at))
            return legal
        player = state.players.get(seat)
        if player is None:
            return []
        if seat is state.turn.seat and not self._late(state, at):
            legal.extend(self._turn_actions(state, player, at))
        legal.extend(self._fault_actions(state, player, at))
        return legal

    def _late(self, state: ClacksState, at: float | None) -> bool:
        deadline = self.deadline(state)
        if deadline is None or state.turn.phase == "timeout_discard":
            return False
        return at is None or at > deadline

    def _turn_actions(
        self, state: ClacksState, player: PlayerState, at: float | None
    ) -> Iterator[actions.Action]:
        seat, turn = player.seat, state.turn
        if turn.phase == "timeout_discard":
            for card_id in player.hand:
                yield actions.Discard(seat, jacquard=card_id, at=at)
            return
        if turn.phase == "play" and turn.can_move:
            for name in towers_of(seat.colour):
                if name == player.pawn or self.occupant(state, name, seat):
                    continue
                cost = self._move_cost(player, name)
                if cost <= self.remaining(state) and not self._strands_hand_problem(
                    state, player, name, cost
                ):
                    yield actions.Move(seat, tower=name, at=at)
        left = self.remaining(state)
        for card_id in player.hand:
            card = self.jacquard(card_id)
            if card.cost <= left:
                for placement in card.design.placements:
                    yield actions.PlayJacquard(seat, jacquard=card_id, lamps=placement.mask, at=at)
        if self.transmit_problem(state, player) is None:  # it refuses a sabotage's turn
            yield actions.Transmit(seat, at=at)
        if self.end_turn_problem(state, player) is None:
            yield actions.EndTurn(seat, at=at)

    def _fault_actions(
        self, state: ClacksState, player: PlayerState, at: float | None
    ) -> Iterator[actions.Action]:
        own_turn = player.seat is state.turn.seat
        for card_id in player.faults:
            card = self.fault(card_id)
            if card.design.when is Timing.OWN_TURN and not own_turn:
                continue
            if card.design.when is Timing.OTHERS_TURN and own_turn:
                continue
            if (
                card.design.effect in ("free_move", "redraw_hand")
                and state.turn.phase == "timeout_discard"
            ):
                continue
            check = self.target_kind(card) is Target.OWN_TOWER  # the others fit any board
            for lamps, target_tower in fault_targets(
                card.design.effect, card.design.params.get("count")
            ):
                if check and self.fault_target_problem(state, player, card, lamps, target_tower):
                    continue
                yield actions.PlayFault(
                    player.seat, card=card_id, lamps=lamps, tower=target_tower, at=at
                )


@cache
def fault_targets(effect: str, count: int | None) -> tuple[tuple[int, str | None], ...]:
    """Every target a card with this effect could name, before looking at the board."""
    kind = COMPETITIVE_EFFECTS[effect].target
    if kind is Target.NONE:
        return ((0, None),)
    if kind is Target.LAMPS:
        assert count is not None
        return tuple((sum(1 << i for i in combo), None) for combo in combinations(range(16), count))
    return tuple((0, name) for name in TOWER_NAMES)
