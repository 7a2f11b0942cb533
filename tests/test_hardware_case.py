"""The printable case (clacks/case/): the layout's walls and gaps, the wiring diagram and
the README's pictures kept in step with the layout, and the built solids proved: each
part closed and on the bed, every button hole and window centred, every pixel of the
chain under its window."""

from __future__ import annotations

import hashlib
import math
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from clacks.case.command import FINGERPRINT, fingerprint
from clacks.case.features import plans
from clacks.case.plan_checks import plan_problems
from clacks.cli import main
from clacks.wiring import wiring_svg
from firmware.config import DEFAULT_BUTTON_PINS
from firmware.layout import built_layout, parse_layout

ROOT = Path(__file__).resolve().parent.parent
PICTURE_NAMES = ("panel", "carrier", "base", "assembly")
HARDWARE = ROOT / "hardware"
PICTURES = HARDWARE / "pictures"
WHY_NO_CAD = (
    "build123d (the cad extra) is not installed: ./run test installs it on x86-64 only, "
    "where its CAD kernel has a build; pip install -e '.[cad]' elsewhere"
)


def layout_data() -> dict[str, Any]:
    return tomllib.loads((HARDWARE / "exchange.toml").read_text(encoding="utf-8"))


def test_the_shipped_layout_prints_every_wall_thick_enough_and_no_hole_on_another() -> None:
    assert plan_problems(built_layout()) == []


def test_a_wall_thinner_than_the_minimum_is_named() -> None:
    data = layout_data()
    data["carrier"]["tube_wall"] = 0.8
    problems = plan_problems(parse_layout(data))
    assert "carrier: light tube is 0.80 mm, thinner than 1.2 mm" in problems


def test_holes_too_close_are_named_with_the_gap_left() -> None:
    data = layout_data()
    data["panel"]["window"] = 20.0  # wider windows come within 0.6 mm of the buttons' holes
    problems = plan_problems(parse_layout(data))
    assert "panel: window a2 and square hole a2b2 leave 0.60 mm between them (at least 1.2)" in (
        problems
    )


def test_a_pi_placed_on_another_pis_stand_offs_is_refused() -> None:
    data = layout_data()
    zero = next(pi for pi in data["pi"] if "zero2w" in pi["models"])
    zero["at"] = [-60.0, 58.0]  # over the Pi 4's board
    problems = plan_problems(parse_layout(data))
    assert "board pi4 and board zero2w overlap" in problems
    assert any("board zero2w" in p and "stand-off pi4" in p for p in problems)


def test_a_pi_too_tall_for_the_room_under_the_carrier_is_refused() -> None:
    data = layout_data()
    data["base"]["standoff_height"] = 20.0  # the board's ports and wires then reach 42.4 mm
    problems = plan_problems(parse_layout(data))
    assert (
        "board pi4 and what stands on it reach 42.4 mm, above the carrier's underside "
        "at 40 mm" in problems
    )


def test_a_cut_out_on_a_corner_post_is_refused() -> None:
    data = layout_data()
    data["cutout"][0]["x"] = -82.0
    problems = plan_problems(parse_layout(data))
    assert any("cut-out power runs into corner post" in p for p in problems)


def test_every_part_is_laid_out_to_fit_the_bed() -> None:
    layout = built_layout()
    for plan in plans(layout).values():
        width, depth = plan.outline.size
        assert width <= layout.exchange.bed[0] and depth <= layout.exchange.bed[1], plan.name
    data = layout_data()
    data["exchange"]["bed"] = [150.0, 150.0]
    data["exchange"]["bed_height"] = 40.0
    with pytest.raises(ValueError, match=r"panel\.size: 180 x 180 mm does not fit the bed"):
        parse_layout(data)


def test_every_button_hole_and_window_is_laid_out_on_its_tower_and_lamp() -> None:
    layout = built_layout()
    panel = plans(layout)["panel"]
    holes = {
        c.name.split()[-1]: c for c in panel.cuts if "hole" in c.name and "screw" not in c.name
    }
    for name, button in layout.buttons.items():
        assert holes[name].centre == button.centre
        assert holes[name].kind == ("rect" if button.colour.value == "red" else "circle")
    windows = {c.name.split()[-1]: c.centre for c in panel.cuts if c.name.startswith("window")}
    assert windows == layout.lamps


