"""A game state's JSON and its copies, derived from its dataclasses' fields and types.

One walk over ``dataclasses.fields`` and the fields' type hints gives each state class
three things the games once wrote out by hand, class by class: ``to_json`` (the saved
form: every field under its own name, in field order, so the save format is the
dataclasses' own), ``from_json`` (the same read back, every value checked against its
field's type and a wrong one named by its path, like ``players[1].ring``) and
``clone`` (a deep copy for the rules and the bots to try actions on).

How a type is handled: ``int``, ``str``, ``bool``, ``float`` and None as they are
(a float field keeps a whole number as written, so a save reads back byte for byte);
lists, tuples (saved as lists) and dicts item by item; a nested dataclass by its own
fields; a class with its own ``to_json`` and ``from_json`` (the options, the generator,
a seat) by those; ``Any`` as plain JSON data. A frozen dataclass, an enum, a string or a
number is never changed in place, so a copy shares it; a class with ``copy()`` (the
generator) is copied by it.

Where a saved form is not the plain one, a field says so in its metadata, ``rule(...)``
below: ``save``/``load`` to convert one value, ``keyed_by`` for a dict saved as the list
of its values (each value holds its own key), ``omit_none`` for a key left out while
None (a mode's state that other modes' saves never had), ``saved=False`` for a field
not saved at all, and ``copy`` ("share" or "shallow") for parts a copy may share
because the rules replace them instead of changing them. A key missing from a saved state takes the
field's default: the save was written before the field was added.

Each class's plan (which fields to copy and how, which converter for which key) is
worked out once and cached, so a copy costs about what a hand-written one did.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from engine.core.errors import SerializationError

T = TypeVar("T")
R = TypeVar("R")
Save = Callable[[Any], Any]
Load = Callable[[Any], Any]
Copy = Callable[[Any], Any] | None  # None: the value is shared, never changed in place
# deep: everything the rules may change in place; shallow: the list or dict, not what it
# holds; share: nothing
CopyRule = Literal["deep", "shallow", "share"]

_KEY = "engine.core.serial"


@dataclasses.dataclass(frozen=True)
class FieldRule:
    """How one field departs from its type's plain JSON and deep copy."""

    save: Save | None = None
    load: Callable[[Any], Any] | None = None
    keyed_by: str | None = None
    omit_none: bool = False
    saved: bool = True
    copy: CopyRule = "deep"


def rule(
    *,
    save: Save | None = None,
    load: Callable[[Any], Any] | None = None,
    keyed_by: str | None = None,
    omit_none: bool = False,
    saved: bool = True,
    copy: CopyRule = "deep",
) -> dict[str, FieldRule]:
    """A field's ``metadata`` giving its ``FieldRule`` (see the module's docstring):
    ``dataclasses.field(metadata=serial.rule(copy="share"))``."""
    return {_KEY: FieldRule(save, load, keyed_by, omit_none, saved, copy)}


def to_json(value: Any) -> dict[str, Any]:
    """The dataclass ``value`` as JSON data, a fresh copy."""
    out: dict[str, Any] = _fields_saver(type(value))(value)
    return out


def from_json(cls: type[T], data: object) -> T:
    """A ``cls`` from the JSON ``to_json`` gave; SerializationError naming the path of
    the first value that does not fit."""
    try:
        loaded: T = _fields_loader(cls)(data)
    except _Misfit as exc:
        where = exc.path()
        raise SerializationError(f"{where}: {exc.message}" if where else exc.message) from None
    return loaded


def read_state(
    cls: type[T], data: object, title: str, sound: Callable[[T], None] | None = None
) -> T:
    """A game's whole state from its save, as ``from_json``; every refusal says it is
    "not a ``title``" (a value that does not fit, or options that are refused). ``sound``
    then refuses, in its own words, a state that could not have come from play."""
    try:
        state = from_json(cls, data)
    except (SerializationError, ValueError) as exc:
        raise SerializationError(f"not a {title}: {exc}") from exc
    if sound is not None:
        sound(state)
    return state


