"""The VS Code extension's package, as ``vsce`` makes it (``npx --yes @vscode/vsce ls`` after
``npm install``, in a copy of editors/vscode): the extension's own files, the language client
it runs, and nothing for other hosts or for developers (.vscodeignore). Needs node and npm and
the npm registry; skipped, saying so, without them (``.ci/run`` runs it where they are)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VSCODE = ROOT / "editors" / "vscode"
OWN = {
    "package.json",
    "extension.js",
    "README.md",
    "language-configuration-sglog.json",
    "language-configuration-sgcard.json",
    "syntaxes/sglog.tmLanguage.json",
    "syntaxes/sgcard.tmLanguage.json",
}


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None or shutil.which("npx") is None,
    reason="node, npm and npx are needed for `vsce ls` (the extension's package)",
)
def test_vsce_lists_a_trimmed_package(tmp_path: Path) -> None:
    work = tmp_path / "vscode"
    shutil.copytree(VSCODE, work, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
    installed = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund"], cwd=work, capture_output=True, text=True, timeout=600
    )
    if installed.returncode != 0:
        pytest.skip(f"npm install failed (no registry here?): {installed.stderr.strip()[-300:]}")
    listed = subprocess.run(
        ["npx", "--yes", "@vscode/vsce", "ls"], cwd=work, capture_output=True, text=True, timeout=600
    )
    if listed.returncode != 0 and "ENOTFOUND" in listed.stderr + listed.stdout:
        pytest.skip("the npm registry cannot be reached for @vscode/vsce")
    assert listed.returncode == 0, listed.stderr
    files = [line.strip() for line in listed.stdout.splitlines() if line.strip()]
    assert set(files) >= OWN
    others = [name for name in files if name not in OWN]
    assert all(name.startswith("node_modules/") for name in others), others
    assert not [n for n in files if n.endswith((".ts", ".map", ".md", ".cmd")) and n not in OWN]
    assert not [n for n in files if "/browser" in n or "/esm/" in n or n == "package-lock.json"]
    assert len(files) <= 200  # 323 before the .vscodeignore
    # what is left runs: the protocol stack the client needs loads from the listed files alone
    kept = tmp_path / "kept"
    for name in files:
        (kept / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(work / name, kept / name)
    loaded = subprocess.run(
        ["node", "-e", "require('vscode-languageserver-protocol/node'); require('vscode-jsonrpc/node')"],
        cwd=kept,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert loaded.returncode == 0, loaded.stderr
