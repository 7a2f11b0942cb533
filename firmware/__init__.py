"""The Raspberry Pi side of the Clacks Exchange: the LED matrix, the tower buttons, a
simulator for machines without them, and the process that wires them to the games."""
