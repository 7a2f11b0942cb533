"""What every mode's rules share: dispatching actions, dealing words, playing a Jacquard
and drawing from the bag.

Each mode is one subclass (competitive in rules.py, co-op and solitaire in coop.py, the
junior race in junior.py) registering a handler per action type. Handlers check
everything before they change anything, so a rejected action leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from engine.clacks import errors as E
from engine.clacks.actions import Action, EndTurn, PlayJacquard, Transmit
from engine.clacks.components import Card, ComponentSet, Jacquard, Route
from engine.clacks.events import Event, event
from engine.clacks.geometry import TOWER_LIST, Seat, lamps_of, read_pattern, tower, towers_of
from engine.clacks.mode_state import CardLedger
from engine.clacks.state import ClacksState, Options, PlayerState, TurnState
from engine.core.errors import IllegalAction
from engine.core.hidden import unusable
from engine.core.rng import Rng

# A handler takes the one action type it is registered for, its own subclass of Action.
Handler = Callable[[ClacksState, Any], list[Event]]


def message_for(words: list[str] | tuple[str, ...]) -> list[str]:
    """The symbols to send: one word, or two with SPACE between and END after."""
    if len(words) == 1:
        return list(words[0])
    return [*words[0], "SPACE", *words[1], "END"]


class BaseRules:
    """Shared machinery; subclasses give ``setup``, ``legal_actions`` and handlers."""

    def __init__(self, components: ComponentSet, handlers: Mapping[type[Action], Handler]) -> None:
        self.components = components
        self._handlers = dict(handlers)

    # ----------------------------------------------------------------- per mode

    def setup(self, options: Options, seed: int, legacy: bool = False) -> ClacksState:
        """A new game's state, dealt by the generator keyed by ``seed`` (``legacy``: the
        generator of a game saved before HMAC_DRBG, see engine.core.rng)."""
        raise NotImplementedError

    def legal_actions(
        self, state: ClacksState, seat: Seat | None, at: float | None = None
    ) -> list[Action]:
        raise NotImplementedError

    def deadline(self, state: ClacksState) -> float | None:
        """Table time at which the current turn runs out; only Clacks Express is timed."""
        return None

    def game_over_error(self, state: ClacksState) -> IllegalAction:
        if len(state.winners) == 1:
            return E.GameIsOver(reason="won", seat=state.winners[0].label)
        return E.GameIsOver(reason="over")

    def after_action(self, state: ClacksState, events: list[Event]) -> None:
        """Rules that fire after any action (the competitive sabotage check)."""

    # ----------------------------------------------------------------- dispatch

    def apply(self, state: ClacksState, action: Action) -> list[Event]:
        if state.over:
            raise self.game_over_error(state)
        handler = self._handlers.get(type(action))
        if handler is None:
            raise E.WrongPhase(reason="not_in_mode", action=action.TYPE)
        events = handler(state, action)
        self.after_action(state, events)
        return events

    # ----------------------------------------------------------------- components

    def jacquard(self, card_id: str) -> Jacquard:
        return self.components.jacquards[card_id]

    def fault(self, card_id: str) -> Card:
        return self.components.faults[card_id]

    def deal_seats(
        self, options: Options, seed: int, legacy: bool
    ) -> tuple[Rng, dict[Seat, PlayerState], list[str], list[str]]:
        """The game's generator, each seat's player with their words dealt, the shuffled
        Fault Reports and the bag, for a mode where every seat sends a message of its own."""
        rng = Rng.for_seed(seed, legacy)
        words = self.deal_words(options, rng, len(options.seats))
        fault_deck = sorted(self.components.faults)
        rng.shuffle(fault_deck)
        bag = sorted(self.components.jacquards)
        players = {
            seat: PlayerState(seat=seat, words=list(ws), message=message_for(ws))
            for seat, ws in zip(options.seats, words, strict=True)
        }
        return rng, players, fault_deck, bag

    def deal_words(self, options: Options, rng: Rng, lists: int) -> list[list[str]]:
        """``lists`` word lists of ``options.words_per_player`` words: the players' own,
        or Clacks Cards dealt from the shuffled deck of the table's language."""
        if options.words:
            return [list(ws) for ws in options.words]
        per_list = options.words_per_player
        deck = self.components.words_for(options.word_list)
        dealt = rng.sample(list(deck), per_list * lists)
        return [dealt[i * per_list : (i + 1) * per_list] for i in range(lists)]

    # ----------------------------------------------------------------- turns

    def seat_in_turn(self, state: ClacksState, action: Action) -> PlayerState:
        """The acting player, if it is their turn; raises NotYourTurn otherwise."""
        if action.seat is None or action.seat not in state.players:
            who = action.seat.label if action.seat else "nobody"
            raise E.NotYourTurn(reason="not_playing", seat=who)
        if action.seat is not state.turn.seat:
            raise E.NotYourTurn(reason="turn", current=state.turn.seat.label)
        return state.players[action.seat]

    def next_seat(self, state: ClacksState) -> Seat:
        index = state.order.index(state.turn.seat)
        return state.order[(index + 1) % len(state.order)]

    # ----------------------------------------------------------------- Jacquards

    def card_in_hand(self, player: PlayerState, card_id: str) -> Jacquard:
        if card_id not in player.hand:
            raise unusable()
        return self.jacquard(card_id)

    @staticmethod
    def placement_problem(card: Jacquard, lamps: int) -> IllegalAction | None:
        """Why ``lamps`` is not a placement of the card's holes, or None if it is."""
        if lamps in card.masks:
            return None
        holes, chosen = len(card.design.shape), lamps.bit_count()
        if holes != chosen:
            return E.BadPlacement(
                reason="count",
                design=card.design.id,
                lamps=lamps_of(lamps),
                holes=holes,
                chosen=chosen,
            )
        return E.BadPlacement(reason="cover", design=card.design.id, lamps=lamps_of(lamps))

    def flip_jacquard(
        self, state: ClacksState, player: PlayerState, card: Jacquard, lamps: int, cost: int
    ) -> Event:
        """Play a checked Jacquard: it goes to the discard pile and its lamps flip."""
        turn = state.turn
        player.hand.remove(card.id)
        state.discard.append(card.id)
        state.board ^= lamps
        turn.flipped |= lamps
        turn.stress_spent += cost
        turn.jacquards_played += 1
        turn.can_move = False
        return event(
            "jacquard_played",
            player.seat,
            jacquard=card.id,
            name=card.design.name,
            lamps=lamps_of(lamps),
            cost=cost,
        )

    def draw_from_bag(self, state: ClacksState, count: int) -> tuple[list[str], list[Event]]:
        """Up to ``count`` Jacquards from the bag (refilled from the discard pile when it
        runs out, ruling 11); fewer only if both are empty."""
        events: list[Event] = []
        drawn: list[str] = []
        for _ in range(count):
            if not state.bag and state.discard:
                state.bag = sorted(state.discard)
                state.discard = []
                events.append(event("bag_refilled", None, count=len(state.bag)))
            if not state.bag:
                break
            drawn.append(state.bag.pop(state.rng.below(len(state.bag))))
        return drawn, events

    # ----------------------------------------------------------------- signals

    def tower_signal_problem(
        self, state: ClacksState, seat: Seat, symbol: str, tower_name: str
    ) -> IllegalAction | None:
        """Why ``seat`` cannot send ``symbol`` from ``tower_name`` now, or None: the
        tower must be of the seat's colour, show the symbol read from the seat, and have
        had a lamp flipped this turn (ruling 3)."""
        try:
            t = tower(tower_name)
        except ValueError:
            return E.NotOnTower(reason="unknown_tower", tower=tower_name, towers=TOWER_LIST)
        if t.colour is not seat.colour:
            return E.WrongColour(
                reason="tower", seat=seat.label, tower=tower_name, colour=seat.colour.value
            )
        return self.pattern_problem(state, seat, tower_name, symbol)

    def pattern_problem(
        self, state: ClacksState, seat: Seat, tower_name: str, symbol: str
    ) -> IllegalAction | None:
        """Why ``seat`` cannot claim the pattern on ``tower_name`` as ``symbol``, or None:
        it must show the symbol read from the seat, and a lamp of it must have been
        flipped this turn (ruling 3)."""
        shown_pattern = read_pattern(state.board, seat, tower_name)
        wanted = self.components.pattern(symbol)
        if shown_pattern != wanted:
            shown = self.components.symbol_for(shown_pattern) or "none"
            wrong = bin(shown_pattern ^ wanted).count("1")
            return E.WrongPattern(
                reason="tower", tower=tower_name, shown=shown, needed=symbol, wrong=wrong
            )
        if not state.turn.flipped & tower(tower_name).mask:
            return E.PatternNotFresh(tower=tower_name)
        return None

    def signal_tower(
        self, state: ClacksState, seat: Seat, symbol: str, requested: str | None
    ) -> str:
        """The tower ``seat`` sends ``symbol`` from: ``requested``, or else the first of
        the seat's six towers that shows it freshly. Raises the reason when none does."""
        if requested is not None:
            problem = self.tower_signal_problem(state, seat, symbol, requested)
            if problem:
                raise problem
            return requested
        names = towers_of(seat.colour)
        for name in names:
            if self.tower_signal_problem(state, seat, symbol, name) is None:
                return name
        wanted = self.components.pattern(symbol)

        def wrong(name: str) -> int:
            return (read_pattern(state.board, seat, name) ^ wanted).bit_count()

        nearest = min(names, key=lambda n: (wrong(n), n))
        shown = self.components.symbol_for(read_pattern(state.board, seat, nearest))
        if wrong(nearest) == 0:  # it shows, but was on the board before the turn began
            stale = self.tower_signal_problem(state, seat, symbol, nearest)
            assert stale is not None
            raise stale
        raise E.WrongPattern(
            reason="nearest",
            colour=seat.colour.value,
            shown=shown or "none",
            needed=symbol,
            tower=nearest,
            wrong=wrong(nearest),
        )


