"""The games' generator: HMAC_DRBG over SHA-256 keyed by a 256-bit secret, checked
against NIST's published answers, unbiased, independent between secrets, replayable from
its JSON; and the SplitMix64 of older saves, unchanged."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.core.errors import SerializationError
from engine.core.rng import (
    SEED_BITS,
    SEED_HEX_DIGITS,
    Rng,
    SplitMix64,
    derive_seed,
    seed_from_hex,
    seed_to_hex,
)
from engine.core.saves import seed_from_json, seed_json
from firmware.entropy import new_seed

# NIST CAVP, DRBG test vectors for SP 800-90A (HMAC_DRBG.rsp): [SHA-256],
# PredictionResistance = False, EntropyInputLen = 256, NonceLen = 128,
# ReturnedBitsLen = 1024, no additional input. Instantiate, generate twice, compare the
# second output.
NIST_HMAC_DRBG_SHA256 = [
    (  # PersonalizationStringLen = 0, COUNT = 0
        "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488",
        "659ba96c601dc69fc902940805ec0ca8",
        "",
        "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
        "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
        "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
        "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8",
    ),
    (  # PersonalizationStringLen = 256, COUNT = 0
        "5cacc68165a2e2ee20812f35ec73a79dbf30fd475476ac0c44fc6174cdac2b55",
        "6f885496c1e63af620becd9e71ecb824",
        "e72dd8590d4ed5295515c35ed6199e9d211b8f069b3058caa6670b96ef1208d0",
        "f1012cf543f94533df27fedfbf58e5b79a3dc517a9c402bdbfc9a0c0f721f9d5"
        "3faf4aafdc4b8f7a1b580fcaa52338d4bd95f58966a243cdcd3f446ed4bc546d"
        "9f607b190dd69954450d16cd0e2d6437067d8b44d19a6af7a7cfa8794e5fbd72"
        "8e8fb2f2e8db5dd4ff1aa275f35886098e80ff844886060da8b1e7137846b23b",
    ),
]


def words(rng: Rng, count: int) -> list[int]:
    return [rng.next_u64() for _ in range(count)]


def coins(rng: Rng, count: int) -> list[int]:
    return [rng.below(2) for _ in range(count)]


@pytest.mark.parametrize(("entropy", "nonce", "personalization", "returned"), NIST_HMAC_DRBG_SHA256)
def test_the_generator_is_hmac_drbg_with_sha256(
    entropy: str, nonce: str, personalization: str, returned: str
) -> None:
    drbg = Rng.from_seed_material(bytes.fromhex(entropy + nonce + personalization))
    drbg.generate(128)
    assert drbg.generate(128).hex() == returned


def test_a_games_draws_are_the_drbgs_output_read_64_bits_at_a_time() -> None:
    """The draws are the construction's own output, in order, request after request."""
    seed = 0x0123456789ABCDEF << 192 | 42
    rng, reference = Rng(seed), Rng(seed)
    words = [rng.next_u64() for _ in range(200)]  # more than one request's pool
    expected = b"".join(reference.generate(512) for _ in range(4))
    assert words == [int.from_bytes(expected[i * 8 : i * 8 + 8], "big") for i in range(200)]


def test_a_seed_is_a_256_bit_secret_from_the_operating_system() -> None:
    assert SEED_BITS == 256
    seeds = [new_seed() for _ in range(64)]
    assert len(set(seeds)) == 64
    assert all(0 <= s < 1 << 256 for s in seeds)
    # 64 draws of 256 bits: the top bits are set about half the time, as chance has it
    assert 10 < sum(s >> 255 for s in seeds) < 54
    assert max(s.bit_length() for s in seeds) == 256


def test_every_bit_of_the_seed_keys_the_generator() -> None:
    """Seeds one bit apart, anywhere in the 256, give unrelated streams: no part of the
    secret is dropped, as a 32-bit or 64-bit generator would."""
    seed = derive_seed(7, "test")
    base = words(Rng(seed), 64)
    for bit in (0, 31, 32, 63, 64, 128, 200, 255):
        other = words(Rng(seed ^ 1 << bit), 64)
        assert not set(base) & set(other)
        same = sum(64 - (a ^ b).bit_count() for a, b in zip(base, other, strict=True))
        assert 0.45 < same / (64 * 64) < 0.55  # half the bits agree, as between strangers


def test_distinct_secrets_give_independent_streams() -> None:
    streams = [coins(Rng(s), 4000) for s in (1, 2, 3, 2**255)]
    for a in range(len(streams)):
        for b in range(a + 1, len(streams)):
            agree = sum(x == y for x, y in zip(streams[a], streams[b], strict=True))
            assert 1850 < agree < 2150  # about half, within five standard deviations


