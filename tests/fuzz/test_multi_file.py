"""A bad file next to a good one: the bad file gets its own diagnostic, the good file's findings are
still reported, and JSON and SARIF stay complete documents listing both."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .harness import CORPUS, FORMATS, REPO, check_sane, run_in_process, run_subprocess

WRONG_HIT = "examples/logs/broken/wrong-hit.sglog"
GUIDE_CARDS = "examples/cards/guide-relics.sgcard"
SETUP = "rolloff white 5 4 3 black 2 2 1\nchoose white\nking white e1\nking black e8\n"

BAD_LOGS = {
    "long-claim": SETUP + "\n1.   upkeep: summon R a1 cost 10 lp " + "9" * 5000 + "\n",
    "long-turn-number": SETUP + "\n" + "1" * 5000 + ".   upkeep: summon R a1 cost 10 lp 10\n",
    "superscript-turn-limit": '[TurnLimit "²"]\n\n' + SETUP,
    "binary": "\x00\x01\x02",
}


def _relative(path: Path) -> str:
    return os.path.relpath(path, REPO).replace(os.sep, "/")


@pytest.mark.parametrize("bad", sorted(BAD_LOGS))
def test_a_bad_log_does_not_hide_the_next_logs_findings(tmp_path: Path, bad: str) -> None:
    """`sgcheck replay bad.sglog wrong-hit.sglog` reports the bad log's own diagnostic and still
    replays wrong-hit.sglog (SG-R204), in every format; JSON lists both files in order and SARIF
    has results for both."""
    bad_log = tmp_path / f"{bad}.sglog"
    bad_log.write_text(BAD_LOGS[bad], encoding="utf-8")
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("replay", str(bad_log), WRONG_HIT, fmt=fmt), inputs=2)
        assert outcome.exit_code == 1, outcome.describe()
        assert "SG-R204" in outcome.codes(), outcome.describe()
        if fmt == "json":
            files = outcome.file_codes()
            assert list(files) == [str(bad_log), WRONG_HIT], outcome.describe()
            assert files[str(bad_log)], outcome.describe()
            assert "SG-R204" in files[WRONG_HIT], outcome.describe()
        elif fmt == "sarif":
            uris = {
                location["physicalLocation"]["artifactLocation"]["uri"]
                for result in outcome.document["runs"][0]["results"]
                for location in result.get("locations", [])
            }
            assert WRONG_HIT in uris and any(uri.endswith(f"{bad}.sglog") for uri in uris), uris
        else:
            assert "2 files checked" in outcome.stdout, outcome.describe()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this system")
def test_an_unreadable_log_does_not_hide_the_next_logs_findings() -> None:
    """`sgcheck replay /dev/zero wrong-hit.sglog`: SG-P008 for the device, SG-R204 for the log,
    exit status 2, a complete JSON document."""
    outcome = check_sane(run_subprocess("replay", "/dev/zero", WRONG_HIT, fmt="json"), inputs=2)
    assert outcome.exit_code == 2
    files = outcome.file_codes()
    assert files["/dev/zero"] == ["SG-P008"]
    assert "SG-R204" in files[WRONG_HIT]


BAD_CARD_INPUTS = [
    "packs/superscript-turn-limit",
    "packs/superscript-king-value",
    "cards/superscript-numbers.sgcard",
    "cards/binary.sgcard",
]


@pytest.mark.parametrize("bad", BAD_CARD_INPUTS)
def test_a_bad_pack_or_card_file_does_not_hide_the_next_files_findings(bad: str) -> None:
    """`sgcheck check BAD guide-relics.sgcard` still reports the guide's findings (SG-C090) next to
    the bad input's own, in every format."""
    bad_path = _relative(CORPUS / bad)
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", bad_path, GUIDE_CARDS, fmt=fmt))
        assert outcome.exit_code == 1, outcome.describe()
        assert "SG-C090" in outcome.codes(), outcome.describe()
        if fmt == "json":
            files = outcome.file_codes()
            assert "SG-C090" in files[GUIDE_CARDS], outcome.describe()
            assert any(path.startswith(bad_path) and codes for path, codes in files.items()), outcome.describe()


def test_a_card_number_with_thousands_of_digits_does_not_hide_the_next_files_findings(tmp_path: Path) -> None:
    """A 5,000-digit cost in one card file is that file's finding; the guide's cards are still
    checked and reported."""
    bad = tmp_path / "big.sgcard"
    bad.write_text('spell "Big" {\n    cost ' + "9" * 5000 + " SP\n    effect steal 5 SP\n}\n", encoding="utf-8")
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", "--isolated", str(bad), GUIDE_CARDS, fmt=fmt))
        assert outcome.exit_code == 1, outcome.describe()
        assert "SG-C090" in outcome.codes(), outcome.describe()
