"""The language server end to end: a real client over stdio (pytest-lsp) talks to ``python -m
sgcheck server``. Open, change, hover, completion, code action, formatting, symbols, definition,
a broken file, a huge file, a pack file that is not UTF-8 on disk, debouncing and cancelling."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests import installed

ROOT = Path(__file__).resolve().parents[2]
# the sgcheck under test: the checkout, or the installed one with SGCHECK_TEST_INSTALLED=1 (tests/installed.py)
ENV = {**os.environ, "PYTHONPATH": installed.pythonpath()}
TIMEOUT = 60.0


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "sgcheck", "server"], server_env=ENV),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    params = lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), initialization_options={"sgcheck": {"debounceMs": 500}}
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


async def until(check: Callable[[], bool], what: str) -> None:
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(wait(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def codes(client: LanguageClient, uri: str) -> list[str]:
    return [str(d.code) for d in client.diagnostics.get(uri, [])]


def open_doc(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.resolve().as_uri()
    content = text if text is not None else path.read_text(encoding="utf-8")
    language = "sglog" if path.name.endswith(".sglog") else "sgcard"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, language, version, content)))
    return uri


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


WRONG_HIT = ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog"
FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"


@pytest.mark.asyncio
async def test_broken_log_open_hover_code_action(client: LanguageClient) -> None:
    """A wrong hit claim (core §4.2, R10): the finding as replay reports it, the numbers on hover,
    the claim corrected by a code action, and sgcheck explain on the code."""
    uri = open_doc(client, WRONG_HIT)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    (found,) = client.diagnostics[uri]
    assert found.code == "SG-R204" and found.severity == lsp.DiagnosticSeverity.Error
    assert (found.range.start.line, found.range.start.character) == (14, 13)  # 15:14 of the CLI, 0-based
    assert "core §4.2" in found.message and "R10" in found.message

    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(14, 20))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "threshold" in hover.contents.value.lower() and "line 15" in hover.contents.value

    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            found.range,
            lsp.CodeActionContext(diagnostics=[found]),
        )
    )
    assert actions is not None
    quick = [a for a in actions if isinstance(a, lsp.CodeAction) and a.kind == lsp.CodeActionKind.QuickFix]
    assert quick and quick[0].edit is not None and quick[0].edit.changes is not None
    (edit,) = quick[0].edit.changes[uri]
    assert edit.new_text == "miss"

    text = WRONG_HIT.read_text(encoding="utf-8")
    line = text.split("\n")[14]
    code_line = line + " ; SG-R204"
    change(client, uri, 2, text.replace(line, code_line))
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(14, len(code_line) - 3))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "SG-R204" in hover.contents.value and "wrong" in hover.contents.value.lower()


@pytest.mark.asyncio
async def test_change_debounce_and_cancel(client: LanguageClient) -> None:
    """Rapid changes: only the last version is published (the older ones are superseded), and its
    findings are those of its text; a request cancelled by the client leaves the server serving."""
    text = FULL_GAME.read_text(encoding="utf-8")
    uri = open_doc(client, FULL_GAME, text)
    await until(lambda: uri in client.diagnostics, "first diagnostics")
    assert codes(client, uri) == []
    published: list[int | None] = []
    original = client.diagnostics

    def record(params: lsp.PublishDiagnosticsParams) -> None:
        published.append(params.version)
        original[params.uri] = params.diagnostics

    client.protocol.fm.features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record

    broken = text.replace("summon Q f1 cost 16", "summon Q f1 cost 15", 1)
    assert broken != text
    for version in range(2, 7):
        change(client, uri, version, broken if version == 6 else text + f"; note {version}\n")
    await until(lambda: 6 in published, "version 6")
    assert published == [6]
    assert codes(client, uri) == ["SG-R201"]  # the wrong cost claim (core §5)

    # a completion at the end of the game, cancelled by the client at once ($/cancelRequest)
    pending = client.protocol.send_request_async(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(len(text.split("\n")) - 1, 0)),
        msg_id="to-cancel",
    )
    client.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="to-cancel"))
    try:
        await asyncio.wait_for(pending, TIMEOUT)
    except Exception as error:  # the server answers RequestCancelled, or the answer if it came first
        assert "cancel" in str(error).lower()
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    assert symbols and any("White" in str(s.name) for s in symbols)


@pytest.mark.asyncio
async def test_completion_formatting_and_symbols(client: LanguageClient, tmp_path: Path) -> None:
    """Completion in a log offers the core's legal actions with claims; formatting is ``sgcheck fmt``."""
    text = "\n".join(
        [
            '[Event "x"]',
            "rolloff white 6 5 3 black 2 2 1",
            "choose white",
            "king white e1",
            "king black e8",
            "",
            "1.   upkeep:   summon R a1 cost 10 lp 10",
            "",
        ]
    )
    log = tmp_path / "game.sglog"
    log.write_text(text, encoding="utf-8")
    uri = open_doc(client, log, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    assert codes(client, uri) == []
    found = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(7, 0))
    )
    assert isinstance(found, lsp.CompletionList)
    labels = [item.label for item in found.items]
    assert "main1:" in labels and "pass" not in labels  # White's Upkeep goes on; after an action no Pass (R04)
    assert not any(label.startswith("summon") for label in labels)
    change(client, uri, 2, text + "1... ")
    found = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(7, 5))
    )
    assert isinstance(found, lsp.CompletionList)
    summons = [item.label for item in found.items if item.label.startswith("summon ")]
    assert summons and all(" cost " in label and " lp " in label for label in summons)  # claims filled in

    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True))
    )
    assert edits and "1.   upkeep: summon R a1 cost 10 lp 10" in edits[0].new_text

    cards = ROOT / "examples" / "cards" / "guide-relics.sgcard"
    card_uri = open_doc(client, cards)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(card_uri))
    )
    assert symbols and len(symbols) >= 3
    rows = cards.read_text(encoding="utf-8").split("\n")
    words = set()
    for clause in ("    phase ", "    effect "):  # the words that can follow there (tests/lang/test_card_completion.py)
        row = next(i for i, line in enumerate(rows) if line.startswith(clause))
        found = await client.text_document_completion_async(
            lsp.CompletionParams(lsp.TextDocumentIdentifier(card_uri), lsp.Position(row, len(clause)))
        )
        assert isinstance(found, lsp.CompletionList)
        words |= {item.label for item in found.items}
    assert {"upkeep", "battle", "damage", "cost"} <= words


