"""A format written the way a new one is: one module whose ``FORMAT`` follows
:class:`sgcheck.report.formats.Format`. It spells every kind of result as a few tally lines;
``test_formats.py`` registers it and plays it through every command's result."""

from __future__ import annotations

from collections.abc import Mapping

from sgcheck.core.odds import CaptureOdds, OddsTables
from sgcheck.replay.dice_stats import DiceStats
from sgcheck.report.formats import Options, ResultKind, RunEnd, not_rendered, without_positions
from sgcheck.results import FileResult, GauntletReport, SimulationReport


class TallyFormat:
    name = "tally"
    renders = frozenset(ResultKind)
    streamed = True

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        return f"{result.path}: {len(result.diagnostics)}\n"

    def keep(self, result: FileResult) -> FileResult:
        return without_positions(result)

    def close(self, end: RunEnd) -> str:
        return f"{end.command}: {len(end.files)} files, {sum(end.counts.values())} findings\n"

    def render(self, result: object, options: Options) -> str:
        if isinstance(result, SimulationReport):
            return f"simulation: {result.run.settings.games} games\n"
        if isinstance(result, GauntletReport):
            return f"gauntlet: {len(result.entrants)} entrants\n"
        if isinstance(result, OddsTables):
            return f"odds table: {len(result.accuracy.rows)} attackers, {len(result.costs)} cost tables\n"
        if isinstance(result, CaptureOdds):
            return f"capture odds: {result.best.probability}\n"
        if isinstance(result, DiceStats):
            return f"dice stats: {result.logs} logs, {len(result.players)} players' dice\n"
        raise not_rendered(self.name, result)


FORMAT = TallyFormat()
