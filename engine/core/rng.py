"""The games' generator: HMAC_DRBG keyed by a 256-bit secret, replayable from its seed.

A game's seed is a secret of ``SEED_BITS`` bits drawn from the operating system
(``firmware.entropy.new_seed``) outside the engine, which reads no entropy itself. ``Rng`` expands it with HMAC_DRBG over SHA-256 (NIST
SP 800-90A Rev. 1, section 10.1.2): a deterministic random bit generator built on a
standard pseudorandom function, so the same seed gives the same draws on any machine
and any Python version (a log still replays exactly), while no number of outputs seen
(hands, words, dice) tells the seed or the draws still to come. Searching the seed
space means trying 2**256 secrets.

``SplitMix64`` is the generator games used before, kept only so that a game saved then
(a whole-number seed, save format 1) still loads and replays exactly; the save's format
chooses it (``Rng.for_seed``). New games never use it: its 64-bit state can be
recovered from a few outputs.

Seeds derived for other purposes (a bot's own choices, the games of a simulation) come
from ``derive_seed``: an HMAC of the parent seed, which tells nothing about it.
"""

from __future__ import annotations

import hmac
import struct
from collections.abc import MutableSequence
from typing import TypeVar

SEED_BITS = 256
SEED_HEX_DIGITS = SEED_BITS // 4
_SEED_BYTES = SEED_BITS // 8
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_OUT_LEN = 32  # bytes of one HMAC-SHA256 block
_BLOCKS_PER_REQUEST = 16  # 512 bytes per generate request, 64 draws of 64 bits
_WORDS_PER_REQUEST = _BLOCKS_PER_REQUEST * _OUT_LEN // 8
_UNPACK = struct.Struct(f">{_WORDS_PER_REQUEST}Q").unpack
# SP 800-90A's limit on generate requests between reseeds; a game never comes near it
_RESEED_INTERVAL = 1 << 48
# Domain separation: these bytes follow the secret in the seed material
PERSONALIZATION = b"Clacks Exchange game generator"
GENERATOR = "hmac-drbg-sha256"

T = TypeVar("T")


