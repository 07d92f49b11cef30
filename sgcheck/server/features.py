"""The language server's answers besides diagnostics: hover, completion, code actions, formatting,
go to definition, document symbols and inlay hints. Each one asks the library (replay resumed
from the document's checkpoints, the legal-action listing of the core, the card grammar's words,
the fixes the findings carry, ``fmt``) and converts its answer to LSP's terms.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from lsprotocol import types as lsp

from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.reader import PlainTurn, TurnStep
from sgcheck.project.kinds import Kind, is_kind
from sgcheck.project.kinds import kind_of as kind_of_file
from sgcheck.replay.observer import GO, STOP, Flow, ReplayObserver
from sgcheck.replay.timeline import Recording
from sgcheck.server.analysis import CARDS, LOG, kind_of
from sgcheck.server.convert import Lines, uri_of

if TYPE_CHECKING:
    from sgcheck.core.cards.model import Card
    from sgcheck.replay.options import ReplayResult
    from sgcheck.server.analysis import Found, LogMemory


class Settings(Protocol):
    inlay_hints: bool


class Document(Protocol):
    memory: LogMemory
    found: Found | None
    text: str  # the text ``found`` is about


class SgcheckServer(Protocol):
    """What the answers read of the server (sgcheck.server.app): its documents and settings."""

    @property
    def documents(self) -> Mapping[str, Document]: ...

    @property
    def settings(self) -> Settings: ...

    def text_of(self, path: str) -> str | None: ...

    def open_texts(self) -> dict[str, str]: ...


_CODE = re.compile(r"\bSG-[A-Z]\d{3}\b")
_CARD_NAME = re.compile(r'"((?:[^"\\]|\\.)*)"')
_TURN_HEAD = re.compile(r"^\s*(\d+)\s*(\.\.\.|\.)", re.MULTILINE)


# --- positions in a log, from a replay resumed near them ------------------------------------------


class _Explain(Recording):
    """The explanation of the statements of one line; stops the replay once past it."""

    def __init__(self, line: int) -> None:
        super().__init__(keep_line=line)
        self.line = line
        self.past = False

    def step_begins(self) -> Flow:
        if self.past:
            return STOP
        return super().step_begins()

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        flow = super().statement_played(turn, step, before, state, findings)
        self.past = turn.statement(step).span.line >= self.line
        return flow

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        flow = super().turn_ended(turn, passes, state)
        self.past = self.past or turn.tree().span.end_line >= self.line
        return flow


class _StateAt(ReplayObserver):
    """The position in force at the start of a line: after every step written before it."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.state: GameState | None = None
        self.after: tuple[int, GameState] | None = None  # the last step's line and position, LP/SP hints
        self.totals: dict[int, GameState] = {}
        self.ended: GameState | None = None  # the position after the last turn's end, if it ended

    def at_cursor(self, new_turn: bool) -> GameState | None:
        """The position a statement written at the cursor is played from: after the last turn's
        end when a new turn starts there, else inside the last turn."""
        return self.ended if new_turn and self.ended is not None else self.state

    def started(self, state: GameState, line: int) -> Flow:
        self.state = state
        return GO

    def label_played(self, line: int, state: GameState | None) -> Flow:
        return self._seen(line, state)

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        line = turn.statement(step).span.line
        if self._seen(line, state) is STOP:
            return STOP
        if state is not None:
            self.totals[line] = state
        return GO

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        if turn.tree().span.end_line >= self.line:
            return STOP
        self.ended = state  # the next player's Upkeep; the turn itself may go on at the cursor
        return GO

    def _seen(self, line: int, state: GameState | None) -> Flow:
        """A step on ``line`` reached ``state``: kept, unless the line is the cursor's or after it
        (the replay stops there)."""
        if line >= self.line:
            return STOP
        if state is not None:
            self.state, self.ended = state, None
        return GO


