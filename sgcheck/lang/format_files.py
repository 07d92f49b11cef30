"""Format one input's bytes: what ``sgcheck fmt`` does per file (:mod:`sgcheck.lang.rewrite` writes it).

The text is read as every input is (:mod:`sgcheck.lang.source`: bounded, BOM and line ends
normalised, binary and non-UTF-8 input refused), formatted by the language's formatter, and
written back in the file's own conventions: the line break of its first line (LF, CRLF or a
lone CR) for every line, and its UTF-8 byte-order mark kept if it had one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.source import CARD_LIMIT, LOG_LIMIT, MAX_LINE_CHARS, YAML_CARD_LIMIT, InputLimit, decode
from sgcheck.letters import ascii_lower

__all__ = ["Formatted", "Kind", "encode_like", "format_bytes", "kind_of", "limit_of"]

BOM = b"\xef\xbb\xbf"


class Kind(StrEnum):
    LOG = "log"
    CARDS = "cards"
    YAML_CARDS = "yaml cards"


def kind_of(name: str) -> Kind | None:
    """What a file name says it holds: a log (``.sglog``), cards (``.sgcard``), YAML cards
    (``.sgcard.yaml``, ``.sgcard.yml``), or none of them."""
    lower = ascii_lower(name)
    if lower.endswith(".sglog"):
        return Kind.LOG
    if lower.endswith(".sgcard"):
        return Kind.CARDS
    if lower.endswith((".sgcard.yaml", ".sgcard.yml")):
        return Kind.YAML_CARDS
    return None


def limit_of(kind: Kind) -> InputLimit:
    return {Kind.LOG: LOG_LIMIT, Kind.CARDS: CARD_LIMIT, Kind.YAML_CARDS: YAML_CARD_LIMIT}[kind]


@dataclass(frozen=True, slots=True)
class Formatted:
    """The outcome for one input: its text before and after (LF), the bytes to write, or why not.

    ``problems`` holds the syntax errors (or reading errors) that keep the file as it is;
    ``internal`` is set when the formatter failed on the input (a fault of sgcheck).
    """

    name: str
    before: str = ""
    after: str = ""
    data: bytes = b""
    changed: bool = False
    problems: tuple[Diagnostic, ...] = ()
    internal: str | None = None


def _line_break(data: bytes) -> str:
    """The line break of the first line: CRLF, a lone CR, or LF (also for a file without any)."""
    lf, cr = data.find(b"\n"), data.find(b"\r")
    if cr >= 0 and (lf < 0 or cr < lf):
        return "\r\n" if data[cr + 1 : cr + 2] == b"\n" else "\r"
    return "\n"


def encode_like(text: str, original: bytes) -> bytes:
    """``text`` (LF line breaks) as the bytes of a file written like ``original``: its first line
    break for every line, and its byte-order mark if it had one."""
    out = text.replace("\n", _line_break(original)).encode("utf-8") if text else b""
    return BOM + out if original.startswith(BOM) else out


def format_bytes(data: bytes, name: str, kind: Kind) -> Formatted:
    """Format the bytes of one input; never raises for any input."""
    read = decode(data, name, limit=limit_of(kind))
    if isinstance(read, Diagnostic):
        return Formatted(name, problems=(read.at(read.span or Span.point(name)),))
    text = read.text
    try:
        formatted = _format_text(text, name, kind)
    except (RecursionError, MemoryError) as error:
        return Formatted(name, before=text, internal=f"{type(error).__name__}")
    if isinstance(formatted, tuple):
        return Formatted(name, before=text, problems=formatted)
    if isinstance(formatted, _Failed):
        return Formatted(name, before=text, internal=formatted.reason)
    long_line = next((n for n, line in enumerate(formatted.split("\n"), 1) if len(line) > MAX_LINE_CHARS), None)
    if long_line is not None:
        problem = codes.diagnostic(
            "SG-P011",
            f"not formatted: line {long_line} would be longer than {MAX_LINE_CHARS:,} characters",
        ).at(Span.point(name))
        return Formatted(name, before=text, problems=(problem,))
    out = encode_like(formatted, data)
    return Formatted(name, text, formatted, out, out != data)


@dataclass(frozen=True, slots=True)
class _Failed:
    reason: str


def _format_text(text: str, name: str, kind: Kind) -> str | tuple[Diagnostic, ...] | _Failed:
    """The formatted text, the syntax errors, or what went wrong in the formatter."""
    if kind is Kind.LOG:
        from sgcheck.lang.logs.format_logs import FormatError, format_log_text
        from sgcheck.lang.logs.grammar import LogSyntaxError

        try:
            return format_log_text(text, name)
        except LogSyntaxError as error:
            return (error.diagnostic,)
        except (FormatError, ValueError, TypeError) as error:
            return _Failed(str(error))
    from sgcheck.lang.cards.format_cards import CardFormatError, format_card_text
    from sgcheck.lang.cards.format_yaml import YamlFormatError, format_yaml_text

    try:
        done = format_yaml_text(text, name) if kind is Kind.YAML_CARDS else format_card_text(text, name)
    except (CardFormatError, YamlFormatError, ValueError, TypeError) as error:
        return _Failed(str(error))
    return tuple(done) if isinstance(done, list) else done

