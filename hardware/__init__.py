"""The exchange's physical layout as data (``exchange.toml``), shipped with the companion
so that an installed copy reads the same geometry as a checkout. No code lives here:
``firmware.layout`` reads and checks the file."""
