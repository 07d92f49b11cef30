"""Replays read by the grammar alone, to hold the line reader to.

The line reader (sgcheck.lang.logs.reader) is the one reader of turns replay uses; the grammar
(grammar/sglog.lark) is the reference for the syntax. ``by_grammar`` replays a log read by the
grammar from its first character to its last (every turn its syntax tree), so a test can require
the same findings, positions and state as the ordinary replay.
"""

from __future__ import annotations

from sgcheck.lang.logs.grammar import grammar_items
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source


def by_grammar(text: str, name: str, options: ReplayOptions | None = None, folder: str | None = None) -> ReplayResult:
    """The replay of ``text`` as the grammar reads it (``replay_text``'s, but not the line reader's)."""
    return replay_source(SourceText(name, text), options or ReplayOptions(), folder=folder, read=grammar_items)


def source_by_grammar(
    source: SourceText, options: ReplayOptions | None = None, folder: str | None = None
) -> ReplayResult:
    """:func:`by_grammar` for a decoded log."""
    return replay_source(source, options or ReplayOptions(), folder=folder, read=grammar_items)
