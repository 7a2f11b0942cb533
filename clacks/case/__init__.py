"""The printable case, generated from the exchange's layout (hardware/exchange.toml).

``features`` lays out every hole, pocket, post and engraving as plain shapes (no CAD
library needed), ``model`` builds the parts' solids from them with build123d (the
``cad`` extra), ``checks`` proves the solids against the layout, ``render`` draws the
pictures and ``command`` is ``clacks hardware case OUTDIR``.
"""
