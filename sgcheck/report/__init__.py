"""Turn a :class:`~sgcheck.results.Run` into output text.

Every format is a pure function of the run (no I/O, no clock, no environment),
so the same findings always print the same bytes and golden tests stay exact.
The CLI picks the format; this package only knows how to spell each one.

:class:`ReportStream` renders the same bytes file by file: text and GitHub
annotations are written as each file is checked, while JSON, SARIF, JUnit XML and
the HTML replay report, which are one document each, are written whole at the end (the
HTML report keeps each file's part, rendered while its source was at hand).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import NamedTuple

from sgcheck.codes import CodeInfo
from sgcheck.diagnostics import Severity
from sgcheck.results import FileResult, Run

__all__ = ["CHECK_FORMATS", "FORMATS", "REPLAY_FORMATS", "FileResult", "PartRenderer", "ReportStream", "Run", "render"]

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "github", "junit", "html")
STREAMED_FORMATS = frozenset({"text", "github"})
#: The formats that write a file's facts (:attr:`FileResult.facts`); the others never read them,
#: so a replay reported in them does not work them out (a ``--dispute`` section is kept apart).
FACT_FORMATS = frozenset({"json", "html"})
#: The formats each command offers: the HTML report draws a replay's positions, so only replay has it.
REPLAY_FORMATS: tuple[str, ...] = FORMATS
CHECK_FORMATS: tuple[str, ...] = tuple(fmt for fmt in FORMATS if fmt != "html")


def labels_summaries(command: str, file_count: int) -> bool:
    """Whether each replay summary is headed by its file's name: when there is more than one."""
    return command == "replay" and file_count > 1


class PartRenderer(NamedTuple):
    """How one file's part of a streamed report is spelled: a pure function of the file's result.

    It is a small picklable value, so a worker process can render its file's part and hand
    back only text (never the file's source).
    """

    fmt: str
    color: bool = False
    labelled: bool = False

    def __call__(self, result: FileResult, sources: Mapping[str, str]) -> str:
        if self.fmt == "text":
            from sgcheck.report.text import render_file

            return render_file(result, sources, color=self.color, labelled=self.labelled)
        if self.fmt == "github":
            from sgcheck.report.github import render_github_file

            return render_github_file(result)
        if self.fmt == "html":
            from sgcheck.report.html import render_html_file

            return render_html_file(result, sources)
        if self.fmt == "sarif":
            # Fingerprints quote the source, which is at hand only now: kept, not written.
            from sgcheck.report.sarif import file_fingerprints

            return "\n".join(file_fingerprints(result, sources))
        return ""  # JSON and JUnit are one document, written by ReportStream.close


class ReportStream:
    """Renders a run one file at a time; ``add`` returns what can be written now.

    The concatenation of every ``add`` and ``close`` is exactly :func:`render` of the
    same run. Sources are used only while their file is rendered, so a caller may drop
    a file's text as soon as ``add`` returns.
    """

    def __init__(
        self,
        fmt: str,
        *,
        command: str,
        rules: Mapping[str, CodeInfo],
        tool_version: str,
        color: bool = False,
        labelled: bool = False,
    ) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown output format {fmt!r}; expected one of: {', '.join(FORMATS)}")
        self.renderer = PartRenderer(fmt, color and fmt == "text", labelled)
        self.command = command
        self.rules = rules
        self.tool_version = tool_version
        self.files: list[FileResult] = []
        self.counts: Counter[Severity] = Counter()
        self.suppressed = 0
        self.hidden: Counter[str] = Counter()  # codes of the findings the selection left out
        #: where the run's configuration came from ("" none), said with what it hid; None: not said
        self.configuration: str | None = None
        self.held: list[str] = []  # what a whole-document format keeps of each file's part

    def add(self, result: FileResult, sources: Mapping[str, str]) -> str:
        return self.add_rendered(result, self.renderer(result, sources))

    def add_rendered(self, result: FileResult, part: str) -> str:
        """Record a file whose part ``self.renderer`` has already rendered (in another process)."""
        if "timeline" in result.facts:  # drawn into its part already: not kept for the whole run
            facts = {k: v for k, v in result.facts.items() if k != "timeline"}
            timeline = result.facts["timeline"]
            if self.renderer.fmt == "json" and isinstance(timeline, Mapping):  # replay --timeline
                facts["timeline"] = {"explanations": timeline.get("explanations", [])}
            result = replace(result, facts=facts)
        self.files.append(result)
        self.counts.update(diagnostic.severity for diagnostic in result.diagnostics)
        self.suppressed += len(result.suppressed)
        self.hidden.update(result.hidden)
        if self.renderer.fmt in STREAMED_FORMATS:
            return part
        self.held.append(part)
        return ""

    def _configuration(self) -> dict[str, object] | None:
        """Where the configuration came from and what it hid, as data (None: nothing to say)."""
        if self.configuration is None and not self.hidden:
            return None
        return {
            "source": self.configuration or None,
            "hidden": sum(self.hidden.values()),
            "codes": dict(sorted(self.hidden.items())),
        }

    def close(self) -> str:
        fmt = self.renderer.fmt
        if fmt == "text":
            from sgcheck.report.text import file_kinds, hidden_line, totals_line

            kinds = file_kinds(result.path for result in self.files)
            totals = totals_line(
                self.counts, len(self.files), color=self.renderer.color, suppressed=self.suppressed, kinds=kinds
            )
            hidden = hidden_line(self.configuration, self.hidden)
            # The totals stay the last line, whatever comes before them (scripts read it with tail -1).
            return (hidden + "\n" if hidden else "") + totals + "\n"
        if fmt == "github":
            return ""
        configuration = self._configuration()
        run = Run(self.command, tuple(self.files), {}, self.rules, self.tool_version, configuration)
        if fmt == "json":
            from sgcheck.report.json_format import render_json

            return render_json(run)
        if fmt == "junit":
            from sgcheck.report.junit import render_junit

            return render_junit(run)
        if fmt == "html":
            from sgcheck.report.html import render_html_page
            from sgcheck.report.text import hidden_line

            configuration_line = hidden_line(self.configuration, self.hidden)
            return render_html_page(self.held, self.files, self.tool_version, configuration_line)
        from sgcheck.report.sarif import render_sarif

        return render_sarif(run, [part.split("\n") if part else [] for part in self.held])


def render(run: Run, fmt: str, *, color: bool = False) -> str:
    """Render ``run`` in ``fmt`` (one of :data:`FORMATS`).

    ``color`` only affects the text format: machine formats must stay parseable
    whatever the terminal is. Unknown formats raise :class:`ValueError` rather
    than silently falling back, so a typo in a caller is caught at once.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    stream = ReportStream(
        fmt,
        command=run.command,
        rules=run.rules,
        tool_version=run.tool_version,
        color=color,
        labelled=labels_summaries(run.command, len(run.files)),
    )
    parts = [stream.add(result, run.sources) for result in run.files]
    return "".join(parts) + stream.close()
