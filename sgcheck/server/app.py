"""The language server: pygls wiring, the documents, and when each is analysed.

Each change to a document starts a short wait (the debounce, 200 ms by default); a newer change
cancels the wait, and an analysis already running for an older version is told to stop (the turn
loop asks at every step, :class:`~sgcheck.server.analysis.Cancelled`) and its findings are never
published. Analyses run one at a time in a worker thread, so the server answers hovers and
completions while a long log is replayed. A document is analysed again when a file it read
changes: a card file or manifest of a log's pack, its scenario (open in the editor or on disk,
``workspace/didChangeWatchedFiles``), or any file of the pack a card file belongs to.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from sgcheck import __version__
from sgcheck.server.analysis import Cancelled, Found, LogMemory, analyse, kind_of
from sgcheck.server.convert import Lines, to_lsp_all, uri_of
from sgcheck.server.frames import start_io


@dataclass(slots=True)
class Settings:
    """What a client may set (``initializationOptions`` or ``workspace/didChangeConfiguration``,
    under ``sgcheck``): docs/server.md."""

    inlay_hints: bool = True
    debounce: float = 0.2  # seconds

    def update(self, values: object) -> None:
        if not isinstance(values, dict):
            return
        values = values.get("sgcheck", values)
        if not isinstance(values, dict):
            return
        hints = values.get("inlayHints")
        if isinstance(hints, bool):
            self.inlay_hints = hints
        debounce = values.get("debounceMs")
        if isinstance(debounce, int | float) and not isinstance(debounce, bool) and 0 <= debounce <= 10_000:
            self.debounce = debounce / 1000


@dataclass(slots=True)
class _Document:
    generation: int = 0
    pending: asyncio.Task[None] | None = None
    memory: LogMemory = field(default_factory=LogMemory)
    found: Found | None = None
    text: str = ""  # the text ``found`` is about
    reads: set[str] = field(default_factory=set)
    published: set[str] = field(default_factory=set)


class SgcheckServer(LanguageServer):
    """sgcheck's language server (``sgcheck server``)."""

    def __init__(self) -> None:
        super().__init__("sgcheck", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self.documents: dict[str, _Document] = {}  # by absolute path
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sgcheck-analysis")
        self.lock = threading.Lock()  # held by the worker while it analyses (features wait for it)
        self.analyses = 0  # analyses finished and published (the tests read it)
        self.pull = False  # the client pulls diagnostics: none is pushed (it would show each twice)
        self.refresh = False  # and it takes workspace/diagnostic/refresh: asked to pull after each analysis
        self.folders: list[str] = []  # the workspace folders the client opened (real paths)

    def in_workspace(self, path: str) -> bool:
        """``path`` lies in a workspace folder the client opened (any, when it opened none): a
        document elsewhere (``/etc/sgpack.yaml``) is not analysed, so nothing is read there."""
        if not self.folders:
            return True
        real = os.path.realpath(path)
        return any(real == folder or real.startswith(folder.rstrip(os.sep) + os.sep) for folder in self.folders)

    def open_folders(self, uris: list[str]) -> None:
        for uri in uris:
            path = to_fs_path(uri)
            if path is not None:
                self.folders.append(os.path.realpath(path))

    # --- documents -------------------------------------------------------------------------------

    def text_of(self, path: str) -> str | None:
        """The editor's text of an open document, else None."""
        uri = uri_of(path)
        document = self.workspace.text_documents.get(uri)
        return document.source if document is not None else None

    def open_texts(self) -> dict[str, str]:
        texts: dict[str, str] = {}
        for uri, document in list(self.workspace.text_documents.items()):
            path = to_fs_path(uri)
            if path is not None:
                texts[os.path.abspath(path)] = document.source
        return texts

    def changed(self, path: str, *, delay: float | None = None) -> None:
        """``path`` changed (open or on disk): analyse it if it is open and checked, and every open
        document that read it."""
        targets = [path] if path in self.documents else []
        targets += [other for other, doc in self.documents.items() if other != path and path in doc.reads]
        for target in targets:
            self.schedule(target, self.settings.debounce if delay is None else delay)

    def changed_dependents(self, path: str) -> None:
        """Analyse again every open document that read ``path`` (not ``path`` itself)."""
        for other, document in list(self.documents.items()):
            if other != path and path in document.reads:
                self.schedule(other, self.settings.debounce)

    def schedule(self, path: str, delay: float) -> None:
        document = self.documents.setdefault(path, _Document())
        document.generation += 1
        if document.pending is not None:
            document.pending.cancel()
        document.pending = asyncio.get_running_loop().create_task(self._analyse(path, document.generation, delay))

    async def _analyse(self, path: str, generation: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        document = self.documents.get(path)
        opened = self.workspace.text_documents.get(uri_of(path))
        if document is None or opened is None or document.generation != generation:
            return
        text, version = opened.source, opened.version

        def stale() -> bool:
            return document.generation != generation

        texts = self.open_texts()
        loop = asyncio.get_running_loop()
        try:
            found = await loop.run_in_executor(self.worker, self._run, path, text, texts, document.memory, stale)
        except Cancelled:
            return
        if stale():
            return
        document.found, document.text, document.reads = found, text, found.reads
        self.publish(path, found, texts, version)
        self.analyses += 1

    def _run(self, path: str, text: str, texts: dict[str, str], memory: LogMemory, stale: Callable[[], bool]) -> Found:
        with self.lock:
            if stale():
                raise Cancelled
            return analyse(path, text, texts, memory, cancelled=stale)

    def publish(self, path: str, found: Found, texts: dict[str, str], version: int | None = None) -> None:
        document = self.documents[path]
        if self.pull:  # the client asks (textDocument/diagnostic), and is told to now if it can be
            if self.refresh:
                asked = self.workspace_diagnostic_refresh(None)
                asked.add_done_callback(lambda done: done.exception())  # a client's refusal changes nothing
            return
        lines = {name: Lines(text) for name, text in texts.items()}
        for target, findings in found.findings.items():
            text = texts.get(target)
            if text is None:
                text = _disk_text(target)
            diagnostics = to_lsp_all(findings, target, text, lines)
            shown = version if target == path else None
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri_of(target), diagnostics, shown))
        for gone in document.published - set(found.findings):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri_of(gone), []))
        document.published = set(found.findings)

    async def current(self, path: str, text: str) -> tuple[Found, str, dict[str, str]]:
        """The findings of ``text``, the document's text now (a pull, ``textDocument/diagnostic``):
        those of the analysis waiting or running for it, else of a new one."""
        document = self.documents.setdefault(path, _Document())
        pending = document.pending
        if pending is not None and not pending.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(pending)
        texts = self.open_texts()
        if document.found is not None and document.text == text:
            return document.found, text, texts
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self.worker, self._run, path, text, texts, document.memory, lambda: False)
        document.found, document.text, document.reads = found, text, found.reads
        return found, text, texts

    def closed(self, path: str) -> None:
        document = self.documents.pop(path, None)
        if document is None:
            return
        document.generation += 1
        if document.pending is not None:
            document.pending.cancel()
        for target in document.published:
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri_of(target), []))


