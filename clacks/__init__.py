"""Command-line front ends of the Clacks Exchange: the `clacks` command."""
