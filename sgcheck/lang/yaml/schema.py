"""Validate YAML documents against a JSON Schema and point each error at its YAML line:col.

jsonschema (Draft 2020-12) reports where an error is as a path of keys and indices;
:meth:`YNode.locate` walks that path through the positioned tree, so an error about
``cards[2].effects[0].to_hit`` is reported at the ``to_hit`` value in the file. Messages
are rewritten where jsonschema's own are unhelpful (``oneOf`` failures, unknown keys).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from sgcheck.diagnostics import Span, did_you_mean
from sgcheck.lang.yaml.tree import YNode
from sgcheck.letters import first_foreign, foreign_note

_TYPE_WORDS = {
    "integer": "a whole number",
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "boolean": "true or false",
    "number": "a number",
    "null": "nothing",
}


@cache
def validator(schema_name: str) -> Any:
    """A compiled Draft 2020-12 validator for ``schemas/<schema_name>`` (imported lazily)."""
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

    from sgcheck.resources import schema_path

    schema = json.loads(schema_path(schema_name).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def schema_errors(schema_name: str, data: Any, root: YNode) -> Iterator[tuple[tuple[object, ...], str, Span]]:
    """Each problem as (path, message, span), in document order."""
    found = []
    unknown_key_at: set[tuple[object, ...]] = set()
    for error in validator(schema_name).iter_errors(data):
        path, message, span = explain(error, root)
        if error.validator == "additionalProperties":
            unknown_key_at.add(path)
        found.append((path, message, span, error.validator))
    found.sort(key=lambda item: (item[2].offset, item[1]))
    for path, message, span, kind in found:
        if kind == "oneOf" and path in unknown_key_at:
            continue  # "unknown key 'to_hitt'" already says why no action was found
        yield path, message, span


def explain(error: Any, root: YNode) -> tuple[tuple[object, ...], str, Span]:
    """The path, a readable message and the span of one jsonschema error."""
    error = _most_specific(error)
    path = tuple(error.absolute_path)
    node, span = root.locate(path)
    where = _path_text(path)
    marker = error.schema.get("x-sgcheck") if isinstance(error.schema, dict) else None
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties", {}))
        extra = [key for key in error.instance if key not in allowed]
        key = extra[0] if extra else "?"
        span = node.key_spans.get(key, span)
        also = did_you_mean(key, allowed) or f"; expected one of {', '.join(allowed)}"
        return path, f"{where}: unknown key '{key}'{foreign_note(key)}{also}", _at_foreign(span, key)
    if marker == "one-action" and isinstance(error.instance, dict):
        actions = [next(iter(branch["required"])) for branch in error.schema.get("oneOf", [])]
        present = [key for key in error.instance if key in actions]
        if not present:
            return path, f"{where}: an effect needs one action key ({', '.join(actions)})", span
        return path, f"{where}: an effect has exactly one action, found {', '.join(present)}", span
    if marker == "one-key":
        keys = ", ".join(sorted(error.schema.get("properties", {})))
        return path, f"{where}: a condition is a mapping with exactly one key ({keys})", span
    if error.validator in ("oneOf", "anyOf"):
        written = [k for k in error.instance if isinstance(k, str)] if isinstance(error.instance, dict) else []
        note = next((n for n in map(foreign_note, [error.instance, *written]) if n), "")
        return path, f"{where}: {_alternatives(error)}{note}", span
    if error.validator == "required":
        return path, f"{where}: {error.message.replace('is a required property', 'is missing')}", span
    words = _words(error)
    if words is not None:
        note = f"{_suggestion(error)}{foreign_note(error.instance)}"
        message = f"{where}: {_shown(error.instance)} is not valid here: expected {words}{note}"
        return path, message, _at_foreign(span, error.instance)
    return path, f"{where}: {error.message}{foreign_note(error.instance)}", _at_foreign(span, error.instance)


def _at_foreign(span: Span, written: object) -> Span:
    """The span of the first character outside ASCII in ``written``, when ``span`` holds exactly that
    text on one line (a plain scalar or key); else ``span`` as it is."""
    if not isinstance(written, str) or span.line != span.end_line or span.end_offset - span.offset != len(written):
        return span
    found = first_foreign(written)
    if found is None:
        return span
    at, column = span.offset + found.offset, span.column + found.offset
    return Span(span.source, span.line, column, span.line, column + 1, at, at + 1)


def _words(error: Any) -> str | None:
    """What a pattern stands for, in words (``x-sgcheck-words`` beside it in the schema); jsonschema
    would quote the regular expression."""
    if error.validator != "pattern" or not isinstance(error.schema, dict):
        return None
    words = error.schema.get("x-sgcheck-words")
    return str(words) if words is not None else None


def _suggestion(error: Any) -> str:
    """``; did you mean 'enemy Rook'?`` from the examples of the schema, for a near miss."""
    examples = error.schema.get("examples") if isinstance(error.schema, dict) else None
    if not examples or not isinstance(error.instance, str):
        return ""
    return did_you_mean(error.instance, [str(e) for e in examples])


def _shown(instance: Any) -> str:
    if isinstance(instance, dict):
        return _TYPE_WORDS["object"]
    if isinstance(instance, list):
        return _TYPE_WORDS["array"]
    return repr(instance)[:60]


def _most_specific(error: Any) -> Any:
    """Inside a failed oneOf, the error of the branch that got furthest (if one got further)."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        if isinstance(error.schema, dict) and error.schema.get("x-sgcheck"):
            return error
        deepest = max(error.context, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) <= len(error.absolute_path):
            return error
        error = deepest
    return error


def _alternatives(error: Any) -> str:
    wanted: list[str] = []
    for branch in error.context or ():
        if branch.validator == "type":
            types = branch.validator_value if isinstance(branch.validator_value, list) else [branch.validator_value]
            wanted.extend(_TYPE_WORDS.get(str(t), str(t)) for t in types)
        elif branch.validator == "const":
            wanted.append(repr(branch.validator_value))
        elif branch.validator == "enum":
            wanted.append("one of " + ", ".join(map(str, branch.validator_value)))
        elif _words(branch) is not None:
            wanted.append(str(_words(branch)))
        else:
            wanted.append(branch.message)
    unique = list(dict.fromkeys(wanted))
    return f"{_shown(error.instance)} is not valid here: expected {' or '.join(unique)}"


def _path_text(path: tuple[object, ...]) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or "document"
