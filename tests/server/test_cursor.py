"""The editor knows where the cursor is: completion of the phase being typed (a real client over
stdio, pytest-lsp), the card language's words that can follow, semantic tokens, pull diagnostics
and ``source.fixAll``. Each answer is checked against something it does not share: completions
are inserted and replayed, card words are fed to the card parser's own driver, tokens are
compared with the grammars' readings, and the fixes with ``sgcheck check --fix``."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from sgcheck.diagnostics import Severity
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import replay_source
from tests.server.test_lsp import ENV, ROOT, change, client, codes, open_doc, until

__all__ = ["client"]  # the pytest-lsp client of test_lsp, shared

FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"
SETUP = '[Event "x"]\nrolloff white 6 5 3 black 2 2 1\nchoose white\nking white e1\nking black e8\n\n'


async def complete(client: LanguageClient, uri: str, text: str, line: int, character: int) -> list[lsp.CompletionItem]:
    found = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
    )
    assert isinstance(found, lsp.CompletionList)
    return found.items


def inserted(text: str, line: int, character: int, item: lsp.CompletionItem) -> str:
    """The text with the completion applied as a client applies it (its text edit, ASCII lines)."""
    assert isinstance(item.text_edit, lsp.TextEdit)
    rows = text.split("\n")
    edit = item.text_edit
    start = sum(len(r) + 1 for r in rows[: edit.range.start.line]) + edit.range.start.character
    end = sum(len(r) + 1 for r in rows[: edit.range.end.line]) + edit.range.end.character
    assert (edit.range.end.line, edit.range.end.character) == (line, character)  # up to the cursor
    return text[:start] + edit.new_text + text[end:]


def errors_on(text: str, line: int) -> list[str]:
    """The replay's errors on a 1-based line (sgcheck replay, the library)."""
    result = replay_source(SourceText("game.sglog", text))
    return [
        f"{d.code} {d.message}"
        for d in result.diagnostics
        if d.severity is Severity.ERROR and d.span is not None and d.span.line == line
    ]


@pytest.mark.asyncio
async def test_completion_reads_the_phase_being_typed(client: LanguageClient, tmp_path: Path) -> None:
    """After ``main1:`` on the line of an Upkeep summon, no summon is offered (R12: summons are
    made in Upkeep) and each statement offered, inserted at the cursor, replays without an error
    on its line; the phase is the one typed, not the last whole statement's."""
    first = "1.   upkeep:   summon R a1 cost 10 lp 10 main1: "
    text = SETUP + first
    log = tmp_path / "game.sglog"
    log.write_text(text, encoding="utf-8")
    uri = open_doc(client, log, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    row = text.count("\n")
    items = await complete(client, uri, text, row, len(first))
    statements = [item for item in items if item.kind == lsp.CompletionItemKind.Snippet]
    assert statements and not any(item.label.startswith("summon") for item in items)
    assert all(item.detail == "legal in main1" for item in statements)
    assert "battle:" in {item.label for item in items} and not {"main1:", "pass"} & {i.label for i in items}
    for item in items:
        after = inserted(text, row, len(first), item)
        assert errors_on(after, row + 1) == [], (item.label, errors_on(after, row + 1))

    # the line's words as semantic tokens: what each is in the log grammar
    from sgcheck.server.tokens import TOKEN_TYPES

    tokens = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(uri))
    )
    assert tokens is not None
    line_types, line = [], 0
    for index in range(0, len(tokens.data), 5):
        line += tokens.data[index]
        if line == row:
            line_types.append(TOKEN_TYPES[tokens.data[index + 3]])
    kinds = ["namespace", "event", "keyword", "type", "variable", "property", "number", "property", "number"]
    assert line_types == [*kinds, "event"]  # 1. upkeep: summon R a1 cost 10 lp 10 main1:

    # half a statement typed: the cut is before it, and the completion replaces it
    typed = first + "move R"
    change(client, uri, 2, SETUP + typed)
    items = await complete(client, uri, SETUP + typed, row, len(typed))
    moves = [item for item in items if item.label.startswith("move Ra1 ")]
    assert moves and inserted(SETUP + typed, row, len(typed), moves[0]).endswith(first + moves[0].label)


