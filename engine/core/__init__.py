"""Game-agnostic pieces shared by every rules engine: the seeded generator, errors and
the interface a game module offers to the lobby, the pages, the renderer and the saves."""

from engine.core.errors import DataError, EngineError, IllegalAction, SerializationError
from engine.core.rng import Rng

__all__ = ["DataError", "EngineError", "IllegalAction", "Rng", "SerializationError"]
