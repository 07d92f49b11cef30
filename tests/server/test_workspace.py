"""The language server reads nothing outside the workspace folders the client opened, and a bad
frame is answered and skipped: a real client over stdio (pytest-lsp), then raw bytes.

The reproducers: a client-opened ``file:///etc/sgpack.yaml`` made the server read and publish
lines of system files; a frame with a huge Content-Length killed the server, and after any frame
with a wrong length it never answered again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests import installed
from tests.server.test_lsp import codes, open_doc, until

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": installed.pythonpath()}
#: The one workspace folder the client opens; the outside folder is a sibling of it.
BASE = Path(tempfile.mkdtemp(prefix="sgcheck-workspace-"))
INSIDE, OUTSIDE = BASE / "inside", BASE / "outside"
SECRET = "name: leaked-SECRET-line\nversion: 1.0.0\ncards:\n  - .npmrc\n"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "sgcheck", "server"], server_env=ENV),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    INSIDE.mkdir(parents=True, exist_ok=True)
    OUTSIDE.mkdir(parents=True, exist_ok=True)
    params = lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(),
        workspace_folders=[lsp.WorkspaceFolder(INSIDE.as_uri(), "inside")],
        initialization_options={"sgcheck": {"debounceMs": 50}},
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_document_outside_the_workspace_folders_is_not_read(client: LanguageClient) -> None:
    (OUTSIDE / "sgpack.yaml").write_text(SECRET, encoding="utf-8")
    (OUTSIDE / ".npmrc").write_text("//registry/:_authToken=SECRET\n", encoding="utf-8")
    outside = open_doc(client, OUTSIDE / "sgpack.yaml")
    await until(lambda: outside in client.diagnostics, "the outside document's answer")
    (note,) = client.diagnostics[outside]
    assert "outside the workspace folders" in note.message and "SECRET" not in note.message
    inside_log = INSIDE / "game.sglog"
    inside_log.write_text((ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog").read_text(encoding="utf-8"))
    inside = open_doc(client, inside_log)
    await until(lambda: inside in client.diagnostics, "the inside document's findings")
    assert "SG-R204" in codes(client, inside)
    for found in client.diagnostics.values():
        assert all("SECRET" not in d.message for d in found)


def _frame(message: dict[str, object], length: int | None = None) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


def test_a_bad_frame_is_answered_and_the_server_keeps_serving() -> None:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    shutdown = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
    stream = (
        b"Content-Length: 99999999999999\r\n\r\n"  # huge: refused, never read
        + _frame(initialize, 7)  # too short: the rest of its body comes before the next header
        + _frame({"jsonrpc": "2.0", "id": 9, "method": "initialize"}, 5000)  # too long: holds the next frame
        + _frame(initialize)
        + _frame(shutdown)
        + _frame({"jsonrpc": "2.0", "method": "exit"})
    )
    done = subprocess.run(
        [sys.executable, "-m", "sgcheck", "server"], input=stream, capture_output=True, env=ENV, timeout=60, check=False
    )
    answers = [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in done.stdout.split(b"Content-Length: ")[1:]]
    errors = [answer["error"] for answer in answers if "error" in answer]
    assert [error["code"] for error in errors] == [-32600, -32700, -32700], errors
    assert all(answer["id"] is None for answer in answers if "error" in answer)
    results = {answer["id"]: answer for answer in answers if "result" in answer}
    assert results[1]["result"]["serverInfo"]["name"] == "sgcheck" and 2 in results
    assert b"Traceback" not in done.stderr