def pulled(
    path: str, found: Found, text: str, texts: dict[str, str], previous: str | None
) -> lsp.DocumentDiagnosticReport:
    """A pull's answer: the document's findings (unchanged since ``previous``, or in full) and
    those the same analysis placed in other files."""
    lines = {name: Lines(other) for name, other in texts.items()}
    items = to_lsp_all(found.findings.get(path, []), path, text, lines)
    result = hashlib.sha256(repr((text, items)).encode("utf-8", "replace")).hexdigest()[:16]
    related: dict[str, lsp.FullDocumentDiagnosticReport | lsp.UnchangedDocumentDiagnosticReport] = {}
    for target, findings in found.findings.items():
        if target != path:
            other = texts.get(target)
            shown = to_lsp_all(findings, target, other if other is not None else _disk_text(target), lines)
            related[uri_of(target)] = lsp.FullDocumentDiagnosticReport(items=shown)
    if previous == result and not related:
        return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=result)
    return lsp.RelatedFullDocumentDiagnosticReport(items=items, result_id=result, related_documents=related or None)


def _outside() -> lsp.Diagnostic:
    """What a document outside the workspace folders gets in place of findings: nothing of it is read."""
    return lsp.Diagnostic(
        lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
        "not checked: this file lies outside the workspace folders the editor opened",
        severity=lsp.DiagnosticSeverity.Information,
        source="sgcheck",
    )


def _disk_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(8_000_000)
    except OSError:
        return ""


def _path(uri: str) -> str | None:
    path = to_fs_path(uri)
    return os.path.abspath(path) if path is not None else None


