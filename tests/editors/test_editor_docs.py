"""docs/editors.md and editors/vscode/ stay true: every configuration snippet parses, they all
start the same server command and map the same YAML files to the same schemas, those schemas
exist and accept the shipped files they are mapped to, and the VS Code extension is
consistent with the TextMate grammars and, run against stand-ins of VS Code's modules, starts
`sgcheck server` for the files it should."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import doc_sessions
import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from sgcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "editors.md"
VSCODE = ROOT / "editors" / "vscode"
SERVER = ["sgcheck", "server"]
BLOCKS = doc_sessions.blocks(PAGE)


def snippets(info: str) -> list[str]:
    return ["\n".join(block.lines) for block in BLOCKS if block.info == info]


def vscode_settings() -> dict[str, Any]:
    (settings,) = [json.loads(text) for text in snippets("json")]
    return settings


def helix() -> dict[str, Any]:
    (languages,) = [tomllib.loads(text) for text in snippets("toml")]
    return languages


def lua_schemas() -> dict[str, str]:
    (text,) = [text for text in snippets("lua") if "schemas" in text]
    return dict(re.findall(r'\["([^"]+)"\]\s*=\s*"([^"]+)"', text))


def schema_map() -> dict[str, str]:
    """The YAML files each schema goes with, as the VS Code settings write it."""
    mapping: dict[str, str] = vscode_settings()["yaml.schemas"]
    return mapping


def test_every_snippet_parses() -> None:
    assert {block.info for block in BLOCKS} == {"sh", "json", "lua", "toml"}
    vscode_settings()
    helix()
    for text in snippets("lua"):  # no Lua here: brackets balance outside strings, blocks close
        bare = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
        for opening, closing in ("()", "{}", "[]"):
            assert bare.count(opening) == bare.count(closing), text
        openers = len(re.findall(r"\b(?:function|if|for|while)\b", bare))
        assert openers == len(re.findall(r"\bend\b", bare)), text


def test_every_editor_starts_the_same_server() -> None:
    assert "pip install 'sgcheck[server]'" in snippets("sh")[0]
    assert "[server.md](server.md)" in PAGE.read_text(encoding="utf-8")
    assert vscode_settings()["sgcheck.server.command"] == SERVER
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    assert package["contributes"]["configuration"]["properties"]["sgcheck.server.command"]["default"] == SERVER
    server = helix()["language-server"]["sgcheck"]
    assert [server["command"], *server["args"]] == SERVER
    starts = [t for t in snippets("lua") if '"sgcheck"' in t and ("vim.lsp.start" in t or "vim.lsp.config" in t)]
    assert len(starts) == 3  # Neovim 0.10+, 0.11's vim.lsp.config, 0.7-0.9 (tests/editors/test_neovim.py runs it)
    assert all('cmd = { "sgcheck", "server" }' in lua for lua in starts)


def test_every_editor_maps_the_same_files_to_the_same_schemas() -> None:
    mapping = schema_map()
    assert lua_schemas() == mapping
    assert helix()["language-server"]["yaml-language-server"]["config"]["yaml"]["schemas"] == mapping
    globs = {glob.removeprefix("**/") for glob in mapping.values()}
    helix_yaml = next(lang for lang in helix()["language"] if lang["name"] == "sgcheck-yaml")
    assert {entry["glob"] for entry in helix_yaml["file-types"]} == globs
    assert set(helix_yaml["language-servers"]) == {"yaml-language-server", "sgcheck"}
    starting = [text for text in snippets("lua") if "vim.lsp.start" in text]
    assert len(starting) == 2  # Neovim 0.10+ and 0.7-0.9
    for lua in starting:
        lua_patterns = re.search(r"yaml_files = \{([^}]*)\}", lua)
        assert lua_patterns is not None
        patterns = [p.replace("%.", r"\.") for p in re.findall(r'"([^"]+)"', lua_patterns.group(1))]  # '%.' is '\.'
        for glob in globs:  # each glob is matched by one Lua pattern, and no other name is
            example = "/project/folder/" + glob.replace("*", "x")
            assert sum(bool(re.search(pattern, example)) for pattern in patterns) == 1, glob
            assert not any(re.search(pattern, example + ".bak") for pattern in patterns), glob
        assert len(patterns) == len(globs)
    extension = (VSCODE / "extension.js").read_text(encoding="utf-8")
    assert set(re.findall(r'language: "yaml", pattern: "([^"]+)"', extension)) == set(mapping.values())


def test_the_schemas_named_exist_and_sgcheck_schema_writes_them() -> None:
    text = PAGE.read_text(encoding="utf-8")
    named = set(re.findall(r"schemas/[a-z]+\.schema\.json", text))
    assert named >= {f"schemas/{kind}.schema.json" for kind in ("card", "pack", "scenario", "module")}
    for path in named:
        assert (ROOT / path).is_file(), path
    for path in schema_map():
        assert (ROOT / path).is_file(), path
    written = re.findall(r"sgcheck schema (\w+) > (schemas/\S+)", snippets("sh")[1])
    assert {target for _, target in written} == {path.removeprefix("./") for path in schema_map()}
    for kind, target in written:
        result = CliRunner().invoke(main, ["schema", kind])
        assert result.exit_code == 0
        assert json.loads(result.stdout) == json.loads((ROOT / target).read_text(encoding="utf-8")), kind


def shipped_yaml() -> list[Path]:
    return [p for p in sorted((ROOT / "examples").rglob("*.yaml")) if "broken" not in p.relative_to(ROOT).parts]


def test_each_schema_accepts_the_shipped_files_it_is_mapped_to() -> None:
    """The mapping says which schema goes with which file: every shipped YAML file outside the
    broken examples matches exactly one glob, and its schema accepts it."""
    yaml = YAML(typ="safe", pure=True)
    counts = dict.fromkeys(schema_map(), 0)
    for path in shipped_yaml():
        relative = path.relative_to(ROOT).as_posix()
        schemas = [s for s, glob in schema_map().items() if fnmatch(relative, glob) or fnmatch(path.name, glob[3:])]
        assert len(schemas) == 1, relative
        (schema,) = schemas
        validator = Draft202012Validator(json.loads((ROOT / schema).read_text(encoding="utf-8")))
        errors = [error.message for error in validator.iter_errors(yaml.load(path.read_text(encoding="utf-8")))]
        assert not errors, f"{relative}: {errors}"
        counts[schema] += 1
    assert all(counts.values()), counts


# --- the VS Code extension -----------------------------------------------------------------------


def test_the_extension_declares_the_languages_with_the_grammars() -> None:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    languages = {lang["id"]: lang for lang in package["contributes"]["languages"]}
    assert set(languages) == {"sglog", "sgcard"}
    for grammar in package["contributes"]["grammars"]:
        path = VSCODE / grammar["path"]
        assert path.read_bytes() == (ROOT / "editors" / "textmate" / path.name).read_bytes(), (
            f"copy editors/textmate/{path.name} to {path.relative_to(ROOT)}"
        )
        tm = json.loads(path.read_text(encoding="utf-8"))
        assert tm["scopeName"] == grammar["scopeName"] == f"source.{grammar['language']}"
        assert languages[grammar["language"]]["extensions"] == [f".{ext}" for ext in tm["fileTypes"]]
    comments = {
        language: json.loads((VSCODE / lang["configuration"]).read_text(encoding="utf-8"))["comments"]
        for language, lang in languages.items()
    }
    # the comment keys of each language (grammar/sglog.lark COMMENT, BRACE_COMMENT; grammar/sgcard.lark COMMENT)
    assert comments == {"sglog": {"lineComment": ";", "blockComment": ["{", "}"]}, "sgcard": {"lineComment": "#"}}
    activation = {event.split(":", 1)[1] for event in package["activationEvents"] if event.startswith("onLanguage")}
    assert activation == set(languages)


STANDINS = r"""
const Module = require("module");
const seen = {};
const fakes = {
  vscode: {
    workspace: {
      getConfiguration: (section) => ({
        get: (key, fallback) => { seen.setting = section + "." + key; return fallback; },
      }),
      createFileSystemWatcher: (glob) => ({ glob }),
    },
    commands: { registerCommand: (name) => { seen.command = name; return {}; } },
  },
  "vscode-languageclient/node": {
    TransportKind: { stdio: 0 },
    LanguageClient: class {
      constructor(id, name, server, client) { Object.assign(seen, { id, server, client }); }
      start() { seen.started = true; return Promise.resolve(); }
    },
  },
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request in fakes ? fakes[request] : load.call(this, request, ...rest);
};
require(process.argv[2]).activate({ subscriptions: [] });
console.log(JSON.stringify(seen));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_extension_starts_sgcheck_server_for_the_files_of_the_language(tmp_path: Path) -> None:
    script = tmp_path / "run.js"
    script.write_text(STANDINS, encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), str(VSCODE / "extension.js")], capture_output=True, text=True, timeout=60, check=True
    )
    seen = json.loads(done.stdout)
    assert seen["setting"] == "sgcheck.server.command"
    assert [seen["server"]["command"], *seen["server"]["args"]] == SERVER
    assert seen["started"] is True
    assert seen["command"] == "sgcheck.restartServer"
    selector = seen["client"]["documentSelector"]
    assert {d["language"] for d in selector} == {"sglog", "sgcard", "yaml"}
    assert {d["pattern"] for d in selector if "pattern" in d} == set(schema_map().values())
    watched = seen["client"]["synchronize"]["fileEvents"]["glob"]
    for name in ("*.sglog", "*.sgcard", "*.sgcard.yaml", "sgpack.yaml", "*.scenario.yaml", "pyproject.toml"):
        assert name in watched


def test_the_readme_and_the_architecture_name_the_editors() -> None:
    assert "docs/editors.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`editors/`" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "editors" in pyproject["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