def _replay_to(server: SgcheckServer, path: str, text: str, line: int, observer: ReplayObserver) -> ReplayResult | None:
    """Replay the log up to ``line`` from the last checkpoint before it, telling ``observer``."""
    from sgcheck.lang.source import LOG_LIMIT, decode, overlaid
    from sgcheck.replay.resume import first_change, replay_kept, usable
    from sgcheck.server.analysis import project_for, replay_options, shown_path

    document = server.documents.get(path)
    shown = shown_path(path)
    options, _ = replay_options(project_for(path).settings)
    source = decode(text.encode("utf-8", "replace"), shown, limit=LOG_LIMIT)
    if isinstance(source, Diagnostic):
        return None
    start = None
    if document is not None and document.memory.key is not None and document.memory.key[0] == options:
        _, valid = usable(document.memory.checkpoints, first_change(document.memory.text, text))
        before = [point for point in valid if point.line <= line]
        start = before[-1] if before else None
    with overlaid(server.open_texts()):
        try:
            result, _ = replay_kept(
                source, options, folder=os.path.dirname(shown) or ".", start=start, observer=observer
            )
        except (Exception, RecursionError):
            return None
    return result


# --- hover ------------------------------------------------------------------------------------------


def _code_hover(word: str) -> str | None:
    from sgcheck.report.catalogue_pages import all_codes

    found = all_codes().get(word)
    if found is None:
        return None
    rules = f"\n\nrules: {', '.join(found.rules)}" if found.rules else ""
    return f"**{found.code}** {found.name} ({found.severity.value}){rules}\n\n{found.explanation}"


def _log_hover(server: SgcheckServer, path: str, text: str, line: int) -> str | None:
    from sgcheck.report.replay_text import explained_text

    observer = _Explain(line)
    _replay_to(server, path, text, line, observer)
    if not observer.kept:
        return None
    return "```\n" + explained_text(observer.kept, f"line {line}") + "```"


def _card_hover(server: SgcheckServer, path: str, line: int) -> str | None:
    document = server.documents.get(path)
    if document is None or document.found is None:
        return None
    from sgcheck.contract.checker import read_cards
    from sgcheck.contract.packs import CardSource
    from sgcheck.lang.cards.writer import card_text
    from sgcheck.lang.source import overlaid
    from sgcheck.server.analysis import shown_path

    shown = shown_path(path)
    with overlaid(server.open_texts()):
        card_file, _ = read_cards(CardSource(Path(path), shown), {})
    for card in card_file.cards:
        if card.span.line <= line <= card.span.end_line:
            findings = [
                d
                for d in document.found.findings.get(path, [])
                if d.span is not None and card.span.line <= d.span.line <= card.span.end_line
            ]
            lines = [f"**{card.name}**", "", "```", card_text(card).rstrip(), "```"]
            if findings:
                lines += ["", "Contract findings (core §8):"]
                lines += [f"- {d.code} {d.severity.value}: {d.message}" for d in findings]
            else:
                lines += ["", "No contract finding (core §8)."]
            return "\n".join(lines)
    return None


def hover(server: SgcheckServer, path: str, text: str, position: lsp.Position) -> lsp.Hover | None:
    lines = Lines(text)
    row = lines.line(position.line)
    column = lines.character(position)
    for match in _CODE.finditer(row):
        if match.start() <= column <= match.end():
            shown = _code_hover(match.group())
            if shown is not None:
                return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, shown))
    kind = kind_of(path)
    shown = None
    if kind == LOG:
        shown = _log_hover(server, path, text, position.line + 1)
    elif kind == CARDS:
        shown = _card_hover(server, path, position.line + 1)
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, shown)) if shown else None


# --- completion -------------------------------------------------------------------------------------


#: The terminals of the log grammar that start a statement.
_STATEMENT_WORDS = frozenset(
    {"SUMMON", "MOVE", "ATTACK", "CONVERT", "TELEPORT", "BREAK", "REPAIR"}
    | {"ACTIVATE", "PLAY", "REVEAL", "PASS", "INCOME"}
)
_TURN_START = re.compile(r"[ \t]*[0-9]+\.")


def in_comment_or_name(text: str, offset: int) -> bool:
    """Whether ``offset`` of a log is inside a comment (``; …`` or an open ``{ …``) or a quoted
    name: nothing of the language is written there."""
    opened = text.rfind("{", 0, offset)
    if opened > text.rfind("}", 0, offset) and _line_state(text, opened) == "code":
        return True
    return _line_state(text, offset) != "code"


