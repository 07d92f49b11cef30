"""The canonical layout of a YAML file: ruamel.yaml's round trip, every comment kept.

Block mappings are indented by two spaces, sequence items by four with the dash at two (the
layout of the shipped examples and of ``sgcheck.lang.cards.writer``), no trailing spaces, no line
folded. Keys keep their order, scalars their quoting and flow collections (``cost: {SP: 6}``) stay
flow, except that a text with a line ending in a blank is written as a double-quoted scalar (a
block scalar would keep the blank as trailing space, which the layout removes and which would
change the text). What the rewritten text must read back as is each language's to say
(:mod:`sgcheck.lang.cards.format_yaml` for card files); :func:`lost_comment` finds a comment the
round trip would lose (inside a flow collection), reported as SG-P039 by :func:`comment_not_kept`.
"""

from __future__ import annotations

import io
import re
from collections import Counter

from sgcheck.codes import diagnostic
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.source import SourceText

__all__ = ["COMMENT", "comment_not_kept", "lost_comment", "round_trip"]

#: A ``#`` that starts a comment: at the start of a line or after a blank (a ``#`` inside a word
#: or a quoted scalar does not). Counted the same way before and after, to prove none was lost.
COMMENT = re.compile(r"(?:^|(?<=\s))#[^\n]*+", re.MULTILINE)


def lost_comment(text: str, formatted: str) -> re.Match[str] | None:
    """The first comment of ``text`` that ``formatted`` does not have (as many times); None if none."""
    kept = Counter(COMMENT.findall(formatted))
    for comment in COMMENT.finditer(text):
        if kept[comment.group()] > 0:
            kept[comment.group()] -= 1
        else:
            return comment
    return None


def comment_not_kept(text: str, name: str, comment: re.Match[str]) -> Diagnostic:
    """SG-P039 at the comment the round trip would lose (a comment inside a flow collection)."""
    line, column = SourceText(name, text).position(comment.start())
    span = Span(name, line, column, line, column + len(comment.group()), comment.start(), comment.end())
    message = (
        "not formatted: rewriting the file would lose this comment "
        "(the YAML library keeps no comment inside a flow collection, {...} or [...], "
        "nor after the | or > of a text that must be rewritten in double quotes)"
    )
    return diagnostic("SG-P039", message).at(span, "move it after the collection")


def _starts_explicitly(text: str) -> bool:
    """The document opens with ``---`` (after any comments): kept."""
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("---")
    return False


def _has_trailing_blank(value: str) -> bool:
    """A line of ``value`` ends in a space or a tab: written as a block scalar, that blank would be
    trailing space on its line."""
    return any(line.endswith((" ", "\t")) for line in value.split("\n"))


def _quote_trailing_blanks(node: object) -> None:
    """Every text of ``node`` with a line ending in a blank, double-quoted: the one style that
    spells such a text on lines of its own without trailing space (``"a \\nb"``), so the layout's
    removal of trailing spaces can never change a value. One walk of the loaded document."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            for key, value in current.items():
                if isinstance(value, str):
                    if _has_trailing_blank(value) and not isinstance(value, DoubleQuotedScalarString):
                        current[key] = DoubleQuotedScalarString(value)
                else:
                    stack.append(value)
        elif isinstance(current, list):
            for index, value in enumerate(current):
                if isinstance(value, str):
                    if _has_trailing_blank(value) and not isinstance(value, DoubleQuotedScalarString):
                        current[index] = DoubleQuotedScalarString(value)
                else:
                    stack.append(value)


def round_trip(text: str) -> str:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 1 << 20  # never fold a line
    yaml.preserve_quotes = True
    yaml.explicit_start = _starts_explicitly(text)
    data = yaml.load(text)
    if data is None:  # an empty document stays as it is
        return text
    _quote_trailing_blanks(data)
    out = io.StringIO()
    yaml.dump(data, out)
    return "\n".join(line.rstrip() for line in out.getvalue().split("\n"))
