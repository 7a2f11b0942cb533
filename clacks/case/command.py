"""``clacks hardware case OUTDIR``: the printable case, checked, as STL, STEP and pictures.

The model is built from hardware/exchange.toml, checked (the layout's walls and gaps,
then the built solids: closed, on the bed, holes and pixels where the layout puts
them), and only then written: one STL (millimetres, as it goes on the bed) and one STEP
file per part, and the pictures. ``--pictures`` writes the pictures alone, with the
fingerprint of the model they were drawn from: that is how hardware/pictures/ is
refreshed after the layout or the model changes (a test fails while it is stale).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import sys
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from clacks.case.plan_checks import plan_problems
from firmware.layout import FILE, built_layout

# the modules whose code decides what the pictures show
DRAWN_FROM = (
    "engine.clacks.geometry",
    "firmware.layout",
    *(f"clacks.case.{name}" for name in ("features", "font", "model", "render", "pictures")),
)
FINGERPRINT = "fingerprint.txt"
NEEDS_CAD = (
    "clacks hardware case needs the CAD library, build123d: install the cad extra "
    "(pip install -e '.[cad]' in a checkout; ./run test installs it on x86-64)"
)


def add_to(actions: Any) -> None:
    """The ``case`` action of ``clacks hardware``."""
    case = actions.add_parser(
        "case", help="write the printable case (STL, STEP) and its pictures into OUTDIR"
    )
    case.add_argument("outdir", metavar="OUTDIR", help="where to write the files")
    case.add_argument(
        "--pictures",
        action="store_true",
        help="the pictures alone, with the model's fingerprint (refreshes hardware/pictures)",
    )
    case.set_defaults(run=run)


def fingerprint() -> str:
    """A digest of everything the pictures are drawn from: the layout file, the code that
    reads it (the lamps' and buttons' centres come from the engine's names) and the
    model."""
    digest = hashlib.sha256()
    digest.update(resources.files("hardware").joinpath(FILE).read_bytes())
    for module in DRAWN_FROM:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None, module
        digest.update(module.encode() + b"\0" + Path(spec.origin).read_bytes())
    return digest.hexdigest()


def stamp(pictures: list[Path]) -> str:
    """What the pictures' folder keeps beside them: the fingerprint of the model they
    were drawn from, then each picture's own digest (as sha256sum writes it), so that a
    picture changed by hand is found out as surely as a stale one."""
    lines = [fingerprint()]
    for path in sorted(pictures):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    layout = built_layout()
    problems = plan_problems(layout)
    if problems:
        print("clacks hardware case: the layout cannot be printed:", file=sys.stderr)
        print("\n".join(f"  {p}" for p in problems), file=sys.stderr)
        return 1
    try:
        from clacks.case import checks, model, pictures
    except ImportError:
        print(NEEDS_CAD, file=sys.stderr)
        return 2
    outdir = Path(args.outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    out.write(f"Building the case from {FILE} ...\n")
    parts = model.build(layout)
    problems = checks.solid_problems(layout, parts)
    if problems:
        print("clacks hardware case: the model fails its checks:", file=sys.stderr)
        print("\n".join(f"  {p}" for p in problems), file=sys.stderr)
        return 1
    written: list[Path] = []
    if not args.pictures:
        written += model.export(parts, outdir)
        for path in written:
            if path.suffix == ".stl" and (mesh := checks.mesh_problems(path)):
                print("\n".join(mesh), file=sys.stderr)
                return 1
    drawn = pictures.draw_all(layout, parts, outdir)
    written += drawn
    (outdir / FINGERPRINT).write_text(stamp(drawn), encoding="utf-8")
    written.append(outdir / FINGERPRINT)
    for path in written:
        out.write(f"  {path}\n")
    out.write(
        f"{len(parts)} parts checked: each one closed solid on the bed, holes and pixels in place.\n"
    )
    return 0