class MapRaceRules(BaseRules):
    """What the games on the map (co-op, solitaire, junior race) share: no pawns and no
    stress limit per turn; a player plays Jacquards, then transmits from any tower of
    their colour or ends the turn, and the turn passes clockwise."""

    def play_problem(
        self, state: ClacksState, player: PlayerState, card_id: str
    ) -> IllegalAction | None:
        raise NotImplementedError

    def finish_problem(self, state: ClacksState, player: PlayerState) -> IllegalAction | None:
        raise NotImplementedError

    def symbol_to_send(self, state: ClacksState, player: PlayerState) -> str | None:
        raise NotImplementedError

    def other_actions(self, state: ClacksState, player: PlayerState) -> Iterator[Action]:
        """Actions a mode adds to playing and transmitting (co-op: swaps)."""
        return iter(())

    def jacquard_to_play(
        self, state: ClacksState, action: PlayJacquard
    ) -> tuple[PlayerState, Jacquard]:
        """The player in turn and the Jacquard they place; the refusal when the card may
        not be played now or not there."""
        player = self.seat_in_turn(state, action)
        problem = self.play_problem(state, player, action.jacquard)
        if problem:
            raise problem
        card = self.jacquard(action.jacquard)
        placement = self.placement_problem(card, action.lamps)
        if placement:
            raise placement
        return player, card

    def player_finishing(self, state: ClacksState, action: Action) -> PlayerState:
        """The player in turn, who may transmit or end the turn now; the refusal if not."""
        player = self.seat_in_turn(state, action)
        problem = self.finish_problem(state, player)
        if problem:
            raise problem
        return player

    @staticmethod
    def transmitted(
        seat: Seat, symbol: str, sent_from: str, progress: int, length: int, route: Route
    ) -> Event:
        """The symbol went out: the message's ``progress`` symbols of ``length`` are
        sent, and the route's location that far along is lit."""
        return event(
            "transmitted",
            seat,
            symbol=symbol,
            tower=sent_from,
            progress=progress,
            length=length,
            lit=route.towers[progress - 1],
        )

    @staticmethod
    def turn_ended(state: ClacksState, transmitted: bool) -> tuple[PlayerState, list[Event]]:
        """The player whose turn ends, their stress this turn kept, and the event."""
        turn = state.turn
        player = state.players[turn.seat]
        player.last_turn_stress = turn.stress_spent
        return player, [
            event("turn_ended", turn.seat, stress=turn.stress_spent, transmitted=transmitted)
        ]

    def legal_actions(
        self, state: ClacksState, seat: Seat | None, at: float | None = None
    ) -> list[Action]:
        if state.over or seat is None or seat is not state.turn.seat:
            return []
        player = state.players[seat]
        actions: list[Action] = []
        for card_id in player.hand:
            if self.play_problem(state, player, card_id) is None:
                actions.extend(
                    PlayJacquard(seat, jacquard=card_id, lamps=placement.mask)
                    for placement in self.jacquard(card_id).design.placements
                )
        actions.extend(self.other_actions(state, player))
        if self.finish_problem(state, player) is None:
            symbol = self.symbol_to_send(state, player)
            assert symbol is not None
            actions.extend(
                Transmit(seat, tower=name)
                for name in towers_of(seat.colour)
                if self.tower_signal_problem(state, seat, symbol, name) is None
            )
            actions.append(EndTurn(seat))
        return actions

    def pass_turn(self, state: ClacksState, ledger: CardLedger) -> list[Event]:
        """The next player clockwise begins a turn; lasting card effects that ran out end."""
        turn = state.turn
        next_seat = self.next_seat(state)
        state.turn = TurnState(
            seat=next_seat,
            number=turn.number + 1,
            round=turn.round + (1 if next_seat is state.order[0] else 0),
            stress_limit=0,
            can_move=False,
        )
        ledger.forget_expired(state.turn.number)
        return [event("turn_started", next_seat, round=state.turn.round, number=state.turn.number)]
