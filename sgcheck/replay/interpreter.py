"""Re-execute a game log against the locked core and report where it goes wrong: the entry points.

:func:`replay_source` reads a log (:func:`~sgcheck.lang.logs.reader.read_log`) and replays it;
:func:`replay_text` does so for text in memory, :func:`replay_items` for items already read.
The work is done by modules, each with one job:

- :mod:`sgcheck.replay.options`: :class:`ReplayOptions`, :class:`ReplayResult`;
- :mod:`sgcheck.replay.position`: where a replay stands, an immutable value replaced step by step;
- :mod:`sgcheck.replay.sink`: the findings, handed to one sink;
- :mod:`sgcheck.replay.session`: one replay's position, findings and observer, which the others share;
- :mod:`sgcheck.replay.turn_loop`: the replayer (a session) and its turn loop;
- :mod:`sgcheck.replay.header`: header tags, the ruleset, the game's pack and scenario;
- :mod:`sgcheck.replay.setup_lines`: the setup lines and the state at the start of play;
- :mod:`sgcheck.replay.ending`: the end of the log, result lines, the knock-on notes;
- :mod:`sgcheck.replay.findings`: what they share about findings (context, the stop);
- :mod:`sgcheck.replay.dice_check`: verifiable dice, checked as the items go by;
- :mod:`sgcheck.replay.observer`: the one observer protocol: what a replay tells an observer, and how
  one stops it;
- :mod:`sgcheck.replay.timeline`: the HTML report's positions, an observer of the turn loop.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from sgcheck.core.outcome import Effects
from sgcheck.core.state import PlayerState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import LogItem, Statement
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import PlainTurn, read_log, read_log_from
from sgcheck.replay.dice_check import Tapped, merged
from sgcheck.replay.ending import finish, knock_on_notes
from sgcheck.replay.findings import SCORES, Stop
from sgcheck.replay.observer import GO, Event, Flow, ReplayObserver, joined
from sgcheck.replay.options import Observer, ReplayOptions, ReplayResult
from sgcheck.replay.position import Checkpoint, ReplayPosition
from sgcheck.replay.session import Session
from sgcheck.replay.sink import Found
from sgcheck.replay.timeline import Recording
from sgcheck.replay.turn_loop import Replayer

if TYPE_CHECKING:
    from sgcheck.lang.source import SourceText

__all__ = ["Observer", "ReplayOptions", "ReplayResult", "replay_items", "replay_source", "replay_text"]

#: How a log is read into items: the line reader, or (for tests that hold the two readers to each
#: other) the grammar's reading, ``sgcheck.lang.logs.grammar.grammar_items``.
Read = Callable[["SourceText"], Iterable[LogItem | PlainTurn]]


#: The options of a plain replay: stop at the first error, no pack or scenario of the command line.
DEFAULTS = ReplayOptions()


def _over(replayer: Session) -> bool:
    """Whether the game is over: the game ended, or the log writes a result (a result line, or a
    [Result] tag with a score)."""
    at = replayer.at
    if at.state is not None and at.state.result is not None:
        return True
    if at.progress.result_lines:
        return True
    header = at.opening.header
    tag = header.get("Result") if header is not None else None
    return tag is not None and tag.value.strip() in SCORES


def replay_items(
    items: Iterable[LogItem | PlainTurn],
    source: str,
    options: ReplayOptions = DEFAULTS,
    *,
    folder: str | None = None,
    observer: ReplayObserver | None = None,
    start: Checkpoint | None = None,
    observe: Observer | None = None,
    turn_observer: ReplayObserver | None = None,
    checkpoint: Callable[[PlainTurn, ReplayPosition, Found | None], None] | None = None,
) -> ReplayResult:
    """Replay parsed log items (consumed lazily, in order); ``folder`` is the log's folder
    (None: the current one), where its [Pack] tag is looked for; ``observer`` is told of the
    events it watches (:class:`~sgcheck.replay.observer.ReplayObserver`: the turns, the steps,
    the statements' effects instead of their claims' judgement), and ends the replay there,
    stopped, by answering ``STOP``. With ``ReplayOptions(timeline=True)`` the timeline
    (:class:`~sgcheck.replay.timeline.Recording`) watches the steps beside it.

    ``start``, for a replay resumed at a turn (:mod:`sgcheck.replay.resume`): where an earlier
    replay of the same log was before the first of ``items`` (its position and findings).

    Deprecated, each an observer of one kind of event: ``observe`` (an :data:`Observer` callback,
    the statements' effects), ``turn_observer`` (the steps) and ``checkpoint`` (a callback shown
    the position and the findings before each turn); pass ``observer`` instead."""
    observer = joined(observer, *_deprecated(observe, turn_observer, checkpoint))
    recording = Recording(options.keep_line, options.keep_turn) if options.timeline else None
    observer = joined(recording, observer)
    if start is not None:
        replayer = Replayer(source, options, folder, observer, start.position, start.found)
    else:
        replayer = Replayer(source, options, folder, observer)
    turns = observer if observer is not None and Event.TURNS in observer.events else None
    stopped = False
    tapped = Tapped(items)  # the dice checked on the way, when the header commits to them
    try:
        for item in tapped:
            if (
                turns is not None
                and isinstance(item, PlainTurn)
                and not replayer.went_on(turns.turn_begins(item, replayer.at, replayer.sink.kept))
            ):
                break
            replayer.feed(item)
            if replayer.halted:
                break
        if not replayer.halted:
            finish(replayer, replayer.start)
    except Stop:
        stopped = True
    stopped = stopped or replayer.halted
    tapped.drain(Stop)
    tapped.finish(_over(replayer))
    knock_on_notes(replayer)
    at = replayer.at
    st, progress, opening = at.state, at.progress, at.opening
    timeline = None
    if recording is not None:
        tags = [(tag.name, tag.value) for tag in opening.header.tags] if opening.header is not None else []
        timeline = recording.data(st, replayer.source, tags)
    return ReplayResult(
        source=replayer.source,
        diagnostics=merged(replayer.sink.findings(), tapped.findings),
        state=st,
        ruleset=opening.ruleset,
        header=opening.header,
        statements=at.statements,
        turns=progress.turns,
        stopped=stopped,
        upkeep_income=st.turn.income if st is not None and st.result is None and progress.between_turns else 0,
        pack=opening.pack,
        scenario=opening.scenario,
        timeline=timeline,
        kept=tuple(recording.kept) if recording is not None else (),
        first_turn=progress.first_turn,
        last_turn=progress.last_turn,
    )


def replay_text(text: str, source: str, options: ReplayOptions = DEFAULTS) -> ReplayResult:
    """Read and replay a log held in memory; a syntax error is reported like any other finding."""
    from sgcheck.lang.source import SourceText

    return replay_source(SourceText(source, text), options)


def replay_source(
    source: SourceText,
    options: ReplayOptions = DEFAULTS,
    *,
    progress: Callable[[int], None] | None = None,
    folder: str | None = None,
    observer: ReplayObserver | None = None,
    read: Read | None = None,
    start: Checkpoint | None = None,
    observe: Observer | None = None,
    turn_observer: ReplayObserver | None = None,
    checkpoint: Callable[[PlainTurn, ReplayPosition, Found | None], None] | None = None,
) -> ReplayResult:
    """Read and replay a decoded log; a syntax error is reported like any other finding.
    ``progress`` is told how many characters have been read, as reading goes on; ``folder``
    is the log's folder and ``observer`` the replay's observer (see :func:`replay_items`);
    ``read`` reads the log instead of the line reader (:data:`Read`). ``start``: a checkpoint of an
    earlier replay of the same log, before the turn at a file offset: the log is read and
    replayed from there on. ``observe``, ``turn_observer`` and ``checkpoint``: deprecated (see
    :func:`replay_items`)."""
    syntax_error: list[Diagnostic] = []

    def items() -> Iterator[LogItem | PlainTurn]:
        try:
            if start is not None:
                yield from read_log_from(source, start.offset, start.line, start.line_start)
            elif read is None:
                yield from read_log(source, progress=progress)
            else:
                yield from read(source)
        except LogSyntaxError as exc:
            syntax_error.append(exc.diagnostic)
            raise Stop from None  # the log ends at its first syntax error

    result = replay_items(
        items(),
        source.name,
        options,
        folder=folder,
        observer=joined(observer, *_deprecated(observe, turn_observer, checkpoint)),
        start=start,
    )
    if not syntax_error:
        return result
    return replace(result, diagnostics=(*result.diagnostics, *syntax_error))


class _Effects(ReplayObserver):
    """A deprecated ``observe`` callback, as the observer of the statements' effects."""

    events = Event.EFFECTS

    def __init__(self, observe: Observer) -> None:
        self.observe = observe

    def statement_effects(self, stmt: Statement, effects: Effects, player: PlayerState) -> Flow:
        self.observe(stmt, effects, player)
        return GO


class _Turns(ReplayObserver):
    """A deprecated ``checkpoint`` callback, as the observer of the turns."""

    events = Event.TURNS

    def __init__(self, checkpoint: Callable[[PlainTurn, ReplayPosition, Found | None], None]) -> None:
        self.checkpoint = checkpoint

    def turn_begins(self, turn: PlainTurn, position: ReplayPosition, found: Found | None) -> Flow:
        self.checkpoint(turn, position, found)
        return GO


def _deprecated(
    observe: Observer | None,
    turn_observer: ReplayObserver | None,
    checkpoint: Callable[[PlainTurn, ReplayPosition, Found | None], None] | None,
) -> list[ReplayObserver | None]:
    """The deprecated keywords of :func:`replay_items` as observers (a warning when one is given)."""
    if observe is None and turn_observer is None and checkpoint is None:
        return []
    warnings.warn(
        "replay's observe=, turn_observer= and checkpoint= are deprecated: pass one ReplayObserver as observer=",
        DeprecationWarning,
        stacklevel=3,
    )
    return [
        _Effects(observe) if observe is not None else None,
        turn_observer,
        _Turns(checkpoint) if checkpoint is not None else None,
    ]