@pytest.mark.asyncio
async def test_completion_after_battle_offers_the_legal_attack(client: LanguageClient, tmp_path: Path) -> None:
    """At ``13.   battle:`` of the shipped full game, the attack the game then makes (a legal one:
    replay accepts it) is offered with its cost and threshold, the dice left to the player
    (core §4.2); no Upkeep summon is."""
    lines = FULL_GAME.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("13.   battle: attack Ne2 Kf5"))
    cursor = len("13.   battle: ")
    text = "\n".join([*lines[:index], lines[index][:cursor]]) + "\n"
    log = tmp_path / "full.sglog"
    log.write_text(text, encoding="utf-8")
    uri = open_doc(client, log, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    items = await complete(client, uri, text, index, cursor)
    labels = [item.label for item in items]
    assert "attack Ne2 Kf5 roll  cost 8 threshold 30" in labels, labels
    assert not any(label.startswith("summon") for label in labels)
    assert all(item.detail == "legal in battle" for item in items if item.kind == lsp.CompletionItemKind.Snippet)
    written = lines[index]  # the game's own line: the offered attack with its roll and results
    assert written.startswith("13.   battle: attack Ne2 Kf5 roll 6 7 cost 8 threshold 30")


@pytest.mark.asyncio
async def test_completion_of_a_new_turn_puts_its_label_first(client: LanguageClient, tmp_path: Path) -> None:
    """On a line that starts Black's turn, Black's Upkeep actions, each inserted after the
    ``upkeep:`` label a turn's first statement needs (SG-T107 otherwise), replay cleanly."""
    text = SETUP + "1.   upkeep: summon R a1 cost 10 lp 10\n1... "
    log = tmp_path / "turn.sglog"
    log.write_text(text, encoding="utf-8")
    uri = open_doc(client, log, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    row = text.count("\n")
    items = await complete(client, uri, text, row, 5)
    summons = [item for item in items if item.label.startswith("summon ")]
    assert summons and all(" cost " in item.label and " lp " in item.label for item in summons)
    for item in summons[:12]:
        after = inserted(text, row, 5, item)
        assert after.split("\n")[row].startswith("1... upkeep: summon ")
        assert errors_on(after, row + 1) == [], item.label


@pytest.mark.asyncio
async def test_card_completion_and_semantic_tokens(client: LanguageClient, tmp_path: Path) -> None:
    """In a card file, after ``effect`` only what the grammar allows there (an action or a
    trigger, never ``phase`` or ``}``); the document's semantic tokens use the server's legend."""
    from sgcheck.server.tokens import TOKEN_TYPES

    text = 'relic "Owl" passive {\n    cost 2 SP\n    effect \n}\n'
    cards = tmp_path / "owl.sgcard"
    cards.write_text(text, encoding="utf-8")
    uri = open_doc(client, cards, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    words = {item.label for item in await complete(client, uri, text, 2, 11)}
    assert {"gain", "to_hit", "on", "at", "steal", "extra"} <= words
    assert not words & {"phase", "text", "effect", "}", "cost 2 SP", "relic"}

    tokens = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(uri))
    )
    assert tokens is not None and len(tokens.data) % 5 == 0
    kinds = [TOKEN_TYPES[tokens.data[i + 3]] for i in range(0, len(tokens.data), 5)]
    assert kinds[:4] == ["keyword", "string", "keyword", "operator"]  # relic "Owl" passive {


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "sgcheck", "server"], server_env=ENV),
)
async def puller(lsp_client: LanguageClient) -> AsyncIterator[None]:
    """A client that pulls diagnostics (textDocument/diagnostic) and takes refresh requests."""
    lsp_client.refreshed = 0  # type: ignore[attr-defined]

    def refresh(params: None) -> None:
        lsp_client.refreshed += 1  # type: ignore[attr-defined]

    lsp_client.protocol.fm.features[lsp.WORKSPACE_DIAGNOSTIC_REFRESH] = refresh

    capabilities = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(diagnostic=lsp.DiagnosticClientCapabilities()),
        workspace=lsp.WorkspaceClientCapabilities(diagnostics=lsp.DiagnosticWorkspaceClientCapabilities(True)),
    )
    params = lsp.InitializeParams(capabilities=capabilities, initialization_options={"sgcheck": {"debounceMs": 100}})
    result = await lsp_client.initialize_session(params)
    assert result.capabilities.diagnostic_provider is not None
    assert result.capabilities.semantic_tokens_provider is not None
    yield
    await lsp_client.shutdown_session()


async def pull(client: LanguageClient, uri: str, previous: str | None = None) -> lsp.DocumentDiagnosticReport:
    return await client.text_document_diagnostic_async(
        lsp.DocumentDiagnosticParams(lsp.TextDocumentIdentifier(uri), previous_result_id=previous)
    )


FIXABLE = (
    'relic "Loud Horn" passive {\n    cost 3 SP\n    effect to_hit +40\n}\n\n'
    'relic "Big Club" passive {\n    cost 3 SP\n    effect damage +9\n}\n'
    'relic "Owl" passive {\n    cost 2 SP\n    effect to_hit +5 # sgcheck: ignore SG-C010 -- not needed\n}\n'
)


