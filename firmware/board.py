"""The one interface the companion uses to reach the physical exchange (or its simulator).

The web side calls these methods when the game changes and registers a callback for
button presses; the hardware side implements them. Nothing here knows about Clacks: a
frame is sixteen lamps, a button is a name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.core.interface import JSON, LampFrame

ButtonCallback = Callable[[str], None]
FrameCallback = Callable[[], None]


class ExchangeBoard(Protocol):
    def start(self) -> None:
        """Start the renderer and the button readers."""

    def stop(self) -> None:
        """Stop them and turn the lamps off."""

    def show(self, frame: LampFrame) -> None:
        """The game's lamps changed: show them (previews in the frame blink)."""

    def transmitted(self, lamps: int) -> None:
        """A symbol was sent from these lamps: play the transmit animation."""

    def highlight(self, lamps: int) -> None:
        """Pick these lamps out briefly (the tower a press selected)."""

    def refused(self) -> None:
        """An action (a button press, a move) was refused: flash briefly."""

    def attract(self, enabled: bool) -> None:
        """Convention attract mode on or off."""

    def on_press(self, callback: ButtonCallback) -> None:
        """Call ``callback(button_name)`` for every debounced button press."""

    def press(self, button: str) -> None:
        """A press from the simulator (the table screen's buttons, tests)."""

    def on_frame(self, callback: FrameCallback) -> None:
        """Call ``callback()`` after every frame written to the LEDs (animations
        included), so a screen can show the lamps as they are lit; it must be quick."""

    def pixels(self) -> list[tuple[int, int, int]]:
        """The colours last written to the sixteen LEDs, lamp order a1..d4."""

    def screen_pixels(self) -> list[tuple[int, int, int]]:
        """The same lamps as colours for a screen (gamma undone), lamp order a1..d4."""

    def game_options(self, game: str) -> JSON:
        """The options this box's settings give every new game of ``game`` (its own
        layout, say), which the lobby's choices go over."""

    def status(self) -> dict[str, Any]:
        """Which drivers run, and any warning the table screen should show."""
