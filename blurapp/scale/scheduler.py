"""Dask for the scale layer: the extra it needs, the scheduler a blur or a batch runs on (this
machine's threads, or a distributed cluster at an address checked before any client is made)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

SCALE_EXTRA = "pip install 'blurapp[scale]'"


class MissingExtraError(RuntimeError):
    """Blurring in tiles needs packages of the `scale` extra that are not installed."""


class ClusterError(RuntimeError):
    """The Dask scheduler given could not be reached, or its cluster has no worker left."""


def require_extra(purpose: str, scheduler: str | None) -> None:
    """Before any work on `scheduler`: MissingExtraError naming the extra once, and every
    package of it that the work needs and lacks, rather than one package, then the next."""
    missing = []
    try:
        import dask.array  # noqa: F401  (the extra's: only to learn it is there)
    except ImportError:
        missing.append("dask.array")
    if isinstance(scheduler, str) and scheduler not in _LOCAL_SCHEDULERS:
        try:
            import distributed  # noqa: F401  (as above)
        except ImportError:
            missing.append("distributed")
    if missing:
        raise missing_extra(purpose, missing)


def missing_extra(purpose: str, modules: list[str]) -> MissingExtraError:
    """The one wording of the `scale` extra missing: what needs it, what is lacking, and the
    command that installs it."""
    packages = ", ".join(dict.fromkeys(module.partition(".")[0] for module in modules))
    return MissingExtraError(
        f"{purpose} needs the scale extra, which is not installed (no {packages}): {SCALE_EXTRA}"
    )


def dask_array(purpose: str = "blurring an image in tiles") -> Any:
    """dask.array, or MissingExtraError saying it is needed for `purpose`."""
    try:
        import dask.array
    except ImportError as error:
        raise missing_extra(purpose, ["dask.array"]) from error
    return dask.array


def dask_distributed(purpose: str) -> Any:
    """Dask's distributed, or MissingExtraError saying it is needed for `purpose`."""
    try:
        import distributed
    except ImportError as error:
        raise missing_extra(purpose, ["distributed"]) from error
    return distributed


# Dask's threads by name: BlurApp gives them a pool of its own (computing).
_THREAD_SCHEDULERS = {"threads", "threading"}
# Dask's own schedulers by name; any other text is a cluster's address (tcp://host:8786, or
# host:8786 as distributed takes it too).
_LOCAL_SCHEDULERS = {
    *_THREAD_SCHEDULERS,
    "sync",
    "synchronous",
    "single-threaded",
    "processes",
    "multiprocessing",
}


@contextlib.contextmanager
def computing(scheduler: Any) -> Iterator[Callable[[Any], Any]]:
    """A function computing a Dask collection on `scheduler`: this machine's threads for None
    or "threads" (a pool of one a core, shut down after), the cluster at an address
    ("tcp://host:port"; its client closed after, see compute_on_cluster), or anything else
    dask's compute takes as its scheduler."""
    if scheduler is None or scheduler in _THREAD_SCHEDULERS:
        import functools
        from concurrent.futures import ThreadPoolExecutor

        import dask.threaded
        from dask.system import CPU_COUNT

        # A pool of BlurApp's own: from any thread but the main one (the window's worker, or
        # the row blurred ahead), Dask's "threads" start a pool of the cores + 4 threads, kept
        # until a later compute; the blocks' engines then ran on too many threads, and slower.
        pool = ThreadPoolExecutor(CPU_COUNT, thread_name_prefix="blurapp-blocks")
        threads = functools.partial(dask.threaded.get, pool=pool)
        try:
            yield lambda collection: collection.compute(scheduler=threads)
        finally:  # the blocks under way finish; those not begun (a row dropped) never do
            pool.shutdown(wait=True, cancel_futures=True)
        return
    if not isinstance(scheduler, str) or scheduler in _LOCAL_SCHEDULERS:
        yield lambda collection: collection.compute(scheduler=scheduler)
        return
    client = connect_to_cluster(scheduler)
    try:
        yield lambda collection: compute_on_cluster(client, collection, scheduler)
    finally:
        client.close()


# A cluster whose workers are all gone leaves its tasks waiting for one forever: after this
# long with no worker and nothing finished, what waits on them gives up. A minute lets a worker
# restarted by its nanny or by hand (a few seconds) come back first.
NO_WORKERS_SECONDS = 60.0
# How often something waiting on the cluster looks whether any worker is left.
CLUSTER_POLL_SECONDS = 1.0


