"""`clacks check-data` and the one validator: every kind of corruption in every data file
is reported, naming the file and the entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clacks.cli import main
from engine.clacks.data import FILES, check_path, default_data_path, load_components
from engine.core.errors import DataError


def data_copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(default_data_path(), target)
    return target


def corrupt(path: Path, file: str, old: str, new: str) -> None:
    target = path / file
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


CORRUPTIONS = [
    # (file, old text, new text, the problem reported)
    (
        "incidents.toml",
        'effect = "darken_all"',
        'effect = "darken_everything"',
        "incidents.toml: lightning: unknown effect name 'darken_everything'",
    ),
    (
        "incidents.toml",
        'effect = "limit_jacquards"\nparams = { per_turn = 1 }',
        'effect = "reveal_faults"\nparams = { count = 2 }',
        "incidents.toml: character-sabotage: effect reveal_faults cannot be used on an Incident Report",
    ),
    (
        "incidents.toml",
        'lamps = "b2 c2 b3 c3", lit = false',
        'lamps = "b2 z9 b3 c3", lit = false',
        "incidents.toml: deep-downers: effect set_lamps: params.lamps unknown lamp 'z9'",
    ),
    (
        "incidents.toml",
        'lamps = "b2 c2 b3 c3", lit = false',
        'lamps = "b2 b2", lit = false',
        "incidents.toml: deep-downers: effect set_lamps: params.lamps names a lamp twice",
    ),
    (
        "incidents.toml",
        "count = 1",
        "count = 2",
        "incidents.toml: wrong count: the copies add up to 9 cards, needs 8",
    ),
    (
        "incidents.toml",
        'id = "nugganites"',
        'id = "deep-downers"',
        "incidents.toml: deep-downers: duplicate id",
    ),
    (
        "incidents.toml",
        'face_up = ["long", "cross"]',
        'face_up = ["long", "zigzag"]',
        "incidents.toml: face_up: unknown Jacquard design(s) zigzag",
    ),
    (
        "incidents.toml",
        'face_up = ["long", "cross"]',
        'face_up = ["long", "long"]',
        "incidents.toml: face_up: names 2 design(s); it needs 2 different Jacquard designs",
    ),
    (
        "incidents.toml",
        'face_up = ["long", "cross"]',
        "",
        "incidents.toml: face_up: needs face_up",
    ),
    (
        "logs.toml",
        "params = { steps = 2 }",
        "params = { steps = 0 }",
        "logs.toml: gargoyle-on-shift: params.steps = 0 is out of range 1-16",
    ),
    (
        "logs.toml",
        "params = { steps = 2 }",
        'params = { steps = "two" }',
        "logs.toml: gargoyle-on-shift: effect post_office_cap needs params.steps (int)",
    ),
    (
        "logs.toml",
        "params = { steps = 2 }",
        "params = { steps = 2, turns = 3 }",
        "logs.toml: gargoyle-on-shift: effect post_office_cap takes no parameter 'turns'",
    ),
    (
        "logs.toml",
        'text = "Nothing to report.',
        'texts = "Nothing to report.',
        "logs.toml: quiet-shift: needs the card's text",
    ),
    (
        "faults.toml",
        '[fault.night_shift]\neffect = "light_all"',
        '[fault.nightshift]\neffect = "light_all"',
        "faults.toml: overload: needs a [fault.night_shift] table",
    ),
    (
        "faults.toml",
        'effect = "nothing"\ntext = "The fitter checks the tower.',
        'effect = "light_all"\ntext = "The fitter checks the tower.',
        "faults.toml: emergency-repair.junior: a Fault Report whose Night Shift effect is cancel_next does nothing",
    ),
    (
        "faults.toml",
        '"jammed-loom", "character-sabotage"',
        '"jammed-loom", "charcter-sabotage"',
        "faults.toml: emergency-repair.night_shift: cancel_next names unknown card(s) charcter-sabotage",
    ),
    (
        "faults.toml",
        '"overload", "jammed-loom", "character-sabotage"',
        '"overload", "jammed-loom"',
        "faults.toml: emergency-repair.night_shift: cancel_next names 2 cards; it needs 3",
    ),
    (
        "faults.toml",
        'effect = "flip_named_lamps"\nparams = { lamps = "b1 c4" }',
        'effect = "post_office_advance"\nparams = { steps = 1 }',
        "faults.toml: relay-runner.junior: effect post_office_advance cannot be used on a junior race Fault Report",
    ),
    (
        "faults.toml",
        'effect = "post_office_delay"',
        'effect = "post_office_cap"',
        "faults.toml: well-oiled.night_shift: effect post_office_cap cannot be used on a Night Shift Fault Report",
    ),
    (
        "faults.toml",
        'effect = "set_tower"',
        'effect = "set_towers"',
        "faults.toml: wick-fire: unknown effect name 'set_towers'",
    ),
    (
        "routes.toml",
        '"Genuan Marshes", "Genua Road", "Genua",',
        '"Genuan Marshes", "Genua",',
        "routes.toml: easy: wrong count: 11 tower locations, needs 12",
    ),
    (
        "routes.toml",
        '"Bonk", "The River Vieux", "Genua",',
        '"Bonk", "Genua", "The River Vieux",',
        "routes.toml: hard: the last tower location must be Genua",
    ),
    (
        "routes.toml",
        "fault_towers = [3, 6, 9]",
        "fault_towers = [3, 6, 12]",
        "routes.toml: easy: fault_towers must list tower numbers in order",
    ),
    (
        "routes.toml",
        'id = "hard"',
        'id = "harder"',
        "routes.toml: the hard route is missing",
    ),
    (
        "routes.toml",
        "track = 38",
        "track = 0",
        "routes.toml: easy: track 0 must be 1 to 99 Post Office steps",
    ),
    (
        "routes.toml",
        '"Sto Lat", "Cabbage Country"',
        '"Sto Lat", "Sto Lat"',
        "routes.toml: hard: a tower location is listed twice",
    ),
    (
        "jacquards.toml",
        "count = 6",
        "count = 5",
        "jacquards.toml: wrong count: the copies add up to 47 Jacquards, needs 48",
    ),
    (
        "logs.toml",
        'effect = "nothing"',
        'effect = "nothing"\nwhen = "own_turn"',
        "logs.toml: quiet-shift: an Operator's Log is applied when revealed; `when` does not apply",
    ),
    (
        "logs.toml",
        "[[log]]",
        "[[log]\n",
        "logs.toml: not valid TOML",
    ),
]


def test_the_shipped_set_is_valid() -> None:
    assert check_path() == []
    components = load_components()
    assert len(components.incidents) == 8 and len(components.logs) == 8
    assert set(components.routes) == {"easy", "hard"}
    names = {c.design.name for c in components.faults.values()}
    assert {"Emergency Repair", "Clacks Technician", "Overload"} <= names
    incident_names = {c.design.name for c in components.incidents.values()}
    log_names = {c.design.name for c in components.logs.values()}
    assert "Character Sabotage" in incident_names and "Gargoyle on Shift" in log_names


@pytest.mark.parametrize(("file", "old", "new", "expected"), CORRUPTIONS)
def test_each_corruption_is_reported_naming_file_and_entry(
    tmp_path: Path, file: str, old: str, new: str, expected: str
) -> None:
    path = data_copy(tmp_path)
    corrupt(path, file, old, new)
    problems = check_path(path)
    assert any(expected in p for p in problems), problems
    with pytest.raises(DataError):
        load_components(path)


@pytest.mark.parametrize("missing", FILES)
def test_a_missing_file_is_reported(tmp_path: Path, missing: str) -> None:
    path = data_copy(tmp_path)
    (path / missing).unlink()
    assert f"{missing}: file is missing" in check_path(path)


def test_cli_check_data_fails_with_the_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = data_copy(tmp_path)
    corrupt(path, "routes.toml", "track = 34", "track = 100")
    corrupt(path, "logs.toml", 'effect = "nothing"', 'effect = "teleport"')
    assert main(["check-data", str(path)]) == 1
    err = capsys.readouterr().err
    assert "routes.toml: hard: track 100 must be 1 to 99" in err
    assert "logs.toml: quiet-shift: unknown effect name 'teleport'" in err
    assert "2 problems in" in err


def test_cli_check_data_passes_the_shipped_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-data"]) == 0
    assert "all Clacks data files are valid" in capsys.readouterr().out


UNKNOWN_KEYS = [
    # (file, old text, new text, the problem reported): a misspelt key anywhere is named
    (
        "jacquards.toml",
        'id = "pin"\nname = "Pin"\nholes = ["X"]\ncost = 1\ncount = 6\nfaults = 1',
        'id = "pin"\nname = "Pin"\nholes = ["X"]\ncost = 1\ncount = 6\nfualts = 1',
        "jacquards.toml: pin: unknown key 'fualts'; did you mean 'faults'? "
        "(known: cost, count, faults, holes, id, name)",
    ),
    (
        "faults.toml",
        'effect = "light_all"\nwhen = "any"',
        'effect = "light_all"\nwehn = "own_turn"',
        "faults.toml: overload: unknown key 'wehn'; did you mean 'when'?",
    ),
    (
        "faults.toml",
        'effect = "set_tower"\nwhen = "any"\nparams = { lit = false }',
        'effect = "set_tower"\nwhen = "any"\nparam = { lit = false }',
        "faults.toml: wick-fire: unknown key 'param'; did you mean 'params'?",
    ),
    (
        "faults.toml",
        'effect = "set_tower"\nwhen = "any"\nparams = { lit = false }',
        'effect = "set_tower"\nwhen = "any"\nparams = { lt = false }',
        "faults.toml: wick-fire: effect set_tower takes no parameter 'lt'; did you mean 'lit'?",
    ),
    (
        "faults.toml",
        '[fault.night_shift]\neffect = "light_all"',
        '[fault.night_shift]\neffekt = "x"\neffect = "light_all"',
        "faults.toml: overload.night_shift: unknown key 'effekt'; did you mean 'effect'? "
        "(known: effect, params, text)",
    ),
    (
        "faults.toml",
        '[fault.junior]\neffect = "set_lamps"\nparams = { lamps = "b2 c2 b3 c3", lit = false }',
        '[fault.junior]\neffect = "set_lamps"\nparams = { lamps = "b2 c2 b3 c3", lit = false, '
        "lits = true }",
        "faults.toml: wick-fire.junior: effect set_lamps takes no parameter 'lits'; "
        "did you mean 'lit'?",
    ),
    (
        "faults.toml",
        '[fault.junior]\neffect = "light_all"',
        '[fault.junior]\ntxt = "Oh!"\neffect = "light_all"',
        "faults.toml: overload.junior: unknown key 'txt'; did you mean 'text'?",
    ),
    (
        "faults.toml",
        '[fault.junior]\neffect = "light_all"',
        '[fault.juniors]\neffect = "light_all"',
        "faults.toml: overload: unknown key 'juniors'; did you mean 'junior'?",
    ),
    (
        "incidents.toml",
        'id = "character-sabotage"',
        'id = "character-sabotage"\ncolour = "blue"',
        "incidents.toml: character-sabotage: unknown key 'colour' (known: count, effect, id, "
        "name, params, text)",
    ),
    (
        "incidents.toml",
        "params = { per_turn = 1 }",
        "parmas = { per_turn = 1 }",
        "incidents.toml: character-sabotage: unknown key 'parmas'; did you mean 'params'?",
    ),
    (
        "logs.toml",
        'id = "quiet-shift"\nname = "A Quiet Shift"',
        'id = "quiet-shift"\nnmae = "A Quiet Shift"',
        "logs.toml: quiet-shift: unknown key 'nmae'; did you mean 'name'?",
    ),
    (
        "routes.toml",
        "fault_towers = [3, 6, 9]",
        "fault_tower = [3, 6, 9]",
        "routes.toml: easy: unknown key 'fault_tower'; did you mean 'fault_towers'?",
    ),
    (
        "alphabet.toml",
        "[symbols]",
        "[symbol]",
        "alphabet.toml: unknown key 'symbol'; did you mean 'symbols'? (known: symbols)",
    ),
    ("layout.toml", "rows = [", "row = [", "layout.toml: unknown key 'row'; did you mean 'rows'?"),
    (
        "words.toml",
        "words = [",
        "wrds = [",
        "words.toml: unknown key 'wrds'; did you mean 'words'?",
    ),
    (
        "jacquards.toml",
        '[[jacquard]]\nid = "pin"',
        '[[jaquard]]\nid = "pin"',
        "jacquards.toml: unknown key 'jaquard'; did you mean 'jacquard'?",
    ),
    (
        "faults.toml",
        "# The 12 Fault Reports",
        'deck = "red"\n# The 12 Fault Reports',
        "faults.toml: unknown key 'deck' (known: fault)",
    ),
    (
        "incidents.toml",
        "face_up = ",
        "faceup = ",
        "incidents.toml: unknown key 'faceup'; did you mean 'face_up'? (known: face_up, incident)",
    ),
    (
        "logs.toml",
        '[[log]]\nid = "gargoyle',
        '[[logs]]\nid = "gargoyle',
        "logs.toml: unknown key 'logs'; did you mean 'log'?",
    ),
    (
        "routes.toml",
        '[[route]]\nid = "hard"',
        '[[routes]]\nid = "hard"',
        "routes.toml: unknown key 'routes'",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), UNKNOWN_KEYS)
def test_each_unknown_key_is_reported_by_the_engine_and_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str, old: str, new: str, expected: str
) -> None:
    path = data_copy(tmp_path)
    corrupt(path, file, old, new)
    with pytest.raises(DataError) as refused:
        load_components(path)
    assert any(expected in p for p in refused.value.problems), refused.value.problems
    assert main(["check-data", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path / file}: {expected.removeprefix(file + ': ')}" in err


def test_a_misspelt_fault_stamp_count_is_no_longer_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every `faults` key misspelt would leave the game without a single Fault stamp."""
    path = data_copy(tmp_path)
    target = path / "jacquards.toml"
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace("\nfaults = ", "\nfualts = "), encoding="utf-8")
    assert main(["check-data", str(path)]) == 1
    captured = capsys.readouterr()
    assert "all Clacks data files are valid" not in captured.out
    designs = ["pin", "pair", "stile", "bar", "elbow", "gap", "tee", "skew", "hook", "block"]
    for design in designs:
        assert f"jacquards.toml: {design}: unknown key 'fualts'; did you mean 'faults'?" in (
            captured.err
        )


