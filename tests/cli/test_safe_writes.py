"""Writes that lose nothing: ``-o`` never goes over an input, and ``fmt`` and ``check --fix``
rewrite a file in place (owner, group, mode and hard links kept), never a read-only file and
never one that changed after it was read (SG-P009)."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main
from sgcheck.lang import rewrite
from sgcheck.lang.rewrite import rewrite_file
from sgcheck.project.stamps import Stamp
from tests import installed

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
NOBODY = 65534

MESSY = '; opening\n[Event "x"]\nking white e1\nking black e8\n1.   UPKEEP: summon R a1   ; rook\n'
CLEAN = '; opening\n[Event "x"]\n\nking white e1\nking black e8\n\n1.   upkeep: summon R a1  ; rook\n'
OVER_CAP = 'relic "A" {\n    cost 3 SP\n    effect to_hit +30\n}\n'
FIXED = OVER_CAP.replace("+30", "+25")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def snapshot(path: Path) -> tuple[bytes, int, int, int, int, int]:
    status = path.stat()
    return path.read_bytes(), status.st_ino, status.st_nlink, status.st_uid, status.st_gid, status.st_mode


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A card file and a game log in the working directory."""
    shutil.copy(EXAMPLES / "cards" / "guide-relics.sgcard", tmp_path / "cards.sgcard")
    shutil.copy(EXAMPLES / "logs" / "full-game.sglog", tmp_path / "game.sglog")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- -o / --output-file ------------------------------------------------------------------------


@pytest.mark.parametrize("command, name", [("check", "cards.sgcard"), ("replay", "game.sglog")])
@pytest.mark.parametrize("spelling", ["same", "absolute", "dotted", "symlink", "hardlink"])
def test_output_file_over_an_input_is_refused_untouched(inputs: Path, command: str, name: str, spelling: str) -> None:
    """The reproducer: `check -o cards.sgcard cards.sgcard` emptied the file before reading it and
    passed. Any spelling of an input, or a link to one, is refused (exit 2) and left as it is."""
    given = inputs / name
    before = given.read_bytes()
    target = {
        "same": name,
        "absolute": str(given),
        "dotted": f"./sub/../{name}",
        "symlink": "report.txt",
        "hardlink": "report.txt",
    }[spelling]
    (inputs / "sub").mkdir()
    if spelling == "symlink":
        (inputs / "report.txt").symlink_to(name)
    if spelling == "hardlink":
        os.link(given, inputs / "report.txt")
    result = invoke(command, "-o", target, name)
    assert result.exit_code == 2, result.output
    assert "--output-file" in result.stderr and "is an input of this run" in result.stderr
    assert given.read_bytes() == before


def test_output_file_over_a_card_of_a_walked_pack_or_the_configuration(inputs: Path) -> None:
    """Inputs found by walking a folder (a pack's manifest and card files) and the configuration
    file count too, whatever the report file is called."""
    pack = inputs / "pack"
    shutil.copytree(EXAMPLES / "logs" / "relic-pack", pack)
    card = pack / "guide-relics.sgcard"
    before = card.read_bytes()
    os.link(card, inputs / "cards-report.txt")
    os.link(pack / "sgpack.yaml", inputs / "manifest-report.txt")
    for target in ("cards-report.txt", "manifest-report.txt"):
        result = invoke("check", "--isolated", "-o", target, "pack")
        assert result.exit_code == 2 and "is an input of this run" in result.stderr, result.output
    assert card.read_bytes() == before
    config = inputs / "settings.toml"
    config.write_text("[tool.sgcheck]\nstatistics = false\n", encoding="utf-8")
    result = invoke("check", "--config", str(config), "-o", str(config), "cards.sgcard")
    assert result.exit_code == 2 and "is an input of this run" in result.stderr
    assert config.read_text(encoding="utf-8") == "[tool.sgcheck]\nstatistics = false\n"
    replayed = invoke("replay", "--pack", "pack", "-o", "cards-report.txt", "game.sglog")
    assert replayed.exit_code == 2 and "is an input of this run" in replayed.stderr
    assert card.read_bytes() == before


