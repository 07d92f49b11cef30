"""``sgcheck.distribute.map_ordered``: the same results, in task order, in this process, in local
processes and on a Dask cluster, and none lost or repeated when a worker dies mid-run; and
``sgcheck replay --cluster`` (docs/cluster.md).

The clusters are local ones started and stopped by the tests: two worker processes of one thread.
The timeouts are generous, for a loaded machine; no assertion depends on how long anything takes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from distribute_tasks import fails_on_five, seeded, slow

import sgcheck
from sgcheck import distribute
from sgcheck.cli import main
from sgcheck.distribute import AHEAD, MAX_CHUNK, ClusterError, chunk_size, map_ordered
from tests import installed

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
WAIT = 60.0  # seconds: reaching a cluster on a loaded machine
LOGS = "examples/logs"


def _worker_environment() -> dict[str, str]:
    """The environment of worker processes: the sgcheck under test (the installed one with
    SGCHECK_TEST_INSTALLED=1, tests/installed.py) and the tests' tasks importable."""
    paths = [*installed.pythonpath().split(os.pathsep), str(ROOT), str(TESTS)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(dict.fromkeys(filter(None, paths)))}


def _local_cluster() -> Any:
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        memory_limit="512MiB",
        dashboard_address=None,
        scheduler_kwargs=distribute.QUIET_SCHEDULER,
        silence_logs=logging.ERROR,
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A local cluster of two worker processes for the module's tests, stopped after them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", _worker_environment()["PYTHONPATH"])
        with _local_cluster() as started:
            yield started


# --- the same results wherever the work runs --------------------------------------------------------


def test_results_come_in_task_order_and_are_the_same_in_processes_and_on_a_cluster(cluster: Any) -> None:
    tasks = list(range(50))
    here = list(map_ordered(seeded, tasks))
    assert here == [seeded(task) for task in tasks]
    assert list(map_ordered(seeded, tasks, jobs=2)) == here
    assert list(map_ordered(seeded, tasks, cluster=cluster.scheduler_address, timeout=WAIT)) == here


def test_progress_counts_every_task_once_in_each_mode(cluster: Any) -> None:
    for options in ({}, {"jobs": 2}, {"cluster": cluster.scheduler_address, "timeout": WAIT}):
        told: list[tuple[int, int]] = []

        def tell(done: int, total: int, told: list[tuple[int, int]] = told) -> None:
            told.append((done, total))

        results = list(map_ordered(seeded, range(20), progress=tell, **options))
        assert len(results) == 20
        assert told[-1] == (20, 20), options
        assert [done for done, _ in told] == sorted({done for done, _ in told}), options  # rising, never repeated


def test_a_task_that_raises_raises_at_its_turn_after_the_results_before_it(cluster: Any) -> None:
    for options in ({}, {"jobs": 2}, {"cluster": cluster.scheduler_address, "timeout": WAIT, "retries": 0}):
        seen: list[int] = []
        with pytest.raises(ArithmeticError, match="task 5 cannot be done"):
            seen.extend(map_ordered(fails_on_five, range(12), **options))
        assert seen == [0, 2, 4, 6, 8], options


def test_a_few_tasks_travel_together_about_eight_batches_per_worker() -> None:
    assert chunk_size(10, 2) == 1
    assert chunk_size(160, 2) == 10
    assert chunk_size(100_000, 4) == distribute.MAX_CHUNK
    assert list(map_ordered(seeded, range(100), jobs=2)) == [seeded(task) for task in range(100)]


# --- a worker killed in the middle -------------------------------------------------------------------