def create_server() -> SgcheckServer:
    """A server with every feature registered."""
    server = SgcheckServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: SgcheckServer, params: lsp.InitializeParams) -> None:
        ls.settings.update(params.initialization_options)
        capabilities = params.capabilities
        workspace = capabilities.workspace.diagnostics if capabilities.workspace is not None else None
        ls.pull = capabilities.text_document is not None and capabilities.text_document.diagnostic is not None
        ls.refresh = ls.pull and workspace is not None and bool(workspace.refresh_support)
        folders = [folder.uri for folder in params.workspace_folders or ()]
        ls.open_folders(folders or ([params.root_uri] if params.root_uri else []))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(ls: SgcheckServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        gone = {os.path.realpath(to_fs_path(folder.uri) or "") for folder in params.event.removed}
        ls.folders = [folder for folder in ls.folders if folder not in gone]
        ls.open_folders([folder.uri for folder in params.event.added])

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def configuration(ls: SgcheckServer, params: lsp.DidChangeConfigurationParams) -> None:
        ls.settings.update(params.settings)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: SgcheckServer, params: lsp.DidOpenTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is None:
            return
        if not ls.in_workspace(path):
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(params.text_document.uri, [_outside()]))
            return
        if kind_of(path) is not None:
            ls.documents.setdefault(path, _Document())
            ls.schedule(path, 0)
        ls.changed_dependents(path)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: SgcheckServer, params: lsp.DidChangeTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            ls.changed(path)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: SgcheckServer, params: lsp.DidSaveTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            ls.changed(path, delay=0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: SgcheckServer, params: lsp.DidCloseTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            ls.closed(path)
            ls.changed_dependents(path)  # its file on disk stands for it again

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(ls: SgcheckServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = _path(change.uri)
            if path is not None and ls.text_of(path) is None:
                ls.changed_dependents(path)

    _register(server)
    return server


# --- the other features -----------------------------------------------------------------------------------


def _register(server: SgcheckServer) -> None:
    """Hover, completion, code actions, formatting, symbols, definitions and inlay hints
    (:mod:`sgcheck.server.features`), each computed in the worker thread."""
    from sgcheck.server.features import (
        code_actions,
        completion,
        definition,
        formatting,
        hover,
        inlay_hints,
        symbols,
    )
    from sgcheck.server.tokens import LEGEND, semantic_tokens

    highlighter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sgcheck-tokens")  # not behind analyses

    def document(ls: SgcheckServer, uri: str) -> tuple[str, str] | None:
        path = _path(uri)
        text = ls.text_of(path) if path is not None and ls.in_workspace(path) else None
        return (path, text) if path is not None and text is not None else None

    async def in_worker(ls: SgcheckServer, call: object, *args: object) -> object:
        loop = asyncio.get_running_loop()

        def run() -> object:
            with ls.lock:
                return call(*args)  # type: ignore[operator]

        return await loop.run_in_executor(ls.worker, run)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: SgcheckServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = document(ls, params.text_document.uri)
        if found is None:
            return None
        result = await in_worker(ls, hover, ls, *found, params.position)
        return result if isinstance(result, lsp.Hover) else None

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"', " ", ":"]))
    async def on_completion(ls: SgcheckServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        found = document(ls, params.text_document.uri)
        if found is None:
            return lsp.CompletionList(False, [])
        result = await in_worker(ls, completion, ls, *found, params.position)
        return lsp.CompletionList(False, result if isinstance(result, list) else [])

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(
            code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.Source, lsp.CodeActionKind.SourceFixAll]
        ),
    )
    async def on_code_action(ls: SgcheckServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        found = document(ls, params.text_document.uri)
        if found is None:
            return []
        result = await in_worker(ls, code_actions, ls, *found, params)
        return result if isinstance(result, list) else []

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    async def on_formatting(ls: SgcheckServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        found = document(ls, params.text_document.uri)
        if found is None:
            return None
        result = await in_worker(ls, formatting, *found)
        return result if isinstance(result, list) else None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def on_symbols(ls: SgcheckServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        found = document(ls, params.text_document.uri)
        if found is None:
            return []
        result = await in_worker(ls, symbols, ls, *found)
        return result if isinstance(result, list) else []

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls: SgcheckServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        found = document(ls, params.text_document.uri)
        if found is None:
            return None
        result = await in_worker(ls, definition, ls, *found, params.position)
        return result if isinstance(result, lsp.Location) else None

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    async def on_semantic_tokens(ls: SgcheckServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
        found = document(ls, params.text_document.uri)
        from sgcheck.project.kinds import Kind, kind_of

        file_kind = kind_of(found[0]) if found is not None else None
        tokens = {Kind.LOG: "log", Kind.CARDS: "sgcard"}  # the languages with a lexer of their own
        kind = tokens.get(file_kind.kind) if file_kind is not None else None
        if found is None or kind is None:
            return lsp.SemanticTokens(data=[])
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(highlighter, semantic_tokens, kind, found[1])
        return lsp.SemanticTokens(data=data)

    @server.feature(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC,
        lsp.DiagnosticOptions(identifier="sgcheck", inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def on_diagnostic(ls: SgcheckServer, params: lsp.DocumentDiagnosticParams) -> lsp.DocumentDiagnosticReport:
        path = _path(params.text_document.uri)
        opened = ls.workspace.text_documents.get(params.text_document.uri)
        if path is None or opened is None or kind_of(path) is None:
            return lsp.RelatedFullDocumentDiagnosticReport(items=[])
        if not ls.in_workspace(path):  # nothing is read outside the workspace folders, pulled or not
            return lsp.RelatedFullDocumentDiagnosticReport(items=[_outside()])
        found, text, texts = await ls.current(path, opened.source)
        return pulled(path, found, text, texts, params.previous_result_id)

    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
    async def on_inlay_hints(ls: SgcheckServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
        found = document(ls, params.text_document.uri)
        if found is None:
            return []
        result = await in_worker(ls, inlay_hints, ls, *found, params.range)
        return result if isinstance(result, list) else []


def main(argv: Any = None) -> None:
    """Serve over standard input and output until the client exits; bad frames are answered and
    skipped (sgcheck.server.frames)."""
    start_io(create_server(), sys.stdin.buffer, sys.stdout.buffer)