def test_output_file_never_takes_a_name_sgcheck_reads(inputs: Path) -> None:
    """A log, card file, scenario, manifest or pyproject.toml is never a report, input of this run
    or not; a card file of the pack a log's [Pack] tag names is an input, known before the replay."""
    shutil.copytree(EXAMPLES / "logs" / "relic-pack", inputs / "relic-pack")
    shutil.copy(EXAMPLES / "logs" / "relic-game.sglog", inputs / "relic-game.sglog")
    card = inputs / "relic-pack" / "guide-relics.sgcard"
    before = card.read_bytes()
    result = invoke("replay", "-o", str(card), "relic-game.sglog")
    assert result.exit_code == 2 and "is an input of this run" in result.stderr, result.output
    assert card.read_bytes() == before
    for name in ("other.sglog", "new.sgcard.yaml", "x.scenario.yaml", "sgpack.yaml", "pyproject.toml"):
        result = invoke("check", "-o", name, "cards.sgcard")
        assert result.exit_code == 2 and "a file sgcheck reads" in result.stderr, name
        assert not (inputs / name).exists()


def test_output_file_overwrites_a_previous_report(inputs: Path) -> None:
    """Any other file is a previous report: it is replaced whole, nothing of it left."""
    report = inputs / "report.txt"
    report.write_text("an old and much longer report\n" * 1000, encoding="utf-8")
    assert invoke("replay", "-o", "report.txt", "game.sglog").exit_code == 0
    text = report.read_text(encoding="utf-8")
    assert text.startswith("legal game") and "old" not in text
    assert invoke("check", "--isolated", "-o", "report.txt", "cards.sgcard").exit_code == 1  # guide cards: findings
    text = report.read_text(encoding="utf-8")
    assert "cards.sgcard" in text and "old" not in text


def test_output_file_is_checked_before_fix_writes(inputs: Path) -> None:
    """`check --fix -o` over a card file it would fix: refused before any fix is written."""
    card = inputs / "over.sgcard"
    card.write_text(OVER_CAP, encoding="utf-8")
    os.link(card, inputs / "report.txt")
    result = invoke("check", "--isolated", "--fix", "-o", "report.txt", "over.sgcard")
    assert result.exit_code == 2 and "is an input of this run" in result.stderr
    assert card.read_text(encoding="utf-8") == OVER_CAP


def test_output_file_over_an_input_in_a_child_process(inputs: Path) -> None:
    """The reproducer as a user runs it."""
    before = (inputs / "cards.sgcard").read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "sgcheck", "check", "-o", "cards.sgcard", "cards.sgcard"],
        capture_output=True,
        cwd=inputs,
        env={**os.environ, "PYTHONPATH": installed.pythonpath()},
        check=False,
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert (inputs / "cards.sgcard").read_bytes() == before


# --- fmt and check --fix: in place ---------------------------------------------------------------


def _as_root_only() -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a file to another owner needs root")


@pytest.mark.parametrize("how", ["fmt", "fix"])
def test_rewrite_keeps_owner_group_mode_and_hard_links(tmp_path: Path, how: str) -> None:
    """A file of another user, mode 0640, hard-linked: it stays the same file (inode, links),
    with its owner, group and mode, and every link shows the new text."""
    name, text, expected = ("g.sglog", MESSY, CLEAN) if how == "fmt" else ("a.sgcard", OVER_CAP, FIXED)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o640)
    if os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)
    os.link(path, tmp_path / ("linked-" + name))
    _, inode, links, uid, gid, mode = snapshot(path)
    args = ("fmt", str(path)) if how == "fmt" else ("check", "--isolated", "--fix", str(path))
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert snapshot(path) == (expected.encode(), inode, links, uid, gid, mode)
    assert links == 2 and (tmp_path / ("linked-" + name)).read_text(encoding="utf-8") == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "linked-" + name])  # no stray file


def test_a_symbolic_link_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.sglog").write_text(MESSY, encoding="utf-8")
    (tmp_path / "link.sglog").symlink_to("real.sglog")
    assert invoke("fmt", str(tmp_path / "link.sglog")).exit_code == 0
    assert (tmp_path / "link.sglog").is_symlink() and (tmp_path / "real.sglog").read_text(encoding="utf-8") == CLEAN


@pytest.mark.parametrize("how", ["fmt", "fix"])
def test_a_read_only_file_is_refused_even_as_root(tmp_path: Path, how: str) -> None:
    """Mode 0444: no one may write it. Root could open it; it is refused all the same (exit 2)."""
    name, text = ("g.sglog", MESSY) if how == "fmt" else ("a.sgcard", OVER_CAP)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o444)
    before = snapshot(path)
    mtime = path.stat().st_mtime_ns
    args = ("fmt", str(path)) if how == "fmt" else ("check", "--isolated", "--fix", str(path))
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert f"{path}: SG-P009 not rewritten: the file is read-only" in result.stderr
    assert snapshot(path) == before and path.stat().st_mtime_ns == mtime


