"""Dice that fall as a scenario needs, for the games that roll six-sided dice."""

from __future__ import annotations

from engine.core.rng import Rng


class ScriptedDice(Rng):
    """A generator that rolls the faces it is given, in order. Only scenario tests use it;
    everything else rolls from the seeded generator."""

    def __init__(self, faces: list[int] | None = None) -> None:
        super().__init__(0)
        self.faces = list(faces or [])

    def copy(self) -> ScriptedDice:
        return ScriptedDice(self.faces)

    def below(self, bound: int) -> int:
        assert bound == 6, bound
        assert self.faces, "the scenario ran out of scripted dice"
        return self.faces.pop(0) - 1