def test_when_on_a_revealed_card_is_one_problem_not_two(tmp_path: Path) -> None:
    path = data_copy(tmp_path)
    corrupt(path, "incidents.toml", 'effect = "darken_all"', 'effect = "darken_all"\nwhen = "any"')
    problems = check_path(path)
    assert problems == [
        "incidents.toml: lightning: an Incident Report is applied when revealed; "
        "`when` does not apply"
    ]


def test_an_unknown_effect_name_suggests_the_closest(tmp_path: Path) -> None:
    path = data_copy(tmp_path)
    corrupt(path, "logs.toml", 'effect = "nothing"', 'effect = "nothin"')
    (problem,) = check_path(path)
    assert problem.startswith(
        "logs.toml: quiet-shift: unknown effect name 'nothin'; did you mean 'nothing'? (known: "
    )


def test_a_broken_card_named_by_emergency_repair_is_one_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Overload's own fault must not make Emergency Repair's list of cards look wrong."""
    path = data_copy(tmp_path)
    corrupt(
        path,
        "faults.toml",
        '[fault.night_shift]\neffect = "light_all"',
        '[fault.night_shift]\neffect = "light_al"',
    )
    problems = check_path(path)
    assert len(problems) == 1, problems
    assert problems[0].startswith(
        "faults.toml: overload.night_shift: unknown effect name 'light_al'; "
        "did you mean 'light_all'?"
    )
    with pytest.raises(DataError) as refused:
        load_components(path)
    assert refused.value.problems == problems
    assert main(["check-data", str(path)]) == 1
    err = capsys.readouterr().err
    assert "emergency-repair" not in err and "1 problem in" in err


def test_an_unreadable_deck_does_not_make_emergency_repair_look_wrong(tmp_path: Path) -> None:
    path = data_copy(tmp_path)
    corrupt(
        path,
        "incidents.toml",
        '[[incident]]\nid = "deep-downers"',
        '[[incident]\nid = "deep-downers"',
    )
    problems = check_path(path)
    assert len(problems) == 1 and problems[0].startswith("incidents.toml: not valid TOML")


def test_a_card_really_missing_from_emergency_repair_is_still_named(tmp_path: Path) -> None:
    path = data_copy(tmp_path)
    corrupt(path, "faults.toml", 'id = "overload"', 'id = "overloaded"')
    assert (
        "faults.toml: emergency-repair.night_shift: cancel_next names unknown card(s) overload; "
        "it can name Fault Reports, Incident Reports and Operator's Logs by id"
    ) in check_path(path)


@pytest.mark.parametrize("name", ["inc", "incidents", "faults.toml", "data"])
def test_cli_names_each_file_inside_the_directory_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A directory whose name begins like a data file still prefixes every problem."""
    path = data_copy(tmp_path).rename(tmp_path / name)
    corrupt(path, "incidents.toml", 'effect = "darken_all"', 'effect = "darken_everything"')
    corrupt(path, "faults.toml", 'effect = "set_tower"', 'effect = "set_towers"')
    monkeypatch.chdir(tmp_path)
    assert main(["check-data", name]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(f"{name}/faults.toml: wick-fire: unknown effect name 'set_towers'")
    assert lines[1].startswith(
        f"{name}/incidents.toml: lightning: unknown effect name 'darken_everything'"
    )
    assert lines[2] == f"2 problems in {name}"


def test_cli_reports_a_path_that_is_not_a_directory_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["check-data", "inc"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "inc: not a directory of Clacks data files",
        "1 problem in inc",
    ]