@pytest.mark.asyncio
async def test_pull_diagnostics_and_fix_all(puller: LanguageClient, tmp_path: Path) -> None:
    """A client that pulls gets the findings ``sgcheck check`` gives (core §4.5 caps, an unused
    suppression), nothing pushed; a report unchanged since its result id says so; ``source.fixAll``
    gives the text ``sgcheck check --fix`` writes; after a change, the server asks for a pull."""
    cards = tmp_path / "caps.sgcard"
    cards.write_text(FIXABLE, encoding="utf-8")
    uri = open_doc(puller, cards, FIXABLE)
    report = await pull(puller, uri)
    assert isinstance(report, lsp.RelatedFullDocumentDiagnosticReport)
    assert sorted(str(d.code) for d in report.items) == ["SG-C010", "SG-C011", "SG-C221"]
    again = await pull(puller, uri, report.result_id)
    assert isinstance(again, lsp.RelatedUnchangedDocumentDiagnosticReport) and again.result_id == report.result_id

    actions = await puller.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.SourceFixAll]),
        )
    )
    assert actions is not None and len(actions) == 1
    (every,) = actions
    assert isinstance(every, lsp.CodeAction) and every.kind == lsp.CodeActionKind.SourceFixAll
    assert every.edit is not None and every.edit.changes is not None
    (edit,) = every.edit.changes[uri]
    copy = tmp_path / "copy.sgcard"
    copy.write_text(FIXABLE, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "sgcheck", "check", "--fix", str(copy)], env=ENV, capture_output=True)
    assert edit.new_text == copy.read_text(encoding="utf-8") != FIXABLE

    change(puller, uri, 2, edit.new_text)
    await until(lambda: puller.refreshed > 0, "a refresh request")  # type: ignore[attr-defined]
    fixed = await pull(puller, uri)
    assert isinstance(fixed, lsp.RelatedFullDocumentDiagnosticReport)
    command = [sys.executable, "-m", "sgcheck", "check", "--format", "json", str(copy)]
    checked = json.loads(subprocess.run(command, env=ENV, capture_output=True, text=True).stdout)
    left = sorted(d["code"] for d in checked["files"][0]["diagnostics"])
    assert sorted(str(d.code) for d in fixed.items) == left and "SG-C010" not in left  # what check finds after
    await asyncio.sleep(0.3)
    assert uri not in puller.diagnostics  # nothing pushed to a client that pulls


@pytest.mark.asyncio
async def test_fix_all_in_a_log_and_push_clients(client: LanguageClient, tmp_path: Path) -> None:
    """A client without pull support still gets pushed diagnostics; ``source.fixAll`` corrects
    every wrong claim the replay found at once (core §5: two summons' costs; ``keep-going`` set in
    ``[tool.sgcheck.replay]`` so that the replay goes on past the first)."""
    (tmp_path / "pyproject.toml").write_text("[tool.sgcheck.replay]\nkeep-going = true\n", encoding="utf-8")
    text = SETUP + "1.   upkeep: summon R a1 cost 9 lp 10\n1... upkeep: summon R a8 cost 11 lp 10\n"
    log = tmp_path / "claims.sglog"
    log.write_text(text, encoding="utf-8")
    uri = open_doc(client, log, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    assert codes(client, uri)
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.SourceFixAll]),
        )
    )
    assert actions and isinstance(actions[0], lsp.CodeAction) and actions[0].edit and actions[0].edit.changes
    (edit,) = actions[0].edit.changes[uri]
    assert "summon R a1 cost 10 lp 10\n1... upkeep: summon R a8 cost 10 lp 10" in edit.new_text
    assert errors_on(edit.new_text, 7) == errors_on(edit.new_text, 8) == []


class _NoDocuments:
    """What completion reads of a server that holds no analysis yet."""

    def __init__(self) -> None:
        self.documents: dict[str, object] = {}

    def text_of(self, path: str) -> str | None:
        return None

    def open_texts(self) -> dict[str, str]:
        return {}


LOG_WORDS = [
    "1.",
    "1...",
    "2.",
    "upkeep:",
    "main1:",
    "battle:",
    "summon",
    "move",
    "attack",
    "R",
    "Ra1",
    "a1",
    "a5",
    "roll",
    "3",
    "cost",
    "10",
    "lp",
    "pass",
    "\n",
    "; c",
    "{ c",
    "}",
    '"Owl',
    '"Owl"',
    "play",
    "9999999999",
    "ſ",
    "\U0001f600",
]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(LOG_WORDS) | st.text(max_size=3), max_size=25), st.floats(0, 1))
def test_completion_anywhere_in_any_log(parts: list[str], where: float) -> None:
    """Any text, any cursor: the cut is before the cursor and after the turn's start, each item
    replaces text that ends at the cursor, and nothing raises."""
    from sgcheck.server.convert import Lines
    from sgcheck.server.features import completion, cursor_cut

    text = SETUP + " ".join(parts)
    offset = int(len(text) * where)
    cut = cursor_cut(text, offset)
    if cut is not None:
        assert 0 <= cut.at <= offset and 0 <= cut.replace <= offset
    position = Lines(text).position_of(offset)
    for item in completion(_NoDocuments(), str(ROOT / "game.sglog"), text, position):  # type: ignore[arg-type]
        if isinstance(item.text_edit, lsp.TextEdit):
            assert item.text_edit.range.end == position
