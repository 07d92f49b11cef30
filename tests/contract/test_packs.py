"""Pack discovery, manifests and hostile inputs: never a traceback, always a located finding."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sgcheck.contract import check_paths
from sgcheck.lang.source import MAX_LINE_CHARS
from sgcheck.report import FORMATS, render
from sgcheck.results import CardFileFacts, Facts, ManifestFacts, Run
from tests.trees import write

GOOD = 'spell "Good" { cost 1 SP phase main1 effect gain 1 SP }\n'


def codes(run: Run) -> list[str]:
    return [d.code for d in run.diagnostics]


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
    facts = manifest_result.facts
    assert isinstance(facts, ManifestFacts) and facts.cards == 2 and facts.pack == "demo"


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


def test_a_long_line_and_many_cards(tmp_path: Path) -> None:
    """A line right at the line limit (docs/limits.md) and thousands of cards read fine."""
    head = 'spell "X" { cost 1 SP text "Fills its line." effect gain 1 SP }  # '
    write(
        tmp_path,
        {
            "long.sgcard": head + "a" * (MAX_LINE_CHARS - len(head)) + "\n",
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


# --- files the pack refuses to read never reach the output (docs/limits.md, SG-C202) ------------

SECRET = "SECRET-TOKEN-7f3a9c\nsecond line of the secret\n"


def cards_of(facts: Facts | None) -> int:
    """The cards a card file or a pack's manifest counts."""
    assert isinstance(facts, CardFileFacts | ManifestFacts), facts
    return facts.cards


def assert_never_shown(run: Run, secret: str = SECRET) -> None:
    """No output format shows any line of ``secret``, and its text was never kept for quoting."""
    for fmt in FORMATS:
        rendered = render(run, fmt)
        for line in secret.splitlines():
            assert line not in rendered, f"{fmt} output quotes the refused file"
    assert not any("SECRET-TOKEN" in text for text in run.sources.values())


def test_a_manifest_that_links_out_of_its_folder_is_refused_unread(tmp_path: Path) -> None:
    """Rule: a manifest found in a folder that is a link leaving that folder is not read (SG-C202)."""
    secret = write(tmp_path / "home", {"credentials": SECRET})
    pack = write(tmp_path / "pack", {"a.sgcard": GOOD})
    os.symlink(secret / "credentials", pack / "sgpack.yaml")
    run = check_paths([str(pack)])
    assert codes(run) == ["SG-C202"]
    (refusal,) = run.diagnostics
    assert "is a link to a file outside its folder" in refusal.message
    assert_never_shown(run)


def test_a_manifest_linked_to_a_device_is_refused_at_once(tmp_path: Path) -> None:
    """A manifest linking to /dev/zero is refused before any read (it would never end)."""
    os.symlink("/dev/zero", tmp_path / "sgpack.yaml")
    assert codes(check_paths([str(tmp_path)])) == ["SG-C202"]


def test_a_fifo_manifest_is_unreadable_not_a_hang(tmp_path: Path) -> None:
    """A FIFO in place of the manifest is refused without waiting for a writer (SG-P008)."""
    os.mkfifo(tmp_path / "sgpack.yaml")
    run = check_paths([str(tmp_path)])
    assert codes(run) == ["SG-P008"]
    assert "FIFO" in run.diagnostics[0].message


def test_a_walked_card_file_that_links_out_of_the_folder_is_refused_unread(tmp_path: Path) -> None:
    """Rule: a loose card file found by walking a folder that links out of it is not read (SG-C202)."""
    secret = write(tmp_path / "home", {"id_token": SECRET})
    folder = write(tmp_path / "cards", {"ok.sgcard": GOOD})
    (folder / "sub").mkdir()
    os.symlink(secret / "id_token", folder / "sub" / "leak.sgcard")
    os.symlink(folder / "ok.sgcard", folder / "sub" / "alias.sgcard")  # inside the folder: fine
    run = check_paths([str(folder)])
    assert codes(run) == ["SG-C202"]
    assert "'" + f"{folder.as_posix()}/sub/leak.sgcard" + "' is a link to a file outside" in run.diagnostics[0].message
    assert_never_shown(run)


