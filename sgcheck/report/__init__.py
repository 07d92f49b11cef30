"""Turn a :class:`~sgcheck.report.model.Run` into output text.

Every format is a pure function of the run (no I/O, no clock, no environment),
so the same findings always print the same bytes and golden tests stay exact.
The CLI picks the format; this package only knows how to spell each one.
"""

from __future__ import annotations

from collections.abc import Callable

from sgcheck.report.model import FileResult, Run

__all__ = ["FORMATS", "FileResult", "Run", "render"]

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "github")


# Each renderer is imported when first used, so importing the report model (as every
# command does) stays cheap and ``sgcheck --help`` starts fast.


def _text(run: Run, color: bool) -> str:
    from sgcheck.report.text import render_text

    return render_text(run, color=color)


def _json(run: Run, color: bool) -> str:
    from sgcheck.report.json_format import render_json

    return render_json(run)


def _sarif(run: Run, color: bool) -> str:
    from sgcheck.report.sarif import render_sarif

    return render_sarif(run)


def _github(run: Run, color: bool) -> str:
    from sgcheck.report.github import render_github

    return render_github(run)


_RENDERERS: dict[str, Callable[[Run, bool], str]] = {
    "text": _text,
    "json": _json,
    "sarif": _sarif,
    "github": _github,
}


def render(run: Run, fmt: str, *, color: bool = False) -> str:
    """Render ``run`` in ``fmt`` (one of :data:`FORMATS`).

    ``color`` only affects the text format: machine formats must stay parseable
    whatever the terminal is. Unknown formats raise :class:`ValueError` rather
    than silently falling back, so a typo in a caller is caught at once.
    """
    try:
        renderer = _RENDERERS[fmt]
    except (KeyError, TypeError):
        raise ValueError(f"unknown output format {fmt!r}; expected one of: {', '.join(FORMATS)}") from None
    return renderer(run, color)
