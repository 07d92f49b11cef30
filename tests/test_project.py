"""The project model (docs/architecture.md, "project"): one table of file kinds, one stamp of a
file, one search for the configuration, used by the commands and the language server alike."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sgcheck.config import Config
from sgcheck.contract import code_catalogue
from sgcheck.discovery import PatternError
from sgcheck.lang.source import overlaid
from sgcheck.project.definition import Origin, Project, load_project
from sgcheck.project.kinds import KINDS, Kind, command_of, kind_of
from sgcheck.project.stamps import Stamp, stamp

PACKAGE = Path(__file__).resolve().parents[1] / "sgcheck"

# --- the table of kinds --------------------------------------------------------------------------

#: Names and what each holds, written out by hand (docs/cards.md, scenarios.md, ci.md), not read from the table.
EXAMPLES = {
    "game.sglog": Kind.LOG,
    "logs/2026/Final.SGLOG": Kind.LOG,
    "relics.sgcard": Kind.CARDS,
    "relics.SGCARD": Kind.CARDS,
    "relics.sgcard.yaml": Kind.YAML_CARDS,
    "relics.sgcard.yml": Kind.YAML_CARDS,
    "siege.scenario.yaml": Kind.SCENARIO,
    "siege.scenario.yml": Kind.SCENARIO,
    "sgpack.yaml": Kind.MANIFEST,
    "pack/SGPACK.YML": Kind.MANIFEST,
    "pyproject.toml": Kind.CONFIGURATION,
    "a/b/pyproject.toml": Kind.CONFIGURATION,
}
#: Names of no kind: near misses a suffix test written by hand gets wrong.
NOT_INPUTS = [
    "my-sgpack.yaml",  # a manifest is named exactly
    "sgpack.yaml.bak",
    "cards.yaml",  # YAML cards say so (a manifest may still list such a file: is_yaml)
    "game.sglog.txt",
    "report.json",
    "notpyproject.toml",
    "sglog",
    "game.ſglog",  # U+017F folds to 's' in Unicode, not in ASCII (letters.py)
    "relics.sgcard/",
    "",
]


@pytest.mark.parametrize(("name", "kind"), sorted(EXAMPLES.items()))
def test_a_name_says_its_kind(name: str, kind: Kind) -> None:
    found = kind_of(name)
    assert found is not None and found.kind is kind


@pytest.mark.parametrize("name", NOT_INPUTS)
def test_other_names_are_of_no_kind(name: str) -> None:
    assert kind_of(name) is None


def test_each_ending_belongs_to_one_row() -> None:
    """One table: every ending or name is written once, and a name made from it is of that row
    only (no ending of one row is the end of another's)."""
    endings = [ending for row in KINDS for ending in row.endings]
    assert len(endings) == len(set(endings))
    assert len({row.kind for row in KINDS}) == len(KINDS) == len(Kind)
    for row in KINDS:
        for ending in row.endings:
            name = ending if row.whole_name else "x" + ending
            assert [other.kind for other in KINDS if other.matches(name)] == [row.kind]


def test_the_commands_take_what_they_read() -> None:
    """replay reads logs; check reads card files, scenarios and manifests; no command takes a
    configuration file as an input (core §8 packs, R24 scenarios)."""
    assert command_of("a.sglog") == "replay"
    assert {command_of(n) for n in ("a.sgcard", "a.sgcard.yml", "a.scenario.yaml", "sgpack.yml")} == {"check"}
    assert command_of("pyproject.toml") is None and command_of("notes.txt") is None


@given(st.text(alphabet="abcsglopdyamrtkx./-_ſK", max_size=20), st.sampled_from(["", "dir/", "a/b/", "./"]))
def test_the_kind_is_read_from_the_last_part_of_the_name_in_any_ascii_case(name: str, folder: str) -> None:
    found = kind_of(name)
    if "/" not in name:
        assert kind_of(folder + name) == found
    upper = "".join(c.upper() if c.isascii() else c for c in name)
    assert kind_of(upper) == found
    if found is not None:
        last = name.rsplit("/", 1)[-1].lower()
        assert last in found.endings if found.whole_name else last.endswith(found.endings)


def _literal_endings(node: ast.AST) -> set[str]:
    values = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return {v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)}