def test_fmt_leaves_a_file_that_changed_while_it_was_formatted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reproducer: another writer's lines, added while fmt formats the file, were lost (exit 0)."""
    import sgcheck.cli.fmt_cmd as fmt_cmd

    path = tmp_path / "g.sglog"
    path.write_text(MESSY, encoding="utf-8")
    other = MESSY + "2. upkeep: summon R a2\n"
    real = fmt_cmd.format_bytes

    def format_then_someone_writes(data: bytes, name: str, kind: fmt_cmd.Kind, **options: bool) -> fmt_cmd.Formatted:
        done = real(data, name, kind, **options)
        path.write_text(other, encoding="utf-8")
        return done

    monkeypatch.setattr(fmt_cmd, "format_bytes", format_then_someone_writes)
    result = invoke("fmt", str(path))
    assert result.exit_code == 2
    assert "SG-P009 not rewritten: the file changed after it was read" in result.stderr
    assert path.read_text(encoding="utf-8") == other


def test_fix_leaves_a_file_that_changed_just_before_the_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--fix reads the file again before writing; a change after that read is caught by the stamp."""
    import sgcheck.lang.format_files as format_files

    path = tmp_path / "a.sgcard"
    path.write_text(OVER_CAP, encoding="utf-8")
    other = OVER_CAP + "# added by someone else\n"
    real = format_files.encode_like

    def encode_then_someone_writes(text: str, original: bytes) -> bytes:
        path.write_text(other, encoding="utf-8")
        return real(text, original)

    monkeypatch.setattr(format_files, "encode_like", encode_then_someone_writes)
    result = invoke("check", "--isolated", "--fix", str(path))
    assert result.exit_code == 2
    assert "SG-P009 not rewritten: the file changed after it was read" in result.stderr
    assert path.read_text(encoding="utf-8") == other


# --- the safe write itself ---------------------------------------------------------------------


def stamped(path: Path) -> Stamp:
    status = os.stat(path)
    return Stamp.of(status, path.read_bytes())


def test_same_size_and_time_but_other_bytes_is_a_change(tmp_path: Path) -> None:
    path = tmp_path / "f.sglog"
    path.write_bytes(b"aaaa\n")
    stamp = stamped(path)
    path.write_bytes(b"bbbb\n")
    os.utime(path, ns=(stamp.mtime_ns, stamp.mtime_ns))
    failure = rewrite_file(str(path), b"new\n", stamp)
    assert failure is not None and failure.code == "SG-P009" and "changed after it was read" in failure.message
    assert failure.span is not None and failure.span.source == str(path)
    assert path.read_bytes() == b"bbbb\n"


def test_stamp_of_pieces_is_the_stamp_of_the_whole(tmp_path: Path) -> None:
    path = tmp_path / "f.sglog"
    path.write_bytes(b"one\ntwo\n")
    status = os.stat(path)
    assert Stamp.of(status, [b"one\n", b"two\n"]) == Stamp.of(status, b"one\ntwo\n")
    assert rewrite_file(str(path), b"x\n", Stamp.of(status, [b"one\n", b"two\n"])) is None
    assert path.read_bytes() == b"x\n"


@pytest.mark.parametrize("new", [b"short\n", b"a much longer text than before\n" * 100])
def test_rewrite_shorter_and_longer(tmp_path: Path, new: bytes) -> None:
    path = tmp_path / "f.sglog"
    path.write_bytes(b"the text that was read\n" * 10)
    assert rewrite_file(str(path), new, stamped(path)) is None
    assert path.read_bytes() == new


def test_no_stamp_and_a_vanished_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "f.sglog"
    path.write_bytes(b"x\n")
    refused = rewrite_file(str(path), b"y\n", None)
    assert refused is not None and refused.code == "SG-P009"
    stamp = stamped(path)
    path.unlink()
    gone = rewrite_file(str(path), b"y\n", stamp)
    assert gone is not None and "cannot be examined" in gone.message and not path.exists()


def test_a_full_disk_is_found_before_a_byte_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Longer new text: its room is reserved first; without room the file stays as it was."""
    if not hasattr(os, "posix_fallocate"):
        pytest.skip("no posix_fallocate on this system")
    path = tmp_path / "f.sglog"
    path.write_bytes(b"old\n")
    stamp = stamped(path)

    def no_room(handle: int, offset: int, length: int) -> None:
        os.ftruncate(handle, offset + length // 2)  # as an emulation that wrote part of it would
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "posix_fallocate", no_room)
    failure = rewrite_file(str(path), b"new and longer\n", stamp)
    assert failure is not None and "no room" in failure.message and "left as it was" in failure.message
    assert path.read_bytes() == b"old\n"