def test_a_link_named_on_the_command_line_is_read(tmp_path: Path) -> None:
    """A file the user names explicitly is read, link or not: the user asked for it."""
    outside = write(tmp_path / "elsewhere", {"real.sgcard": GOOD})
    os.symlink(outside / "real.sgcard", tmp_path / "named.sgcard")
    run = check_paths([str(tmp_path / "named.sgcard")])
    assert codes(run) == []
    assert cards_of(run.files[0].facts) == 1


def test_a_listed_link_must_point_to_a_card_file(tmp_path: Path) -> None:
    """A listed card path that links to a non-card file inside the pack (a CI token file) is refused."""
    pack = write(tmp_path, {"sgpack.yaml": manifest("a.sgcard", "cards.sgcard"), "a.sgcard": GOOD, ".npmrc": SECRET})
    os.symlink(pack / ".npmrc", pack / "cards.sgcard")
    run = check_paths([str(pack)])
    assert codes(run) == ["SG-C202"]
    assert "which is not a card file" in run.diagnostics[0].message
    assert_never_shown(run)


def test_an_explicit_manifest_that_is_not_a_mapping_is_described_not_quoted(tmp_path: Path) -> None:
    """SG-C201 on a document that is no manifest at all says what it is, without echoing it."""
    write(tmp_path, {"sgpack.yaml": "root:x:0:0:root:/root:/bin/bash\nSECRET-TOKEN-7f3a9c\n"})
    run = check_paths([str(tmp_path / "sgpack.yaml")])
    assert codes(run) == ["SG-C201"]
    assert "SECRET-TOKEN" not in run.diagnostics[0].message
    assert "a single value" in run.diagnostics[0].message


# --- SG-C204 only for files the manifest really does not list ------------------------------------


def test_listed_files_in_any_path_form_are_not_unlisted(tmp_path: Path) -> None:
    """SG-C204: './a', 'sub//b', 'x/../c' and 'sub\\d' name the files they normalise to."""
    write(
        tmp_path,
        {
            "sgpack.yaml": manifest("./a.sgcard", "sub//b.sgcard", "x/../c.sgcard", "'sub\\d.sgcard'"),
            "a.sgcard": GOOD.replace("Good", "A"),
            "sub/b.sgcard": GOOD.replace("Good", "B"),
            "c.sgcard": GOOD.replace("Good", "C"),
            "sub/d.sgcard": GOOD.replace("Good", "D"),
            "x/keep.txt": "",
        },
    )
    run = check_paths([str(tmp_path)])
    assert codes(run) == []
    assert cards_of(run.files[0].facts) == 4


def test_a_file_listed_through_a_link_inside_the_pack_is_listed(tmp_path: Path) -> None:
    """SG-C204: the target of a listed link inside the pack is listed too (same file)."""
    write(tmp_path, {"sgpack.yaml": manifest("current.sgcard"), "v2/cards.sgcard": GOOD})
    os.symlink(tmp_path / "v2" / "cards.sgcard", tmp_path / "current.sgcard")
    assert codes(check_paths([str(tmp_path)])) == []


def test_a_nested_pack_owns_its_files(tmp_path: Path) -> None:
    """SG-C204: a folder with its own manifest is a pack of its own, found and checked; the outer
    pack does not claim its files."""
    write(
        tmp_path,
        {
            "sgpack.yaml": manifest("a.sgcard"),
            "a.sgcard": GOOD,
            "expansion/sgpack.yaml": manifest("b.sgcard"),
            "expansion/b.sgcard": GOOD.replace("Good", "B"),
            "expansion/stray.sgcard": GOOD.replace("Good", "Stray"),
        },
    )
    run = check_paths([str(tmp_path)])
    manifests = sorted(f.path for f in run.files if f.path.endswith("sgpack.yaml"))
    assert manifests == [f"{tmp_path.as_posix()}/expansion/sgpack.yaml", f"{tmp_path.as_posix()}/sgpack.yaml"]
    (unlisted,) = [d for d in run.diagnostics if d.code == "SG-C204"]
    assert "'stray.sgcard'" in unlisted.message and unlisted.span is not None
    assert unlisted.span.source.endswith("expansion/sgpack.yaml")