def test_wiring_svg_is_the_drawing_of_the_layout() -> None:
    """hardware/wiring.svg is drawn from the layout: `python -m clacks.wiring` redraws it."""
    committed = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    assert committed == wiring_svg(built_layout()), "run: python -m clacks.wiring"


def test_the_wiring_shows_the_chain_in_order_and_each_buttons_gpio() -> None:
    layout = built_layout()
    svg = wiring_svg(layout)
    for led, lamp in enumerate(layout.chain):
        assert f">{lamp}</text>" in svg and f">LED {led}</text>" in svg
    for name, gpio in DEFAULT_BUTTON_PINS.items():
        assert f"{name}: GPIO{gpio} (pin " in svg
    # one data arrow between each pair of pixels next in the chain, and one into LED 0
    assert svg.count('class="data" marker-end') == len(layout.chain)


def test_the_readme_pictures_are_drawn_from_this_model() -> None:
    """hardware/pictures/ holds the fingerprint of the layout and model it was drawn
    from, and each picture's digest; after a change to either, or to a picture by hand,
    this fails until they are drawn again (hardware/README.md says how)."""
    fingerprint_line, *digests = (PICTURES / FINGERPRINT).read_text(encoding="utf-8").splitlines()
    redraw = "clacks hardware case hardware/pictures --pictures"
    assert fingerprint_line == fingerprint(), f"the pictures are stale: {redraw}"
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    drawn = {name: digest for digest, name in (line.split("  ") for line in digests)}
    assert sorted(drawn) == sorted(f"{picture}.png" for picture in PICTURE_NAMES)
    for picture in PICTURE_NAMES:
        data = (PICTURES / f"{picture}.png").read_bytes()
        assert hashlib.sha256(data).hexdigest() == drawn[f"{picture}.png"], (
            f"{picture}.png is not the picture the model drew: {redraw}"
        )
        assert f"(pictures/{picture}.png)" in readme


def differing_pixels(drawn: Path, committed: Path) -> float:
    """The share of pixels where two pictures differ visibly (by more than 40 of 255 in
    a colour): drawing the same model twice differs only at a few edges, where the CAD
    kernel's triangles fall differently."""
    import numpy as np  # both come with the cad extra
    from PIL import Image

    a = np.asarray(Image.open(drawn).convert("RGB"), dtype=int)
    b = np.asarray(Image.open(committed).convert("RGB"), dtype=int)
    if a.shape != b.shape:
        return 1.0
    return float((np.abs(a - b).max(axis=2) > 40).mean())


def test_the_case_command_says_what_to_install_without_the_cad_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import clacks.case

    monkeypatch.setitem(sys.modules, "build123d", None)
    for name in ("model", "checks", "pictures", "render"):
        monkeypatch.delitem(sys.modules, f"clacks.case.{name}", raising=False)
        monkeypatch.delattr(clacks.case, name, raising=False)
    assert main(["hardware", "case", str(tmp_path)]) == 2
    assert "install the cad extra" in capsys.readouterr().err


# The solids themselves: built once for the module, by the command a maker runs.