def test_a_file_system_without_reservation_still_gets_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.sglog"
    path.write_bytes(b"old\n")
    stamp = stamped(path)

    def unsupported(handle: int, offset: int, length: int) -> None:
        raise OSError(errno.EOPNOTSUPP, os.strerror(errno.EOPNOTSUPP))

    monkeypatch.setattr(os, "posix_fallocate", unsupported, raising=False)
    assert rewrite_file(str(path), b"new and longer\n", stamp) is None
    assert path.read_bytes() == b"new and longer\n"


def test_a_failure_while_writing_is_said_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.sglog"
    path.write_bytes(b"old\n")
    stamp = stamped(path)

    def broken(handle: int, data: object) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(rewrite.os, "write", broken)
    failure = rewrite_file(str(path), b"new\n", stamp)
    assert failure is not None and failure.code == "SG-P009" and "may be incomplete" in failure.message


def test_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    fifo = tmp_path / "p.sglog"
    os.mkfifo(fifo)
    failure = rewrite_file(str(fifo), b"x\n", Stamp(0, 0, 0, b""))
    assert failure is not None and "no longer a regular file" in failure.message


# --- as another user -----------------------------------------------------------------------------


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder of root's, mode 0755, that uid 65534 can reach (the test's own folder is private)
    but create nothing in: a rename-based write could not work there, a write in place can."""
    _as_root_only()
    folder = Path(tempfile.mkdtemp(prefix="sgcheck-writes-"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def as_nobody(folder: Path, *args: str) -> tuple[int, str]:
    """``sgcheck ARGS`` run by uid/gid 65534 in ``folder``: a child process started with
    ``user=65534``, or, where that user cannot run this interpreter (it lives under a private home),
    a forked child that drops to that user before running the command."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sgcheck", *args],
            capture_output=True,
            cwd=folder,
            env={"PYTHONPATH": installed.pythonpath(), "PATH": os.environ.get("PATH", "")},
            user=NOBODY,
            group=NOBODY,
            extra_groups=[],
            check=False,
        )
    except PermissionError:
        return _forked_as(NOBODY, folder, lambda: invoke(*args))
    if b"No module named" in done.stderr or b"Permission denied: '/" in done.stderr:
        return _forked_as(NOBODY, folder, lambda: invoke(*args))
    return done.returncode, done.stderr.decode("utf-8", "replace")


def _forked_as(uid: int, folder: Path, run: Callable[[], Result]) -> tuple[int, str]:
    invoke("fmt", "--check", str(folder))  # every module the command needs, imported while root
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to uid, run, report, never return into pytest
        status = 70
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.chdir(folder)
            result = run()
            os.write(write_end, result.stderr.encode("utf-8", "replace")[:60000])
            status = result.exit_code
        except BaseException as error:
            os.write(write_end, repr(error).encode()[:60000])
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as stream:
        said = stream.read()
    _, wait = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(wait), said.decode("utf-8", "replace")


def test_nobody_formats_a_file_of_its_own_in_a_folder_it_cannot_write(shared_folder: Path) -> None:
    path = shared_folder / "g.sglog"
    path.write_text(MESSY, encoding="utf-8")
    os.chown(path, NOBODY, NOBODY)
    os.chmod(path, 0o640)
    _, inode, links, uid, gid, mode = snapshot(path)
    code, said = as_nobody(shared_folder, "fmt", "g.sglog")
    assert code == 0, said
    assert snapshot(path) == (CLEAN.encode(), inode, links, uid, gid, mode)


def test_nobody_cannot_rewrite_a_file_of_roots(shared_folder: Path) -> None:
    """Readable but not writable for this user: os.access refuses it, the file is left as it was."""
    path = shared_folder / "g.sglog"
    path.write_text(MESSY, encoding="utf-8")
    os.chmod(path, 0o644)
    code, said = as_nobody(shared_folder, "fmt", "g.sglog")
    assert code == 2, said
    assert "SG-P009 not rewritten: the file is read-only for this user" in said
    assert path.read_text(encoding="utf-8") == MESSY


def test_nobody_cannot_rewrite_its_own_read_only_file(shared_folder: Path) -> None:
    path = shared_folder / "a.sgcard"
    path.write_text(OVER_CAP, encoding="utf-8")
    os.chown(path, NOBODY, NOBODY)
    os.chmod(path, 0o444)
    code, said = as_nobody(shared_folder, "check", "--isolated", "--fix", "a.sgcard")
    assert code == 2, said
    assert "SG-P009 not rewritten: the file is read-only" in said
    assert path.read_text(encoding="utf-8") == OVER_CAP


# --- one guard for every writer: any route, before any work, never an emptied report ------------------


