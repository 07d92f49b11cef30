"""Read YAML safely into plain values that remember where they came from.

ruamel.yaml's event parser does the YAML syntax; this module composes the events itself
(iteratively, so 10,000 nested brackets cannot exhaust the stack) into :class:`YNode`
trees holding plain Python values (str, int, float, bool, None, lists, dicts) and their
line:col. Nothing is ever constructed from tags, so loading is safe. Because the
composer sees every anchor and alias it can bound them: a document with too many
aliases, or whose aliases would expand to too many nodes (the "billion laughs" alias
bomb), or that nests too deeply, is refused with a diagnostic before anything walks it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.lang.source import YAML_CARD_LIMIT

YAML_SYNTAX = "SG-P024"
YAML_ALIASES = "SG-P025"
YAML_NESTING = "SG-P026"
YAML_TOO_LARGE = "SG-P029"
#: YAML card files are written by hand; past this size the pure-Python YAML reader takes minutes.
#: Files are refused by the reader before they are read whole (``YAML_CARD_LIMIT``, in bytes,
#: which also bounds characters); this check covers text handed over directly.
MAX_YAML_CHARS = YAML_CARD_LIMIT.max_bytes

MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_EXPANDED_NODES = 200_000

_STANDARD_TAG = "tag:yaml.org,2002:"
_RULES: tuple[str, ...] = ()


@dataclass(slots=True)
class YNode:
    """A YAML node: ``value`` is a scalar, a list of YNodes or a dict of str -> YNode."""

    value: Any
    span: Span
    key_spans: dict[str, Span] = field(default_factory=dict)
    size: int = 1  # nodes under this one once aliases are expanded (itself included)

    @property
    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    @property
    def is_seq(self) -> bool:
        return isinstance(self.value, list)

    def plain(self) -> Any:
        """The value without positions (aliases expand; the size limit keeps that bounded)."""
        if isinstance(self.value, dict):
            return {key: child.plain() for key, child in self.value.items()}
        if isinstance(self.value, list):
            return [child.plain() for child in self.value]
        return self.value

    def locate(self, path: tuple[object, ...]) -> tuple[YNode, Span]:
        """The deepest node along ``path`` (keys and indices) and the span to report for it."""
        node, span = self, self.span
        for step in path:
            if isinstance(node.value, dict) and isinstance(step, str) and step in node.value:
                span = node.key_spans.get(step, span)
                node = node.value[step]
                span = node.span
            elif isinstance(node.value, list) and isinstance(step, int) and 0 <= step < len(node.value):
                node = node.value[step]
                span = node.span
            else:
                break
        return node, span


class _Refused(Exception):
    def __init__(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(code, Severity.ERROR, message, span, _RULES, hint=hint)


def compose(text: str, source: str) -> YNode | Diagnostic:
    """The single document of ``text`` (an empty document is ``None``), or why it cannot be read."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if len(text) > MAX_YAML_CHARS:
        return Diagnostic(
            YAML_TOO_LARGE,
            Severity.ERROR,
            f"the YAML file has {len(text):,} characters, more than the {MAX_YAML_CHARS:,} a YAML card file may have",
            Span.point(source),
            _RULES,
            hint="split it into several card files, or write large packs in the .sgcard language",
        )
    yaml = YAML(typ="safe", pure=True)
    try:
        return _Composer(source, yaml.resolver).run(yaml.parse(io.StringIO(text)))
    except _Refused as refused:
        return refused.diagnostic
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        span = _mark_span(source, mark, mark) if mark is not None else Span.point(source)
        problem = error.problem or error.context or "invalid YAML"
        return Diagnostic(YAML_SYNTAX, Severity.ERROR, f"YAML syntax error: {problem}", span, _RULES)
    except YAMLError as error:  # reader errors (control characters) and the like
        return Diagnostic(
            YAML_SYNTAX, Severity.ERROR, f"cannot read YAML: {_one_line(error)}", Span.point(source), _RULES
        )
    except RecursionError:
        return Diagnostic(YAML_NESTING, Severity.ERROR, "YAML nested too deeply to read", Span.point(source), _RULES)


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())[:200]


