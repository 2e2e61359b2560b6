"""Where an arena's jobs run: in this process, on a pool of this machine's processes, or on a Dask cluster.

`barbu arena` (every family) and ``benchmarks/strength.py`` hand their jobs (one match rotation, one
Bésigue board) to a `Runner`.  A job is a module-level function of barbu and its arguments, and its result
depends on its seed alone, so where it runs changes nothing: each caller puts the results back in job
order (`in_job_order`, or a sort), and a run on a cluster gives the rows and the summary of a run here.

The cluster (``--cluster tcp://host:8786``) is Dask's distributed scheduler, imported only when an address
is given (the ``cluster`` extra): barbu works without it.  Every refusal on the way (the extra missing, no
scheduler at the address, no workers, a worker with another barbu) is a plain `ClusterError`.
docs/cluster.md says how to start a cluster and why Dask.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from concurrent.futures import CancelledError, ProcessPoolExecutor, as_completed
from functools import lru_cache
from importlib import metadata
from importlib.util import find_spec
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from ..core.errors import BarbuError
from ..core.words import N_, message

R = TypeVar("R")
Job = Sequence[Any]

#: The port ``dask scheduler`` listens on unless told otherwise.
DEFAULT_PORT = 8786
INSTALL = "pip install 'barbu[cluster]=={version}'"

NEEDS_EXTRA = message(
    "arena-cluster-needs-extra",
    N_("--cluster needs Dask's distributed package, which barbu's cluster extra brings: pip install 'barbu[cluster]'"),
)
BAD_ADDRESS = message(
    "arena-cluster-bad-address",
    N_("{address!r} is not a cluster address: give the one dask scheduler prints, e.g. tcp://host:8786"),
)
UNREACHABLE = message(
    "arena-cluster-unreachable",
    N_(
        "no Dask scheduler answers at {address}: start one with dask scheduler on a machine every worker can reach, "
        "and give the address it prints"
    ),
)
NO_WORKERS = message(
    "arena-cluster-no-workers",
    N_(
        "the scheduler at {address} has no workers (waited {seconds} s): start some with dask worker {address} "
        "on each machine"
    ),
)
VERSIONS = message(
    "arena-cluster-versions",
    N_(
        "every worker must run barbu {version}, as this machine does, and these do not: {workers}; install the same "
        "version everywhere: {install}"
    ),
)
WORKER_VERSION = message(
    "arena-cluster-worker-version",
    N_(
        "the worker {worker} runs barbu {theirs}, not {version} as the machine that started the run: install the "
        "same version everywhere: {install}"
    ),
)
NO_BARBU = message(
    "arena-cluster-no-barbu",
    N_("a worker of the cluster at {address} cannot import barbu: install it on every worker machine: {install}"),
)
LOST = message(
    "arena-cluster-lost",
    N_(
        "the cluster at {address} was lost after {done} of {total} jobs; run the same command again: the same "
        "seeds give the same results"
    ),
)


class ClusterError(BarbuError):
    """A cluster that cannot run the arena's jobs, said in plain words."""


def barbu_version() -> str:
    """This machine's installed barbu, as ``barbu --version`` says it."""
    try:
        return metadata.version("barbu")
    except metadata.PackageNotFoundError:  # run from a source tree never installed
        return "unknown"


class Runner:
    """Runs ``fn(*job)`` for each job; `results` yields ``(job index, result)`` as each job ends.

    A runner is opened once and may run several batches (the arena plays more seeds when matches end early);
    ``with`` closes it.  ``workers`` is how many jobs run at once (a cluster's count at the start)."""

    workers: int = 1
    address: str | None = None  # a cluster's scheduler
    version: str | None = None  # the barbu every cluster worker runs

    def results(self, fn: Callable[..., R], jobs: Sequence[Job]) -> Iterator[tuple[int, R]]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcess(Runner):
    """One job after the other in this process: the reference every other runner must equal."""

    def results(self, fn: Callable[..., R], jobs: Sequence[Job]) -> Iterator[tuple[int, R]]:
        for i, job in enumerate(jobs):
            yield i, fn(*job)


class LocalPool(Runner):
    """``--workers N``: a pool of N processes of this machine, started at the first batch and kept."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def results(self, fn: Callable[..., R], jobs: Sequence[Job]) -> Iterator[tuple[int, R]]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        futures = {self._pool.submit(fn, *job): i for i, job in enumerate(jobs)}
        try:
            for f in as_completed(futures):
                yield futures[f], f.result()
        finally:  # stopped early (an error, Ctrl+C): drop what has not started
            for f in futures:
                f.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def _checked(version: str, fn: Callable[..., R], *job: Any) -> R:
    """A job as a cluster worker runs it: refused on a worker whose barbu is not the client's (one that
    joined after the start's check)."""
    theirs = barbu_version_cached()
    if theirs != version:
        from distributed import get_worker  # on a worker, distributed is there

        raise ClusterError.of(
            WORKER_VERSION,
            worker=get_worker().address,
            theirs=theirs,
            version=version,
            install=INSTALL.format(version=version),
        )
    return fn(*job)


@lru_cache(maxsize=1)
def barbu_version_cached() -> str:
    """`barbu_version`, looked up once per worker process."""
    return barbu_version()


def normal_address(address: str) -> str:
    """``host``, ``host:port`` or ``tcp://host:port`` as Dask writes it (the scheme and the port put in)."""
    from distributed.comm.addressing import parse_address, parse_host_port, unparse_address, unparse_host_port

    text = address.strip()
    try:
        scheme, loc = parse_address(text if "://" in text else "tcp://" + text)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(loc, default_port=DEFAULT_PORT)
            if not host:
                raise ValueError(address)
            loc = unparse_host_port(host, port)
        return unparse_address(scheme, loc)
    except (ValueError, TypeError):
        raise ClusterError.of(BAD_ADDRESS, address=address) from None


