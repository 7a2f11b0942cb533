"""A stand-in fifth game: Klackers' rules registered under a name of their own, with
everything a game brings besides its registry line (its options' tables for the shared
tests, its API notes, its settings for the box, its words), to show that the shared tests
and the box take a new game from the registry and the game's own modules alone
(tests/test_fifth_game.py)."""
