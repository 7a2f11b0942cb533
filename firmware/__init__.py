"""The Raspberry Pi side of the Clacks Exchange: the LED matrix, the tower buttons, a
simulator for machines without them, and the process that wires them to the games.

``create_board()`` builds the exchange this machine can run (see factory.py; real LED
drivers are imported only when chosen); the companion (companion.py) keeps it in step
with a game.
"""

from firmware.factory import create_board

__all__ = ["create_board"]