class _Misfit(Exception):
    """A value that does not fit its field; the path to it is gathered on the way out
    (so reading a sound save builds no paths at all)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.steps: list[str] = []  # innermost first: "ring", "[1]", "players"

    def within(self, step: str) -> _Misfit:
        self.steps.append(step)
        return self

    def path(self) -> str:
        text = ""
        for step in reversed(self.steps):
            text += step if step.startswith("[") or not text else f".{step}"
        return text


def clone(value: T) -> T:
    """A deep copy of the dataclass ``value`` (parts its fields say may be shared, are)."""
    copied: T = _cloner(type(value))(value)
    return copied


def plain(value: Any) -> Any:
    """Any dataclass (and what it holds) as plain JSON data, a fresh copy: for values
    typed ``Any`` and for unions, whose class the type hint does not name."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def _copy_plain(value: Any) -> Any:
    """A copy of JSON-like data whose containers may be changed in place."""
    if isinstance(value, list):
        return [_copy_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_plain(v) for k, v in value.items()}
    return value


# ----------------------------------------------------------------- a class's plan


def _per_class(build: Callable[[type], R]) -> Callable[[type], R]:
    """``build`` run once for each class, its result kept (a class's plan never changes)."""
    made: dict[type, R] = {}

    def get(cls: type) -> R:
        found = made.get(cls)
        if found is None:
            found = made[cls] = build(cls)
        return found

    return get


def _rule(f: dataclasses.Field[Any]) -> FieldRule:
    rule = f.metadata.get(_KEY)
    return rule if isinstance(rule, FieldRule) else FieldRule()


@_per_class
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@_per_class
def _class_saver(cls: type) -> Save:
    """How a value of ``cls`` is saved within another: by its own ``to_json`` if it has
    one (with a ``from_json``), by its fields otherwise."""
    own = _own_json(cls)
    return own[0] if own is not None else _fields_saver(cls)


@_per_class
def _class_loader(cls: type) -> Load:
    own = _own_json(cls)
    return own[1] if own is not None else _fields_loader(cls)


@_per_class
def _fields_saver(cls: type) -> Save:
    steps: list[tuple[str, Save | None, bool]] = []
    for f in dataclasses.fields(cls):
        rule = _rule(f)
        if not rule.saved:
            continue
        save = rule.save or _type_saver(_hints(cls)[f.name])
        if rule.keyed_by is not None:
            item = _class_saver(typing.get_args(_hints(cls)[f.name])[1])
            save = _listed(item)
        steps.append((f.name, save, rule.omit_none))

    def save_fields(value: Any) -> dict[str, Any]:
        values = value.__dict__
        out: dict[str, Any] = {}
        for name, save, omit_none in steps:
            item = values[name]
            if item is None:
                if not omit_none:
                    out[name] = None
            else:
                out[name] = item if save is None else save(item)
        return out

    return save_fields


def _listed(item: Save) -> Save:
    def save(values: dict[Any, Any]) -> list[Any]:
        return [item(v) for v in values.values()]

    return save


@_per_class
def _fields_loader(cls: type) -> Load:
    steps: list[tuple[str, Load, Callable[[], Any] | None]] = []
    for f in dataclasses.fields(cls):
        rule = _rule(f)
        default = _default(f)
        if not rule.saved:
            continue
        hint = _hints(cls)[f.name]
        load: Load
        if rule.load is not None:
            load = _custom_load(rule.load)
        elif rule.keyed_by is not None:
            load = _keyed_load(_class_loader(typing.get_args(hint)[1]), rule.keyed_by)
        else:
            load = _type_loader(hint)
        steps.append((f.name, load, default))

    def load_fields(data: Any) -> Any:
        if not isinstance(data, dict):
            raise _Misfit(f"must be a JSON object, not {_shown(data)}")
        kwargs: dict[str, Any] = {}
        for name, load, default in steps:
            if name in data:
                try:
                    kwargs[name] = load(data[name])
                except _Misfit as exc:
                    raise exc.within(name) from None
            elif default is None:
                raise _Misfit("is missing").within(name)
            else:
                kwargs[name] = default()
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise _Misfit(str(exc)) from exc

    return load_fields


