"""The co-operative Race to Genua (2-4 players) and the solitaire game on its rules.

The team sends one message, first word, SPACE, second word, END: one symbol lights one
tower along the chosen route, the twelfth being Genua. Every stress point spent moves
the Post Office one step along its track (see post_office.py for how the race ends).

A turn: play one or both Jacquards (at least one), optionally swap one Jacquard for a
slot's Jacquard and card first, transmit or not, then pass and draw. Rulings where the
rulebooks are silent (also in docs/clacks-modes.md):

- Transmitting: no pawns; from any of the six towers of the player's colour, read
  from their seat (reference ruling 9), with a lamp of that tower flipped this turn.
  Transmitting ends the turn, as in every mode.
- Starting player: Ankh-Morpork is printed at the south-west corner, so the first seat
  clockwise from South is nearest (South, else West, else North); play goes clockwise.
- Passing is automatic: the player passes the Jacquard left in their hand to the next
  player (on their left, i.e. next in clockwise order), or, if both were played, draws
  one from the bag and passes that; then draws one for themselves. Solitaire passes
  nothing and draws back up to two at the end of the turn (drawing after every
  Jacquard would make a turn without a stress limit endless).
- Swapping: once per turn, at any point before transmitting, while the player still
  may play a Jacquard this turn; the lifted Jacquard must be played before the turn
  ends, and when only one more Jacquard may be played it must be that one. Lifting an
  Operator's Log costs 1 stress at once; the lifted Jacquard costs its own stress when
  played. The slot stays empty. The card's effect applies at once.
- Night Shift: a Fault stamp on any Jacquard a player draws (their own draw or the one
  drawn to pass) reveals the top Fault Report, applied at once; revealed Fault Reports
  stay face up. The Jacquards dealt at setup and those on the Operator's Logs were not
  drawn by a player and never trigger one (ruling 11).
- Long Distance: teammates' hands are hidden from each other in every view, and the
  game says hints are not allowed. In the standard game hands are open to the team.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.clacks import errors as E
from engine.clacks import post_office
from engine.clacks.actions import Action, EndTurn, PlayJacquard, Swap, Transmit
from engine.clacks.base_rules import MapRaceRules, message_for
from engine.clacks.card_effects import jacquard_limit, reveal_card, reveal_top_fault, surcharge
from engine.clacks.components import ComponentSet
from engine.clacks.effects import Context
from engine.clacks.events import Event, event
from engine.clacks.mode_state import Slot, TeamState
from engine.clacks.state import ClacksState, Options, PlayerState, TurnState
from engine.core.errors import IllegalAction
from engine.core.hidden import unusable
from engine.core.rng import Rng

LOG_LIFT_COST = 1  # the extra stress point for lifting a Jacquard off an Operator's Log
SLOTS_PER_KIND = 2


class CoopRules(MapRaceRules):
    """Co-operative Race to Genua, with the Long Distance and Night Shift variants."""

    hand_at_turn_end = 1  # each player ends their turn with one Jacquard
    starting_bonus = 1  # the starting player draws one more

    def __init__(self, components: ComponentSet) -> None:
        super().__init__(components, {
            PlayJacquard: self._play_jacquard,
            Swap: self._swap,
            Transmit: self._transmit,
            EndTurn: self._end_turn,
        })

    # ----------------------------------------------------------------- setup

    def setup(self, options: Options, seed: int, legacy: bool = False) -> ClacksState:
        rng = Rng.for_seed(seed, legacy)
        components = self.components
        words = self.deal_words(options, rng, 1)[0]
        route = components.routes[options.route]
        incidents = sorted(components.incidents)
        rng.shuffle(incidents)
        logs = sorted(components.logs)
        rng.shuffle(logs)
        fault_deck = sorted(components.faults)
        if options.night_shift:  # otherwise the Fault Reports stay aside, in order
            rng.shuffle(fault_deck)
        bag = sorted(components.jacquards)
        slots: list[Slot] = []
        for n, design in enumerate(components.face_up, start=1):
            copy = self._face_up_copy(bag, design)
            bag.remove(copy)
            slots.append(Slot(f"incident-{n}", "incident", incidents[n - 1], copy))
        for n in range(1, SLOTS_PER_KIND + 1):
            jacquard = bag.pop(rng.below(len(bag)))
            slots.append(Slot(f"log-{n}", "log", logs[n - 1], jacquard))
        order = sorted(options.seats)  # clockwise from South, nearest Ankh-Morpork first
        players = {seat: PlayerState(seat=seat, words=[], message=[]) for seat in order}
        for seat in order:  # the opening deal never triggers Fault Reports (ruling 11)
            count = self.opening_hand + (self.starting_bonus if seat is order[0] else 0)
            for _ in range(count):
                players[seat].hand.append(bag.pop(rng.below(len(bag))))
        team = TeamState(
            route=route.id,
            words=list(words),
            message=message_for(words),
            track=route.track,
            slots=slots,
            set_aside=incidents[SLOTS_PER_KIND:] + logs[SLOTS_PER_KIND:],
        )
        return ClacksState(
            options=options,
            seed=seed,
            board=components.layout,
            players=players,
            order=order,
            turn=TurnState(seat=order[0], stress_limit=0, can_move=False),
            bag=bag,
            discard=[],
            fault_deck=fault_deck,
            rng=rng,
            team=team,
        )

    @property
    def opening_hand(self) -> int:
        return self.hand_at_turn_end

    @staticmethod
    def _face_up_copy(bag: list[str], design: str) -> str:
        """The highest-numbered copy of a design, so unstamped copies go face up first."""
        copies = [c for c in bag if c.rsplit("-", 1)[0] == design]
        return max(copies, key=lambda c: int(c.rsplit("-", 1)[1]))

    # ----------------------------------------------------------------- helpers

    @staticmethod
    def team(state: ClacksState) -> TeamState:
        assert state.team is not None
        return state.team

    def game_over_error(self, state: ClacksState) -> IllegalAction:
        if self.team(state).result == "won":
            return E.GameIsOver(reason="race_won")
        return E.GameIsOver(reason="race_lost")

    def play_problem(
        self, state: ClacksState, player: PlayerState, card_id: str
    ) -> IllegalAction | None:
        """Why the player may not play this Jacquard now (placement aside), or None."""
        team = self.team(state)
        if card_id not in player.hand:
            return unusable()
        limit = jacquard_limit(state)
        played = state.turn.jacquards_played
        if limit is not None and played >= limit:
            return E.JacquardLimit(reason="played", limit=limit, played=played)
        if (
            team.lifted is not None
            and card_id != team.lifted
            and limit is not None
            and played + 1 >= limit
        ):
            return E.LiftedNotPlayed(
                reason="last_one", design=self.jacquard(team.lifted).design.id
            )
        return None

    def swap_problem(
        self, state: ClacksState, player: PlayerState, card_id: str, slot_id: str
    ) -> IllegalAction | None:
        team = self.team(state)
        if team.swapped:
            return E.SwapNotAllowed(reason="once")
        slot = team.slot(slot_id)
        if slot is None:
            names = ", ".join(s.id for s in team.slots)
            return E.SwapNotAllowed(reason="no_slot", slot=slot_id, slots=names)
        if slot.taken:
            return E.SwapNotAllowed(reason="taken", slot=slot_id)
        if card_id not in player.hand:
            return unusable()
        limit = jacquard_limit(state)
        if limit is not None and state.turn.jacquards_played >= limit:
            return E.JacquardLimit(reason="lift", limit=limit)
        return None

    def finish_problem(self, state: ClacksState, player: PlayerState) -> IllegalAction | None:
        """Why the turn cannot end (by transmitting or ending it) yet, or None."""
        team = self.team(state)
        if team.lifted is not None:
            return E.LiftedNotPlayed(
                reason="turn_end", design=self.jacquard(team.lifted).design.id
            )
        if state.turn.jacquards_played == 0 and player.hand:
            return E.JacquardRequired(reason="each_turn")
        return None

    def _spend(self, state: ClacksState, cost: int, cause: str) -> list[Event]:
        self.team(state).stress_total += cost
        return post_office.advance(state, cost, cause)

    # ----------------------------------------------------------------- actions

    def _play_jacquard(self, state: ClacksState, action: PlayJacquard) -> list[Event]:
        player, card = self.jacquard_to_play(state, action)
        team = self.team(state)
        cost = card.cost + surcharge(state)
        events = [self.flip_jacquard(state, player, card, action.lamps, cost)]
        if team.lifted == card.id:
            team.lifted = None
        return events + self._spend(state, cost, "stress")

    def _swap(self, state: ClacksState, action: Swap) -> list[Event]:
        player = self.seat_in_turn(state, action)
        problem = self.swap_problem(state, player, action.jacquard, action.slot)
        if problem:
            raise problem
        team = self.team(state)
        slot = team.slot(action.slot)
        assert slot is not None and slot.card is not None and slot.jacquard is not None
        card_id, lifted, kind = slot.card, slot.jacquard, slot.kind
        slot.card = slot.jacquard = None
        player.hand.remove(action.jacquard)
        state.discard.append(action.jacquard)
        player.hand.append(lifted)
        team.lifted = lifted
        team.swapped = True
        cost = LOG_LIFT_COST if kind == "log" else 0
        events = [
            event(
                "swapped",
                player.seat,
                slot=slot.id,
                slot_kind=kind,
                discarded=action.jacquard,
                # the Incident Report's Jacquard lay face up; the Log's stays the lifter's secret
                lifted=lifted if kind == "incident" else None,
                cost=cost,
            )
        ]
        state.turn.stress_spent += cost
        events += self._spend(state, cost, "lift")
        if not state.over:
            context = Context.INCIDENT if kind == "incident" else Context.LOG
            events += reveal_card(state, self.components, player.seat, card_id, context)
        else:  # the lift itself brought the Post Office to Genua: the card is turned up
            team.ledger.revealed.append(card_id)  # but nothing it says happens any more
        return events

    def _transmit(self, state: ClacksState, action: Transmit) -> list[Event]:
        player = self.player_finishing(state, action)
        team = self.team(state)
        symbol = team.next_symbol
        assert symbol is not None
        sent_from = self.signal_tower(state, player.seat, symbol, action.tower)
        team.progress += 1
        route = self.components.routes[team.route]
        events = [
            self.transmitted(
                player.seat, symbol, sent_from, team.progress, len(team.message), route
            )
        ]
        if team.progress == len(team.message):
            post_office.win(state, events)
            return events
        return events + self._finish_turn(state, transmitted=True)

    def _end_turn(self, state: ClacksState, action: EndTurn) -> list[Event]:
        self.player_finishing(state, action)
        return self._finish_turn(state, transmitted=False)

    # ----------------------------------------------------------------- turn flow

    def _pass_and_draw(
        self, state: ClacksState, player: PlayerState
    ) -> tuple[list[Event], list[str]]:
        """Pass the Jacquard left in hand (or one drawn) to the next player, then draw.
        Returns the events and every Jacquard this player drew from the bag."""
        receiver = state.players[self.next_seat(state)]
        events: list[Event] = []
        drawn: list[str] = []
        if player.hand:
            passed, from_bag = [player.hand.pop(0)], False
        else:
            passed, refills = self.draw_from_bag(state, 1)
            events += refills
            drawn += passed
            from_bag = True
        receiver.hand.extend(passed)
        if passed:
            # only the receiver is told which card it is handed: once passed, it is in a
            # teammate's hand, which no other page may show (Long Distance)
            events.append(
                event(
                    "jacquard_passed", player.seat, to=receiver.seat.label, drawn=from_bag
                ).telling(receiver.seat, jacquards=list(passed))
            )
        own, refills = self.draw_from_bag(state, self.hand_at_turn_end - len(player.hand))
        player.hand.extend(own)
        drawn += own
        events += refills
        events.append(
            event("drew_jacquards", player.seat, count=len(own), reason="turn_end").telling(
                player.seat, jacquards=list(own)
            )
        )
        return events, drawn

    def _finish_turn(self, state: ClacksState, transmitted: bool) -> list[Event]:
        player, events = self.turn_ended(state, transmitted)
        drawn_events, drawn = self._pass_and_draw(state, player)
        events += drawn_events
        if state.options.night_shift:
            for card_id in drawn:  # each Fault stamp reveals one Fault Report, at once
                if self.jacquard(card_id).fault:
                    events += reveal_top_fault(
                        state, self.components, player.seat, Context.NIGHT_SHIFT
                    )
        if state.over:
            return events
        team = self.team(state)
        team.new_turn()
        return events + self.pass_turn(state, team.ledger)

    # ----------------------------------------------------------------- legal actions

    def symbol_to_send(self, state: ClacksState, player: PlayerState) -> str | None:
        return self.team(state).next_symbol

    def other_actions(self, state: ClacksState, player: PlayerState) -> Iterator[Action]:
        for card_id in player.hand:
            for slot in self.team(state).slots:
                if self.swap_problem(state, player, card_id, slot.id) is None:
                    yield Swap(player.seat, jacquard=card_id, slot=slot.id)


class SolitaireRules(CoopRules):
    """One player on the co-op rules: two cards, a hand of two, no passing."""

    hand_at_turn_end = 2
    starting_bonus = 0

    def _pass_and_draw(
        self, state: ClacksState, player: PlayerState
    ) -> tuple[list[Event], list[str]]:
        drawn, events = self.draw_from_bag(state, self.hand_at_turn_end - len(player.hand))
        player.hand.extend(drawn)
        events.append(
            event("drew_jacquards", player.seat, count=len(drawn), reason="turn_end").telling(
                player.seat, jacquards=list(drawn)
            )
        )
        return events, drawn
