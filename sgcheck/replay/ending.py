"""The end of a replay: what the watch left to report, a log with no game, the result lines and
the [Result] tag (SG-R210), and the notes on errors that later findings follow from (SG-N306).

Each function takes the :class:`~sgcheck.replay.session.Session` that was fed the log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from sgcheck.codes import diagnostic
from sgcheck.core.pieces import Color
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Span, listing
from sgcheck.replay.chain import in_order
from sgcheck.replay.findings import SCORES
from sgcheck.replay.setup_lines import king_square

if TYPE_CHECKING:
    from sgcheck.replay.session import Session


def finish(replayer: Session, start: Callable[[Span], GameState]) -> None:
    """The log has ended: play starts (``start``) if it never did but the Kings are placed; then
    the result lines and the [Result] tag."""
    handover = replayer.at.progress.handover
    if handover is not None:  # the log ends at a hand-over the watch reported on
        found, at = handover
        progress = replayer.at.progress
        replayer.at = replayer.at.with_progress(progress.with_turn_ended(progress.between_turns, None))
        for diag in found:
            replayer.report(diag.at(at))
    st = replayer.at.state
    setup = replayer.opening.setup
    if st is None and all(king_square(replayer, c) is not None for c in Color):
        last = setup.king(Color.BLACK) or setup.king(Color.WHITE)
        st = start(last.span if last is not None else Span.point(replayer.source))
        if replayer.halted:  # the observer stopped the replay as play started
            return
    if st is None and replayer.at.progress.items <= 1 and setup.rolloff is None and not setup.drafts:
        replayer.report(
            diagnostic("SG-P006", "no game in this file: it has no setup and no turns").at(Span.point(replayer.source)),
            fatal=True,
        )
    for line in in_order(replayer.at.progress.result_lines):
        _check_result(replayer, line.score, line.reason, line.span)
    header = replayer.opening.header
    tag = header.get("Result") if header else None
    if tag is not None and tag.value in SCORES and st is not None:
        _check_result(replayer, tag.value, None, tag.span)


def knock_on_notes(replayer: Session) -> None:
    """SG-N306 on each error that later findings follow from (keep_going): how many, and on
    which lines; they are not reported themselves (sgcheck.replay.cascade). A finding that follows
    on the error's own line is no fault of its own: the error's hint says so instead."""
    for origin, following in replayer.at.cascade.refusals():
        first = origin.diagnostic
        own = [d for d in following if _inside(d.span, origin.within)]
        if own and 0 <= origin.index < replayer.sink.count:
            said = "; ".join(f"{d.code} {d.message}" for d in own)
            also = f"it explains the rest of this statement: {said}"
            replayer.sink.amend(origin.index, replace(first, hint=f"{first.hint}; {also}" if first.hint else also))
        followers = [d for d in following if not _inside(d.span, origin.within)]
        count = len(followers)
        if not count:
            continue
        lines = list(dict.fromkeys(str(d.span.line) for d in followers if d.span is not None))
        word = "line" if len(lines) == 1 else "lines"
        hint = f"{'they are' if count != 1 else 'it is'} on {word} {listing(lines, quote=str)}" if lines else None
        findings = f"{count} later finding{'s follow' if count != 1 else ' follows'}"
        are, they, do = ("are", "they", "do") if count != 1 else ("is", "it", "does")
        if origin.refused:
            message = (
                f"{findings} from this refused {origin.what} and {are} not reported: "
                f"{they} {do} not arise when the {origin.what} is played as the log wrote it"
            )
        else:
            message = (
                f"{findings} from this {origin.what} and {are} not reported: "
                f"{they} {do} not arise from the figure the log wrote"
            )
        note = diagnostic("SG-N306", message, hint=hint).at(first.span, first.label)
        replayer.report(note.with_context(*first.context))


def _inside(span: Span | None, within: Span | None) -> bool:
    return span is not None and within is not None and within.offset <= span.offset < within.end_offset


def _check_result(replayer: Session, score: str, reason: str | None, span: Span) -> None:
    st = replayer.at.state
    actual = st.result if st is not None else None
    if actual is None:
        if score != "*":
            said = f"the log says {score}, but the game has not ended"
            ended = diagnostic("SG-R210", said, expected="*", claimed=score)
            replayer.report(ended.at(span))
        return
    if score == "*":
        unfinished = f"the log says the game is unfinished (*), but {actual.detail}"
        replayer.report(diagnostic("SG-R210", unfinished, expected=actual.score, claimed=score).at(span))
    elif score != actual.score or (reason is not None and reason != actual.outcome.value):
        said = f"{score} {reason}" if reason else score
        replayer.report(
            diagnostic(
                "SG-R210",
                f"the log says {said}, but {actual.detail} ({actual.score} {actual.outcome.value})",
                expected=f"{actual.score} {actual.outcome.value}" if reason else actual.score,
                claimed=said,
            ).at(span)
        )