@pytest.mark.asyncio
async def test_pack_file_not_utf8_on_disk_and_pack_recheck(client: LanguageClient, tmp_path: Path) -> None:
    """A pack whose second card file is Latin-1 on disk: SG-P004 on that file; a log naming the pack
    is replayed again when a pack file open in the editor changes (R22)."""
    (tmp_path / "sgpack.yaml").write_text("name: p\nversion: 1.0.0\ncards:\n  - a.sgcard\n  - b.sgcard\n")
    good = (ROOT / "examples" / "logs" / "relic-pack" / "guide-relics.sgcard").read_text(encoding="utf-8")
    (tmp_path / "a.sgcard").write_text(good, encoding="utf-8")
    (tmp_path / "b.sgcard").write_bytes('card "Caf\u00e9" relic\n'.encode("latin-1"))
    open_doc(client, tmp_path / "a.sgcard")
    bad = (tmp_path / "b.sgcard").resolve().as_uri()
    await until(lambda: bad in client.diagnostics, "diagnostics on the Latin-1 file")
    assert "SG-P004" in codes(client, bad)

    pack = ROOT / "examples" / "logs" / "relic-pack"
    work = tmp_path / "game"
    work.mkdir()
    (work / "relic-pack").mkdir()
    for name in ("sgpack.yaml", "guide-relics.sgcard"):
        (work / "relic-pack" / name).write_text((pack / name).read_text(encoding="utf-8"), encoding="utf-8")
    log = work / "relic-game.sglog"
    log.write_text((ROOT / "examples" / "logs" / "relic-game.sglog").read_text(encoding="utf-8"), encoding="utf-8")
    log_uri = open_doc(client, log)
    await until(lambda: log_uri in client.diagnostics, "log diagnostics")
    assert [c for c in codes(client, log_uri) if c.startswith(("SG-R", "SG-P"))] == []
    card_path = work / "relic-pack" / "guide-relics.sgcard"
    card_uri = open_doc(client, card_path)
    await until(lambda: card_uri in client.diagnostics, "card diagnostics")
    client.diagnostics.pop(log_uri)
    change(client, card_uri, 2, 'card "Broken\n')  # the pack no longer loads: the log is replayed again
    await until(lambda: log_uri in client.diagnostics, "log replayed again")
    assert any(c.startswith("SG-P") for c in codes(client, log_uri))


