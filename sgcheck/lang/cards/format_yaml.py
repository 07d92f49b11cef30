"""``sgcheck fmt`` for YAML card files (``.sgcard.yaml``): one indentation, comments kept.

A YAML card file is data a designer lays out by hand, so its canonical layout changes only what
carries no meaning: the layout of :mod:`sgcheck.lang.yaml.round_trip` (ruamel.yaml's round trip,
shared by every YAML file, which keeps every comment where it was written). Here, the result must
read back as the same cards with the same comments and be its own canonical form, or the file is
left as it is.
"""

from __future__ import annotations

from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.lang.formatting import shape
from sgcheck.lang.yaml.round_trip import COMMENT, comment_not_kept, lost_comment, round_trip

__all__ = ["YamlFormatError", "format_yaml_text"]


class YamlFormatError(Exception):
    """The rewritten text would not read back as the same cards and comments, or is not stable: never written."""


def format_yaml_text(text: str, name: str = "<cards.yaml>") -> str | list[Diagnostic]:
    """``text`` (LF line breaks, no BOM) in the canonical layout; or the findings that leave the
    file as it is: the errors that keep it from reading, or a comment the rewriting would lose
    (SG-P039). Raises :class:`YamlFormatError` if the rewritten text would read differently."""
    from sgcheck.lang.cards.yaml_loader import load_card_yaml

    loaded = load_card_yaml(text, name)  # the limits on size, nesting and aliases apply first
    errors = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
    if errors:
        return errors
    formatted = round_trip(text)
    if formatted == text:
        return text
    again = load_card_yaml(formatted, name)
    if any(d.severity is Severity.ERROR for d in again.diagnostics) or shape(again.cards) != shape(loaded.cards):
        raise YamlFormatError("the rewritten YAML reads as different cards")
    lost = lost_comment(text, formatted)
    if lost is not None:
        return [comment_not_kept(text, name, lost)]
    if sorted(COMMENT.findall(formatted)) != sorted(COMMENT.findall(text)):
        raise YamlFormatError("the rewritten YAML would have comments the file does not have")
    if round_trip(formatted) != formatted:
        raise YamlFormatError("the rewritten YAML is not stable")
    return formatted
