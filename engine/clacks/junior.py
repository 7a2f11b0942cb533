"""The Junior Race: two children race their pawns from Ankh-Morpork to Genua.

Each sends their own message, first card, SPACE, second card, END; every symbol moves
their pawn one tower along their route (the red seat takes ``Options.route``, the
green seat the other one), and the END signal lands it on Genua: the first there wins.
The basic rules of the competitive game apply (a fresh pattern, one symbol a turn, at
least one Jacquard a turn, transmitting ends the turn), with the junior changes: no
stress limit, any tower of one's colour, no need to change tower, hands of four.

Landing on tower 3, 6 or 9 of one's route (the route data's ``fault_towers``) draws the
top Fault Report, applied at once with its junior meaning; Emergency Repair and Clacks
Technician do nothing there (reference ruling 10). Fault stamps on Jacquards mean
nothing in the junior race, and nobody holds Fault Reports. The starting player is the
one whose first card comes first alphabetically (then the second card, then seat order).
"""

from __future__ import annotations

from engine.clacks import errors as E
from engine.clacks.actions import EndTurn, PlayJacquard, Transmit
from engine.clacks.base_rules import MapRaceRules
from engine.clacks.card_effects import jacquard_limit, reveal_card
from engine.clacks.components import ComponentSet, Route
from engine.clacks.effects import Context
from engine.clacks.events import Event, event
from engine.clacks.geometry import Colour, Seat
from engine.clacks.mode_state import RaceState
from engine.clacks.state import ROUTES, ClacksState, Options, PlayerState, TurnState
from engine.core.errors import IllegalAction
from engine.core.hidden import unusable

HAND_SIZE = 4


class JuniorRules(MapRaceRules):
    def __init__(self, components: ComponentSet) -> None:
        super().__init__(components, {
            PlayJacquard: self._play_jacquard,
            Transmit: self._transmit,
            EndTurn: self._end_turn,
        })

    # ----------------------------------------------------------------- setup

    def setup(self, options: Options, seed: int, legacy: bool = False) -> ClacksState:
        rng, players, fault_deck, bag = self.deal_seats(options, seed, legacy)
        for seat in options.seats:  # the opening deal
            for _ in range(HAND_SIZE):
                players[seat].hand.append(bag.pop(rng.below(len(bag))))
        other = next(r for r in ROUTES if r != options.route)
        routes = {
            seat: options.route if seat.colour is Colour.RED else other for seat in options.seats
        }
        first = min(options.seats, key=lambda s: (players[s].words, s))
        clockwise = sorted(options.seats)
        start = clockwise.index(first)
        return ClacksState(
            options=options,
            seed=seed,
            board=self.components.layout,
            players=players,
            order=clockwise[start:] + clockwise[:start],
            turn=TurnState(seat=first, stress_limit=0, can_move=False),
            bag=bag,
            discard=[],
            fault_deck=fault_deck,
            rng=rng,
            race=RaceState(routes=routes),
        )

    # ----------------------------------------------------------------- helpers

    def route(self, state: ClacksState, seat: Seat) -> Route:
        assert state.race is not None
        return self.components.routes[state.race.routes[seat]]

    def play_problem(
        self, state: ClacksState, player: PlayerState, card_id: str
    ) -> IllegalAction | None:
        if card_id not in player.hand:
            return unusable()
        limit = jacquard_limit(state)
        if limit is not None and state.turn.jacquards_played >= limit:
            return E.JacquardLimit(reason="round", limit=limit)
        return None

    @staticmethod
    def finish_problem(state: ClacksState, player: PlayerState) -> IllegalAction | None:
        if state.turn.jacquards_played == 0 and player.hand:
            return E.JacquardRequired(reason="each_turn")
        return None

    # ----------------------------------------------------------------- actions

    def _play_jacquard(self, state: ClacksState, action: PlayJacquard) -> list[Event]:
        player, card = self.jacquard_to_play(state, action)
        return [self.flip_jacquard(state, player, card, action.lamps, card.cost)]

    def _transmit(self, state: ClacksState, action: Transmit) -> list[Event]:
        player = self.player_finishing(state, action)
        symbol = player.next_symbol
        assert symbol is not None
        sent_from = self.signal_tower(state, player.seat, symbol, action.tower)
        player.progress += 1
        route = self.route(state, player.seat)
        events = [
            self.transmitted(
                player.seat, symbol, sent_from, player.progress, len(player.message), route
            )
        ]
        if player.progress == len(player.message):
            player.finished = True
            state.winner = player.seat
            state.end_reason = "reached_genua"
            events.append(event("game_won", player.seat, reason=state.end_reason))
            return events
        if player.progress in route.fault_towers and state.fault_deck:
            events += reveal_card(
                state, self.components, player.seat, state.fault_deck.pop(0), Context.JUNIOR
            )
        return events + self._finish_turn(state, transmitted=True)

    def _end_turn(self, state: ClacksState, action: EndTurn) -> list[Event]:
        self.player_finishing(state, action)
        return self._finish_turn(state, transmitted=False)

    def _finish_turn(self, state: ClacksState, transmitted: bool) -> list[Event]:
        player, events = self.turn_ended(state, transmitted)
        drawn, refills = self.draw_from_bag(state, HAND_SIZE - len(player.hand))
        player.hand.extend(drawn)
        events += refills
        events.append(
            event("drew_jacquards", player.seat, count=len(drawn), reason="turn_end").telling(
                player.seat, jacquards=list(drawn)
            )
        )
        assert state.race is not None
        return events + self.pass_turn(state, state.race.ledger)

    # ----------------------------------------------------------------- legal actions

    def symbol_to_send(self, state: ClacksState, player: PlayerState) -> str | None:
        return player.next_symbol
