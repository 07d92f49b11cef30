"""The editors' TextMate grammars are written by editors/generate.py from one source each.

``editors/textmate/`` is the source; the ``.sgcard`` grammar's action keywords come from the card
catalogue (``core/cards/catalog.py``); the VS Code extension's ``syntaxes/`` are copies. A grammar
on disk that differs from what the script writes fails here (``SGCHECK_UPDATE_GOLDEN=1`` rewrites
it, as ``python editors/generate.py`` does).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from sgcheck.core.cards import catalog

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    """editors/generate.py, a script outside any package, loaded from its path."""
    spec = importlib.util.spec_from_file_location("editors_generate", ROOT / "editors" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


generate = _script()
OUTPUTS: dict[Path, str] = generate.outputs()


@pytest.mark.parametrize("path", sorted(OUTPUTS), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_grammar_is_what_the_script_writes(path: Path, golden: Golden) -> None:
    golden.check(path, OUTPUTS[path])


def test_the_extension_holds_copies_of_the_sources() -> None:
    for name in generate.GRAMMARS:
        source, copy = generate.SOURCES / name, generate.COPIES / name
        assert {source, copy} <= set(OUTPUTS) and OUTPUTS[source] == OUTPUTS[copy]


def test_the_action_keywords_come_from_the_catalogue() -> None:
    """Every word that opens an effect (core/cards/catalog.py), and no other, is in the action
    rule the script writes, whatever the source grammar held there."""
    source = json.loads((generate.SOURCES / "sgcard.tmLanguage.json").read_text(encoding="utf-8"))
    for rule in source["repository"]["keywords"]["patterns"]:
        if rule["name"] == generate.ACTION_SCOPE:
            rule["match"] = "(?:stale)"
    built = json.loads(generate.built("sgcard.tmLanguage.json", json.dumps(source)))
    (rule,) = [r for r in built["repository"]["keywords"]["patterns"] if r["name"] == generate.ACTION_SCOPE]
    found = re.fullmatch(r"\(\?<!\[\\w-\]\)\(\?:([^)]*)\)\(\?!\[\\w-\]\)", rule["match"])
    assert found is not None, rule["match"]
    assert set(found.group(1).split("|")) == {w for kind in catalog.EFFECTS for w in kind.words} - {"cost"}


def test_a_keyword_pattern_prefers_the_longest_word() -> None:
    pattern = re.compile(generate.keyword_pattern({"gain", "gains", "to-hit"}))
    assert [m.group(0) for m in pattern.finditer("gains gain to-hit regain")] == ["gains", "gain", "to-hit"]


def test_the_check_mode_names_a_stale_grammar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wanted = OUTPUTS[generate.COPIES / "sgcard.tmLanguage.json"]
    for folder in ("textmate", "vscode/syntaxes"):
        (tmp_path / "editors" / folder).mkdir(parents=True)
    for path, text in OUTPUTS.items():
        (tmp_path / path.relative_to(ROOT)).write_text(text, encoding="utf-8")
    monkeypatch.setattr(generate, "ROOT", tmp_path)
    monkeypatch.setattr(generate, "SOURCES", tmp_path / "editors" / "textmate")
    monkeypatch.setattr(generate, "COPIES", tmp_path / "editors" / "vscode" / "syntaxes")
    assert generate.main(["--check"]) == 0
    stale = tmp_path / "editors" / "vscode" / "syntaxes" / "sgcard.tmLanguage.json"
    stale.write_text(wanted.replace("to_hit|", ""), encoding="utf-8")
    assert generate.main(["--check"]) == 1
    assert generate.main([]) == 0 and generate.main(["--check"]) == 0
    assert stale.read_text(encoding="utf-8") == wanted