def test_a_worker_killed_mid_run_loses_no_task_and_repeats_none(tmp_path: Path) -> None:
    """Kill one of two workers while it runs a task: the scheduler runs that task again on the other
    worker; every result arrives exactly once, in order, equal to the result in this process."""
    from distributed import Client

    tasks = [(str(tmp_path), index) for index in range(16)]
    expected = [seeded(index) for index in range(16)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", _worker_environment()["PYTHONPATH"])
        with _local_cluster() as local, Client(local, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=WAIT)
            victim = sorted(client.run(os.getpid).values())[0]
            killed: list[int] = []

            def kill_when_busy(done: int, total: int) -> None:
                """Kill the victim the first time it is seen in the middle of a task."""
                if killed:
                    return
                started = {path.stem for path in tmp_path.glob(f"*-{victim}.start")}
                if started - {path.stem for path in tmp_path.glob(f"*-{victim}.end")}:
                    os.kill(victim, signal.SIGKILL)
                    killed.append(done)

            results = list(
                map_ordered(slow, tasks, cluster=local.scheduler_address, progress=kill_when_busy, timeout=WAIT)
            )
    assert killed, "the victim was never seen running a task"
    assert killed[0] < len(tasks)  # it died mid-run, with tasks still to do
    assert results == expected  # none lost, none repeated, in task order
    lost = {path.stem for path in tmp_path.glob(f"*-{victim}.start")} - {
        path.stem for path in tmp_path.glob(f"*-{victim}.end")
    }
    assert lost, "the killed worker was running a task"
    for mark in lost:  # the lost task was run again to its end by another worker
        index = mark.split("-")[0]
        assert [path for path in tmp_path.glob(f"{index}-*.end")], mark


def test_a_killed_local_process_pool_is_finished_in_this_process(tmp_path: Path) -> None:
    """``jobs`` above 1 without a cluster: a worker process that dies leaves its tasks to this process."""
    tasks = [(str(tmp_path), index) for index in range(6)]
    pids: set[int] = set()

    def kill_a_worker(done: int, total: int) -> None:
        if pids:
            return
        for path in tmp_path.glob("*.start"):
            pid = int(path.stem.split("-")[1])
            if pid != os.getpid():
                pids.add(pid)
                os.kill(pid, signal.SIGKILL)
                return

    results = list(map_ordered(slow, tasks, jobs=2, progress=kill_a_worker))
    assert results == [seeded(index) for index in range(6)]
    assert pids


# --- a cluster that cannot be used --------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_an_unreachable_scheduler_is_one_line_within_the_timeout() -> None:
    address = f"tcp://127.0.0.1:{_free_port()}"
    # the timeout given is the one applied (the message says it); no clock is read here
    with pytest.raises(ClusterError, match=r"cannot reach the scheduler at 'tcp://127\.0\.0\.1:\d+' within 1 s"):
        map_ordered(seeded, range(3), cluster=address, timeout=1)


def test_replay_with_an_unreachable_scheduler_exits_2_with_one_line() -> None:
    address = f"tcp://127.0.0.1:{_free_port()}"
    result = CliRunner().invoke(main, ["replay", str(ROOT / LOGS), "--cluster", address, "--cluster-timeout", "1"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"sgcheck: --cluster: cannot reach the scheduler at '{address}' within 1 s: "
        f"Timed out trying to connect to {address} after 1 s"
    ]


def test_replay_with_what_is_not_an_address_exits_2_with_one_line() -> None:
    result = CliRunner().invoke(main, ["replay", str(ROOT / LOGS), "--cluster", "scheduler"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "sgcheck: --cluster: not a scheduler address: 'scheduler' (missing port number in address 'scheduler'); "
        "write tcp://HOST:PORT"
    ]


def test_without_the_extra_cluster_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if Dask were not installed
    result = CliRunner().invoke(main, ["replay", str(ROOT / LOGS), "--cluster", "local"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "sgcheck: --cluster: a cluster needs Dask distributed, which is not installed: pip install 'sgcheck[cluster]'"
    ]
    assert "Traceback" not in result.output


def test_a_worker_with_another_sgcheck_is_refused(cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers' sgcheck must be this one: another version could play other rules."""
    monkeypatch.setattr(sgcheck, "__version__", "0.0.1")  # this process; the workers keep theirs
    with pytest.raises(ClusterError, match=r"worker tcp://\S+ runs sgcheck 0\.1\.0, this is sgcheck 0\.0\.1"):
        map_ordered(seeded, range(3), cluster=cluster.scheduler_address, timeout=WAIT)


# --- sgcheck replay --cluster ------------------------------------------------------------------------


def _report(*options: str) -> tuple[int, Any]:
    result = CliRunner().invoke(main, ["replay", LOGS, "--format", "json", "--keep-going", *options])
    assert result.stderr == "", result.stderr
    return result.exit_code, json.loads(result.stdout)


def test_replay_on_a_local_cluster_reports_what_one_process_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cluster.md: `--cluster local` replays a folder on a cluster started for the run; the
    JSON report is the one of `--jobs 1` and `--jobs 2`, files in the same order."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHONPATH", _worker_environment()["PYTHONPATH"])
    one = _report("--jobs", "1")
    assert one[0] == 1  # the folder holds the broken examples
    assert len(one[1]["files"]) > 20
    assert _report("--jobs", "2") == one
    assert _report("--jobs", "2", "--cluster", "local") == one


def _dask(*arguments: str) -> subprocess.Popen[bytes]:
    """``dask scheduler`` or ``dask worker`` as docs/cluster.md starts them, with this checkout's sgcheck."""
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *arguments],
        cwd=ROOT,
        env=_worker_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _sgcheck(*options: str) -> subprocess.CompletedProcess[str]:
    """``sgcheck replay LOGS --format json --keep-going OPTIONS`` in a process of its own."""
    command = [sys.executable, "-m", "sgcheck", "replay", LOGS, "--format", "json", "--keep-going", *options]
    return subprocess.run(command, cwd=ROOT, env=_worker_environment(), capture_output=True, text=True, timeout=300)


def test_replay_on_a_scheduler_and_worker_started_by_the_dask_commands() -> None:
    """docs/cluster.md: `dask scheduler`, then `dask worker ADDRESS`, then `sgcheck replay --cluster
    ADDRESS`. Before a worker joins, the replay says so and exits 2."""
    from distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = [_dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")]
    try:
        with Client(address, timeout=WAIT, set_as_default=False):  # the scheduler is up
            pass
        alone = _sgcheck("--cluster", address, "--cluster-timeout", "1")
        assert alone.returncode == 2
        assert alone.stderr.splitlines() == [
            f"sgcheck: --cluster: no worker joined the scheduler at '{address}' within 1 s"
        ]
        processes.append(_dask("worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"))
        done = _sgcheck("--cluster", address, "--cluster-timeout", str(WAIT))
        assert done.stderr == ""
        assert done.returncode == 1  # the folder holds the broken examples
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(ROOT)
            here = CliRunner().invoke(main, ["replay", LOGS, "--format", "json", "--keep-going", "--jobs", "1"])
        assert done.stdout == here.stdout
    finally:
        for process in reversed(processes):  # the worker first: it then leaves the scheduler at once
            process.terminate()
            try:
                process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class _Counted(Sequence[int]):
    """A million tasks that count how many were made and how many are alive at once."""

    def __init__(self, size: int) -> None:
        self.size, self.made = size, 0

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        if not 0 <= index < self.size:
            raise IndexError(index)
        self.made += 1
        return index


def test_tasks_are_made_as_they_are_asked_for() -> None:
    """The reproducer: `simulate --games 1000000` built every task before the first game ended
    (393 MB). A sequence of tasks is read as it goes: after the first result of a million tasks,
    only the first few have been made."""
    tasks = _Counted(1_000_000)
    results = map_ordered(abs, tasks)
    assert next(iter(results)) == 0
    assert tasks.made <= 16
    tasks = _Counted(1_000_000)
    spread = map_ordered(abs, tasks, jobs=2)
    assert next(iter(spread)) == 0
    assert tasks.made <= 2 * AHEAD * MAX_CHUNK  # a window of batches in flight, not the run
    spread.close()  # type: ignore[attr-defined]


def test_simulate_makes_its_tasks_as_it_plays() -> None:
    from sgcheck.play.policies import Policy
    from sgcheck.simulate.games import Side
    from sgcheck.simulate.run import RunPlan, plan

    tasks = plan(RunPlan(Side("p"), Side("core"), games=1_000_000, seed=1, policy=Policy.GREEDY))
    assert len(tasks) == 2_000_000
    assert tasks[1_999_999].index == 1_999_999 and tasks[-1].index == 1_999_999
    assert [task.index for task in tasks[:3]] == [0, 1, 2]


@pytest.mark.parametrize("scheme", ["tls", "inproc", "ws", "wss", "ucx", "nope"])
def test_every_address_scheme_but_tcp_is_one_line_at_once(scheme: str) -> None:
    """The reproducer: a `tls://` address took 22 s to fail, with a traceback. Every scheme but
    tcp:// is refused before anything is tried (exit 2, one line, nothing on standard output)."""
    address = f"{scheme}://127.0.0.1:{_free_port()}"
    result = CliRunner().invoke(main, ["replay", str(ROOT / LOGS), "--cluster", address, "--cluster-timeout", "1"])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("sgcheck: --cluster: ") and "tcp://HOST:PORT" in line and "Traceback" not in line


def test_a_scheduler_lost_mid_run_is_one_line_and_the_report_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reproducer: a scheduler that died mid-run gave an internal error, tracebacks and a
    report cut off mid-summary. Now: one line naming the cause, exit 2, and the previous report
    of -o as it was (the report is written only when the run ends well)."""
    from sgcheck import distribute

    def lost(*args: object, **kwargs: object) -> Iterator[object]:
        yield from ()
        raise distribute.ClusterError("lost the scheduler at 'tcp://127.0.0.1:1': Stream is closed")

    monkeypatch.setattr(distribute, "_on_cluster", lambda *args, **kwargs: lost())
    session = distribute._Session(None, None, "tcp://127.0.0.1:1")
    monkeypatch.setattr(distribute._Session, "open", staticmethod(lambda *args, **kwargs: session))
    report = tmp_path / "report.txt"
    report.write_text("the previous report\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(ROOT / LOGS), "--cluster", "tcp://127.0.0.1:1", "-o", str(report)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "sgcheck: --cluster: lost the scheduler at 'tcp://127.0.0.1:1': Stream is closed"
    )
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert report.read_text(encoding="utf-8") == "the previous report\n"


def test_a_connection_lost_on_the_way_is_a_cluster_error_naming_the_cause() -> None:
    """What Dask raises when the scheduler goes away (a closed stream, a cancelled future, a
    refused connection) becomes one ClusterError; an error the task itself raised goes through."""
    from distributed.comm.core import CommClosedError

    from sgcheck import distribute

    session = distribute._Session(None, None, "tcp://10.0.0.1:8786")

    def closed() -> None:
        raise CommClosedError("in <TCP (closed)>: Stream is closed")

    def refused() -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    def task_error() -> None:
        raise ValueError("the task's own error")

    for step in (closed, refused):
        with pytest.raises(ClusterError, match=r"^lost the scheduler at 'tcp://10\.0\.0\.1:8786': "):
            distribute._lost_scheduler(session, step)
    with pytest.raises(ValueError, match="the task's own error"):
        distribute._lost_scheduler(session, task_error)


def test_a_scheduler_killed_mid_run_is_one_line_exit_2_and_the_report_left_as_it_was(tmp_path: Path) -> None:
    """The same reproducer end to end: `dask scheduler` and `dask worker` as docs/cluster.md starts
    them, `sgcheck simulate --cluster` playing, and the scheduler process killed while the games
    are played. The run ends with one line naming the cause and exit 2, no traceback, and the
    report of -o is the previous one, whole (written only when a run ends well)."""
    from distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
    worker: subprocess.Popen[bytes] | None = None
    report = tmp_path / "report.txt"
    report.write_text("the previous report\n", encoding="utf-8")
    try:
        with Client(address, timeout=WAIT, set_as_default=False) as client:  # the scheduler is up
            worker = _dask("worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard")
            client.wait_for_workers(1, timeout=WAIT)
        pack = str(ROOT / "examples" / "packs" / "overpowered")
        command = [sys.executable, "-m", "sgcheck", "simulate", pack, "--games", "400", "--seed", "1"]
        command += ["--cluster", address, "--cluster-timeout", str(WAIT), "-o", str(report)]
        run = subprocess.Popen(
            command, cwd=ROOT, env=_worker_environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        with contextlib.suppress(subprocess.TimeoutExpired):
            run.wait(timeout=8)  # the games are under way (400 a side take minutes)
        assert run.returncode is None, "the run ended before the scheduler could be lost"
        scheduler.kill()
        scheduler.wait(timeout=WAIT)
        stdout, stderr = run.communicate(timeout=300)
    finally:
        for process in (worker, scheduler):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
    said = stderr.decode("utf-8", "replace")
    assert run.returncode == 2, said
    assert "Traceback" not in said and "internal error" not in said, said
    assert said.splitlines()[-1].startswith(f"sgcheck: --cluster: lost the scheduler at '{address}'"), said
    assert stdout == b""
    assert report.read_text(encoding="utf-8") == "the previous report\n"
