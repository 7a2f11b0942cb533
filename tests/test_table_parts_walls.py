"""The parts of a table (web/seats.py, fanout, bots, previews, presses, table_clock,
replay, saving) are each handed only what they use: the table's state, values and
callables. None takes the room, a protocol the room or a part fulfils, or another part,
so none can call another: only the room does (web/room.py).

The parts are found as a built room holds them, so a part added later is checked too.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Iterator

import pytest

from web.room import Room


def _room() -> Room:
    return Room("WALL")


def _parts(room: Room) -> dict[str, object]:
    """The room's parts: what it holds of the web package's own classes, but for the
    state every part reads (web/table_state.py)."""
    return {
        name: value
        for name, value in vars(room).items()
        if type(value).__module__.startswith("web.") and value is not getattr(room, "state", None)
    }


def _classes(hint: object) -> Iterator[type]:
    """Every class an annotation names, through unions, generics and callables."""
    if hint is typing.Any:
        return
    origin = typing.get_origin(hint)
    if isinstance(hint, type) and origin is None:
        yield hint
    if origin is not None and isinstance(origin, type):
        yield origin
    for arg in typing.get_args(hint):
        if isinstance(arg, list):  # a callable's parameters
            for each in arg:
                yield from _classes(each)
        else:
            yield from _classes(arg)


def _protocol_members(cls: type) -> set[str]:
    return {
        name
        for klass in cls.__mro__
        if getattr(klass, "_is_protocol", False) and klass is not typing.Protocol
        for name in vars(klass)
        if not name.startswith("_")
    }


def _fulfils(value: object, cls: type) -> bool:
    """Whether ``value`` could be handed where ``cls`` is asked: an instance of it, or,
    for a protocol, something with every member it lists."""
    if getattr(cls, "_is_protocol", False):
        members = _protocol_members(cls)
        return bool(members) and all(hasattr(value, name) for name in members)
    return isinstance(value, cls)


def _constructor_hints(cls: type) -> dict[str, object]:
    init = vars(cls)["__init__"]
    hints = typing.get_type_hints(init, vars(inspect.getmodule(cls)))
    return {name: hints.get(name) for name in inspect.signature(init).parameters if name != "self"}


def test_the_room_is_built_of_its_parts() -> None:
    parts = _parts(_room())
    assert {"seats", "fanout", "bot_turns", "previews", "presses", "saving"} <= set(parts)
    assert {"table_clock", "replay"} <= set(parts)


@pytest.mark.parametrize("name", sorted(_parts(_room())))
def test_a_part_is_handed_neither_the_room_nor_another_part(name: str) -> None:
    """Read from the part's constructor: every parameter is annotated, and no annotation
    names the room, another part, or a protocol either fulfils."""
    room = _room()
    parts = _parts(room)
    part_class = type(parts[name])
    others = {other: value for other, value in parts.items() if other != name}
    for parameter, hint in _constructor_hints(part_class).items():
        assert hint is not None, f"{part_class.__name__}({parameter}) says not what it takes"
        assert hint not in (typing.Any, object), (
            f"{part_class.__name__}({parameter}) takes anything"
        )
        for cls in _classes(hint):
            assert not _fulfils(room, cls), (
                f"{part_class.__name__}({parameter}: {hint}) can be handed the room"
            )
            for other, value in others.items():
                assert not _fulfils(value, cls), (
                    f"{part_class.__name__}({parameter}: {hint}) can be handed the part {other}"
                )


def _held(value: object) -> Iterator[object]:
    """What a part holds: its attributes, and the fields of the bundles of callables it
    was handed."""
    for held in vars(value).values():
        yield held
        if dataclasses.is_dataclass(held) and not isinstance(held, type):
            yield from (getattr(held, f.name) for f in dataclasses.fields(held))


@pytest.mark.parametrize("name", sorted(_parts(_room())))
def test_a_built_part_holds_neither_the_room_nor_another_part(name: str) -> None:
    """As built: the part holds no room and no other part, nor a method of another part
    (what it asks of another goes through a callable of the room's)."""
    room = _room()
    parts = _parts(room)
    others = [value for other, value in parts.items() if other != name]
    for held in _held(parts[name]):
        assert held is not room, f"{name} holds the room"
        assert not any(held is other for other in others), f"{name} holds another part"
        if isinstance(held, types.MethodType):
            owner = held.__self__
            assert not any(owner is other for other in others), (
                f"{name} holds {held.__qualname__} of another part"
            )
