"""Every form in which a game's seed or its generator's state could be written out, for
the tests that check no player ever receives them."""

from __future__ import annotations

from engine.core.rng import Rng, seed_to_hex


def secret_texts(seed: int, rng: Rng) -> list[str]:
    """The seed in decimal and hexadecimal, and the generator's whole state: HMAC_DRBG's
    Key and V and each draw still waiting in its pool (or a SplitMix64 state)."""
    texts = [seed_to_hex(seed), format(seed, "x"), str(seed)]
    state = rng.to_json()
    if isinstance(state, dict):
        texts += [state["key"], state["value"]]
        pool = state["pool"]
        for start in range(0, len(pool), 16):
            word = pool[start : start + 16]
            texts += [word, str(int(word, 16))]
    else:
        texts += [str(state), format(int(str(state)), "x")]
    # short numbers turn up in any JSON by chance: only what no view could hold by chance
    return [text for text in texts if len(text) >= 8]
