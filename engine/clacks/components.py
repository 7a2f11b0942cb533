"""Value types for the physical components: Jacquards, Fault Reports, the whole set."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.clacks.effects import Timing
from engine.clacks.geometry import Placement, Shape, orientations, placements, shape_size

SYMBOL_NAMES: tuple[str, ...] = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "SPACE", "END")


@dataclass(frozen=True)
class JacquardDesign:
    id: str
    name: str
    shape: Shape
    cost: int
    count: int
    faults: int

    @property
    def placements(self) -> tuple[Placement, ...]:
        return placements(self.shape)

    @property
    def orientations(self) -> list[Shape]:
        return orientations(self.shape)

    def picture(self) -> list[str]:
        return list(self._picture)

    @cached_property
    def _picture(self) -> tuple[str, ...]:
        height, width = shape_size(self.shape)
        return tuple(
            "".join("X" if (r, c) in self.shape else "." for c in range(width))
            for r in range(height)
        )


@dataclass(frozen=True)
class Jacquard:
    """One physical card in the bag."""

    id: str
    design: JacquardDesign
    fault: bool

    @property
    def cost(self) -> int:
        return self.design.cost

    @property
    def masks(self) -> frozenset[int]:
        return _mask_set(self.design.shape)


_MASK_SETS: dict[Shape, frozenset[int]] = {}


def _mask_set(shape: Shape) -> frozenset[int]:
    found = _MASK_SETS.get(shape)
    if found is None:
        found = frozenset(p.mask for p in placements(shape))
        _MASK_SETS[shape] = found
    return found


@dataclass(frozen=True)
class CardEffect:
    """One use of a named card effect: the effect, its numbers and the words read out."""

    effect: str
    params: dict[str, Any]
    text: str


@dataclass(frozen=True)
class CardDesign:
    """A Fault Report, Incident Report or Operator's Log design.

    For Incident Reports and Operator's Logs ``effect``/``params`` come from the card
    effect vocabulary. Fault Reports carry their competitive effect there and their
    other meanings in ``extra``: "night_shift" and "junior", each a CardEffect."""

    id: str
    name: str
    text: str
    count: int
    effect: str
    when: Timing
    params: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # mode-specific settings

    def meaning(self, context: str) -> CardEffect:
        """What the card does when read out in ``context`` (see effects.Context)."""
        if context in self.extra:
            found = self.extra[context]
            assert isinstance(found, CardEffect)
            return found
        return CardEffect(self.effect, dict(self.params), self.text)


@dataclass(frozen=True)
class Card:
    id: str
    design: CardDesign


@dataclass(frozen=True)
class Route:
    """A route across the map from Ankh-Morpork to Genua."""

    id: str
    name: str
    track: int  # Post Office steps to Genua
    towers: tuple[str, ...]  # tower locations in order; the last is Genua
    fault_towers: tuple[int, ...]  # 1-based tower numbers that draw a Fault Report (junior)


@dataclass(frozen=True)
class ComponentSet:
    alphabet: dict[str, int]  # symbol -> 6-bit pattern, bit 5 = top-left
    layout: int  # starting board
    words: tuple[str, ...]
    jacquards: dict[str, Jacquard]
    faults: dict[str, Card]
    source: str  # where it was loaded from, for messages
    digest: str  # content hash, so a save can tell which set it was played with
    incidents: dict[str, Card] = field(default_factory=dict)
    logs: dict[str, Card] = field(default_factory=dict)
    routes: dict[str, Route] = field(default_factory=dict)
    face_up: tuple[str, ...] = ()  # Jacquard designs laid face up on the Incident Reports
    # the Clacks Cards by table language (words.toml, words_cs.toml); ``words`` is English's
    word_lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the digest of a game dealt from another language's list, which covers that list too
    list_digests: dict[str, str] = field(default_factory=dict)
    # each Clacks Card's word as printed, with its diacritics (KOČÁR), by the plain
    # letters the lamps spell (KOCAR); only the words that differ
    spellings: dict[str, str] = field(default_factory=dict)

    def spelled(self, word: str) -> str:
        """``word`` as the card prints it (with its diacritics), else as it is."""
        return self.spellings.get(word, word)

    def words_for(self, language: str) -> tuple[str, ...]:
        """The Clacks Cards a table in ``language`` is dealt: its own list, else English's."""
        return self.word_lists.get(language) or self.words

    def digest_for(self, language: str) -> str:
        """The digest a game dealt for ``language`` records: the set's own, covering the
        files every game reads, plus that language's word list where it has its own."""
        return self.list_digests.get(language, self.digest)

    def card(self, card_id: str) -> Card:
        """A Fault Report, Incident Report or Operator's Log by its id."""
        for deck in (self.faults, self.incidents, self.logs):
            if card_id in deck:
                return deck[card_id]
        raise KeyError(card_id)

    def pattern(self, symbol: str) -> int:
        return self.alphabet[symbol]

    def symbol_for(self, pattern: int) -> str | None:
        for name, value in self.alphabet.items():
            if value == pattern:
                return name
        return None
