"""Load and run the per-rule pass/fail cases in ``sgcheck/contract/rules/cases/*.yaml``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from sgcheck.contract import check_paths
from sgcheck.contract.config import Config, load_config
from sgcheck.results import Run

CASES_DIR = Path(__file__).resolve().parents[2] / "sgcheck" / "contract" / "rules" / "cases"


@dataclass(frozen=True)
class Case:
    code: str
    name: str
    expect: str  # "fail": the code must be reported; "pass": it must not be
    body: dict[str, Any]

    @property
    def id(self) -> str:
        """E.g. ``SG-C010 [core §4.5, core §8] fail: a +30 to-hit bonus exceeds the +25 cap``."""
        from sgcheck.contract.registry import rules_by_code

        cites = ", ".join(rules_by_code()[self.code].meta.rules)
        return f"{self.code} [{cites}] {self.expect}: {self.name}".replace("§", "")  # pytest ids stay ASCII


def load_cases() -> list[Case]:
    yaml = YAML(typ="safe", pure=True)
    found = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"))
        for item in data["cases"]:
            found.append(Case(data["code"], item["name"], item["expect"], item))
    return found


def run_case(case: Case, folder: Path) -> Run:
    """Write the case's files into ``folder`` and check it (with its configuration, if any)."""
    body = case.body
    if "sgcard" in body:
        (folder / "cards.sgcard").write_text(body["sgcard"], encoding="utf-8")
    if "yaml" in body:
        (folder / "cards.sgcard.yaml").write_text(body["yaml"], encoding="utf-8")
    if "generate" in body:
        spec = body["generate"]
        if "nesting" in spec:
            nesting = int(spec["nesting"])
            filler = "[" * nesting + "]" * nesting
        else:
            filler = "x" * int(spec["size"])
        (folder / spec["file"]).write_text(spec["prefix"] + filler + "\n", encoding="utf-8")
    for relative, text in body.get("files", {}).items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    config = Config()
    if "config" in body:
        (folder / "pyproject.toml").write_text(body["config"], encoding="utf-8")
        config = load_config(folder / "pyproject.toml", "pyproject.toml")
    return check_paths([str(folder)], config)
