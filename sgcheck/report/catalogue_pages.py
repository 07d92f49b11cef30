"""Reference pages generated from the catalogues, so docs cannot drift from the code.

``docs/diagnostics.md`` and the rulings section of ``docs/rules.md`` are rendered from
:data:`sgcheck.codes.CATALOGUE`, the contract rules' catalogue and
:data:`sgcheck.core.rulings.RULINGS`; a test fails when the files differ.
"""

from __future__ import annotations

from collections.abc import Iterable

from sgcheck.codes import CodeInfo
from sgcheck.core.rulings import RULINGS

#: Families in display order; the first matching prefix wins.
_FAMILIES = (
    ("SG-P00", "Input and syntax of game logs"),
    ("SG-P01", "Input limits"),
    ("SG-P", "Input and syntax of cards and packs"),
    ("SG-S", "Setup (core §1)"),
    ("SG-T", "Turn structure (core §2)"),
    ("SG-R1", "Illegal actions"),
    ("SG-R2", "Wrong claims"),
    ("SG-N", "Replay notes"),
    ("SG-D", "Verifiable dice"),
    ("SG-C0", "Contract: per card"),
    ("SG-C1", "Contract: per pack"),
    ("SG-C2", "Contract: packs, configuration, suppressions"),
    ("SG-X", "Internal errors"),
    ("SG-", "Other"),
)


def _family(code: str) -> str:
    return next(title for prefix, title in _FAMILIES if code.startswith(prefix))


def all_codes() -> dict[str, CodeInfo]:
    """Every diagnostic code: parsing and replay, plus the contract rules' codes."""
    from sgcheck.codes import CATALOGUE
    from sgcheck.contract import code_catalogue

    return {**CATALOGUE, **code_catalogue()}


def diagnostics_markdown(codes: Iterable[CodeInfo]) -> str:
    """Every diagnostic code, grouped by family, with its explanation."""
    lines = [
        "# Diagnostic codes",
        "",
        "Generated from the code catalogues (`sgcheck explain CODE` prints the same text).",
        "Codes are stable: a released code never changes meaning and is never reused.",
        "",
    ]
    by_family: dict[str, list[CodeInfo]] = {}
    for info in sorted(codes, key=lambda i: i.code):
        by_family.setdefault(_family(info.code), []).append(info)
    for _, title in _FAMILIES:
        infos = by_family.get(title)
        if not infos:
            continue
        lines += [f"## {title}", ""]
        for info in infos:
            refs = f" — {', '.join(info.rules)}" if info.rules else ""
            lines += [
                f"### {info.code} `{info.name}` ({info.severity.value}){refs}",
                "",
                info.explanation,
                "",
            ]
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
