"""Generated reference docs stay in step with the catalogues (set SGCHECK_UPDATE_GOLDEN=1 to refresh)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from sgcheck.report.reference import all_codes, diagnostics_markdown, rulings_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs"
UPDATE = os.environ.get("SGCHECK_UPDATE_GOLDEN") == "1"


def test_diagnostics_reference_is_current() -> None:
    path = DOCS / "diagnostics.md"
    expected = diagnostics_markdown(all_codes().values())
    if UPDATE:
        path.write_text(expected, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == expected


def test_rulings_section_is_current() -> None:
    path = DOCS / "rules.md"
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(r"(<!-- rulings:start[^\n]*-->\n)(.*?)(<!-- rulings:end -->)", re.S)
    match = pattern.search(text)
    assert match, "docs/rules.md lost its generated rulings markers"
    if UPDATE:
        path.write_text(text[: match.start(2)] + rulings_markdown() + text[match.end(2) :], encoding="utf-8")
        text = path.read_text(encoding="utf-8")
        match = pattern.search(text)
        assert match
    assert match.group(2) == rulings_markdown()


def test_every_code_is_documented_with_an_explanation() -> None:
    for info in all_codes().values():
        assert re.fullmatch(r"SG-[A-Z][0-9]{3}", info.code)
        assert len(info.explanation) > 40, info.code
