"""Reference pages generated from the catalogues, so docs cannot drift from the code.

``docs/diagnostics.md`` and the rulings section of ``docs/rules.md`` are rendered from
:data:`sgcheck.codes.CATALOGUE`, the contract rules' catalogue and
:data:`sgcheck.core.rulings.RULINGS`; a test fails when the files differ.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from sgcheck.codes import CodeInfo, Family
from sgcheck.core.rulings import RULINGS


def all_codes() -> dict[str, CodeInfo]:
    """Every diagnostic code: parsing and replay, plus the contract rules' codes."""
    from sgcheck.codes import CATALOGUE
    from sgcheck.contract import code_catalogue

    return {**CATALOGUE, **code_catalogue()}


def diagnostics_markdown(codes: Iterable[CodeInfo], examples: Collection[str] = ()) -> str:
    """Every diagnostic code, grouped by family, with its explanation; a code of ``examples`` (one
    with an example case, ``sgcheck/replay/cases/CODE.yaml``) names its case."""
    lines = [
        "# Diagnostic codes",
        "",
        "Generated from the code catalogues (`sgcheck explain CODE` prints the same text).",
        "Codes are stable: a released code never changes meaning and is never reused.",
        "",
    ]
    by_family: dict[Family, list[CodeInfo]] = {}
    for info in sorted(codes, key=lambda i: i.code):
        by_family.setdefault(info.family, []).append(info)
    for family in Family:
        infos = by_family.get(family)
        if not infos:
            continue
        lines += [f"## {family.title}", ""]
        for info in infos:
            refs = f" — {', '.join(info.rules)}" if info.rules else ""
            lines += [
                f"### {info.code} `{info.name}` ({info.severity.value}){refs}",
                "",
                info.explanation,
                "",
            ]
            if info.code in examples:
                lines += [f"Example: `sgcheck/replay/cases/{info.code.removeprefix('SG-')}.yaml`.", ""]
    return "\n".join(lines).rstrip() + "\n"


def rulings_markdown() -> str:
    """The rulings R01-R26 as a Markdown section."""
    lines: list[str] = []
    for ruling in RULINGS:
        choice = f" *(table choice: `{ruling.setting}`)*" if ruling.setting else ""
        lines += [
            f"### {ruling.id} {ruling.topic}{choice}",
            "",
            ruling.text,
            "",
            f"Sources: {', '.join(ruling.sources)}.",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"
