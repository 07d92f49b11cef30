"""Inputs that are not ordinary files, and links that point where a pack must not read.

Endless devices, FIFOs and standard input are read in a child process under the hang guard and
the memory cap: a non-regular file is refused before it is opened (SG-P008, exit status 2) and
standard input is cut off at a size limit while it is read. Files that a pack refuses to read
(links out of the pack or the walked folder, files its manifest does not list) never have a
byte of their content quoted in any output format.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import FORMATS, Outcome, check_sane, run_in_process, run_subprocess

READING_LIMIT_CODES = {"SG-P005", "SG-P010", "SG-P011"}

SOUL_DRAIN = 'spell "Soul Drain" {\n    cost 3 SP\n    phase main1\n    effect steal 5 SP\n}\n'
MANIFEST = "name: pack\nversion: 1.0.0\nruleset: core\ncards:\n  - cards.sgcard\n"
SECRET = "SGCHECK-TEST-SECRET-4f1c"
#: Reads as YAML on its first line and as a card on its second, so any parser would quote it.
SECRET_TEXT = f'password: {SECRET}\nrelic "{SECRET}" {{ cost 1 SP effect steal 1 SP }}\n{SECRET}\n'

needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this system")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes (os.mkfifo) are not available")
needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links are not available")


def _pack(folder: Path, manifest: str = MANIFEST) -> Path:
    folder.mkdir(parents=True)
    (folder / "sgpack.yaml").write_text(manifest, encoding="utf-8")
    (folder / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    return folder


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.fixture
def secret(tmp_path: Path) -> Iterator[Path]:
    """A file outside every pack and folder given to sgcheck, holding text that must not leak."""
    outside = tmp_path / "outside"
    outside.mkdir()
    path = outside / "secrets.txt"
    path.write_text(SECRET_TEXT, encoding="utf-8")
    yield path


def _never_quoted(outcome: Outcome) -> None:
    assert SECRET not in outcome.stdout + outcome.stderr, f"a refused file's content leaks\n{outcome.describe()}"


# --- devices, FIFOs and standard input -----------------------------------------------------------


@needs_dev_zero
def test_an_endless_device_as_a_log_is_refused_up_front() -> None:
    """`sgcheck replay /dev/zero` must not read forever: a non-regular file is refused with SG-P008
    (exit status 2), in a complete report."""
    outcome = check_sane(run_subprocess("replay", "/dev/zero", fmt="json"), inputs=1)
    assert outcome.exit_code == 2
    assert outcome.file_codes() == {"/dev/zero": ["SG-P008"]}


@needs_dev_zero
@pytest.mark.parametrize("command", ["replay", "check"])
def test_endless_standard_input_is_cut_off_at_a_limit(command: str) -> None:
    """`sgcheck replay - < /dev/zero` (and `check -`) stops reading at a documented limit, within
    the memory cap, and reports the input instead of growing until the machine runs out."""
    with open("/dev/zero", "rb") as zeros:
        outcome = check_sane(run_subprocess(command, "-", fmt="json", stdin=zeros), inputs=1)
    assert outcome.exit_code in (1, 2)
    assert READING_LIMIT_CODES & set(outcome.codes()), outcome.describe()


@needs_fifo
def test_a_fifo_as_a_log_does_not_block(tmp_path: Path) -> None:
    """A FIFO given as a log is refused before it is opened (opening it would wait for a writer
    forever): SG-P008, exit status 2."""
    fifo = _fifo(tmp_path / "game.sglog")
    outcome = check_sane(run_subprocess("replay", str(fifo), fmt="json"), inputs=1)
    assert outcome.exit_code == 2
    assert "SG-P008" in outcome.codes()


@needs_fifo
def test_a_fifo_as_a_card_file_does_not_block(tmp_path: Path) -> None:
    """A FIFO given as a card file is refused up front: SG-P008, exit status 2."""
    fifo = _fifo(tmp_path / "cards.sgcard")
    outcome = check_sane(run_subprocess("check", str(fifo), fmt="json"))
    assert outcome.exit_code == 2
    assert "SG-P008" in outcome.codes()


@needs_fifo
def test_a_fifo_as_a_manifest_does_not_block(tmp_path: Path) -> None:
    """A pack whose manifest is a FIFO is refused up front (SG-P008, exit status 2), not waited on."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    _fifo(pack / "sgpack.yaml")
    outcome = check_sane(run_subprocess("check", str(pack), fmt="json"))
    assert outcome.exit_code == 2
    assert "SG-P008" in outcome.codes()


