"""Shared by the Guards! Guards! tests: a game set up in a few lines, Volunteers typed as
a phone would, and the die made to fall as a scenario needs (a generator state found by
search, so the rules still roll it through their own code)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.guards import GuardsGame, GuardsOptions
from engine.guards.actions import action_from_json
from engine.guards.data import GuildCard
from engine.guards.events import Event
from engine.guards.session import GuardsSession
from engine.guards.state import Final, Pending, Player, Run

GUILD_CARDS = ("thieves-a", "fools-a", "alchemists-a", "assassins-a", "thieves-b", "fools-b")


def volunteer(name: str = "Nobby Nobbs", deck: str = "lords_ladies", **values: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "name": name, "deck": deck, "charm": 5, "bribe": 3,
        "loyalty": 2, "streetwise": 2, "brawl": 2, "toughness": 2,
    }  # fmt: skip
    card.update(values)
    return card


def new_game(players: int = 2, seed: int = 1, **options: Any) -> GuardsGame:
    return GuardsGame.new(GuardsOptions.from_json({"players": players, **options}), seed)


def act(game: GuardsGame, seat: str, type_: str, **fields: Any) -> list[dict[str, Any]]:
    events: list[Event] = game.apply(action_from_json({"type": type_, **fields}, seat))
    return [e.to_json() for e in events]


def refused(game: GuardsGame, seat: str, type_: str, error: type[IllegalAction], **fields: Any) -> IllegalAction:
    """``seat``'s report is refused with ``error`` and the game is left as it was."""
    before = json.dumps(game.state.to_json(), sort_keys=True)
    with pytest.raises(error) as caught:
        act(game, seat, type_, **fields)
    assert json.dumps(game.state.to_json(), sort_keys=True) == before
    return caught.value


def set_up(game: GuardsGame, cards: tuple[str, ...] = GUILD_CARDS, **dealt: Any) -> None:
    """Every seat chooses a Guild Card and reports two plain dealt Volunteers."""
    for i, seat in enumerate(game.seats):
        act(game, seat, "choose_guild", card=cards[i])
        for deck in ("lords_ladies", "man_beast"):
            values = dealt.get(f"{seat}_{deck}") or volunteer(f"{seat} {deck}", deck)
            act(game, seat, "dealt", deck=deck, values=values)


def started(players: int = 2, seed: int = 1, first: str | None = None, **options: Any) -> GuardsGame:
    """A game set up, its first player rolled for (made ``first`` if given)."""
    game = new_game(players, seed, **options)
    set_up(game)
    if first is not None:
        order = list(game.seats)
        faces = [8 if s == first else 2 for s in order]
        rig(game, faces)
    act(game, game.seats[0], "roll")
    return game


@cache
def _state_for(faces: tuple[int | None, ...]) -> int:
    for candidate in range(4_000_000):
        rng = Rng(candidate * 0x9E3779B1)
        if all(rng.below(8) + 1 == face or face is None for face in faces):
            return candidate * 0x9E3779B1
    raise AssertionError(f"no generator state rolls {faces}")


def rig(game: GuardsGame, faces: Sequence[int | None]) -> None:
    """The next dice the game rolls show ``faces``, in order (None: a draw of the
    generator that is not a die, as the pick of a random runner)."""
    game.state.rng = Rng(_state_for(tuple(faces)))


def with_targets(players: int = 2, **targets: int | tuple[int, ...]) -> GuardsOptions:
    """Options whose Wizards' Challenges have the targets given (c1=13, c4=(10, 11)...)."""
    data = json.loads(json.dumps(GuardsOptions().data.to_json()))
    for challenge in data["challenges.toml"]["challenge"]:
        key = f"c{challenge['number']}"
        if key in targets:
            wanted = targets[key]
            values = wanted if isinstance(wanted, tuple) else (wanted,)
            for test, target in zip(challenge["tests"], values, strict=True):
                test["target"] = target
    return GuardsOptions.from_json({"players": players, "data": data})


def recruit_into(game: GuardsGame, seat: str, **values: Any) -> str:
    """``seat`` recruits one Volunteer in its turn (then everyone's turn passes back to it);
    returns the card's id."""
    deck = values.pop("deck", "shades_shadows")
    act(game, seat, "recruit", deck=deck, source="deck", quadrant="fools",
        values=volunteer(values.pop("name", f"Recruit {len(game.log)}"), deck, charm=1, **values))
    rig(game, [5])
    act(game, seat, "roll")
    uid = game.state.players[seat].hand[-1]
    pass_round(game, seat)
    return uid


def pass_round(game: GuardsGame, seat: str) -> None:
    """Everyone's turn passes until it is ``seat``'s again."""
    act(game, to_move(game), "end_turn")
    while to_move(game) != seat:
        act(game, to_move(game), "end_turn")


def guards_of(session: object) -> GuardsGame:
    """The Guards! Guards! game a companion's session holds."""
    assert isinstance(session, GuardsSession), f"not a Guards! Guards! session: {session!r}"
    return session.guards


def to_move(game: GuardsGame) -> str:
    """The seat whose turn it is: a game set up and rolled for always has one."""
    turn = game.state.turn
    assert turn is not None, "no turn under way: the game is not started yet"
    return turn.seat


def card_of(player: Player) -> GuildCard:
    """``player``'s Guild Card, chosen at set-up."""
    assert player.card is not None, f"{player.seat} has chosen no Guild Card yet"
    return player.card


def run_of(player: Player) -> Run:
    """``player``'s Spell Run under way."""
    assert player.run is not None, f"{player.seat} has no Spell Run under way"
    return player.run


def top_of(game: GuardsGame) -> Pending:
    """The step the table is in the middle of."""
    top = game.state.top
    assert top is not None, "no step under way"
    return top


def final_of(player: Player) -> Final:
    """``player``'s attempt at the Final Spell under way."""
    assert player.final is not None, f"{player.seat} is not collecting the Final Spell"
    return player.final
