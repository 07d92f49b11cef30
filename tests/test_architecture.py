"""The house rules of the code (docs/architecture.md): dependencies point one way, no module circles.

Imports are read from the source with ``ast``, wherever they are written: at the top of a
module, inside a function (a lazy import is still a dependency) or under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "sgcheck"

#: Each top-level part of the library and its layer: a part may import its own layer and lower ones.
LAYERS = {
    "sgcheck": 0,
    "diagnostics": 0, "codes": 0, "results": 0, "paths": 0, "resources": 0, "selection": 0, "letters": 0,
    "visible": 0, "streams": 0, "build": 0,
    "core": 1,
    "lang": 2, "discovery": 2, "config": 2, "project": 2,
    "play": 3, "replay": 3, "contract": 3, "distribute": 3,
    "report": 4, "simulate": 4, "api": 4,
    "cli": 5, "launcher": 5, "__main__": 5, "server": 5,
}  # fmt: skip


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every sgcheck module ``path`` imports, anywhere in it."""
    found: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("sgcheck"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                kept = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(kept + ([base] if base else []))
            if not base.startswith("sgcheck"):
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(
                    candidate
                    if (PACKAGE.parent / (candidate.replace(".", "/") + ".py")).exists()
                    or (PACKAGE.parent / candidate.replace(".", "/")).is_dir()
                    else base
                )
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def part(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def test_lower_layers_never_import_higher_ones() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in graph().items()
        for target in targets
        if "." in module and LAYERS[part(module)] < LAYERS[part(target)]
    ]
    assert wrong == []


def test_settings_are_read_below_both_commands() -> None:
    """``[tool.sgcheck]`` and replay's settings (``sgcheck.config``) sit below replay and the contract
    checker: the module imports neither, and neither the replay package nor the replay command
    takes a setting from the contract checker."""
    assert LAYERS["config"] < min(LAYERS["replay"], LAYERS["contract"])
    edges = graph()
    below = {"codes", "core", "diagnostics", "discovery", "lang", "selection"}
    assert {part(t) for t in edges["sgcheck.config"]} <= below
    # replay asks the contract checker to check a pack or a scenario, nothing more
    from_contract = {t for m, ts in edges.items() if part(m) == "replay" for t in ts if part(t) == "contract"}
    assert from_contract <= {"sgcheck.contract.checker", "sgcheck.contract.packs", "sgcheck.contract.scenario_contract"}
    # the replay command: its settings from sgcheck.config; the contract's codes (which a pack's
    # findings carry) and the files of a --pack folder from the contract
    command = {t for t in edges["sgcheck.cli.replay_cmd"] if part(t) == "contract"}
    assert command <= {"sgcheck.contract", "sgcheck.contract.packs"}
    assert all("sgcheck.config" in edges[m] for m in ("sgcheck.cli.replay_cmd", "sgcheck.contract.checker"))


def test_playing_a_game_has_one_home_below_its_drivers() -> None:
    """sgcheck/play/ (docs/architecture.md, "play") is what the generator (replay), the simulator and
    the contract's proofs drive: it imports neither replay nor the simulator, asks the contract
    checker only to check a pack or a scenario, and the simulator imports nothing of replay."""
    edges = graph()
    assert LAYERS["play"] <= min(LAYERS["replay"], LAYERS["contract"]) and LAYERS["play"] < LAYERS["simulate"]
    from_play = {t for m, ts in edges.items() if part(m) == "play" for t in ts if part(t) != "play"}
    assert not {t for t in from_play if part(t) in {"replay", "simulate", "report", "cli", "server", "api"}}
    assert {t for t in from_play if part(t) == "contract"} <= {
        "sgcheck.contract.checker",
        "sgcheck.contract.packs",
        "sgcheck.contract.scenario_contract",
    }
    assert not {t for m, ts in edges.items() if part(m) == "simulate" for t in ts if part(t) == "replay"}
    drivers = {"sgcheck.replay.generate", "sgcheck.simulate.games", "sgcheck.contract.proof"}
    assert all({"sgcheck.play.loop", "sgcheck.play.start"} <= edges[driver] for driver in drivers)


def test_no_module_imports_itself_through_others() -> None:
    """No circle of imports between modules (a package importing its own submodules aside)."""
    edges = {m: {t for t in ts if not m.startswith(t + ".") and not t.startswith(m + ".")} for m, ts in graph().items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                circles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert circles == []


def test_module_names_say_one_thing() -> None:
    """Two modules with the same name in different places must be the same kind of thing: the
    syntax tree (``ast``), the words (``vocab``), the reader and the canonical ``writer`` of one
    language each."""
    same_role = {"ast", "vocab", "__init__", "__main__", "parser", "writer"}
    seen: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if "rules" in path.parts and path.parent.name == "rules":
            continue  # one contract rule per file, each named by its code
        seen.setdefault(path.stem, []).append(str(path.relative_to(PACKAGE)))
    twice = {name: where for name, where in seen.items() if len(where) > 1 and name not in same_role}
    assert twice == {}


#: Lark's documented modules; anything else of Lark is reached through sgcheck/lang/lark_adapter.py.
LARK_PUBLIC = {"lark", "lark.exceptions"}


def test_only_the_adapter_reaches_into_lark() -> None:
    """Lark's internals (its parser's tables, the lexer's state, the interactive parser's stacks)
    are used in one module, lang/lark_adapter.py, which says which Lark versions it was written for."""
    adapter = PACKAGE / "lang" / "lark_adapter.py"
    for path in PACKAGE.rglob("*.py"):
        if path == adapter:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lark"):
                assert node.module in LARK_PUBLIC, f"{path.name} imports {node.module}"
            elif isinstance(node, ast.Import):
                assert all(a.name in LARK_PUBLIC for a in node.names if a.name.startswith("lark")), path.name
            elif isinstance(node, ast.Attribute):
                assert node.attr not in {"parse_table", "lexer_thread", "parser_state"}, f"{path.name}: .{node.attr}"


# --- "Where to add": the recipes of docs/architecture.md name what is there ---------------------------

ROOT = PACKAGE.parent
#: A path the recipes name, in backticks, and optionally a definition beside it: `path` (`NAME`).
_NAMED = re.compile(r"`((?:sgcheck|grammar|schemas|editors|docs|tests)/[\w./-]*)`(?:\s+\(`(\w+)`\))?")


def _where_to_add() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("\n## Where to add\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _defines(path: Path, name: str) -> bool:
    """``path`` (Python) defines ``name`` at its top level or in a class, as a function, class or assignment."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return True
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            return True
    return False


def test_the_where_to_add_recipes_name_paths_and_definitions_that_exist() -> None:
    section = _where_to_add()
    named = _NAMED.findall(section)
    assert len(named) >= 20, "the section names the files of each recipe"
    missing = []
    for path, name in named:
        if "NAME" in path:  # the recipe's placeholder for a new module
            continue
        target = ROOT / path
        if not target.exists():
            missing.append(path)
        elif name and not _defines(target, name):
            missing.append(f"{path} ({name})")
    assert missing == [], f"docs/architecture.md, 'Where to add', names what is not there: {missing}"


def test_the_where_to_add_section_has_a_recipe_for_each_kind_of_change() -> None:
    section = _where_to_add()
    for recipe in ("An effect keyword", "A §8 check of a pack", "A report format", "A command"):
        assert f"**{recipe}**" in section, recipe


# --- effect kinds: the files a new one touches, and every dispatch over them exhaustive ---------


def _effect_kinds() -> list[tuple[str, tuple[str, ...]]]:
    """Each effect kind of the card catalogue: its class name and its YAML keys."""
    from sgcheck.core.cards import catalog

    return [(kind.action.__name__, kind.yaml) for kind in catalog.EFFECTS]


def _naming_every_kind() -> set[str]:
    """The files that name every effect kind, which a new kind will touch too: the Python files
    that name each kind's class, and the grammar, schema and docs that name each kind's YAML key.
    docs/architecture.md itself and the generated editor grammars are left out."""
    kinds = _effect_kinds()
    found = set()
    for folder, suffixes in (("sgcheck", {".py"}), ("grammar", {".lark"}), ("schemas", {".json"}), ("docs", {".md"})):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in suffixes or path.name == "architecture.md":
                continue
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".py":
                named = all(re.search(rf"\b{name}\b", text) for name, _keys in kinds)
            else:
                named = all(any(re.search(rf"(?<![\w-]){key}(?![\w-])", text) for key in keys) for _name, keys in kinds)
            if named:
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_the_effect_keyword_recipe_lists_every_file_a_new_kind_touches() -> None:
    section = _where_to_add()
    start = section.index("**An effect keyword**")
    recipe = section[start : section.index("\n\n**", start)]
    written_step = recipe.index("\n4. ")
    by_hand = {path for path, _name in _NAMED.findall(recipe[:written_step]) if not path.startswith("tests/")}
    written = {path for path, _name in _NAMED.findall(recipe[written_step:]) if path.startswith("editors/")}
    assert by_hand == _naming_every_kind()
    assert f"touches {len(by_hand)} files by hand" in " ".join(recipe.split())
    assert f"and {len(written)} more that a script writes" in " ".join(recipe.split())
    assert written == {"editors/textmate/sgcard.tmLanguage.json", "editors/vscode/syntaxes/sgcard.tmLanguage.json"}


def _kinds_tested(test: ast.expr, names: set[str]) -> set[str]:
    """The effect kinds ``test`` checks with ``isinstance`` (written ``Kind`` or ``A.Kind``)."""
    found = set()
    for node in ast.walk(test):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            for arg in node.args[1:]:
                for item in ast.walk(arg):
                    word = (
                        item.attr if isinstance(item, ast.Attribute) else item.id if isinstance(item, ast.Name) else ""
                    )
                    if word in names:
                        found.add(word)
    return found


def _non_exhaustive_dispatches(tree: ast.AST, names: set[str]) -> list[int]:
    """Lines of dispatches over effect kinds that are not a ``match`` ending in ``assert_never``: an
    ``if``/``elif`` chain testing two kinds or more, ``if``s that each return on a kind, one after
    the other, and a ``match`` over kinds without ``case _: assert_never(...)``."""
    lines = []
    elifs = {id(node.orelse[0]) for node in ast.walk(tree) if isinstance(node, ast.If) and len(node.orelse) == 1}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and id(node) not in elifs:
            chain, current = [], node
            while True:
                chain.append(current)
                if len(current.orelse) == 1 and isinstance(current.orelse[0], ast.If):
                    current = current.orelse[0]
                else:
                    break
            if sum(1 for link in chain if _kinds_tested(link.test, names)) >= 2:
                lines.append(node.lineno)
        body = getattr(node, "body", None)
        if isinstance(body, list):
            guards = [
                s
                for s in body
                if isinstance(s, ast.If)
                and not s.orelse
                and isinstance(s.body[-1], ast.Return)
                and _kinds_tested(s.test, names)
            ]
            if len(guards) >= 2:
                lines.append(guards[0].lineno)
        if isinstance(node, ast.Match):
            named = {
                word
                for case in node.cases
                for item in ast.walk(case.pattern)
                if isinstance(item, ast.MatchClass)
                for word in [ast.unparse(item.cls).rpartition(".")[2]]
                if word in names
            }
            last = node.cases[-1]
            closed = isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None
            if len(named) >= 2 and not (closed and "assert_never" in ast.unparse(last)):
                lines.append(node.lineno)
    return lines


def test_every_dispatch_over_effect_kinds_is_exhaustive() -> None:
    """A new effect kind cannot be passed over in silence: mypy names every dispatch it is missing
    from, since each is a ``match`` ending in ``assert_never`` (docs/architecture.md, an effect keyword)."""
    names = {name for name, _keys in _effect_kinds()}
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in _non_exhaustive_dispatches(ast.parse(path.read_text(encoding="utf-8")), names)
    ]
    assert found == [], "write these as a match ending in assert_never"


def test_the_dispatch_scan_finds_each_shape_it_forbids() -> None:
    sample = """
def a(x):
    if isinstance(x, Steal):
        return 1
    elif isinstance(x, A.DenyRepair):
        return 2
def b(x):
    if isinstance(x, Steal):
        return 1
    if isinstance(x, (Reroll, ToHitModifier)):
        return 2
    return 3
def c(x):
    match x:
        case Steal():
            return 1
        case A.Reroll():
            return 2
        case _:
            return 3
def d(x):
    match x:
        case Steal():
            return 1
        case A.Reroll():
            return 2
        case _:
            assert_never(x)
"""
    names = {"Steal", "DenyRepair", "Reroll", "ToHitModifier"}
    assert sorted(_non_exhaustive_dispatches(ast.parse(sample), names)) == [3, 8, 14]
