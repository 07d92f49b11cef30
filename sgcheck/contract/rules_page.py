"""The per-code section of docs/contract-rules.md, generated from the rule modules.

Keeping the reference generated means a rule's explanation is written once (its module
docstring) and the docs cannot drift; a test compares the file with this output.
"""

from __future__ import annotations

from sgcheck.contract.registry import Scope, all_rules

_TITLES = {
    Scope.INPUT: "Reading card files (SG-P02x)",
    Scope.CARD: "Per-card rules (SG-C0xx)",
    Scope.PACK: "Pack-level analyses (SG-C1xx)",
    Scope.PLAY: "Found by playing the pack (SG-C150-SG-C162)",
    Scope.PACKAGING: "Packs, configuration and suppressions (SG-C2xx)",
}


def codes_markdown() -> str:
    """One section per scope, one entry per code: name, severity, what it enforces, explanation."""
    lines: list[str] = []
    for scope in (Scope.CARD, Scope.PACK, Scope.PLAY, Scope.PACKAGING, Scope.INPUT):
        lines += [f"### {_TITLES[scope]}", ""]
        lines += ["| code | name | severity | enforces |", "| --- | --- | --- | --- |"]
        rules = [r for r in all_rules() if r.meta.scope is scope]
        for rule in rules:
            m = rule.meta
            lines.append(f"| [`{m.code}`](#{m.code.lower()}) | {m.name} | {m.severity.value} | {m.enforces} |")
        lines.append("")
        for rule in rules:
            m = rule.meta
            cites = ", ".join(m.rules) if m.rules else "-"
            lines += [f"#### {m.code}", "", f"**{m.name}** ({m.severity.value}; cites {cites}).", ""]
            lines += [rule.explanation.replace("``", "`"), ""]
            lines += [f"Cases: `sgcheck/contract/rules/cases/{m.code[3:]}.yaml`.", ""]
    return "\n".join(lines)
