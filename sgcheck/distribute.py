"""Work spread over processes or a cluster, the results in task order: :func:`map_ordered`.

One way of spreading work for every command that has many independent pieces of it (the logs
of ``sgcheck replay``, the games of a simulation): in this process, in local worker processes
(``--jobs``), or on a Dask distributed cluster (``--cluster ADDRESS`` or ``--cluster local``,
the ``cluster`` extra). Dask is imported only when a cluster is asked for; without it the
caller gets a :class:`ClusterError` saying how to install it.

The module knows nothing of what the tasks are; it imports nothing of sgcheck but its version.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Told ``(done, total)`` each time more tasks are finished, in the order they finish (which is
#: not the order :func:`map_ordered` yields them in); a progress bar draws from it.
Progress = Callable[[int, int], None]

#: ``cluster=LOCAL`` starts a cluster of local processes for the run and stops it after.
LOCAL = "local"
#: Seconds to reach a scheduler and see a worker join it before giving up (``ClusterError``).
DEFAULT_TIMEOUT = 10.0
#: How many times the cluster runs a task again when it raises (a worker out of memory...).
#: A task lost with a worker that died is run again by the scheduler whatever this says.
DEFAULT_RETRIES = 2
#: What to install for ``--cluster``.
INSTALL_HINT = "pip install 'sgcheck[cluster]'"
#: A local cluster's scheduler shows no dashboard and serves its few HTTP routes on a free port
#: (not on 8787, which another cluster may hold).
QUIET_SCHEDULER = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
#: Up to this many tasks travel to a worker together (fewer round trips; order is kept anyway).
MAX_CHUNK = 16


class ClusterError(Exception):
    """The cluster cannot be used: Dask is not installed, the address is not one, the scheduler
    cannot be reached or has no worker, or a worker runs another sgcheck. The message is one line."""


def map_ordered(
    function: Callable[[T], R],
    tasks: Iterable[T],
    *,
    jobs: int = 1,
    cluster: str | None = None,
    progress: Progress | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
) -> Iterator[R]:
    """``function(task)`` for every task, yielded in task order as soon as it and every task
    before it are done.

    Where the work runs:

    - ``jobs=1`` and ``cluster=None``: in this process, one task after another.
    - ``jobs`` above 1: in that many local processes (at most one per task). A few tasks
      travel to a worker together. If a worker process dies (killed, out of memory), the tasks
      not yet done are run in this process instead.
    - ``cluster="tcp://host:port"``: on the Dask distributed cluster whose scheduler listens
      there; ``cluster="local"``: on a cluster of ``jobs`` local worker processes started for
      this run and stopped after it. ``jobs`` says nothing about the size of a remote cluster.

    The contract the tasks keep: ``function`` and every task are picklable, and ``function``
    is importable by name in the worker processes (a module-level function or an instance of a
    module-level class: a cluster's workers need sgcheck installed, at this version). Each task
    is **pure and idempotent**: its result depends on the task alone (a random game takes its
    seed from the task, never from the process or the clock) and running it twice does no harm,
    because a task may run more than once: on a cluster, a task lost with a worker that died is
    run again on another one by the scheduler, and a task that raises is run again up to
    ``retries`` times. Each task's result is still yielded exactly once, in task order, so the
    results are the same whatever ``jobs`` and ``cluster`` say. On a cluster every batch of tasks
    is submitted under a key made of its content and its place in the run, so it is never
    computed twice for one run.

    ``progress`` is told ``(done, total)`` as tasks finish. An exception raised by ``function``
    is raised here when its task's turn comes (on a cluster, after the retries). Connecting to
    a cluster happens before this returns: a missing Dask, an address that is not one, a
    scheduler that cannot be reached within ``timeout`` seconds or has no worker by then, and a
    worker with another sgcheck raise :class:`ClusterError` (one line). Iterate to the end, or
    close the iterator, to stop a local cluster and end the connection at once.
    """
    work = tasks if isinstance(tasks, Sequence) else list(tasks)  # a Sequence may compute its tasks as asked
    if cluster is not None:
        session = _Session.open(cluster, jobs, timeout)
        ordered = _on_cluster(session, function, work, progress, retries)
        weakref.finalize(ordered, session.close)  # never iterated: still stop what was started
        return ordered
    workers = min(jobs, len(work))
    if workers <= 1:
        return _in_process(function, work, progress)
    return _in_processes(function, work, workers, progress)


def chunk_size(tasks: int, workers: int) -> int:
    """How many tasks travel to a worker at once: a few, so that there are about eight batches
    per worker (the last ones still spread the load), and never more than :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, tasks // (max(1, workers) * 8)))


@dataclass(frozen=True, slots=True)
class Batch(Generic[T, R]):
    """A function run over a few tasks in one go, in a worker; picklable when the function is."""

    function: Callable[[T], R]

    def __call__(self, tasks: Sequence[T]) -> list[R]:
        return [self.function(task) for task in tasks]


def _in_process(function: Callable[[T], R], tasks: Sequence[T], progress: Progress | None) -> Iterator[R]:
    for done, task in enumerate(tasks, 1):
        result = function(task)
        if progress is not None:
            progress(done, len(tasks))
        yield result


def _batches(tasks: Sequence[T], workers: int) -> Iterator[list[T]]:
    """The tasks a few at a time, made as they are asked for (a run of a million games never holds
    them all)."""
    size = chunk_size(len(tasks), workers)
    for start in range(0, len(tasks), size):
        yield [tasks[at] for at in range(start, min(start + size, len(tasks)))]


#: Batches in flight per worker: enough to keep every worker busy, few enough that the tasks and
#: results held stay in proportion to the workers, not to the run.
AHEAD = 4


class _Tally:
    """Counts the tasks done for ``progress``."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total = total
        self.done = 0
        self.progress = progress

    def add(self, count: int) -> None:
        self.done += count
        if self.progress is not None:
            self.progress(self.done, self.total)


def _in_processes(
    function: Callable[[T], R], tasks: Sequence[T], workers: int, progress: Progress | None
) -> Iterator[R]:
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    batches = enumerate(_batches(tasks, workers))
    batch = Batch(function)
    tally = _Tally(len(tasks), progress)
    running: dict[Future[list[R]], tuple[int, list[T]]] = {}
    finished: dict[int, tuple[Future[list[R]], list[T]]] = {}
    following = 0  # the next batch to yield
    broken = False
    left: list[tuple[int, list[T]]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        try:
            while True:
                while not broken and len(running) + len(finished) < workers * AHEAD:  # a window at most
                    index, part = next(batches, (-1, []))
                    if index < 0:
                        break
                    try:
                        running[pool.submit(batch, part)] = (index, part)
                    except BrokenProcessPool:  # a worker died: the batches not yet sent run here
                        broken, left = True, [(index, part)]
                if not running:
                    break
                done, _pending = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    index, part = running.pop(future)
                    finished[index] = (future, part)
                    if future.exception() is None:
                        tally.add(len(part))
                while following in finished:
                    future, part = finished.pop(following)
                    try:
                        results = future.result()
                    except BrokenProcessPool:  # a worker died (killed, out of memory): this process does it
                        results = batch(part)
                        tally.add(len(results))
                    following += 1
                    yield from results
            for _index, part in itertools.chain(left, batches):
                results = batch(part)
                tally.add(len(results))
                yield from results
        finally:
            pool.shutdown(wait=True, cancel_futures=True)  # closed early: start nothing more


# --- a Dask distributed cluster -----------------------------------------------------------------


def _sgcheck_version() -> str:
    """The version of sgcheck a worker runs (asked of each worker when the run starts)."""
    from sgcheck import __version__

    return __version__


class _Session:
    """A connection to a cluster (a Dask ``Client``), and the local cluster started for it."""

    def __init__(self, client: Any, local: Any | None, address: str) -> None:
        self.client = client
        self.local = local
        self.address = address
        self.levels: dict[str, int] = {}  # Dask's loggers' levels, while the session keeps them quiet

    def quiet(self) -> None:
        """Keep Dask's own loggers quiet while the session lasts: a scheduler lost mid-run is said
        once, as one line (ClusterError), not as the client's reconnect tracebacks on stderr."""
        import distributed  # noqa: F401  (its loggers exist once it is imported)

        for name in [name for name in logging.root.manager.loggerDict if name.partition(".")[0] == "distributed"]:
            logger = logging.getLogger(name)
            self.levels.setdefault(name, logger.level)
            logger.setLevel(logging.CRITICAL + 1)

    @staticmethod
    def open(cluster: str, jobs: int, timeout: float) -> _Session:
        try:
            import distributed
        except ImportError:
            raise ClusterError(f"a cluster needs Dask distributed, which is not installed: {INSTALL_HINT}") from None
        dask: Any = distributed
        local = None
        if cluster != LOCAL:
            from distributed.comm.addressing import get_address_host_port, parse_address

            try:
                scheme, _rest = parse_address(cluster)
                get_address_host_port(cluster)
            except ValueError as error:
                shown = _reason(error)
                raise ClusterError(f"not a scheduler address: {cluster!r} ({shown}); write tcp://HOST:PORT") from None
            if scheme != "tcp":  # tls needs certificates sgcheck does not set up; inproc, ws, ucx: not here
                raise ClusterError(
                    f"sgcheck reaches a scheduler over tcp:// only, not {scheme}:// ({cluster!r}); write tcp://HOST:PORT"
                )
        else:
            try:
                local = dask.LocalCluster(
                    n_workers=max(1, jobs),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    scheduler_kwargs=QUIET_SCHEDULER,
                    silence_logs=logging.ERROR,
                )
            except Exception as error:  # no room for processes, no free port...
                raise ClusterError(f"cannot start a local cluster: {_reason(error)}") from None
        address = cluster if local is None else str(local.scheduler_address)
        session = _Session(None, local, address)
        session.quiet()
        try:
            session.client = dask.Client(local if local is not None else cluster, timeout=timeout, set_as_default=False)
            session.client.wait_for_workers(1, timeout=timeout)
            session.check_versions()
        except ClusterError:
            session.close()
            raise
        except Exception as error:  # OSError, TimeoutError: nothing answers there, or nobody works
            reached = session.client is not None
            session.close()
            if not reached:
                raise ClusterError(
                    f"cannot reach the scheduler at {cluster!r} within {timeout:g} s: {_reason(error)}"
                ) from None
            raise ClusterError(f"no worker joined the scheduler at {cluster!r} within {timeout:g} s") from None
        return session

    def check_versions(self) -> None:
        """Every worker runs this sgcheck: another version could play other rules."""
        ours = _sgcheck_version()
        answers: dict[str, object] = self.client.run(_sgcheck_version, on_error="return")
        for worker, theirs in sorted(answers.items()):
            if isinstance(theirs, BaseException):
                raise ClusterError(
                    f"worker {worker} cannot run sgcheck ({_reason(theirs)}): install sgcheck {ours} on every worker"
                )
            if theirs != ours:
                raise ClusterError(f"worker {worker} runs sgcheck {theirs}, this is sgcheck {ours}: install {ours}")

    def close(self) -> None:
        client, local = self.client, self.local
        self.client = self.local = None
        for part in (client, local):
            if part is not None:
                with contextlib.suppress(Exception):  # already gone: nothing left to stop
                    part.close()
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)
        self.levels.clear()


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def _on_cluster(
    session: _Session, function: Callable[[T], R], tasks: Sequence[T], progress: Progress | None, retries: int
) -> Iterator[R]:
    import distributed
    from dask.base import tokenize

    dask: Any = distributed
    try:
        client = session.client
        workers = sum(client.nthreads().values())
        batches = enumerate(_batches(tasks, workers))
        batch = Batch(function)
        name = f"sgcheck-{getattr(function, '__qualname__', type(function).__qualname__)}"
        run = tokenize(_sgcheck_version(), batch)
        tally = _Tally(len(tasks), progress)
        running = dask.as_completed([], loop=client.loop, with_results=False)
        sizes: dict[Any, tuple[int, int]] = {}
        finished: dict[int, Any] = {}
        following = 0
        while True:
            while len(sizes) < max(1, workers) * AHEAD:  # submit ahead, a window at most
                index, part = next(batches, (-1, []))
                if index < 0:
                    break
                key = f"{name}-{index}-{tokenize(run, part)}"
                future = _lost_scheduler(
                    session, functools.partial(client.submit, batch, part, key=key, retries=retries)
                )
                sizes[future] = (index, len(part))
                running.add(future)
            if not sizes:
                break
            future = _lost_scheduler(session, lambda: next(running))
            index, size = sizes.pop(future)
            finished[index] = future
            tally.add(size)
            while following in finished:
                done = finished.pop(following)
                if done.status in ("cancelled", "lost"):
                    raise ClusterError(f"lost the scheduler at {session.address!r} while the run went on")
                results: list[R] = _lost_scheduler(session, done.result)
                following += 1
                yield from results
    finally:
        session.close()


def _lost_scheduler(session: _Session, step: Callable[[], Any]) -> Any:
    """``step()``, a call to the cluster; a connection lost on the way (the scheduler died, the
    network went) is a :class:`ClusterError` naming the cause, never a traceback. An error the
    task itself raised goes through as it is."""
    import concurrent.futures

    try:
        return step()
    except (concurrent.futures.CancelledError, OSError, TimeoutError) as error:
        raise ClusterError(f"lost the scheduler at {session.address!r}: {_reason(error)}") from None
    except Exception as error:
        if type(error).__module__.startswith(("distributed", "tornado")):  # CommClosedError, FutureCancelledError
            raise ClusterError(f"lost the scheduler at {session.address!r}: {_reason(error)}") from None
        raise