@needs_fifo
def test_a_fifo_listed_as_a_card_file_does_not_block(tmp_path: Path) -> None:
    """A card file listed in a manifest that turns out to be a FIFO is refused without waiting on
    it and reported as the listed entry it is (never as unlisted, SG-C204); the pack's other card
    files are still checked."""
    pack = _pack(tmp_path / "pack", MANIFEST + "  - pipe.sgcard\n")
    _fifo(pack / "pipe.sgcard")
    outcome = check_sane(run_subprocess("check", str(pack), fmt="json"))
    assert outcome.exit_code in (1, 2)
    assert {"SG-C203", "SG-P008"} & set(outcome.codes()), outcome.describe()
    assert "SG-C204" not in outcome.codes(), outcome.describe()
    assert any(path.endswith("cards.sgcard") for path in outcome.file_codes()), outcome.describe()


@needs_fifo
def test_a_fifo_in_a_walked_folder_does_not_block(tmp_path: Path) -> None:
    """A FIFO named like a card file in a folder given to `check` is refused up front; the
    folder's real card files are still checked."""
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "a-good.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    _fifo(folder / "b-pipe.sgcard")
    outcome = check_sane(run_subprocess("check", str(folder), fmt="json"))
    assert outcome.exit_code == 2
    assert "SG-P008" in outcome.codes()
    assert any(path.endswith("a-good.sgcard") for path in outcome.file_codes()), outcome.describe()


@needs_dev_zero
@needs_symlinks
def test_a_manifest_linked_to_an_endless_device_is_refused(tmp_path: Path) -> None:
    """A manifest that is a link to /dev/zero is refused instead of read until memory runs out."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    (pack / "sgpack.yaml").symlink_to("/dev/zero")
    outcome = check_sane(run_subprocess("check", str(pack), fmt="json"))
    assert outcome.exit_code in (1, 2)
    assert outcome.document["counts"]["error"] >= 1, outcome.describe()


@needs_dev_zero
@needs_symlinks
def test_a_card_file_linked_to_an_endless_device_is_refused(tmp_path: Path) -> None:
    """A listed card file that is a link to /dev/zero is refused instead of read without end."""
    pack = _pack(tmp_path / "pack", MANIFEST + "  - zeros.sgcard\n")
    (pack / "zeros.sgcard").symlink_to("/dev/zero")
    outcome = check_sane(run_subprocess("check", str(pack), fmt="json"))
    assert outcome.exit_code in (1, 2)
    assert outcome.document["counts"]["error"] >= 1, outcome.describe()


# --- links and files a pack refuses to read ---------------------------------------------------------


@needs_symlinks
def test_a_manifest_linked_out_of_its_pack_is_not_quoted(tmp_path: Path, secret: Path) -> None:
    """A manifest that is itself a link to a file outside the pack is refused, and no output
    format quotes a byte of the file it points at."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    (pack / "sgpack.yaml").symlink_to(secret)
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", str(pack), fmt=fmt))
        _never_quoted(outcome)
        assert outcome.exit_code in (1, 2), outcome.describe()


@needs_symlinks
def test_a_listed_card_linked_out_of_its_pack_is_not_quoted(tmp_path: Path, secret: Path) -> None:
    """A card file the manifest lists but that links out of the pack is refused (SG-C202) without
    quoting the target."""
    pack = _pack(tmp_path / "pack", MANIFEST + "  - borrowed.sgcard\n")
    (pack / "borrowed.sgcard").symlink_to(secret)
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", str(pack), fmt=fmt))
        _never_quoted(outcome)
        assert "SG-C202" in outcome.codes(), outcome.describe()


@needs_symlinks
def test_a_loose_card_linked_out_of_a_walked_folder_is_not_quoted(tmp_path: Path, secret: Path) -> None:
    """A loose `.sgcard` found while walking a folder that links to a file outside it is not
    read: it is reported, and no output format quotes the target's text."""
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "a-good.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    (folder / "b-linked.sgcard").symlink_to(secret)
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", str(folder), fmt=fmt))
        _never_quoted(outcome)
        assert outcome.exit_code in (1, 2), outcome.describe()


def test_an_unlisted_file_in_a_pack_is_not_quoted(tmp_path: Path) -> None:
    """A card file in the pack folder that the manifest does not list is named (SG-C204) but its
    content is never read into a diagnostic."""
    pack = _pack(tmp_path / "pack")
    (pack / "notes.sgcard").write_text(SECRET_TEXT, encoding="utf-8")
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", str(pack), fmt=fmt))
        _never_quoted(outcome)
        assert "SG-C204" in outcome.codes(), outcome.describe()


@needs_symlinks
def test_a_log_linked_out_of_a_replayed_folder_is_not_quoted(tmp_path: Path, secret: Path) -> None:
    """`sgcheck replay FOLDER` does not read a `.sglog` link leading out of the folder, and no
    output format quotes its target."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "linked.sglog").symlink_to(secret)
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("replay", str(folder), fmt=fmt))
        _never_quoted(outcome)
        assert outcome.exit_code == 2, outcome.describe()
        assert "SG-P008" in outcome.codes(), outcome.describe()