def compute_on_cluster(client: Any, collection: Any, address: str) -> Any:
    """`collection` computed by the workers of `client`'s cluster (at `address`). Raises
    ClusterError when the cluster has had no worker for NO_WORKERS_SECONDS with the result
    still to come; its tasks are cancelled then, as when anything else stops the wait."""
    import asyncio
    import concurrent.futures

    distributed = dask_distributed("computing on a Dask cluster")
    future = client.compute(collection)
    watch = WorkerWatch(client)
    try:
        while True:
            # Waiting only: the result is fetched once, after (a fetch under the poll's timeout
            # would start again each second, and a task's own TimeoutError would read as one).
            try:
                with client.as_current():
                    distributed.wait([future], timeout=CLUSTER_POLL_SECONDS)
                break
            except TimeoutError:
                if watch.alone_too_long(progressed=False):
                    raise ClusterError(watch.words(address)) from None
        try:
            return future.result()
        except OSError:
            if future.status == "error":  # the blur's own error
                raise
            # Fetching the result failed: the connection to a scheduler going away reset
            # under it (which would otherwise read as an error of the output file's).
            raise ClusterError(_scheduler_lost(address)) from None
    except (asyncio.CancelledError, concurrent.futures.CancelledError):
        # distributed cancels what waits on a scheduler that went away.
        raise ClusterError(_scheduler_lost(address)) from None
    finally:
        if not future.done():
            with contextlib.suppress(Exception):  # the error that ends the wait is what counts
                client.cancel(future)


def _scheduler_lost(address: str) -> str:
    return (
        f"the Dask cluster at {address} stopped the blur: its scheduler went away, or "
        "cancelled the blur's tasks"
    )


class WorkerWatch:
    """Whether a cluster waited on has had no worker for NO_WORKERS_SECONDS, as far as anyone
    can tell: asked once each CLUSTER_POLL_SECONDS by what waits. A cluster that cannot be
    asked counts as one without workers: a client stuck reconnecting waited forever."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._alone_since: float | None = None
        self._said_none = False  # since then, the scheduler has said it has no worker
        self._seconds = NO_WORKERS_SECONDS  # read here, so a test can shorten it

    def alone_too_long(self, progressed: bool) -> bool:
        """`progressed`: something finished since the last time asked."""
        workers = None if progressed else _has_workers(self._client)
        if progressed or workers:
            self._alone_since, self._said_none = None, False
            return False
        self._said_none = self._said_none or workers is False
        self._alone_since = self._alone_since or time.monotonic()
        return time.monotonic() - self._alone_since >= self._seconds

    def words(self, address: str | None = None) -> str:
        cluster = "the Dask cluster" if address is None else f"the Dask cluster at {address}"
        if not self._said_none:
            return f"{cluster} did not answer whether it has a worker for {self._seconds:g} s"
        return f"{cluster} had no worker left for {self._seconds:g} s"


def _has_workers(client: Any) -> bool | None:
    """Whether the scheduler has a worker; None when it cannot be asked."""
    try:
        return bool(client.scheduler_info(n_workers=-1)["workers"])
    except Exception:
        return None


# The transports a cluster is reached over (distributed.comm); the address says which.
CLUSTER_SCHEMES = ("tcp", "ws", "wss")


def connect_to_cluster(address: str) -> Any:
    """A distributed Client of the scheduler at `address` ("tcp://host:port", or "host:port").

    Raises ClusterError for text that is no such address, before any connection is tried (a
    Client that fails to start takes a minute to give up while Python exits), and for a
    scheduler that cannot be reached; MissingExtraError without distributed.
    """
    try:
        import distributed
        from distributed.comm import registry
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError as error:
        raise missing_extra("computing on a Dask cluster", ["distributed"]) from error
    try:
        scheme, location = parse_address(address)
        registry.get_backend(scheme)
        # inproc:// reaches only a scheduler in this very process; tls:// needs certificates
        # BlurApp has no way to be given; ucx:// a library and hardware. Refused here, they
        # would fail only inside the client, and its closing would wait a minute.
        if scheme not in CLUSTER_SCHEMES:
            raise ValueError(f"BlurApp reaches a scheduler over {', '.join(CLUSTER_SCHEMES)}")
        host, port = parse_host_port(location)
        if not host or not 0 < port < 65536:
            raise ValueError(f"no host and port (1–65535) in {location!r}")
    except ValueError as error:
        raise ClusterError(
            f"{address!r} is not the address of a Dask scheduler (tcp://HOST:PORT): {error}"
        ) from None
    try:
        return distributed.Client(address, set_as_default=False, timeout=30)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from error