def test_no_module_decides_a_kind_by_a_suffix_of_its_own() -> None:
    """Every ``endswith``, ``in`` or constant tuple that tests a name against an ending of the
    table reads it from ``sgcheck/project/kinds.py``; none writes the ending down again."""
    table = {ending for row in KINDS for ending in row.endings}
    wrong: list[str] = []
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "project" / "kinds.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found: set[str] = set()
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "endswith":
                found = {ending for arg in node.args for ending in _literal_endings(arg)}
            elif isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops):
                found = {ending for side in node.comparators for ending in _literal_endings(side)}
            elif isinstance(node, ast.Tuple) and len(node.elts) > 1:
                found = _literal_endings(node) if _literal_endings(node) <= table else set()
            if found & table:
                wrong.append(f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', 0)}: {sorted(found & table)}")
    assert wrong == []


# --- stamps --------------------------------------------------------------------------------------


def test_a_stamp_changes_when_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "a.sglog"
    path.write_text("[Event]\n", encoding="utf-8")
    first = stamp(path)
    assert first is not None and stamp(path) == first  # nothing changed: the same stamp
    path.write_text("[Event] x\n", encoding="utf-8")
    assert stamp(path) != first
    # the same size: the time tells it (a file system's clock may be coarse, so it is set here)
    before = stamp(path)
    assert before is not None
    path.write_text("[Event] y\n", encoding="utf-8")
    os.utime(path, ns=(before.mtime_ns + 1_000_000, before.mtime_ns + 1_000_000))
    assert stamp(path) != before
    # another file in its place, with the same size and time, is another inode
    again = stamp(path)
    assert again is not None
    replacement = tmp_path / "b.sglog"
    replacement.write_text("[Event] z\n", encoding="utf-8")
    os.utime(replacement, ns=(again.mtime_ns, again.mtime_ns))
    os.replace(replacement, path)
    assert stamp(path) != again
    path.unlink()
    assert stamp(path) is None


def test_the_stamp_of_what_was_read_holds_the_hash_of_the_bytes(tmp_path: Path) -> None:
    """Same size and time, other bytes: only the hash a rewrite keeps tells them apart."""
    path = tmp_path / "c.sgcard"
    path.write_bytes(b"one")
    status = os.stat(path)
    read = Stamp.of(status, b"one")
    assert read == Stamp.of(status, [b"o", b"ne"])  # whole, or in the pieces read
    assert read.digest != Stamp.of(status, b"two").digest
    assert read.same_stat(status)
    path.write_bytes(b"three")
    assert not read.same_stat(os.stat(path))


def test_an_editors_text_stands_for_its_file(tmp_path: Path) -> None:
    path = tmp_path / "d.sglog"
    path.write_text("saved\n", encoding="utf-8")
    on_disk = stamp(path)
    with overlaid({os.path.realpath(path): "unsaved\n"}):
        held = stamp(path)
        assert held is not None and held != on_disk
        with overlaid({os.path.realpath(path): "unsaved, more\n"}):
            assert stamp(path) != held
    assert stamp(path) == on_disk


def test_no_module_stamps_a_file_by_its_own_means() -> None:
    """What decides that a file changed (its modification time) is read in one module."""
    readers = sorted(
        str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py") if "st_mtime" in path.read_text("utf-8")
    )
    assert readers == ["project/stamps.py"]


# --- the configuration ---------------------------------------------------------------------------

TABLE = '[tool.sgcheck]\nignore = ["C120"]\nexclude = ["/skip/"]\n'


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(TABLE, encoding="utf-8")
    (tmp_path / "logs" / "deep").mkdir(parents=True)
    (tmp_path / "logs" / "deep" / "a.sglog").write_text("", encoding="utf-8")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "pyproject.toml").write_text('[tool.sgcheck]\nignore = ["C121"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path / "logs")
    return tmp_path


def load(paths: list[str], **options: object) -> Project:
    return load_project(paths, codes=code_catalogue, **options)  # type: ignore[arg-type]


def test_the_nearest_configuration_above_the_first_path(tree: Path) -> None:
    project = load([str(tree / "logs" / "deep" / "a.sglog")])
    assert project.origin is Origin.FOUND and project.config is not None
    assert project.root == str(tree) and project.config.folder == str(tree)
    assert "SG-C120" in project.settings.ignored or not project.settings.enabled("SG-C120")
    assert project.described() == "sgcheck: configuration: ../pyproject.toml"


def test_standard_input_searches_from_the_working_directory(tree: Path) -> None:
    assert load(["-"]).shown == "../pyproject.toml"


def test_precedence_isolated_then_given_then_audit_then_found(tree: Path) -> None:
    log = str(tree / "logs" / "deep" / "a.sglog")
    given = str(tree / "other" / "pyproject.toml")
    isolated = load([log], config_file=given, isolated=True)
    assert isolated.origin is Origin.ISOLATED and isolated.config is None and isolated.settings == Config()
    chosen = load([log], config_file=given, audit=True)  # --config holds in an audit too
    assert chosen.origin is Origin.GIVEN and chosen.root == str(tree / "other")
    audited = load([log], audit=True)  # none beside or above the logs: their sender may have put it there
    assert audited.origin is Origin.AUDIT and audited.config is None
    assert not audited.origin.looked and chosen.origin.looked


def test_no_configuration_is_the_defaults(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")  # no [tool.sgcheck]
    project = load([str(tmp_path)])
    assert project.origin is Origin.NONE and project.config is None and project.settings == Config()
    assert project.root == str(tmp_path) and project.described() == "sgcheck: configuration: none (defaults)"


def test_what_a_walk_leaves_out(tree: Path) -> None:
    """The configuration's exclude, relative to its folder; --exclude replaces it, relative to the
    working directory; --extend-exclude adds to it."""
    project = load([str(tree / "logs")])
    configured = project.discovery()
    assert configured.excluded(str(tree / "skip" / "x.sglog"), False)
    assert not configured.excluded(str(tree / "logs" / "skip" / "x.sglog"), False)
    replaced = project.discovery(["/skip/"])
    assert replaced.excluded(str(tree / "logs" / "skip" / "x.sglog"), False)
    assert not replaced.excluded(str(tree / "skip" / "x.sglog"), False)
    extended = project.discovery(extend_exclude=["/deep/"], whole_pack=True, respect_gitignore=False)
    assert extended.excluded(str(tree / "skip" / "x"), False) and extended.excluded(str(tree / "logs" / "deep"), True)
    assert extended.whole_pack and not extended.respect_gitignore


def test_a_pattern_that_cannot_be_used(tmp_path: Path) -> None:
    """The command line's bad pattern is refused; the configuration's is refused to a command and
    left out by the editor (``lenient``), which keeps checking while ``check`` reports it."""
    bad = "*a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t*u*v*w*x*y*z*"
    project = Project(str(tmp_path), Origin.FOUND, Config(exclude=(bad,), folder=str(tmp_path)))
    with pytest.raises(PatternError):
        project.discovery()
    assert project.discovery(lenient=True).exclude == ()
    with pytest.raises(PatternError):
        project.discovery([bad], lenient=True)


def test_one_search_for_the_configuration() -> None:
    """Only the project model searches for a configuration (the library's public wrapper aside)."""
    callers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "find_pyproject(" in path.read_text("utf-8") and path != PACKAGE / "config.py"
    )
    assert callers == ["contract/__init__.py", "project/definition.py"]


def test_the_commands_and_the_editor_find_the_same_configuration(tree: Path) -> None:
    """The language server checks a file with the configuration ``sgcheck check FILE`` uses."""
    from sgcheck.server.analysis import project_for

    log = str(tree / "logs" / "deep" / "a.sglog")
    assert project_for(log) == load([log])


# --- thin commands -------------------------------------------------------------------------------


def _commands() -> dict[str, click.Command]:
    """Every command of ``sgcheck``, by its words (``dice next``), groups included, read from the
    command line itself: a command added later is here without an edit."""
    from sgcheck.cli import main

    found: dict[str, click.Command] = {}

    def walk(prefix: str, group: click.Group) -> None:
        for name, command in group.commands.items():
            words = f"{prefix} {name}".strip()
            found[words] = command
            if isinstance(command, click.Group):
                walk(words, command)

    walk("", main)
    return found


def _records() -> dict[str, type]:
    """The options record of each command that takes options, written out here, not read from the
    modules (``odds`` alone runs ``odds table``, and takes its record)."""
    from sgcheck.cli import check_cmd, dice_cmd, fmt_cmd, info_cmds, odds_cmd, replay_cmd, simulate_cmd

    return {
        "check": check_cmd.CheckOptions,
        "schema": check_cmd.SchemaOptions,
        "fmt": fmt_cmd.FmtOptions,
        "replay": replay_cmd.ReplayCommandOptions,
        "simulate": simulate_cmd.SimulateOptions,
        "explain": info_cmds.ExplainOptions,
        "rulings": info_cmds.RulingsOptions,
        "odds": odds_cmd.TableOptions,
        "odds table": odds_cmd.TableOptions,
        "odds capture": odds_cmd.CaptureOptions,
        "dice secret": dice_cmd.SecretOptions,
        "dice commit": dice_cmd.CommitOptions,
        "dice key": dice_cmd.KeyOptions,
        "dice next": dice_cmd.NextOptions,
        "dice stats": dice_cmd.StatsOptions,
    }


def test_every_command_that_takes_options_has_a_record() -> None:
    """A command with an option or argument hands them on as one record; one without (``server``, the
    ``dice`` group) has none to hand on."""
    commands = _commands()
    taking = {words for words, command in commands.items() if command.params}
    assert taking == set(_records())
    assert {"replay", "simulate", "odds capture", "dice next", "dice stats"} <= taking


@pytest.mark.parametrize("words", sorted(_records()))
def test_each_option_of_a_command_is_a_field_of_its_record(words: str) -> None:
    """Every option and argument click parses for a command is a field of its frozen, typed record, the
    walk's four gathered in ``WalkOptions`` (commands that search folders), and nothing else is."""
    import dataclasses

    from sgcheck.cli.common import WalkOptions

    record = _records()[words]
    parsed = {param.name for param in _commands()[words].params}
    walk = {field.name for field in dataclasses.fields(WalkOptions)}
    fields = {field.name for field in dataclasses.fields(record)}
    if walk <= parsed:
        parsed = (parsed - walk) | {"walk"}
    assert fields == parsed
    assert record.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert all(field.type not in ("Any", "object") for field in dataclasses.fields(record))


@pytest.mark.parametrize("words", sorted(words for words, command in _commands().items() if command.params))
def test_a_command_is_one_line(words: str) -> None:
    """A command that runs (not a group) is one statement, ``return run_X(XOptions(**given))``: its
    work is in the function that takes the record, which a library caller or a test can call alone."""
    import inspect
    import textwrap

    command = _commands()[words]
    if isinstance(command, click.Group):
        return
    assert command.callback is not None
    source = textwrap.dedent(inspect.getsource(inspect.unwrap(command.callback)))
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    body = [node for node in function.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    assert len(body) == 1 and isinstance(body[0], ast.Return), ast.unparse(function)
    call = body[0].value
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id.startswith("run_")
    (made,) = call.args
    assert isinstance(made, ast.Call) and isinstance(made.func, ast.Name)
    assert made.func.id == _records()[words].__name__