def check_seed(seed: object) -> int:
    """``seed`` when it is a whole number a game can be keyed with; ValueError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a seed must be a whole number, not {seed!r}")
    if not 0 <= seed < 1 << SEED_BITS:
        raise ValueError(f"a seed must be from 0 to 2**{SEED_BITS} - 1")
    return seed


def seed_to_hex(seed: int) -> str:
    """The seed as saves and replay files hold it: 64 hex digits, since JSON numbers
    lose precision beyond 2**53 in a browser."""
    return format(check_seed(seed), f"0{SEED_HEX_DIGITS}x")


def seed_from_hex(text: object) -> int:
    """A seed written by ``seed_to_hex``; ValueError for anything else."""
    if (
        not isinstance(text, str)
        or len(text) != SEED_HEX_DIGITS
        or text.strip("0123456789abcdefABCDEF")
    ):
        raise ValueError(f"a seed must be {SEED_HEX_DIGITS} hexadecimal digits")
    return int(text, 16)


def derive_seed(seed: int, *labels: object) -> int:
    """A seed for another purpose (``labels`` name it), independent of ``seed`` to anyone
    who does not know it: HMAC-SHA256 keyed by the parent seed."""
    key = (seed & ((1 << SEED_BITS) - 1)).to_bytes(_SEED_BYTES, "big")
    message = "\x1f".join(str(label) for label in labels).encode()
    return int.from_bytes(hmac.digest(key, message, "sha256"), "big")


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.digest(key, data, "sha256")


class Rng:
    """HMAC_DRBG with SHA-256, no reseeding and no additional input (the deterministic
    form), read 64 bits at a time: each generate request makes ``_BLOCKS_PER_REQUEST``
    blocks, kept in a pool that ``next_u64`` reads in order. The whole state (Key, V,
    the request count and what is left of the pool) is the generator's JSON."""

    __slots__ = ("_key", "_next", "_pool", "_requests", "_value")

    legacy = False  # SplitMix64 says True: a game saved before the change

    def __init__(self, seed: int) -> None:
        self._instantiate(check_seed(seed).to_bytes(_SEED_BYTES, "big") + PERSONALIZATION)

    @classmethod
    def for_seed(cls, seed: int, legacy: bool = False) -> Rng:
        """The generator of a game with this seed: HMAC_DRBG, or for a game saved
        before it (``legacy``) the SplitMix64 it was dealt with."""
        return SplitMix64(seed) if legacy else cls(seed)

    @classmethod
    def from_seed_material(cls, seed_material: bytes) -> Rng:
        """Instantiated straight from SP 800-90A seed material (entropy input, nonce and
        personalization string, concatenated): for known-answer tests."""
        rng = cls.__new__(cls)
        rng._instantiate(seed_material)
        return rng

    # ----------------------------------------------------------------- HMAC_DRBG

    def _instantiate(self, seed_material: bytes) -> None:
        self._key = b"\x00" * _OUT_LEN
        self._value = b"\x01" * _OUT_LEN
        self._update(seed_material)
        self._requests = 1
        self._pool: tuple[int, ...] = ()
        self._next = 0

    def _update(self, provided: bytes) -> None:
        key = _hmac(self._key, self._value + b"\x00" + provided)
        value = _hmac(key, self._value)
        if provided:
            key = _hmac(key, value + b"\x01" + provided)
            value = _hmac(key, value)
        self._key, self._value = key, value

    def generate(self, length: int) -> bytes:
        """One SP 800-90A generate request of ``length`` bytes (no additional input)."""
        if self._requests > _RESEED_INTERVAL:
            raise RuntimeError("HMAC_DRBG needs reseeding")  # 2**48 requests: never in a game
        key, value = self._key, self._value
        out = bytearray()
        while len(out) < length:
            value = _hmac(key, value)
            out += value
        self._value = value
        self._update(b"")
        self._requests += 1
        return bytes(out[:length])

    # ----------------------------------------------------------------- draws

    def next_u64(self) -> int:
        index = self._next
        pool = self._pool
        if index >= len(pool):
            pool = self._pool = _UNPACK(self.generate(_WORDS_PER_REQUEST * 8))
            index = 0
        self._next = index + 1
        return pool[index]

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), by rejection so no value is favoured."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: list[T], count: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:count]

    def copy(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin._key, twin._value, twin._requests = self._key, self._value, self._requests
        twin._pool, twin._next = self._pool, self._next
        return twin

    # ----------------------------------------------------------------- JSON

    def _left(self) -> tuple[int, ...]:
        return self._pool[self._next :]

    def to_json(self) -> object:
        """The generator's whole state as JSON, for a game state's own serialisation
        (never shown to a player: it foretells every draw)."""
        return {
            "generator": GENERATOR,
            "key": self._key.hex(),
            "value": self._value.hex(),
            "requests": self._requests,
            "pool": "".join(format(word, "016x") for word in self._left()),
        }

    @classmethod
    def from_json(cls, data: object) -> Rng:
        """The generator ``to_json`` described (a whole number: a SplitMix64 state from a
        game saved before); ValueError for anything else."""
        if isinstance(data, int) and not isinstance(data, bool):
            return SplitMix64(data)
        if not isinstance(data, dict) or data.get("generator") != GENERATOR:
            raise ValueError(f"not a generator state: {data!r}")
        try:
            key, value = bytes.fromhex(data["key"]), bytes.fromhex(data["value"])
            pool_hex, requests = data["pool"], data["requests"]
            if (
                len(key) != _OUT_LEN
                or len(value) != _OUT_LEN
                or not isinstance(pool_hex, str)
                or len(pool_hex) % 16
                or len(pool_hex) > _WORDS_PER_REQUEST * 16
                or isinstance(requests, bool)
                or not isinstance(requests, int)
                or not 1 <= requests <= _RESEED_INTERVAL + 1
            ):
                raise ValueError("a part of it has the wrong size")
            pool = tuple(int(pool_hex[i : i + 16], 16) for i in range(0, len(pool_hex), 16))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a generator state: {exc}") from None
        rng = cls.__new__(cls)
        rng._key, rng._value, rng._requests = key, value, requests
        rng._pool, rng._next = pool, 0
        return rng

    def _identity(self) -> tuple[object, ...]:
        return (self._key, self._value, self._requests, self._left())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Rng)
            and other.legacy == self.legacy
            and other._identity() == self._identity()
        )

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        return f"Rng({GENERATOR}, request {self._requests})"  # never the key


class SplitMix64(Rng):
    """The generator of games saved before HMAC_DRBG (save format 1): SplitMix64 over a
    64-bit state. Kept to replay those saves exactly; never used for a new game."""

    __slots__ = ("state",)

    legacy = True

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def copy(self) -> SplitMix64:
        return SplitMix64(self.state)

    def to_json(self) -> object:
        return self.state

    def _identity(self) -> tuple[object, ...]:
        return (self.state,)

    def __repr__(self) -> str:
        return "SplitMix64()"