@pytest.fixture
def tagged(inputs: Path) -> Path:
    """A log whose [Pack] tag names a pack folder beside it (its manifest lists one card file)."""
    shutil.copytree(EXAMPLES / "logs" / "relic-pack", inputs / "relic-pack")
    shutil.copy(EXAMPLES / "logs" / "relic-game.sglog", inputs / "relic-game.sglog")
    assert '[Pack "relic-pack"]' in (inputs / "relic-game.sglog").read_text(encoding="utf-8")
    return inputs


@pytest.mark.parametrize("name", ["relic-pack/guide-relics.sgcard", "relic-pack/sgpack.yaml"])
@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_replay_output_never_goes_over_what_a_log_tag_reaches(tagged: Path, name: str, link: str) -> None:
    """The reproducer: `replay -o report.txt`, report.txt a link to a card file of the pack the
    log's [Pack] tag names, wrote over the card file (check refused the same file). It is refused
    before any game is replayed, exit 2, the card file as it was."""
    target = tagged / name
    before = target.read_bytes()
    if link == "symlink":
        (tagged / "report.txt").symlink_to(target)
    else:
        os.link(target, tagged / "report.txt")
    result = invoke("replay", "-o", "report.txt", "relic-game.sglog")
    assert result.exit_code == 2 and "is an input of this run" in result.stderr, result.output
    assert target.read_bytes() == before


def test_simulate_output_never_goes_over_a_card_of_its_pack(tagged: Path) -> None:
    """`simulate --pack FOLDER -o LINK` with LINK a hard link to a card file of the pack: refused."""
    card = tagged / "relic-pack" / "guide-relics.sgcard"
    before = card.read_bytes()
    os.link(card, tagged / "report.txt")
    result = invoke("simulate", "relic-pack", "--games", "1", "--seed", "1", "-o", "report.txt")
    assert result.exit_code == 2 and "is an input of this run" in result.stderr, result.output
    assert card.read_bytes() == before


def test_sample_logs_folder_that_cannot_be_written_is_found_before_any_game(tagged: Path) -> None:
    """The reproducer: `simulate --sample-logs DIR -o report` with DIR unwritable played every game,
    then failed with an internal error after emptying the report. Now: exit 2 before any game, the
    previous report as it was."""
    report = tagged / "report.txt"
    report.write_text("the previous report\n", encoding="utf-8")
    (tagged / "blocked").write_text("a file, not a folder\n", encoding="utf-8")
    result = invoke(
        "simulate", "relic-pack", "--games", "2", "--seed", "1", "-o", "report.txt",
        "--sample-logs", "blocked/logs",
    )  # fmt: skip
    assert result.exit_code == 2 and "--sample-logs" in result.stderr, result.output
    assert "internal error" not in result.output
    assert report.read_text(encoding="utf-8") == "the previous report\n"


def test_explain_break_folder_that_cannot_be_written_is_found_before_the_check(inputs: Path) -> None:
    (inputs / "blocked").write_text("a file, not a folder\n", encoding="utf-8")
    result = invoke("check", "--explain-break", "blocked/proofs", "cards.sgcard")
    assert result.exit_code == 2 and "--explain-break" in result.stderr, result.output


def test_a_run_that_fails_leaves_the_previous_report_whole(inputs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report is held until the run ends well: a run stopped half-way (here by a failure of
    sgcheck itself while a log is replayed) leaves the previous report as it was, never emptied."""
    from sgcheck.replay import files

    report = inputs / "report.txt"
    report.write_text("the previous report\n", encoding="utf-8")

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("stopped half-way")

    monkeypatch.setattr(files, "replay_all", broken)
    result = CliRunner().invoke(main, ["replay", "-o", "report.txt", "game.sglog"])
    assert result.exit_code == 2
    assert report.read_text(encoding="utf-8") == "the previous report\n"


def test_a_file_read_by_a_route_not_known_before_the_run_is_still_never_written_over(tagged: Path) -> None:
    """What the run reads that could not be known before it (a [Pack] tag after a header longer
    than the part read ahead) is checked again when the run ends: the report is not written over
    it (exit 2), and the card file is as it was."""
    log = tagged / "relic-game.sglog"
    log.write_text("; a comment\n" * 7000 + log.read_text(encoding="utf-8"), encoding="utf-8")
    card = tagged / "relic-pack" / "guide-relics.sgcard"
    before = card.read_bytes()
    os.link(card, tagged / "report.txt")
    result = invoke("replay", "--jobs", "1", "-o", "report.txt", "relic-game.sglog")
    assert result.exit_code == 2 and "is a file this run read" in result.stderr, result.output
    assert card.read_bytes() == before
