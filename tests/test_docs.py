"""Generated reference docs stay in step with the catalogues (set SGCHECK_UPDATE_GOLDEN=1 to refresh)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sgcheck.report.catalogue_pages import all_codes, diagnostics_markdown, rulings_markdown

if TYPE_CHECKING:
    from conftest import Golden

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_diagnostics_reference_is_current(golden: Golden) -> None:
    examples = {f"SG-{path.stem}" for path in (DOCS.parent / "sgcheck" / "replay" / "cases").glob("*.yaml")}
    golden.check(DOCS / "diagnostics.md", diagnostics_markdown(all_codes().values(), examples))


def test_rulings_section_is_current(golden: Golden) -> None:
    golden.check_section(DOCS / "rules.md", "rulings", rulings_markdown())


def test_every_code_is_documented_with_an_explanation() -> None:
    for info in all_codes().values():
        assert re.fullmatch(r"SG-[A-Z][0-9]{3}", info.code)
        assert len(info.explanation) > 40, info.code