def test_a_file_listed_in_another_letter_case_is_the_same_file(tmp_path: Path) -> None:
    """SG-C204 compares files, not spellings: where the disk ignores letter case, 'A.sgcard'
    lists 'a.sgcard'. Simulated with a second name for the same file, which is how such a disk
    answers (one device and inode for both spellings)."""
    write(tmp_path, {"sgpack.yaml": manifest("A.sgcard"), "a.sgcard": GOOD})
    os.link(tmp_path / "a.sgcard", tmp_path / "A.sgcard")
    run = check_paths([str(tmp_path)])
    assert codes(run) == []
    assert cards_of(run.files[0].facts) == 1


def test_a_listed_entry_that_is_refused_is_still_listed(tmp_path: Path) -> None:
    """SG-C204: a listed link that SG-C202 refuses (it leaves the pack) is reported once, as a
    link out of the pack, not a second time as a file the manifest forgot."""
    outside = write(tmp_path / "outside", {"other.sgcard": GOOD})
    pack = write(tmp_path / "pack", {"sgpack.yaml": manifest("a.sgcard", "shared.sgcard"), "a.sgcard": GOOD})
    os.symlink(outside / "other.sgcard", pack / "shared.sgcard")
    assert codes(check_paths([str(pack)])) == ["SG-C202"]


def test_a_card_path_too_long_for_the_file_system_is_a_finding(tmp_path: Path) -> None:
    """A listed name longer than the file system allows is SG-C203, not an OSError; so is such a
    path given on the command line (SG-P008)."""
    long_name = "x" * 300 + ".sgcard"
    write(tmp_path, {"sgpack.yaml": manifest("a.sgcard", long_name), "a.sgcard": GOOD})
    assert codes(check_paths([str(tmp_path)])) == ["SG-C203"]
    assert codes(check_paths([str(tmp_path / long_name)])) == ["SG-P008"]


OMENS = (
    'relic "Rust Omen" passive { cost 3 SP effect on capture: deny repair for 1 turn limit once per game }\n'
    'relic "Keen Omen" passive { cost 3 SP effect to_hit +10 }\n'
)


@pytest.mark.parametrize(
    ("deck", "expected"),
    [
        ("[Rust Omen, Keen Omen, Rust Omen]", ["SG-C130"]),  # copies apart: the capturer places each card
        ("[Rust Omen, Rust Omen]", ["SG-C130"]),
        ("[Rust Omen, Keen Omen, Keen Omen]", []),  # one denial in the deck: one turn, once a game
    ],
)
def test_a_market_deck_counts_each_copy_of_a_repair_denial(tmp_path: Path, deck: str, expected: list[str]) -> None:
    """core §6, core §8, R26: each copy in a market's deck enters play afresh, its once-a-game limit
    unspent, so two one-turn denials in one deck deny repair on consecutive turns in some game."""
    market = f"module:\n  name: Omens\n  market:\n    order: committed\n    deck: {deck}\n"
    write(tmp_path, {"sgpack.yaml": manifest("omens.sgcard", extra=market), "omens.sgcard": OMENS})
    run = check_paths([str(tmp_path)])
    found = [d for d in run.diagnostics if d.code == "SG-C130"]
    assert [d.code for d in found] == expected
    if found:
        (finding,) = found
        assert finding.span is not None and finding.span.source.endswith("sgpack.yaml")
        assert "consecutive turns" in finding.message and "R26" in finding.rules


def test_two_different_denials_in_a_deck_are_said_once(tmp_path: Path) -> None:
    """core §8: two one-turn denial cards are SG-C130 on the cards (held together); the deck that
    also holds both adds no second finding."""
    seal = 'relic "Iron Seal" passive { cost 3 SP effect on capture: deny repair for 1 turn limit once per game }\n'
    cards = OMENS + seal
    market = "module:\n  name: Seals\n  market:\n    deck: [Rust Omen, Keen Omen, Iron Seal]\n"
    write(tmp_path, {"sgpack.yaml": manifest("omens.sgcard", extra=market), "omens.sgcard": cards})
    found = [d for d in check_paths([str(tmp_path)]).diagnostics if d.code == "SG-C130"]
    assert len(found) == 1 and found[0].span is not None and found[0].span.source.endswith("omens.sgcard")
