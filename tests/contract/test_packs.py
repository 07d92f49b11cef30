"""Pack discovery, manifests and hostile inputs: never a traceback, always a located finding."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sgcheck.contract import check_paths
from sgcheck.results import Run

GOOD = 'spell "Good" { cost 1 SP phase main1 effect gain 1 SP }\n'


def codes(run: Run) -> list[str]:
    return [d.code for d in run.diagnostics]


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def manifest(*cards: str, extra: str = "") -> str:
    return "name: demo\nversion: 1.0.0\ncards:\n" + "".join(f"  - {c}\n" for c in cards) + extra


def test_a_folder_with_a_manifest_is_one_pack(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "sgpack.yaml": manifest("a.sgcard", "b.sgcard.yaml"),
            "a.sgcard": 'relic "Hawk" { cost 5 SP effect to_hit +15 }\n',
            "b.sgcard.yaml": "cards:\n  - {name: Owl, kind: relic, cost: 5, effects: [{to_hit: 15}]}\n",
        },
    )
    run = check_paths([str(tmp_path)])
    # the two cards only exceed the cap together, so the pack must have been analysed as one (core §4.5)
    assert codes(run) == ["SG-C120"]
    manifest_result = run.files[0]
    assert manifest_result.path.endswith("sgpack.yaml")
    assert manifest_result.facts["cards"] == 2 and manifest_result.facts["pack"] == "demo"


def test_loose_files_are_checked_one_by_one(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "a.sgcard": 'relic "Hawk" { cost 5 SP effect to_hit +15 }\n',
            "sub/b.sgcard": 'relic "Owl" { cost 5 SP effect to_hit +15 }\n',
            "notes.txt": "not a card",
            ".hidden/c.sgcard": "garbage",
        },
    )
    run = check_paths([str(tmp_path)])
    assert sorted(Path(f.path).name for f in run.files) == ["a.sgcard", "b.sgcard"]
    assert codes(run) == []


def test_nested_packs_and_paths_given_twice(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "p1/sgpack.yaml": manifest("c.sgcard"),
            "p1/c.sgcard": GOOD,
            "p2/sgpack.yml": manifest("c.sgcard"),
            "p2/c.sgcard": GOOD,
        },
    )
    run = check_paths([str(tmp_path), str(tmp_path / "p1"), str(tmp_path / "p1" / "sgpack.yaml")])
    assert len([f for f in run.files if f.path.endswith(("sgpack.yaml", "sgpack.yml"))]) == 2
    assert codes(run) == []


def test_manifest_paths_cannot_escape_the_pack(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside", {"secret.sgcard": GOOD})
    pack = write(
        tmp_path / "pack",
        {
            "sgpack.yaml": manifest("../../etc/passwd", "/etc/passwd", "..", "ok.sgcard", "link.sgcard"),
            "ok.sgcard": GOOD,
        },
    )
    os.symlink(outside / "secret.sgcard", pack / "link.sgcard")
    run = check_paths([str(pack)])
    escapes = [d for d in run.diagnostics if d.code == "SG-C202"]
    assert len(escapes) == 4
    assert all(d.span is not None and d.span.source.endswith("sgpack.yaml") for d in escapes)
    assert "outside the pack folder" in escapes[-1].message
    checked = {Path(f.path).name for f in run.files}
    assert "secret.sgcard" not in checked and "passwd" not in checked


def test_missing_and_unlisted_files(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "sgpack.yaml": manifest("a.sgcard", "gone.sgcard", "dir"),
            "a.sgcard": GOOD,
            "dir/x.sgcard": GOOD.replace("Good", "X"),
        },
    )
    run = check_paths([str(tmp_path)])
    assert codes(run).count("SG-C203") == 2
    assert codes(run).count("SG-C204") == 1


def test_invalid_manifest_stops_the_pack_with_located_errors(tmp_path: Path) -> None:
    write(tmp_path, {"sgpack.yaml": "name: demo\nversion: [1]\ncards: x\n", "a.sgcard": GOOD})
    run = check_paths([str(tmp_path)])
    assert set(codes(run)) == {"SG-C201"}
    assert {d.span.line for d in run.diagnostics if d.span} == {2, 3}


def test_manifest_yaml_problems(tmp_path: Path) -> None:
    write(tmp_path, {"sgpack.yaml": "name: [unclosed\n"})
    assert codes(check_paths([str(tmp_path)])) == ["SG-P024"]


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "SG-P005"),
        (b'spell "Caf\xe9" { cost 1 SP }', "SG-P004"),
        (b"\xff\xfes\x00p\x00", "SG-P004"),
    ],
)
def test_unreadable_card_files(tmp_path: Path, content: bytes, code: str) -> None:
    write(tmp_path, {"bad.sgcard": content})
    run = check_paths([str(tmp_path / "bad.sgcard")])
    assert codes(run) == [code]
    assert run.has_errors


def test_bom_and_crlf_are_fine(tmp_path: Path) -> None:
    text = "\ufeff# cards\r\n" + GOOD.replace("\n", "\r\n") + 'spell "Bad" { cost 1 SP effect to_hit }\r\n'
    write(tmp_path, {"c.sgcard": text})
    run = check_paths([str(tmp_path / "c.sgcard")])
    (error,) = run.diagnostics
    assert (error.code, error.span.line, error.span.column) == ("SG-P020", 3, 39)  # type: ignore[union-attr]


def test_a_huge_single_line_and_many_cards(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "long.sgcard": 'spell "X" { cost 1 SP text "' + "a" * 2_000_000 + '" effect gain 1 SP }\n',
            "many.sgcard": "".join(f'spell "C{i}" {{ cost 1 SP effect gain 1 SP }}\n' for i in range(3000)),
        },
    )
    run = check_paths([str(tmp_path / "long.sgcard"), str(tmp_path / "many.sgcard")])
    assert codes(run) == []


def test_a_missing_path_is_reported_not_raised(tmp_path: Path) -> None:
    run = check_paths([str(tmp_path / "nope.sgcard")])
    assert codes(run) == ["SG-P008"]


def test_house_rule_ruleset_changes_what_is_possible(tmp_path: Path) -> None:
    """R09: with a King value the King may attack, so the condition is no longer impossible."""
    card = 'spell "Royal Blow" { cost 2 SP effect damage +1 when attacker is King }\n'
    write(tmp_path / "core", {"sgpack.yaml": manifest("c.sgcard"), "c.sgcard": card})
    write(
        tmp_path / "house",
        {"sgpack.yaml": manifest("c.sgcard", extra="ruleset: 'core; king_value=2'\n"), "c.sgcard": card},
    )
    assert "SG-C091" in codes(check_paths([str(tmp_path / "core")]))
    house = codes(check_paths([str(tmp_path / "house")]))
    assert "SG-C091" not in house and "SG-C206" in house