def _line_state(text: str, offset: int) -> str:
    """What ``offset`` is in, reading its line from its start: "code", "comment" or "name"."""
    at = text.rfind("\n", 0, offset) + 1
    quoted = False
    while at < offset:
        char = text[at]
        if quoted and char == "\\":
            at += 2
            continue
        if char == '"':
            quoted = not quoted
        elif char == ";" and not quoted:
            return "comment"
        at += 1
    return "name" if quoted else "code"


def _typed_start(text: str, end: int) -> int:
    """Where the word being typed before ``end`` begins (completion replaces it)."""
    start = end
    while start > 0 and (text[start - 1].isascii() and (text[start - 1].isalnum() or text[start - 1] in "_-")):
        start -= 1
    return start


def _turn_start(text: str, end: int) -> int | None:
    """The offset of the header of the turn ``end`` is in (a line starting ``12.``), None before any."""
    at = end
    while True:
        line_start = text.rfind("\n", 0, at) + 1
        found = _TURN_START.match(text, line_start)
        if found is not None and found.end() <= end:
            return line_start + len(found.group()) - len(found.group().lstrip())
        if line_start == 0:
            return None
        at = line_start - 1


@dataclass(frozen=True, slots=True)
class Cut:
    """Where the statement written at a log's cursor starts (``at``: the text before it is what is
    played first), whether it opens a turn, and the text a completion replaces (``replace``, to
    the cursor)."""

    at: int
    new_turn: bool
    replace: int


def cursor_cut(text: str, offset: int) -> Cut | None:
    """Where the statement written at ``offset`` of a log starts, read from the text itself. None
    before the first turn.

    The current turn, up to the word being typed, is read by the log grammar's parser: where it
    accepts a new statement (after ``main1:``, after a whole statement), the cut is there; where it
    is inside a statement (``summon R``), the cut is before that statement's word."""
    from sgcheck.lang.logs.grammar import accepted_after

    end = _typed_start(text, offset)
    head = _turn_start(text, end)
    if head is None:
        return None
    tokens, accepted = accepted_after(text[head:end])
    after_header = head + len(tokens[0].value) if tokens and tokens[0].type == "TURN" else end
    if len(tokens) <= 1:
        return Cut(head, True, min(after_header, end))
    if accepted & _STATEMENT_WORDS:
        return Cut(end, False, end)
    for index in range(len(tokens) - 1, 0, -1):
        token = tokens[index]
        if token.type in _STATEMENT_WORDS:
            if index == 1:  # the turn's first statement, before any label
                return Cut(head, True, after_header)
            return Cut(head + (token.start_pos or 0), False, head + (token.start_pos or 0))
        if token.type == "PHASE":
            return Cut(head + (token.end_pos or 0), False, end)
    return Cut(head, True, min(after_header, end))


def _legal_items(state: GameState, *, first_of_turn: bool = False) -> list[lsp.CompletionItem]:
    """The legal actions at ``state`` as log statements with their claims (the core's listing).
    The first statement of a turn is inserted after its phase label (a statement before any
    label is SG-T107)."""
    import random

    from sgcheck.core import engine
    from sgcheck.core.actions import EndTurn, EnterPhase
    from sgcheck.core.legal import legal_actions, with_roll
    from sgcheck.core.outcome import Applied
    from sgcheck.core.rolls import roll_of
    from sgcheck.lang.logs.from_actions import Claims, claims_for, statement_for
    from sgcheck.lang.logs.vocab import PHASES
    from sgcheck.lang.logs.writer import format_statement

    items: list[lsp.CompletionItem] = []
    rng = random.Random(0)
    phase = next(word for word, phase in PHASES.items() if phase is state.turn.phase)
    where = f"legal in {phase}"
    label = f"{phase}: " if first_of_turn else ""
    if first_of_turn:  # a turn's first word is its phase label
        items.append(lsp.CompletionItem(f"{phase}:", kind=lsp.CompletionItemKind.Keyword, detail="the turn's phase"))
    for action in legal_actions(state):
        if isinstance(action, EnterPhase):
            word = next(word for word, phase in PHASES.items() if phase is action.phase) + ":"
            items.append(lsp.CompletionItem(word, kind=lsp.CompletionItemKind.Keyword, detail="enter the phase"))
            continue
        if isinstance(action, EndTurn):
            ended = engine.apply(state, action)
            if not isinstance(ended, Applied) or not ended.effects.passed:
                continue  # a turn with actions ends at the next turn's header: 'pass' is a Pass (R04)
            items.append(
                lsp.CompletionItem(
                    "pass",
                    kind=lsp.CompletionItemKind.Keyword,
                    detail="a Pass: the turn ends without an action (R04)",
                    insert_text=label + "pass",
                )
            )
            continue
        kind = roll_of(action)  # the dice are the player's: lowest faces stand for them (core/rolls.py)
        dice = kind is not None
        placeholder = (kind.lowest,) * kind.count if kind is not None else ()
        played = with_roll(action, placeholder) if dice else action
        step = engine.apply(state, played)
        if not isinstance(step, Applied):
            continue
        claims = claims_for(played, step.effects, step.state, state.to_move, Claims.ALL, rng)
        if dice:  # the dice are the player's: only what does not depend on them
            claims = tuple(c for c in claims if c.kind.name in ("COST", "THRESHOLD"))
        try:
            written = format_statement(statement_for(state, played, claims), dice=not dice)
        except (ValueError, TypeError):
            continue
        items.append(
            lsp.CompletionItem(written, kind=lsp.CompletionItemKind.Snippet, detail=where, insert_text=label + written)
        )
    return items