def test_draws_are_unbiased() -> None:
    rng = Rng(99)
    counts = Counter(rng.below(6) for _ in range(60_000))
    chi2 = sum((n - 10_000) ** 2 / 10_000 for n in counts.values())
    assert len(counts) == 6 and chi2 < 25  # 5 degrees of freedom: p < 0.001 above 20.5
    # a bound just over 2**63 rejects almost half the raw draws: still uniform halves
    big = (1 << 63) + 1
    low = sum(rng.below(big) < big // 2 for _ in range(4000))
    assert 1850 < low < 2150
    with pytest.raises(ValueError):
        rng.below(0)


def test_shuffles_and_samples_are_deterministic_and_unbiased() -> None:
    firsts: Counter[str] = Counter()
    for seed in range(3000):
        items = list("ABCD")
        Rng(seed).shuffle(items)
        firsts[items[0]] += 1
        assert Rng(seed).sample(list("ABCD"), 2) == items[:2]
    assert all(650 < n < 850 for n in firsts.values())


def test_the_state_reads_back_mid_stream_and_copies_are_independent() -> None:
    rng = Rng(new_seed())
    for _ in range(13):
        rng.next_u64()
    saved = json.loads(json.dumps(rng.to_json()))
    assert saved["generator"] == "hmac-drbg-sha256"
    back = Rng.from_json(saved)
    twin = rng.copy()
    assert back == rng == twin
    ahead = [rng.next_u64() for _ in range(150)]
    assert [back.next_u64() for _ in range(150)] == ahead
    assert [twin.next_u64() for _ in range(150)] == ahead
    assert back == rng and Rng.from_json(back.to_json()) == back


@pytest.mark.parametrize(
    "broken",
    [
        None,
        True,
        "1234",
        {},
        {"generator": "splitmix64"},
        {"generator": "hmac-drbg-sha256", "key": "00", "value": "00", "requests": 1, "pool": ""},
        {
            "generator": "hmac-drbg-sha256",
            "key": "zz" * 32,
            "value": "00" * 32,
            "requests": 1,
            "pool": "",
        },
        {
            "generator": "hmac-drbg-sha256",
            "key": "00" * 32,
            "value": "00" * 32,
            "requests": 0,
            "pool": "",
        },
        {
            "generator": "hmac-drbg-sha256",
            "key": "00" * 32,
            "value": "00" * 32,
            "requests": 1,
            "pool": "123",
        },
    ],
)
def test_a_broken_generator_state_is_refused(broken: object) -> None:
    with pytest.raises(ValueError):
        Rng.from_json(broken)


def test_seeds_are_written_as_hex_digits_and_read_back() -> None:
    seed = new_seed()
    text = seed_to_hex(seed)
    assert len(text) == SEED_HEX_DIGITS == 64 and seed_from_hex(text) == seed
    assert seed_to_hex(7) == "0" * 63 + "7"
    assert seed_json(seed) == text and seed_from_json(text) == seed
    assert seed_json(12345, legacy=True) == 12345 and seed_from_json(12345, legacy=True) == 12345
    for text_bad in ("x" * 64, "12", None, 1.5, True):
        with pytest.raises(SerializationError):
            seed_from_json(text_bad)
    for number_bad in (2**256, -1):
        with pytest.raises(ValueError):
            Rng(number_bad)
        with pytest.raises(ValueError):
            seed_to_hex(number_bad)
    with pytest.raises(SerializationError):
        seed_from_json(text, legacy=True)  # a format 1 save holds a whole number
    with pytest.raises(SerializationError):
        seed_from_json(5, legacy=False)  # a format 2 save holds hex digits


def test_derived_seeds_tell_nothing_of_their_parent() -> None:
    seed = new_seed()
    bots = {derive_seed(seed, "bot", seat, 3) for seat in ("south", "west", "north", "east")}
    assert len(bots) == 4 and seed not in bots
    assert derive_seed(seed, "bot", "south", 3) == derive_seed(seed, "bot", "south", 3)
    assert derive_seed(seed, "bot", "south", 3) != derive_seed(seed ^ 1, "bot", "south", 3)
    assert all(seed_to_hex(seed)[:16] not in seed_to_hex(b) for b in bots)


def test_the_old_generator_is_kept_for_old_saves_exactly() -> None:
    """SplitMix64 as saves of format 1 were dealt with: the published reference outputs
    for seed 0, and its whole-number state."""
    old = SplitMix64(0)
    assert [old.next_u64() for _ in range(4)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]
    assert old.legacy and not Rng(0).legacy
    assert Rng.for_seed(1234567, legacy=True) == SplitMix64(1234567)
    assert SplitMix64(1234567).below(1000) == 317  # as the engine drew it before
    restored = Rng.from_json(json.loads(json.dumps(old.to_json())))
    assert isinstance(restored, SplitMix64) and restored.next_u64() == old.next_u64()
    assert old != Rng(0)
