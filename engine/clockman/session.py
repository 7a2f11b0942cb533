"""Clockman behind the box's game-agnostic seam (engine.core.interface).

Besides the game a session holds one thing of its own: which view the lamps show (the
turn, or the race), chosen from a phone with the session action
``{"type": "lamps", "view": "race"}``, or with the box's confirm button (on the table
screen's picture of the box too) when there is no landing to report. It changes nothing
in the game and is not logged.

The box's buttons are quick reports (engine/data/clockman/box.toml): each press means
the report of its name for the player whose turn it is, or the answer the game waits
for. A press that could mean more than one thing (which pose, which player) is refused
with the reason, and the phone asks instead.
"""

from __future__ import annotations

from engine.clockman.actions import EFFECTS, Action, action_from_json, make
from engine.clockman.describe import describe_event
from engine.clockman.digits import KEPT
from engine.clockman.errors import (
    CannotKnock,
    ChooseOnPhone,
    GameIsOver,
    NoMatchingCard,
    NotYourTurn,
    WrongCircle,
)
from engine.clockman.game import GAME, ClockmanGame
from engine.clockman.lamps import VIEWS, die_mask, race_frame, turn_frame
from engine.clockman.state import CARD_KINDS, START, STRAIGHT
from engine.core.action_json import sent_by
from engine.core.errors import MalformedAction
from engine.core.interface import JSON, LampFrame, SeatInfo, Session, game_result