def _card_word_items(text: str) -> list[lsp.CompletionItem]:
    """The words of the card language that can follow the text before the cursor (Lark's
    interactive parser: :mod:`sgcheck.lang.cards.completion`)."""
    from sgcheck.lang.cards.completion import words_after

    return [
        lsp.CompletionItem(found.word, kind=lsp.CompletionItemKind.Keyword, detail=found.detail)
        for found in words_after(text)
    ]


def completion(server: SgcheckServer, path: str, text: str, position: lsp.Position) -> list[lsp.CompletionItem]:
    lines = Lines(text)
    row = lines.line(position.line)[: lines.character(position)]
    kind = kind_of(path)
    if kind == LOG:
        document = server.documents.get(path)
        replay = document.found.replay if document is not None and document.found is not None else None
        if (
            re.search(r'\b(play|activate|draft\s+\w+.*)\s+"[^"]*$', row)
            and replay is not None
            and replay.pack is not None
        ):
            return [lsp.CompletionItem(card.name, kind=lsp.CompletionItemKind.Value) for card in replay.pack.cards]
        offset = lines.offset(position)
        if in_comment_or_name(text, offset):
            return []
        cut = cursor_cut(text, offset)
        if cut is None:  # before the first turn's header: no statement can be written there
            return []
        before = text[: cut.at]
        observer = _StateAt(before.count("\n") + 2)
        _replay_to(server, path, before, before.count("\n") + 2, observer)
        state = observer.at_cursor(new_turn=cut.new_turn)
        if state is None:
            return []
        items = _legal_items(state, first_of_turn=cut.new_turn)
        replaced = lsp.Range(lines.position_of(min(cut.replace, offset)), position)
        for item in items:
            item.text_edit = lsp.TextEdit(replaced, item.insert_text or item.label)
        return items
    name = os.path.basename(path).lower()
    if kind == CARDS and is_kind(name, Kind.CARDS):
        return _card_word_items(text[: lines.offset(position)])
    if kind == CARDS:
        return [lsp.CompletionItem(key, kind=lsp.CompletionItemKind.Property) for key in _schema_keys(name)]
    return []


def _schema_keys(name: str) -> list[str]:
    """The property names of the JSON Schema of a YAML file of this name (schemas/)."""
    import json

    from sgcheck.resources import schema_path

    file_kind = kind_of_file(name)
    schemas = {Kind.MANIFEST: "pack.schema.json", Kind.SCENARIO: "scenario.schema.json"}
    schema = schemas.get(file_kind.kind, "card.schema.json") if file_kind is not None else "card.schema.json"
    found: dict[str, None] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                found.update(dict.fromkeys(properties))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(schema_path(schema).read_text(encoding="utf-8")))
    return list(found)


# --- code actions, formatting -------------------------------------------------------------------------