@pytest.fixture(scope="module")
def case_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The command builds the parts and refuses to write them unless they pass every
    check on the solids (clacks/case/checks.py): closed and valid, on the bed, button
    holes and windows centred, each pixel of the chain under its window."""
    pytest.importorskip("build123d", reason=WHY_NO_CAD)
    outdir = tmp_path_factory.mktemp("case")
    assert main(["hardware", "case", str(outdir)]) == 0
    return outdir


@pytest.mark.slow
def test_the_case_command_writes_every_part_as_stl_and_step_and_the_pictures(
    case_dir: Path,
) -> None:
    for part in ("panel", "carrier", "base"):
        stl, step = case_dir / f"{part}.stl", case_dir / f"{part}.step"
        assert stl.stat().st_size > 10_000
        assert step.read_text(encoding="ascii", errors="replace").startswith("ISO-10303-21")
    for picture in PICTURE_NAMES:
        assert (case_dir / f"{picture}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    stamp = (case_dir / FINGERPRINT).read_text(encoding="utf-8").splitlines()
    assert stamp[0] == fingerprint()


@pytest.mark.slow
def test_the_readme_pictures_are_the_ones_the_model_draws_now(case_dir: Path) -> None:
    """The pictures drawn from the model just built look as the committed ones do: this
    holds whatever the fingerprint covers (a new CAD kernel or Pillow draws the same)."""
    for picture in PICTURE_NAMES:
        share = differing_pixels(case_dir / f"{picture}.png", PICTURES / f"{picture}.png")
        assert share < 0.002, (
            f"{picture}.png: {share:.1%} of it is not what the model draws now: "
            "clacks hardware case hardware/pictures --pictures"
        )


@pytest.mark.slow
def test_the_stand_offs_of_each_pi_have_its_boards_hole_pattern(case_dir: Path) -> None:
    """Measured on the printed base (its STEP file): the Pi 4 and 5's four stand-offs on
    the 58 x 49 mm rectangle of their M2.5 holes, the Zero 2 W's on its 58 x 23 mm one,
    as the Raspberry Pi boards' mechanical drawings give them."""
    bd = pytest.importorskip("build123d", reason=WHY_NO_CAD)
    from clacks.case.checks import standoffs

    layout = built_layout()
    base = bd.import_step(str(case_dir / "base.step")).solids()[0]
    stood = standoffs(layout, base)
    real = {"pi4": (58.0, 49.0), "zero2w": (58.0, 23.0)}
    for pi in layout.pis:
        mine = [min(stood, key=lambda s: math.dist(s.centre, c)) for c in pi.hole_centres()]
        xs, ys = [s.centre[0] for s in mine], [s.centre[1] for s in mine]
        assert len({s.centre for s in mine}) == 4
        assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(real[pi.models[0]], abs=0.01)
        for s in mine:
            assert s.size == pytest.approx((layout.base.standoff,) * 2, abs=0.02) and s.round


@pytest.mark.slow  # the CAD kernel alone takes long to load
def test_two_holes_that_meet_are_found_on_the_solid() -> None:
    """What the solid checks measure with: of two 12 mm holes 11 mm apart, which run
    into one another, neither is found as a hole of its own; 13 mm apart, both are."""
    bd = pytest.importorskip("build123d", reason=WHY_NO_CAD)
    from clacks.case.checks import holes_apart
    from clacks.case.features import PartPlan, circle, rect
    from clacks.case.model import Part

    layout = built_layout()
    for apart, named in ((13.0, []), (11.0, ["hole a", "hole b"])):
        plan = PartPlan("plate", rect("plate", (0.0, 0.0), (60.0, 60.0), (0.0, 3.0)))
        plan.cuts = [circle("hole a", (0.0, 0.0), 12.0, (0.0, 3.0))]
        plan.cuts.append(circle("hole b", (apart, 0.0), 12.0, (0.0, 3.0)))
        plate = bd.Box(60, 60, 3, align=(bd.Align.CENTER, bd.Align.CENTER, bd.Align.MIN))
        for cut in plan.cuts:
            plate = plate - bd.Pos(*cut.centre, 0) * bd.Cylinder(6.0, 10)
        solid = plate.solids()[0]
        problems = holes_apart(Part("plate", solid, solid, plan), layout)
        assert [p.split(" is not")[0] for p in problems] == [f"plate: {n}" for n in named]


@pytest.mark.slow
def test_every_stl_is_a_closed_manifold_mesh(case_dir: Path) -> None:
    from clacks.case.checks import mesh_problems

    for part in ("panel", "carrier", "base"):
        assert mesh_problems(case_dir / f"{part}.stl") == []