def _quiet_dask() -> Callable[[], None]:
    """Silence Dask's loggers (it logs a lost connection with tracebacks, which the user reads as one plain
    `ClusterError`); the function returned gives them their levels back."""
    import distributed  # noqa: F401  (sets its loggers up)

    names = ["distributed"] + [n for n in logging.root.manager.loggerDict if n.startswith("distributed.")]
    levels = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL + 1)

    def loud() -> None:
        for n, level in levels.items():
            logging.getLogger(n).setLevel(level)

    return loud


class DaskCluster(Runner):
    """``--cluster ADDRESS``: the jobs go to an existing Dask cluster's workers, as many at once as they hold."""

    def __init__(self, address: str, timeout: float = 30.0) -> None:
        if find_spec("distributed") is None:  # the cluster extra
            raise ClusterError.of(NEEDS_EXTRA)
        self.address = normal_address(address)
        self.timeout = timeout
        self._loud = _quiet_dask()
        try:
            self._knock()
            self._client = self._connect()
        except BaseException:
            self._loud()
            raise
        try:
            self._check_workers()
        except BaseException:
            self.close()
            raise

    def _knock(self) -> None:
        """A plain TCP connection first: a wrong host or port is told at once, not after Dask's retries."""
        from distributed.comm.addressing import parse_address, parse_host_port

        address = self.address
        assert address is not None  # set in __init__
        scheme, loc = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return
        try:
            socket.create_connection(parse_host_port(loc), timeout=self.timeout).close()
        except OSError:
            raise ClusterError.of(UNREACHABLE, address=self.address) from None

    def _connect(self) -> Any:
        """The client, connected within the timeout.  Dask waits for ever on a port that answers but is not a
        scheduler's (a dashboard, another server): the connection is made in a thread that is given up then."""
        from distributed import Client

        box: dict[str, Any] = {}

        def connect() -> None:
            try:
                box["client"] = Client(self.address, timeout=self.timeout, set_as_default=False)
            except Exception as e:  # noqa: BLE001  (told below in plain words)
                box["error"] = e

        thread = threading.Thread(target=connect, name="barbu-cluster-connect", daemon=True)
        thread.start()
        thread.join(self.timeout + 5)
        if "client" not in box:
            raise ClusterError.of(UNREACHABLE, address=self.address)
        return box["client"]

    def _check_workers(self) -> None:
        """At least one worker, and every worker with this machine's barbu."""
        try:
            self._client.wait_for_workers(1, timeout=self.timeout)
        except (TimeoutError, OSError):
            raise ClusterError.of(NO_WORKERS, address=self.address, seconds=round(self.timeout)) from None
        self.version = barbu_version()
        install = INSTALL.format(version=self.version)
        # A standard-library probe: a worker without barbu answers with an error instead of failing to load it.
        answers = self._client.run(metadata.version, "barbu", on_error="return")
        wrong = {w: v if isinstance(v, str) else "-" for w, v in sorted(answers.items()) if v != self.version}
        if wrong:
            raise ClusterError.of(
                VERSIONS,
                version=self.version,
                install=install,
                workers=", ".join(f"{w} ({v})" for w, v in wrong.items()),
            )
        self.workers = sum(self._client.nthreads().values())

    def results(self, fn: Callable[..., R], jobs: Sequence[Job]) -> Iterator[tuple[int, R]]:
        from distributed import as_completed as completed

        assert self.version is not None
        futures = [self._client.submit(_checked, self.version, fn, *job, pure=False) for job in jobs]
        index = {f.key: i for i, f in enumerate(futures)}
        done = 0
        try:
            for f in completed(futures, loop=self._client.loop):
                try:
                    result = f.result()
                except CancelledError:  # the scheduler went away, or the connection to it
                    raise ClusterError.of(LOST, address=self.address, done=done, total=len(jobs)) from None
                except ModuleNotFoundError as e:
                    if (e.name or "").partition(".")[0] != "barbu":
                        raise
                    raise ClusterError.of(
                        NO_BARBU, address=self.address, install=INSTALL.format(version=self.version)
                    ) from None
                done += 1
                yield index[f.key], result
        finally:
            left = [f for f in futures if not f.done()]
            if left and self._client.status == "running":
                self._client.cancel(left)

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            self._client = None
            try:
                client.close()
            finally:
                self._loud()


def open_runner(workers: int = 1, cluster: str | None = None, timeout: float = 30.0) -> Runner:
    """The runner for ``--workers`` / ``--cluster``: a cluster when an address is given, else a pool of
    ``workers`` processes, else this process."""
    if cluster:
        return DaskCluster(cluster, timeout)
    return LocalPool(workers) if workers > 1 else InProcess()


def timed(fn: Callable[..., R], *job: Any) -> tuple[R, float]:
    """``fn(*job)`` and the seconds it took where it ran (a job's own time, whatever else runs at once)."""
    start = time.perf_counter()
    result = fn(*job)
    return result, time.perf_counter() - start


def in_job_order(pairs: Iterable[tuple[int, R]]) -> Iterator[R]:
    """The results in job order, each as soon as every earlier one is in: progress that reads the results
    so far says the same whichever job ends first."""
    waiting: dict[int, R] = {}
    upto = 0
    for i, result in pairs:
        waiting[i] = result
        while upto in waiting:
            yield waiting.pop(upto)
            upto += 1