def _mark_span(source: str, start: Any, end: Any) -> Span:
    return Span(source, start.line + 1, start.column + 1, end.line + 1, end.column + 1, start.index, end.index)


class _Composer:
    """Turns the event stream into YNodes, enforcing depth, alias and size limits."""

    def __init__(self, source: str, resolver: Any) -> None:
        self.source = source
        self.resolver = resolver
        self.anchors: dict[str, YNode] = {}
        self.open_anchors: set[str] = set()
        self.aliases = 0
        self.expanded = 0

    def run(self, events: Any) -> YNode | Diagnostic:
        from ruamel.yaml import events as ev

        root: YNode | None = None
        documents = 0
        # Each frame: [node, anchor, pending key (maps), its span, keys that came from a '<<' merge]
        stack: list[list[Any]] = []
        for event in events:
            if isinstance(event, ev.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise _Refused(
                        YAML_SYNTAX, "a card file holds one YAML document (found a second '---')", self._span(event)
                    )
                continue
            if isinstance(event, (ev.MappingStartEvent, ev.SequenceStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    raise _Refused(
                        YAML_NESTING,
                        f"YAML nested more than {MAX_DEPTH} levels deep",
                        self._span(event),
                        "cards need only a few levels; this looks like a generated or hostile file",
                    )
                self._check_tag(event, "map" if isinstance(event, ev.MappingStartEvent) else "seq")
                node = YNode({} if isinstance(event, ev.MappingStartEvent) else [], self._span(event))
                if event.anchor:
                    self.open_anchors.add(event.anchor)
                stack.append([node, event.anchor, None, None, set()])
                continue
            if isinstance(event, (ev.MappingEndEvent, ev.SequenceEndEvent)):
                node, anchor, *_ = stack.pop()
                end = event.end_mark
                node.span = Span(
                    self.source,
                    node.span.line,
                    node.span.column,
                    end.line + 1,
                    end.column + 1,
                    node.span.offset,
                    end.index,
                )
                if anchor:
                    self.open_anchors.discard(anchor)
                    self.anchors[anchor] = node
                finished: YNode = node
            elif isinstance(event, ev.ScalarEvent):
                finished = YNode(self._scalar(event), self._span(event))
                if event.anchor:
                    self.anchors[event.anchor] = finished
            elif isinstance(event, ev.AliasEvent):
                finished = self._alias(event)
            else:
                continue  # stream and document boundaries
            if stack:
                self._attach(stack[-1], finished, aliased=isinstance(event, ev.AliasEvent))
            else:
                root = finished
        return root if root is not None else YNode(None, Span.point(self.source))

    def _alias(self, event: Any) -> YNode:
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            raise _Refused(
                YAML_ALIASES,
                f"more than {MAX_ALIASES} YAML aliases",
                self._span(event),
                "aliases are limited so that a small file cannot expand into a huge one",
            )
        if event.anchor in self.open_anchors:
            raise _Refused(YAML_ALIASES, f"alias *{event.anchor} refers to a node that contains it", self._span(event))
        target = self.anchors.get(event.anchor)
        if target is None:
            raise _Refused(
                YAML_SYNTAX, f"alias *{event.anchor} has no anchor &{event.anchor} before it", self._span(event)
            )
        return target

    def _attach(self, frame: list[Any], child: YNode, *, aliased: bool = False) -> None:
        parent: YNode = frame[0]
        parent.size += child.size
        # Each node counts once; an alias counts every node it stands for. (Counting the child's
        # whole subtree at every level counted nodes once per ancestor, refusing large plain files.)
        self.expanded += child.size if aliased else 1
        if self.expanded > MAX_EXPANDED_NODES:
            raise _Refused(
                YAML_ALIASES,
                f"YAML expands to more than {MAX_EXPANDED_NODES} nodes",
                child.span,
                "aliases that refer to aliases multiply; write the values out instead"
                if self.aliases
                else "split the cards into several files listed in the pack's manifest",
            )
        if isinstance(parent.value, list):
            parent.value.append(child)
            return
        if frame[2] is None:  # this child is a key
            if isinstance(child.value, (dict, list)):
                raise _Refused(YAML_SYNTAX, "a mapping key must be a plain word, not a collection", child.span)
            key = (
                "null"
                if child.value is None
                else str(child.value).lower()
                if isinstance(child.value, bool)
                else str(child.value)
            )
            frame[2], frame[3] = key, child.span
            return
        key, key_span = frame[2], frame[3]
        frame[2] = frame[3] = None
        merged: set[str] = frame[4]
        if key == "<<" and isinstance(child.value, (dict, list)):
            self._merge(parent, child, merged)
            return
        if key in parent.value and key not in merged:
            raise _Refused(YAML_SYNTAX, f"key '{key}' appears twice in this mapping", key_span)
        merged.discard(key)  # an explicit key overrides a merged one
        parent.value[key] = child
        parent.key_spans[key] = key_span

    def _merge(self, parent: YNode, child: YNode, merged: set[str]) -> None:
        """``<<: *defaults``: copy keys the mapping does not set itself."""
        sources = child.value if isinstance(child.value, list) else [child]
        for source in sources:
            if not isinstance(source.value, dict):
                raise _Refused(YAML_SYNTAX, "'<<' merges mappings only", source.span)
            for key, value in source.value.items():
                if key not in parent.value:
                    merged.add(key)
                    parent.value[key] = value
                    parent.key_spans[key] = source.key_spans.get(key, source.span)

    def _check_tag(self, event: Any, kind: str) -> None:
        tag = event.tag
        if tag is None or str(tag) in ("!", f"{_STANDARD_TAG}{kind}"):
            return
        raise _Refused(YAML_SYNTAX, f"YAML tag {tag} is not allowed in card files", self._span(event))

    def _scalar(self, event: Any) -> Any:
        from ruamel.yaml.nodes import ScalarNode

        value: str = event.value
        tag = str(event.tag) if event.tag is not None and str(event.tag) != "!" else None
        if tag is None:
            if not event.implicit[0]:
                return value  # quoted: always a string
            tag = str(self.resolver.resolve(ScalarNode, value, (True, False)))
        if not tag.startswith(_STANDARD_TAG):
            raise _Refused(YAML_SYNTAX, f"YAML tag {tag} is not allowed in card files", self._span(event))
        return _convert(tag[len(_STANDARD_TAG) :], value, self._span(event))

    def _span(self, event: Any) -> Span:
        return _mark_span(self.source, event.start_mark, event.end_mark)


class LongNumber(str):
    """An integer written with more digits than any number in a card may have (core/caps.py).

    Kept as its text, never converted (``int()`` refuses 4,300 digits and more, and a huge
    number would break every message that shows it); its ``repr``, which schema messages
    quote, shows only its start. The card loader reports it.
    """

    __slots__ = ()

    @property
    def digits(self) -> int:
        return _digit_count(self.replace("_", ""))

    def __repr__(self) -> str:
        return repr(self[:12] + "…") if len(self) > 12 else super().__repr__()


def _digit_count(digits: str) -> int:
    """Digits of an integer literal, without its sign and its 0x/0o/0b prefix."""
    digits = digits.lstrip("+-")
    if digits[:2].lower() in ("0x", "0o", "0b"):
        digits = digits[2:]
    return len(digits)


def _convert(kind: str, value: str, span: Span) -> Any:
    if kind == "str":
        return value
    if kind == "null":
        return None
    if kind == "merge":
        return value
    if kind == "bool":
        return value.lower() == "true"
    if kind == "int":
        digits = value.replace("_", "")
        if _digit_count(digits) > MAX_NUMBER_DIGITS:
            return LongNumber(value)
        try:
            if digits.lstrip("+-")[:2].lower() in ("0x", "0o", "0b"):
                return int(digits, 0)
            return int(digits, 10)
        except ValueError:
            return value  # e.g. a sexagesimal 1:30 under YAML 1.1; keep the text
    if kind == "float":
        try:
            return float(value.replace("_", "").replace(".inf", "inf").replace(".Inf", "inf").replace(".nan", "nan"))
        except ValueError:
            return value
    raise _Refused(YAML_SYNTAX, f"YAML values of type !!{kind} are not allowed in card files", span)