@pytest.mark.slow  # the CAD kernel alone takes long to load
def test_the_measurements_find_a_hole_off_its_place() -> None:
    """What the solid checks measure with: a square hole 0.3 mm east of where it should
    be is found there, square, and a round one round."""
    bd = pytest.importorskip("build123d", reason=WHY_NO_CAD)
    from clacks.case.checks import nearest, openings

    plate = bd.Box(60, 60, 3) - bd.Pos(0.3, 0, 0) * bd.Box(12.8, 12.8, 5)
    plate = plate - bd.Pos(20, 20, 0) * bd.Cylinder(6.4, 5)
    found = openings(plate.solids()[0], 0.0)
    square = nearest(found, (0.0, 0.0))
    assert square.centre == pytest.approx((0.3, 0.0), abs=1e-6)
    assert square.size == pytest.approx((12.8, 12.8), abs=1e-6)
    assert not square.round
    assert nearest(found, (20.0, 20.0)).round


@pytest.mark.slow  # the CAD kernel alone takes long to load
def test_a_mesh_with_a_hole_in_it_is_refused(tmp_path: Path) -> None:
    import struct

    bd = pytest.importorskip("build123d", reason=WHY_NO_CAD)
    from clacks.case.checks import mesh_problems

    path = tmp_path / "cube.stl"
    bd.export_stl(bd.Box(10, 10, 10), str(path))
    assert mesh_problems(path) == []
    data = bytearray(path.read_bytes())
    (count,) = struct.unpack_from("<I", data, 80)
    leaky = data[:80] + struct.pack("<I", count - 1) + data[84 + 50 :]
    path.write_bytes(bytes(leaky))
    assert mesh_problems(path) == ["cube.stl: 3 edges are not shared by exactly two triangles"]


def test_the_parts_list_gives_the_layouts_sizes() -> None:
    """The README's parts and the case's table say what the layout builds."""
    layout = built_layout()
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    parts = readme.split("## Parts", 1)[1].split("## Wiring", 1)[0]
    pixel, switch, panel = layout.pixel, layout.switch, layout.panel
    for text in (
        f"lamps stand {layout.exchange.pitch:g} mm apart",
        f"{pixel.length:g} x {pixel.width:g} mm or smaller",
        f"{switch.body:g} x {switch.body:g} x {switch.body_height:g} mm body",
        f"legs {switch.legs[0]:g} x {switch.legs[1]:g} mm",
        f"| {switch.square_cap:g} x {switch.square_cap:g} mm | 6 |",
        f"| {switch.round_cap:g} mm across | 6 |",
        f"{panel.size[0]:g} x {panel.size[1]:g} x {panel.thickness:g}",
        f"a {panel.window:g} mm window",
        f"{panel.diffuser:g} x {panel.diffuser_depth:g} mm recess",
        f"within a {layout.exchange.bed[0]:g} x {layout.exchange.bed[1]:g} mm bed",
    ):
        assert text in parts, text


def test_the_test_tools_bring_the_cad_extra_where_the_kernel_is_wanted() -> None:
    """./run test installs the `test` extra, which holds each of the `cad` extra's
    requirements (build123d off Raspberry Pis), so the case's tests run in CI."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    test = [requirement.split(";")[0].strip() for requirement in extras["test"]]
    for requirement in extras["cad"]:
        assert requirement in test


@pytest.mark.slow  # the CAD kernel alone takes long to load
def test_a_wall_too_thin_is_measured_on_the_solid() -> None:
    """The solid checks measure the thinnest wall of a slice: 0.8 mm between a round hole
    and a square one is found, and none thinner than 0.5 mm."""
    bd = pytest.importorskip("build123d", reason=WHY_NO_CAD)
    from clacks.case.checks import thinnest_wall

    plate = bd.Box(60, 60, 3) - bd.Pos(-7, 0, 0) * bd.Cylinder(6, 5)
    plate = plate - bd.Pos(5.8, 0, 0) * bd.Box(12, 12, 5)
    solid = plate.solids()[0]
    assert thinnest_wall(solid, 0.0, 1.2) == pytest.approx(0.8, abs=1e-6)
    assert thinnest_wall(solid, 0.0, 0.5) is None