def _default(f: dataclasses.Field[Any]) -> Callable[[], Any] | None:
    if f.default is not dataclasses.MISSING:
        value = f.default
        return lambda: value
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory
    return None


def _custom_load(load: Callable[[Any], Any]) -> Load:
    def read(value: Any) -> Any:
        try:
            return load(value)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise _Misfit(str(exc)) from exc

    return read


def _keyed_load(item: Load, key: str) -> Load:
    read_list = _sequence_loader(item, list)

    def read(value: Any) -> dict[Any, Any]:
        return {getattr(v, key): v for v in read_list(value)}

    return read


@_per_class
def _cloner(cls: type) -> Callable[[Any], Any]:
    steps: list[tuple[str, Callable[[Any], Any]]] = []
    for f in dataclasses.fields(cls):
        rule = _rule(f)
        hint = _hints(cls)[f.name]
        copy: Copy
        if rule.copy == "share":
            copy = None
        elif rule.copy == "shallow":
            copy = _shallow(hint)
        else:
            copy = _type_copier(hint)
        if copy is not None:
            steps.append((f.name, copy))
    new = object.__new__

    def clone_fields(value: Any) -> Any:
        twin: Any = new(cls)
        values = twin.__dict__
        values.update(value.__dict__)
        for name, copy in steps:
            item = values[name]
            if item is not None:
                values[name] = copy(item)
        return twin

    return clone_fields


def _shallow(hint: Any) -> Copy:
    origin = typing.get_origin(hint)
    if origin is list:
        return list
    if origin is dict:
        return dict
    raise TypeError(f"a shallow copy is for a list or a dict, not {hint}")


# ----------------------------------------------------------------- by type


def _own_json(cls: type) -> tuple[Save, Load] | None:
    """The class's own ``to_json`` and ``from_json``, when it has both."""
    to, read = getattr(cls, "to_json", None), getattr(cls, "from_json", None)
    if to is None or read is None:
        return None

    def load(value: Any) -> Any:
        try:
            return read(value)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise _Misfit(str(exc)) from exc

    return (lambda value: value.to_json()), load


def _optional(hint: Any) -> Any | None:
    """X for ``X | None``; None for any other type."""
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0]
    return None


def _type_saver(hint: Any) -> Save | None:
    """How a value of type ``hint`` is saved; None: as it is."""
    if hint in (int, str, bool, float, type(None)):
        return None
    inner = _optional(hint)
    if inner is not None:
        return _type_saver(inner)  # a None is saved as None before this is called
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (list, tuple):
        items = [_type_saver(a) for a in args if a is not Ellipsis]
        if all(s is None for s in items):
            return list
        if len(set(items)) == 1 or (len(args) == 2 and args[1] is Ellipsis):
            one = items[0]
            assert one is not None
            return lambda value: [one(v) for v in value]
    if origin is dict:
        key, item = _type_saver(args[0]), _type_saver(args[1])
        if key is None and item is None:
            return dict
        return lambda value: {
            k if key is None else key(k): v if item is None else item(v) for k, v in value.items()
        }
    if isinstance(hint, type) and (_own_json(hint) is not None or dataclasses.is_dataclass(hint)):
        return _class_saver(hint)
    return plain