def _wanted(params: lsp.CodeActionParams, kind: str) -> bool:
    """Whether the client asks for actions of ``kind`` (``context.only``: kinds and their parents)."""
    only = params.context.only
    return only is None or any(kind == str(k) or kind.startswith(f"{k}.") for k in only)


def fix_all(server: SgcheckServer, path: str, text: str, uri: str) -> lsp.CodeAction | None:
    """Every safe fix of the document's findings at once (``source.fixAll``), applied as
    ``sgcheck check --fix`` applies them (of fixes that overlap, the first in the text). None
    when there is none, or when the findings are of another version of the text."""
    from sgcheck.contract.card_edits import apply_edits, edits_of
    from sgcheck.server.analysis import shown_path

    document = server.documents.get(path)
    if document is None or document.found is None or document.text != text:
        return None
    edits = [edit for edit in edits_of(document.found.findings.get(path, []), shown_path(path)) if edit.safe]
    fixed, applied = apply_edits(text, edits)
    if not applied or fixed == text:
        return None
    lines = Lines(text)
    codes = sorted({edit.code for edit in applied})
    return lsp.CodeAction(
        title=f"Apply every safe fix ({len(applied)}: {', '.join(codes)})",
        kind=lsp.CodeActionKind.SourceFixAll,
        edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lines.end()), fixed)]}),
    )


def code_actions(server: SgcheckServer, path: str, text: str, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    lines = Lines(text)
    uri = params.text_document.uri
    document = server.documents.get(path)
    actions: list[lsp.CodeAction] = []
    if _wanted(params, lsp.CodeActionKind.SourceFixAll):
        every = fix_all(server, path, text, uri)
        if every is not None:
            actions.append(every)
    if params.context.only is not None and not _wanted(params, lsp.CodeActionKind.QuickFix):
        return actions + _fill_action(path, text, uri, lines, params)
    findings = document.found.findings.get(path, []) if document is not None and document.found is not None else []
    wanted = params.range
    for finding in findings:
        fix, span = finding.fix, finding.span
        if fix is None or fix.replacement is None or fix.span is None or span is None:
            continue
        if os.path.abspath(fix.span.source) != path:
            continue
        shown = lines.span_range(span)
        if shown.end.line < wanted.start.line or shown.start.line > wanted.end.line:
            continue
        edit = lsp.TextEdit(lines.span_range(fix.span), fix.replacement)
        actions.append(
            lsp.CodeAction(
                title=f"{finding.code}: {fix.description}" + ("" if fix.safe or kind_of(path) == LOG else " (unsafe)"),
                kind=lsp.CodeActionKind.QuickFix,
                is_preferred=fix.safe,
                edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
            )
        )
    return actions + _fill_action(path, text, uri, lines, params)


def _fill_action(path: str, text: str, uri: str, lines: Lines, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """In a log: "Fill in the claims from replay" (``sgcheck fmt --fill-claims``), a source action."""
    if kind_of(path) != LOG or not _wanted(params, lsp.CodeActionKind.Source):
        return []
    filled = _filled(path, text)
    if filled is None or filled == text:
        return []
    edit = lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lines.end()), filled)
    return [
        lsp.CodeAction(
            title="Fill in the claims from replay (sgcheck fmt --fill-claims)",
            kind=lsp.CodeActionKind.Source,
            edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
        )
    ]


def _filled(path: str, text: str) -> str | None:
    from sgcheck.lang.source import SourceText
    from sgcheck.replay.fill_log import fill_text
    from sgcheck.server.analysis import shown_path

    shown = shown_path(path)
    try:
        filled = fill_text(SourceText(shown, text), folder=os.path.dirname(shown) or ".")
    except (Exception, RecursionError):
        return None
    return getattr(filled, "text", None)


def formatting(path: str, text: str) -> list[lsp.TextEdit] | None:
    """The whole document in the canonical layout (``sgcheck fmt``), or None when it cannot be
    formatted (a syntax error: the diagnostics say where)."""
    from sgcheck.lang.format_files import format_bytes
    from sgcheck.lang.format_files import kind_of as format_kind
    from sgcheck.server.analysis import shown_path

    kind = format_kind(os.path.basename(path))
    if kind is None:
        return None
    data = text.encode("utf-8", "replace")
    formatted = format_bytes(data, shown_path(path), kind)
    try:
        if formatted.problems or formatted.internal is not None or not formatted.changed:
            return [] if not formatted.problems and formatted.internal is None else None
        new = formatted.data.decode("utf-8")
    finally:
        formatted.close()
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), Lines(text).end()), new)]