class ClockmanSession(Session):
    game = GAME

    def __init__(self, game: ClockmanGame) -> None:
        self.clockman = game
        self.lamp_view = "turn"

    @property
    def seats(self) -> list[SeatInfo]:
        return [SeatInfo(seat) for seat in self.clockman.seats]

    @property
    def active_seats(self) -> list[str]:
        return self.clockman.active_seats()

    @property
    def over(self) -> bool:
        return self.clockman.over

    def result(self) -> JSON | None:
        return game_result(self.clockman.state, lambda state: {
            "reason": state.reason,
            "turns": state.turn.number if state.turn else None,
            "rings": {seat: p.ring for seat, p in state.players.items()},
        })

    # ----------------------------------------------------------------- acting

    def apply(self, seat: str | None, action: JSON, now: float) -> list[JSON]:
        if seat is None:
            raise NotYourTurn(reason="table")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "lamps":
            return self._lamps(seat, action)
        if kind == "undo":
            if set(action) - {"type", "seat"}:
                raise MalformedAction(reason="no_fields", type="undo")
            return self.undo(seat)
        return [e.to_json() for e in self.clockman.apply(sent_by(seat, action, action_from_json))]

    def _lamps(self, seat: str, action: JSON) -> list[JSON]:
        if set(action) - {"type", "view", "seat"}:
            raise MalformedAction(reason="only_field", type="lamps", field="view")
        view = action.get("view")
        if view not in VIEWS:
            raise MalformedAction(reason="choice", field="view", choices=", ".join(VIEWS), value=str(view))
        if seat not in self.clockman.seats:
            raise NotYourTurn(reason="not_playing", seat=seat)
        self.lamp_view = str(view)
        return [{"kind": "lamps_shown", "seat": seat, "view": self.lamp_view}]

    def undo(self, seat: str) -> list[JSON]:
        return [e.to_json() for e in self.clockman.undo(seat)]

    def can_undo(self, seat: str) -> bool:
        return self.clockman.can_undo(seat)

    def view(self, seat: str | None) -> JSON:
        view = self.clockman.view(seat if seat in self.clockman.seats else None)
        view["active"] = self.active_seats
        view["lamp_view"] = self.lamp_view
        return view

    def legal_actions(self, seat: str | None, now: float) -> list[JSON]:
        if seat is None or seat not in self.clockman.seats or self.over:
            return []
        return [a.to_json() for a in self._candidates(seat) if self.clockman.is_legal(a)]

    def _candidates(self, seat: str) -> list[Action]:
        """Every action worth asking the rules about for ``seat`` now (labels left out:
        a note on a card never makes a report legal or not)."""
        state = self.clockman.state
        me = state.players[seat]
        others = [s for s in state.players if s != seat]
        plain = ["roll", "plain", "symbol", "transfer", "forfeit", "outward", "end_turn"]
        plain += ["accept", "decline", "withdraw", "confirm", "revoke"]
        out = [make(kind, seat) for kind in plain]
        out += [make("event", seat, kind=kind) for kind in CARD_KINDS]
        out += [make("event", seat, kind="now", effect=e) for e in EFFECTS if e != "board"]
        out += [make("event", seat, kind="now", effect="circle_out", target=s) for s in others]
        out += [make("digit", seat, digit=d) for d in KEPT]
        for pose in state.data.pose_ids:
            out.append(make("blockade", seat, pose=pose))
            out += [make("blockade", seat, pose=pose, card=c.id) for c in me.cards]
        out += [make("lift", seat, use=use) for use in (True, False)]
        out += [make("straight", seat, field=f) for f in range(1, state.data.straight_fields + 1)]
        out += [make("knock", seat, victim=s) for s in others]
        for card in me.cards:
            out += [make("play", seat, card=card.id, effect=e) for e in EFFECTS]
            out += [
                make("play", seat, card=card.id, effect=e, target=s)
                for e in ("circle_in", "circle_out")
                for s in others
            ]
            out.append(make("defend", seat, digit=card.id))
            out.append(make("defend", seat, knock=card.id))
        out.append(make("defend", seat))
        out += [make("take", seat, digit=d) for d in KEPT]
        if state.options.swap:
            out += [
                make("offer", seat, to=s, give=[g], get=[t])
                for s in others
                for g in KEPT
                for t in KEPT
                if g != t
            ]
        if state.check is not None:
            cards = len(state.check.cards)
            out.append(make("inspect", seat, kinds=["hidden"] * cards))
            out.append(make("inspect", seat, kinds=["now"] + ["hidden"] * (cards - 1)))
        return out

    def log_json(self) -> JSON:
        return self.clockman.log_to_json()

    # ----------------------------------------------------------------- the box

    def lamps(self) -> LampFrame:
        state = self.clockman.state
        if self.lamp_view == "race" and not state.over:
            return race_frame(state)
        return turn_frame(state)

    def transmissions(self, events: list[JSON]) -> list[int]:
        """The die bar rattles after every roll."""
        bar = die_mask(self.clockman.state.data)
        return [bar for e in events if e.get("kind") == "rolled"]

    def button_action(self, button: str, now: float) -> tuple[str | None, JSON] | None:
        state = self.clockman.state
        meaning = state.data.meaning(button)
        if meaning is None:
            raise ValueError(f"no button {button!r} in the Clockman box map")
        if state.over or state.turn is None:
            raise GameIsOver(reason="over")
        if meaning == "undo":
            return state.turn.seat, {"type": "undo"}
        waiting = self._answer(meaning)
        if waiting is not None:
            return waiting
        seat = state.turn.seat
        if meaning == "plain" and state.turn.phase != "report":
            # no landing to report: the confirm button switches what the lamps show
            view = "race" if self.lamp_view == "turn" else "turn"
            return seat, {"type": "lamps", "view": view}
        return seat, self._report(seat, meaning).to_json()

    def _answer(self, meaning: str) -> tuple[str | None, JSON] | None:
        """A press while the game waits for someone's answer: the confirm button answers
        (no protecting card; the only digit there is to take; the win stands)."""
        state = self.clockman.state
        hit, check = state.hit, state.check
        if hit is None and check is None:
            return None
        if meaning != "plain":
            seat = self.active_seats[0]
            raise ChooseOnPhone(reason="answer", seat=seat)
        if check is not None:
            return self.active_seats[0], make("confirm", self.active_seats[0]).to_json()
        assert hit is not None
        if hit.stage == "defence":
            return hit.victim, make("defend", hit.victim).to_json()
        if len(hit.choices) != 1:
            raise ChooseOnPhone(reason="digit", seat=hit.hitter)
        return hit.hitter, make("take", hit.hitter, digit=hit.choices[0]).to_json()

    def _report(self, seat: str, meaning: str) -> Action:
        state = self.clockman.state
        player = state.players[seat]
        if meaning in ("roll", "plain", "symbol", "transfer", "forfeit", "end_turn"):
            return make(meaning, seat)
        if meaning == "event":
            return make("event", seat, kind="now")
        if meaning == "lift":
            return make("lift", seat, use=True)
        if meaning == "digit":
            digit = state.data.circle_digit(player.ring)
            if digit is None:
                raise WrongCircle(reason="no_digit_here", ring=player.ring)
            return make("digit", seat, digit=digit)
        if meaning == "blockade":
            here = state.rings[player.ring - 1] if 1 <= player.ring <= len(state.rings) else []
            usable = sorted({p for p in here if player.hand.get(p)})
            if not here:
                raise WrongCircle(reason="no_whytooki")
            if not usable:
                raise NoMatchingCard(reason="button", seat=seat, pose=", ".join(sorted(set(here))))
            if len(usable) > 1:
                raise ChooseOnPhone(reason="pose", poses=", ".join(usable))
            return make("blockade", seat, pose=usable[0])
        # a knock: the one other piece on the same circle
        victims = [
            p.seat
            for p in state.players.values()
            if p.seat != seat
            and p.in_play
            and p.ring == player.ring
            and p.ring not in (START, STRAIGHT)
        ]
        if not victims:
            raise CannotKnock(reason="nobody_here", ring=player.ring)
        if len(victims) > 1:
            raise ChooseOnPhone(reason="victim")
        return make("knock", seat, victim=victims[0])

    def describe_event(self, event: JSON) -> str:
        return describe_event(event)