def _type_loader(hint: Any) -> Load:
    """How a value of type ``hint`` is read back and checked."""
    if hint is Any:
        return lambda value: value
    if hint in _SCALARS:
        return _SCALARS[hint]
    inner = _optional(hint)
    if inner is not None:
        load = _type_loader(inner)
        return lambda value: None if value is None else load(value)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return _sequence_loader(_type_loader(args[0]), origin)
    if origin is tuple:
        return _fixed_loader(tuple(_type_loader(a) for a in args))
    if origin is dict:
        return _dict_loader(_type_loader(args[0]), _type_loader(args[1]))
    if isinstance(hint, type) and (_own_json(hint) is not None or dataclasses.is_dataclass(hint)):
        return _class_loader(hint)
    raise TypeError(f"cannot read a {hint} back from JSON; give the field a load")


def _sequence_loader(item: Load, kind: type) -> Load:
    def read(value: Any) -> Any:
        if not isinstance(value, list):
            raise _Misfit(f"must be a list, not {_shown(value)}")
        try:
            items = [item(v) for v in value]
        except _Misfit as exc:
            raise exc.within(f"[{_first_misfit(item, value)}]") from None
        return items if kind is list else tuple(items)

    return read


def _first_misfit(load: Load, values: list[Any]) -> int:
    """Which of ``values`` ``load`` refuses (looked for only once one is refused)."""
    for index, value in enumerate(values):
        try:
            load(value)
        except _Misfit:
            return index
    return -1


def _fixed_loader(items: tuple[Load, ...]) -> Load:
    def read(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != len(items):
            raise _Misfit(f"must be a list of {len(items)}, not {_shown(value)}")
        loaded = []
        for index, (load, item) in enumerate(zip(items, value, strict=True)):
            try:
                loaded.append(load(item))
            except _Misfit as exc:
                raise exc.within(f"[{index}]") from None
        return tuple(loaded)

    return read


def _dict_loader(key: Load, item: Load) -> Load:
    def read(value: Any) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise _Misfit(f"must be a JSON object, not {_shown(value)}")
        loaded = {}
        for k, v in value.items():
            try:
                loaded[key(k)] = item(v)
            except _Misfit as exc:
                raise exc.within(str(k)) from None
        return loaded

    return read


def _scalar(kind: str, fits: Callable[[Any], bool]) -> Load:
    def read(value: Any) -> Any:
        if not fits(value):
            raise _Misfit(f"must be {kind}, not {_shown(value)}")
        return value

    return read


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_SCALARS: dict[Any, Load] = {
    int: _scalar("a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    float: _scalar("a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    str: _scalar("a string", lambda v: isinstance(v, str)),
    bool: _scalar("true or false", lambda v: isinstance(v, bool)),
    type(None): _scalar("null", lambda v: v is None),
}


def _type_copier(hint: Any) -> Copy:
    """How a value of type ``hint`` is copied; None: it is shared."""
    if hint in (int, str, bool, float, type(None)):
        return None
    if hint is Any:
        return _copy_plain
    inner = _optional(hint)
    if inner is not None:
        return _type_copier(inner)  # a None is never copied
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        copies = [_type_copier(a) for a in args]
        return None if all(c is None for c in copies) else _copy_plain
    if origin is tuple:
        copies = [_type_copier(a) for a in args if a is not Ellipsis]
        if all(c is None for c in copies):
            return None
        return lambda value: tuple(clone(v) for v in value)
    if origin is list:
        each = _type_copier(args[0])
        if each is None:
            return list
        return lambda value: [each(v) for v in value]
    if origin is dict:
        value_copy = _type_copier(args[1])
        if value_copy is None:
            return dict
        return lambda value: {k: value_copy(v) for k, v in value.items()}
    if isinstance(hint, type):
        if callable(getattr(hint, "copy", None)) and not issubclass(hint, enum.Enum):
            return lambda value: value.copy()
        if issubclass(hint, enum.Enum):
            return None
        if dataclasses.is_dataclass(hint):
            if hint.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                return None
            return _cloner(hint)
    raise TypeError(f"cannot tell how to copy a {hint}; give the field a copy rule")