# --- symbols, definition, inlay hints --------------------------------------------------------------


def symbols(server: SgcheckServer, path: str, text: str) -> list[lsp.DocumentSymbol]:
    lines = Lines(text)
    found: list[lsp.DocumentSymbol] = []
    if kind_of(path) == LOG:
        heads = [(m.start(), m.group(1), m.group(2)) for m in _TURN_HEAD.finditer(text)]
        for index, (start, number, dots) in enumerate(heads):
            first = text.count("\n", 0, start)
            end = text.count("\n", 0, heads[index + 1][0]) - 1 if index + 1 < len(heads) else len(lines.lines) - 1
            end = max(end, first)
            side = "White" if dots == "." else "Black"
            whole = lsp.Range(lsp.Position(first, 0), lsp.Position(end, len(lines.line(end))))
            head = lsp.Range(lsp.Position(first, 0), lsp.Position(first, len(lines.line(first))))
            found.append(lsp.DocumentSymbol(f"{number}{dots} {side}", lsp.SymbolKind.Event, whole, head))
        return found
    for card in _cards_of(server, path):
        span = card.span
        whole = lines.span_range(span)
        found.append(lsp.DocumentSymbol(card.name, lsp.SymbolKind.Class, whole, whole, detail=card.kind.value))
    return found


def _cards_of(server: SgcheckServer, path: str) -> list[Card]:
    from sgcheck.contract.checker import read_cards
    from sgcheck.contract.packs import CardSource
    from sgcheck.lang.source import overlaid
    from sgcheck.server.analysis import shown_path

    if not is_kind(path, Kind.CARDS, Kind.YAML_CARDS):
        return []
    with overlaid(server.open_texts()):
        card_file, _ = read_cards(CardSource(Path(path), shown_path(path)), {})
    return list(card_file.cards)


def definition(server: SgcheckServer, path: str, text: str, position: lsp.Position) -> lsp.Location | None:
    """A card name in a log: where the card of the log's pack is written."""
    if kind_of(path) != LOG:
        return None
    lines = Lines(text)
    row = lines.line(position.line)
    column = lines.character(position)
    name = next((m.group(1) for m in _CARD_NAME.finditer(row) if m.start() <= column <= m.end()), None)
    document = server.documents.get(path)
    replay = document.found.replay if document is not None and document.found is not None else None
    if name is None or replay is None or replay.pack is None:
        return None
    card = next((card for card in replay.pack.cards if card.name == name), None)
    if card is None:
        return None
    target = card.span.source
    other = server.text_of(os.path.abspath(target))
    if other is None:
        try:
            with open(target, encoding="utf-8", errors="replace") as handle:
                other = handle.read()
        except OSError:
            return None
    return lsp.Location(uri_of(target), Lines(other).span_range(card.span))


def inlay_hints(server: SgcheckServer, path: str, text: str, wanted: lsp.Range) -> list[lsp.InlayHint]:
    """``lp 12 sp 3`` after each statement of the range that claims neither (computed by replay)."""
    if kind_of(path) != LOG or not server.settings.inlay_hints:
        return []
    observer = _StateAt(wanted.end.line + 2)
    _replay_to(server, path, text, wanted.start.line + 1, observer)  # from the checkpoint before the range
    lines = Lines(text)
    hints: list[lsp.InlayHint] = []
    for line, state in sorted(observer.totals.items()):
        if not wanted.start.line <= line - 1 <= wanted.end.line:
            continue
        row = lines.line(line - 1).split(";")[0]
        if re.search(r"\b(lp|sp)\b", row, re.IGNORECASE):
            continue
        mover = state.players
        label = f" W {mover[0].lp}/{mover[0].sp} · B {mover[1].lp}/{mover[1].sp}"
        hints.append(
            lsp.InlayHint(
                lsp.Position(line - 1, len(row.rstrip())), label, kind=lsp.InlayHintKind.Parameter, padding_left=True
            )
        )
    return hints
