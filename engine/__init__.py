"""Rules engines for the games the Clacks Exchange box plays.

Pure Python: no I/O beyond reading the bundled component data, no threads, no clock and
no global random state. Every random draw comes from a seeded generator held in a game's
state, so a game is fully determined by its options, its seed and its action log.
"""
