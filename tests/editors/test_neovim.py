"""docs/editors.md's set-up for Neovim 0.7 to 0.9, run in a headless Neovim against the sgcheck
under test: diagnostics, hover, completion and semantic tokens of a broken log arrive in the
editor. The Neovim is the one the test set-up installs (Debian's ``neovim``, 0.7: ``.ci/run``);
without one the test is skipped, saying so."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
  out.filetype = vim.bo.filetype
  out.commentstring = vim.bo.commentstring
  vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.PROBE_OUT)
  vim.cmd("qa!")
end })
"""


def setup_for_old_neovim() -> str:
    blocks = re.findall(r"```lua\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    (found,) = [block for block in blocks if "vim.lsp.start_client" in block]
    return str(found)


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim (nvim) is not installed: .ci/run installs it")
def test_neovim_headless_with_the_documented_setup(tmp_path: Path) -> None:
    """The wrong hit claim of wrong-hit.sglog (core §4.2, R10) as a diagnostic at 15:14, the
    threshold on hover, the legal actions of the phase at the end of the log as completions, and
    semantic tokens whose first words are the comment and header of the log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "sgcheck"  # the `sgcheck` of the set-up: the one under test
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sgcheck "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    init = tmp_path / "init.lua"
    init.write_text(setup_for_old_neovim() + PROBE, encoding="utf-8")
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
    command = ["nvim", "--headless", "-n", "-i", "NONE", "-u", str(init), str(log)]
    subprocess.run(command, env=env, cwd=tmp_path, timeout=240, capture_output=True, check=False)
    assert out.exists(), "Neovim wrote no answers"
    found = json.loads(out.read_text(encoding="utf-8"))
    assert found["filetype"] == "sglog" and found["commentstring"] == "; %s"
    (diagnostic,) = found["diagnostics"]
    assert (diagnostic["code"], diagnostic["lnum"], diagnostic["col"]) == ("SG-R204", 14, 13)
    assert "core §4.2" in diagnostic["message"] and "R10" in diagnostic["message"]
    assert "Threshold" in found["hover"] and "line 15" in found["hover"]
    labels = [item["label"] for item in found["completion"]["items"]]
    assert labels and all(not label.startswith("summon") for label in labels)  # not Upkeep (R12)
    data = found["tokens"]["data"]
    assert data and len(data) % 5 == 0
    from sgcheck.server.tokens import TOKEN_TYPES

    first = TOKEN_TYPES[data[3]]
    assert first == ("comment" if rows[0].startswith(";") else "operator")