@pytest.mark.asyncio
async def test_huge_log(client: LanguageClient, tmp_path: Path) -> None:
    """A 2,000-turn log: analysed, then a change at its end is published quickly (resumed replay)."""
    from sgcheck.core.state import GameState
    from sgcheck.lang.logs.from_actions import Claims
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Style, iter_game

    items = iter_game(3, style=Style.ENDLESS, claims=Claims.SOME, max_turns=1000)
    text = "".join(format_item(item) + "\n" for item in items if not isinstance(item, GameState))  # type: ignore[arg-type]
    log = tmp_path / "long.sglog"
    log.write_text(text, encoding="utf-8")
    uri = open_doc(client, log, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    assert codes(client, uri) == []
    client.diagnostics.pop(uri)
    last = text.rstrip("\n").split("\n")[-1]
    wrong = text[: text.rstrip("\n").rfind("\n") + 1] + last + " ; note\n2000. upkeep: pass\n"
    change(client, uri, 2, wrong)
    await until(lambda: uri in client.diagnostics, "diagnostics after the change")
    assert codes(client, uri)  # the turn out of sequence at the end is found


@pytest.mark.asyncio
async def test_fuzz_sample_through_the_client(client: LanguageClient) -> None:
    """A sample of the fuzz corpus (binary, not UTF-8, truncated, huge numbers) opened in the
    editor: each gets its findings, and the server still answers afterwards."""
    corpus = ROOT / "tests" / "fuzz" / "corpus"
    names = ["logs/binary.sglog", "logs/only-comments.sglog", "logs/tags-only.sglog", "logs/empty.sglog"]
    uris = []
    for name in names:
        path = corpus / name
        uris.append(open_doc(client, path, path.read_bytes().decode("utf-8", "replace")))
    for uri in uris:
        await until(lambda uri=uri: uri in client.diagnostics, uri)  # type: ignore[misc]
        assert codes(client, uri), uri
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uris[0]))
    )
    assert symbols == [] or symbols is None


def test_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without pygls, ``sgcheck server`` says in one line how to get it, and exits 2."""
    from click.testing import CliRunner

    from sgcheck.cli import main

    monkeypatch.setitem(sys.modules, "pygls", None)
    result = CliRunner().invoke(main, ["server"])
    assert result.exit_code == 2
    needs = "sgcheck: the language server needs pygls and lsprotocol: pip install 'sgcheck[server]'"
    assert result.output.strip() == needs


@pytest.mark.asyncio
async def test_inlay_hints_and_definition(client: LanguageClient, tmp_path: Path) -> None:
    """LP/SP computed by replay after a statement without claims (switchable); a card name in a
    log leads to the card in its pack (R22)."""
    text = "\n".join(
        [
            "rolloff white 6 5 3 black 2 2 1",
            "choose white",
            "king white e1",
            "king black e8",
            "",
            "1.   upkeep: summon R a1",
            "",
        ]
    )
    log = tmp_path / "hints.sglog"
    log.write_text(text, encoding="utf-8")
    uri = open_doc(client, log, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(7, 0))
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(lsp.TextDocumentIdentifier(uri), whole))
    assert hints and hints[0].position.line == 5 and "10/0" in str(hints[0].label)  # 20 LP - 10 (core §5)
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams({"sgcheck": {"inlayHints": False}}))
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(lsp.TextDocumentIdentifier(uri), whole))
    assert not hints

    game = ROOT / "examples" / "logs" / "relic-game.sglog"
    game_uri = open_doc(client, game)
    await until(lambda: game_uri in client.diagnostics, "log diagnostics")
    lines = game.read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if 'play "' in line and not line.startswith(";"))
    column = lines[row].index('play "') + 7
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(game_uri), lsp.Position(row, column))
    )
    assert isinstance(found, lsp.Location) and found.uri.endswith("relic-pack/guide-relics.sgcard")


@pytest.mark.asyncio
async def test_card_hover_and_yaml_completion(client: LanguageClient, tmp_path: Path) -> None:
    """Hover on a card: its text and the contract's finding on it (core §4.5, SG-C010); completion in
    a YAML card file: the keys of its JSON Schema."""
    cards = tmp_path / "loud.sgcard"
    text = 'relic "Loud Horn" passive {\n    cost 3 SP\n    effect to_hit +40\n}\n'
    cards.write_text(text, encoding="utf-8")
    uri = open_doc(client, cards, text)
    await until(lambda: uri in client.diagnostics, "diagnostics")
    assert "SG-C010" in codes(client, uri)
    shown = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(1, 5)))
    assert shown is not None and isinstance(shown.contents, lsp.MarkupContent)
    assert "Loud Horn" in shown.contents.value and "SG-C010" in shown.contents.value
    assert "cost 3 SP" in shown.contents.value

    yaml_file = tmp_path / "more.sgcard.yaml"
    yaml_text = "cards:\n  - name: Owl\n    \n"
    yaml_file.write_text(yaml_text, encoding="utf-8")
    yaml_uri = yaml_file.resolve().as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(yaml_uri, "yaml", 1, yaml_text)))
    keys = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(yaml_uri), lsp.Position(2, 4))
    )
    assert isinstance(keys, lsp.CompletionList)
    assert {"name", "kind", "cost", "effects"} <= {item.label for item in keys.items}
