"""One English: a refusal's words live only in the catalogues.

The engine raises a rule code and its values; ``rule.<code>`` in ``web/i18n/en`` and
``web/i18n/cs`` says it. Read from the engine's own source (every call of a refusal class
in each registered game's package and in ``engine/core``): no refusal is given a
sentence, no value is a phrase, and each call's values are exactly the ones the
catalogue's sentence for it uses, in both languages, its ``reason`` naming a case the
sentence has. So an engine refusal and its catalogue entry cannot say different things.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.core.errors import IllegalAction
from engine.games import game_modules
from web.i18n import LANGUAGES, catalog
from web.messages import placeholders_chosen

ROOT = Path(__file__).parent.parent
WORD = re.compile(r"^[\w.-]*$")  # a code or an id, not a phrase


@dataclass(frozen=True)
class Refusal:
    """One place the engine raises (or builds) a refusal."""

    where: str
    rule: str
    sentence: bool  # given words of its own
    params: frozenset[str]
    beside: frozenset[str]  # values the pages read beside the sentence
    spread: bool  # values passed as ``**mapping``, which cannot be read
    reason: str | None  # the case named, if a literal
    phrases: tuple[str, ...]  # values that are words, not codes


def packages() -> list[Path]:
    """The engine's shared code and each registered game's package, from the registry."""
    found = {ROOT / "engine" / "core"}
    for module in game_modules().values():
        found.add(ROOT / Path(*type(module).__module__.split(".")[:2]))
    return sorted(found)


def _refusal_class(namespace: dict[str, object], func: ast.expr) -> type[IllegalAction] | None:
    """The refusal class ``func`` names, as ``Name`` or as ``module.Name``."""
    target: object = None
    if isinstance(func, ast.Name):
        target = namespace.get(func.id)
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        target = getattr(namespace.get(func.value.id), func.attr, None)
    if isinstance(target, type) and issubclass(target, IllegalAction):
        return target
    return None


def _raised_unknown(namespace: dict[str, object], node: ast.AST) -> ast.Call | None:
    """``raise error("...")`` or ``raise self.error("...")``, where ``error`` is a refusal
    class handed in: the class cannot be read, but a sentence written there can."""
    if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
        return None
    func = node.exc.func
    if isinstance(func, ast.Name):
        known = namespace.get(func.id, getattr(builtins, func.id, None))
        if isinstance(known, type):
            return None  # a class read here: a refusal is checked as one, else not a refusal
    elif not (isinstance(func, ast.Attribute) and func.attr == "error"):
        return None
    return node.exc if any(_words(arg) for arg in node.exc.args) else None


def _words(node: ast.expr) -> bool:
    """A sentence, written or built; not a code such as ``"event_card"``."""
    return isinstance(node, ast.JoinedStr | ast.BinOp) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and not WORD.match(node.value)
    )


def refusals_in(package: Path) -> list[Refusal]:
    found = []
    for path in sorted(package.glob("*.py")):
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            unknown = _raised_unknown(vars(module), node)
            if unknown is not None:
                where = f"{path.relative_to(ROOT)}:{unknown.lineno}"
                found.append(Refusal(where, "?", True, frozenset(), frozenset(), False, None, ()))
            if not isinstance(node, ast.Call):
                continue
            cls = _refusal_class(vars(module), node.func)
            if cls is None:
                continue
            named = {k.arg: k.value for k in node.keywords if k.arg is not None}
            reason = named.get("reason")
            found.append(
                Refusal(
                    where=f"{path.relative_to(ROOT)}:{node.lineno}",
                    rule=cls.rule,
                    sentence=bool(node.args),
                    params=frozenset(named),
                    beside=frozenset(cls.beside_words),
                    spread=any(k.arg is None for k in node.keywords),
                    reason=str(reason.value) if isinstance(reason, ast.Constant) else None,
                    phrases=tuple(
                        str(v.value)
                        for v in named.values()
                        if isinstance(v, ast.Constant) and isinstance(v.value, str)
                        and not WORD.match(v.value)
                    ),
                )
            )
    return found


def problems(refusal: Refusal, language: str) -> list[str]:
    messages = catalog(language)
    where = f"{refusal.where} ({refusal.rule}, {language})"
    if refusal.sentence:
        return [f"{where}: the engine writes the sentence; the catalogue should"]
    found = [f"{where}: {p!r} is words, not a value" for p in refusal.phrases]
    if refusal.spread:
        found.append(f"{where}: values passed as **mapping cannot be checked")
    text = messages.get(f"rule.{refusal.rule}")
    if text is None:
        return [*found, f"{where}: no rule.{refusal.rule}"]
    chosen = {} if refusal.reason is None else {"reason": refusal.reason}
    used, unmatched = placeholders_chosen(text, chosen)
    if "reason" in refusal.params and refusal.reason is None:
        found.append(f"{where}: the reason is not a literal case")
    if unmatched:
        found.append(f"{where}: no case {refusal.reason!r} in rule.{refusal.rule}")
    if used != refusal.params - refusal.beside:
        found.append(f"{where}: passes {sorted(refusal.params)}, the sentence uses {sorted(used)}")
    return found


def test_the_engine_is_read_whole() -> None:
    """The reading finds every registered game and the refusals known to be raised."""
    names = {p.name for p in packages()}
    assert {"core", "clacks", "clockman", "guards", "klackers"} <= names
    rules = {r.rule for p in packages() for r in refusals_in(p)}
    assert {"wrong_sum", "roll_first", "not_your_turn", "malformed_action"} <= rules


# games whose refusals the engine still words itself; each comes off as it is converted
STILL_WORDED_IN_THE_ENGINE: set[str] = set()


def _package_case(name: str) -> object:
    if name in STILL_WORDED_IN_THE_ENGINE:
        reason = f"engine/{name} still writes its refusals' English"
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=reason))
    return name


@pytest.mark.parametrize("package", [_package_case(p.name) for p in packages()])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_is_worded_only_by_its_catalogue_entry(package: str, language: str) -> None:
    found = refusals_in(ROOT / "engine" / package)
    assert found, f"no refusal read in engine/{package}"
    assert [p for refusal in found for p in problems(refusal, language)] == []
