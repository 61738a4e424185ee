"""Work of ``hog grade-batch`` and ``hog contest`` on a Dask cluster (``--scheduler`` or ``--workers``).

The one seam between the kit and Dask: ``connect`` opens a client (to a scheduler's
address, or to a local cluster of N worker processes it starts and owns), and
``Cluster.run_all`` has the contract of ``grader.classroom.pool.run_all``: ``work(task)`` for each
task on the workers, ``done(task, value)`` here as each returns, ``lost(task, why)`` when
it raised or its workers kept dying; it returns early once ``signals`` received one.
Tasks travel in chunks (one Dask task each); a chunk whose worker dies is run again on
another (Dask retries it), so a killed worker loses nothing; results come back here and
the caller writes them, so the files are the same as a local run's.

Who may use it: a local cluster (``--workers``) speaks only mutual TLS, with a certificate and
key made for it in memory (``_temporary_security``: as Dask's ``Security.temporary()``, on an
elliptic curve) and held by this process and its workers alone, so another user of the machine
(or a submission) that reaches its ports is refused at the handshake; its web pages (dashboard,
task and log pages) are not served. A running scheduler (``--scheduler``) is reached as Dask's own
configuration says: a ``tls://`` address with the certificates of ``distributed.comm.tls`` (a Dask
config file or ``DASK_DISTRIBUTED__COMM__TLS__...`` variables); a ``tcp://`` one is open to whoever
reaches it, which is said on stderr.

Stopping: each worker is told that the run stopped (``_stop``, run in its process), pending
chunks are cancelled, and a running chunk stops before its next task; a local cluster is then
closed, which ends its worker processes and, through ``PR_SET_PDEATHSIG``, their sandboxes. (A
chunk looks at its own process's note before each task: a Dask event asked the scheduler each
time, through a client of the worker's own, which cost the scheduler's process an answer per
submission on the cores the workers grade on.)

On the workers, each chunk runs in the process's own scratch folder (``grader.classroom.pool``),
one chunk at a time per process (start workers with one thread each). Submissions must be
at the same path on the workers as here (a shared file system), as on any cluster.

``distributed`` is an optional extra: ``pip install 'hog-kit[cluster]'``.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import sys
import tempfile
import threading
import time
import uuid
from typing import Callable, Iterator, TextIO

from grader.classroom import pool
from grader.errors import UsageError

INSTALL = "pip install 'hog-kit[cluster]'"
POLL_SECONDS = 0.1
CHUNKS_PER_WORKER = 4      # chunks per worker: enough to balance slow submissions, few enough to be cheap
MAX_CHUNK = 8
WORKERS_SECONDS = 2.0      # how long a count of the cluster's workers is taken as current
SOCKET_PATH_BYTES = 107    # the longest path a Unix socket is bound to (the fork server's, in the temporary folder)
# The most tasks in a chunk of a run fed by a queue (the course server's): one while the queue is short, so that
# no student's result waits on another's grade; twice as many at each ask that the queue fills, up to this, so
# that a deadline's burst costs the scheduler, the client and the results' transfer less per submission.
FED_CHUNK = 4
NO_WEB_PAGES = {"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}
# What only Dask's dashboard shows, which the kit's own cluster has not: the workers' sampling profiler (a
# look at every thread every 10 ms) and the time series of each process's CPU and memory (twice a second;
# the memory limits read the memory themselves). Measured on 2 cores: an idle 2-worker cluster took 5-9% of
# the machine with them, 1-5% without; a batch of 96 submissions went 4-8% faster (three paired runs).
NO_DASHBOARD_SAMPLING = {"distributed.worker.profile.enabled": False,
                         "distributed.admin.system-monitor.interval": "5s"}
# What the kit's cluster, whose logs it silences, spends for nothing: each event loop's tick every 20 ms (it
# measures how long the loop was blocked, to warn in the logs). Once a second instead. (Work stealing stays: it
# moves a task queued behind a slow one to an idle worker, as the course server's small chunks need.)
NO_TICK_WARNINGS = {"distributed.admin.tick.interval": "1s"}
NO_DASHBOARD = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}   # its empty web server on a free port
QUIET = logging.CRITICAL + 1   # Dask's logs, even the "Closed comm" ones as a stopped command closes its
                               # client: a failure reaches the user as the kit reports it
TLS_CONFIG = ("distributed.comm.tls.ca-file, .client.cert and .client.key in Dask's configuration (a YAML file "
              "in ~/.config/dask/, or DASK_DISTRIBUTED__COMM__TLS__CA_FILE, DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT "
              "and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY)")


def _distributed():
    try:
        import distributed
    except ImportError:
        raise UsageError(f"--scheduler and --workers run the work on a Dask cluster, which needs Dask's "
                         f"distributed package: {INSTALL} (or leave both out to run here)") from None
    return distributed


def _start_fork_server(preload: tuple[str, ...]) -> None:
    """The fork server a local cluster's workers start from, started now, before this process loads Dask: it
    loads Dask and ``preload`` (the kit's modules the work needs) on a core of its own meanwhile, and a worker's
    first task finds them loaded. Dask finds it running and uses it."""
    import importlib.util
    import multiprocessing
    from multiprocessing import forkserver
    if importlib.util.find_spec("distributed") is None:
        return   # connect says what to install
    multiprocessing.get_context("forkserver").set_forkserver_preload(["distributed", *preload])
    # Its socket is made in a folder of its own in the temporary folder, and a socket's path holds at most 107
    # bytes: under a deep TMPDIR (a test's, a course server's), that folder is made in /tmp instead.
    deep = len(os.path.join(tempfile.gettempdir(), "pymp-12345678", "listener-12345678")) > SOCKET_PATH_BYTES
    previous = tempfile.tempdir
    if deep and os.access("/tmp", os.W_OK | os.X_OK):
        tempfile.tempdir = "/tmp"
    try:
        forkserver.ensure_running()
    finally:
        tempfile.tempdir = previous


def _temporary_security(distributed):
    """Mutual TLS for a local cluster: a key and a self-signed certificate made now, in memory only, that every
    role (the scheduler, the workers, this client) holds and trusts alone. As Dask's ``Security.temporary()``,
    but on the P-256 curve: its key is made in well under a millisecond, where an RSA key of 2,048 bits took
    50-300 ms of the command's start, and each handshake signs faster."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        raise UsageError(f"--workers secures its cluster with TLS, which needs the cryptography package: "
                         f"{INSTALL}") from None
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "dask-internal")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName("dask-internal")]), critical=False)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=365))
                   .sign(key, hashes.SHA256()))
    key_text = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption()).decode()
    certificate_text = certificate.public_bytes(serialization.Encoding.PEM).decode()
    held = {f"tls_{role}_{part}": text for role in ("client", "scheduler", "worker")
            for part, text in (("key", key_text), ("cert", certificate_text))}
    return distributed.Security(require_encryption=True, tls_ca_file=certificate_text, **held)


def _local(distributed, workers: int):
    """A cluster of ``workers`` processes on this machine that only this process can use. Its workers start
    from a fork server that has loaded Dask once (``_start_fork_server``), rather than each as a new
    interpreter (Dask's default): in about a third of the time, and they close at once. They have no memory
    limit of Dask's (whose monitors look at each worker ten times a second, from the worker and from its
    nanny): what a submission may hold is the sandbox's limit, in each sandbox."""
    security = _temporary_security(distributed)
    import dask   # installed with distributed
    # Read by the scheduler and by each worker as it starts.
    with dask.config.set({**NO_WEB_PAGES, **NO_DASHBOARD_SAMPLING, **NO_TICK_WARNINGS,
                          "distributed.worker.multiprocessing-method": "forkserver"}):
        return distributed.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                                        dashboard_address=None, scheduler_kwargs=NO_DASHBOARD, silence_logs=QUIET,
                                        security=security, memory_limit=0)


def _remote(distributed, scheduler: str, notes: TextIO):
    """A client of the scheduler at ``scheduler``, with the security Dask's configuration gives."""
    try:
        scheme, place = distributed.comm.parse_address(scheduler)
        security = distributed.Security()   # distributed.comm.tls.* of Dask's configuration
    except (ValueError, TypeError) as error:
        raise UsageError(f"--scheduler {scheduler}: {error}") from None
    secured = scheme in ("tls", "wss")
    if not secured and security.require_encryption:
        raise UsageError(f"--scheduler {scheduler}: Dask's configuration requires encryption "
                         f"(distributed.comm.require-encryption), which a {scheme}:// address does not give; "
                         f"give the scheduler's tls:// address")
    if secured:
        if not (security.tls_ca_file and security.tls_client_cert):
            raise UsageError(f"--scheduler {scheduler}: a {scheme}:// scheduler admits only clients holding a "
                             f"certificate of its cluster; set {TLS_CONFIG}")
        try:
            security.get_connection_args("client")
        except OSError as error:
            raise UsageError(f"--scheduler {scheduler}: the certificate or key that Dask's configuration names "
                             f"cannot be used ({error}); set {TLS_CONFIG}") from None
    try:
        client = distributed.Client(scheduler, timeout="10s", security=security)
    except (OSError, TimeoutError, ValueError) as error:
        accepted = " or accepted the certificate of distributed.comm.tls.client.cert" if secured else ""
        raise UsageError(f"--scheduler {scheduler}: no Dask scheduler answered{accepted} ({error}); "
                         f"give the address it prints, e.g. tls://10.0.0.5:8786") from None
    if not secured:
        print(f"Warning: --scheduler {scheduler} is neither encrypted nor authenticated: whoever reaches {place} "
              f"(every user of this machine, at least) can run code on its workers as their user and read "
              f"what they read. Secure the cluster with TLS (a tls:// scheduler and workers started with "
              f"certificates; here, {TLS_CONFIG}), or use --workers N.", file=notes)
    return client


@contextlib.contextmanager
def connect(*, scheduler: str | None = None, workers: int | None = None, notes: TextIO | None = None,
            preload: tuple[str, ...] = ()) -> Iterator["Cluster | None"]:
    """A cluster for ``--scheduler ADDRESS`` or ``--workers N``; None (run here) when neither is given.
    ``notes`` (stderr by default) hears that a scheduler's connection is not secured; a local cluster's
    workers start with the modules ``preload`` names loaded (those the work runs)."""
    if scheduler is None and workers is None:
        yield None
        return
    if scheduler is not None and workers is not None:
        raise UsageError("give --scheduler ADDRESS (a running Dask scheduler) or --workers N (a local "
                         "cluster), not both")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers {workers}: give at least 1")
    if workers is not None:
        _start_fork_server(preload)
    distributed = _distributed()
    if scheduler is not None:
        cluster = Cluster(_remote(distributed, scheduler, notes or sys.stderr))
    else:
        cluster = Cluster(starting=lambda: _local(distributed, workers))
    try:
        yield cluster
    finally:
        cluster.close()


class Cluster:
    """A client of a cluster. A local cluster (``starting``: a function that starts it) starts in a thread of
    its own: the command goes on preparing its work (a batch's hidden cases, its compiled cases) while the
    cluster's processes start, and ``client`` waits for it (raising what stopped it from starting)."""

    def __init__(self, client=None, starting: Callable[[], object] | None = None):
        self._client, self.local, self._failed = client, None, None
        self._counted: tuple[float, int] | None = None   # (when, how many workers) as the scheduler last said
        self._starting = None
        if starting is not None:
            self._starting = threading.Thread(target=self._start, args=(starting,), name="hog-cluster-start",
                                              daemon=True)
            self._starting.start()

    def _start(self, starting: Callable[[], object]) -> None:
        try:
            self.local = starting()
            self._client = _distributed().Client(self.local)
        except BaseException as error:   # raised again where the client is wanted
            self._failed = error
            if self.local is not None:
                with contextlib.suppress(Exception):
                    self.local.close()
                self.local = None

    def _started(self) -> None:
        if self._starting is not None:
            self._starting.join()
            self._starting = None

    @property
    def client(self):
        self._started()
        if self._failed is not None:
            raise self._failed
        return self._client

    @property
    def workers(self) -> int:
        """How many workers the cluster has, asked of the scheduler at most every WORKERS_SECONDS: the answer
        lists every worker, and a run fed by a queue looks at the count 50 times a second."""
        now = time.monotonic()
        if self._counted is None or now - self._counted[0] > WORKERS_SECONDS:
            self._counted = (now, max(1, len(self.client.scheduler_info(n_workers=-1).get("workers", {}))))
        return self._counted[1]

    def close(self) -> None:
        self._started()
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
        if self.local is not None:
            with contextlib.suppress(Exception):
                self.local.close()

    def chunks(self, tasks: list) -> list[list]:
        """The tasks in order, in chunks of a share of what is left (at most MAX_CHUNK): they shrink
        towards the end, so the workers finish together rather than one running a large last chunk."""
        workers, chunks, start = self.workers, [], 0
        while start < len(tasks):
            size = max(1, min(MAX_CHUNK, -(-(len(tasks) - start) // (CHUNKS_PER_WORKER * workers))))
            chunks.append(tasks[start:start + size])
            start += size
        return chunks

    def run_all(self, tasks: list, work: Callable, *, signals: pool.Signals,
                done: Callable[[object, object], None], lost: Callable[[object, str], None],
                more: Callable[[int], list] | None = None) -> None:
        """As ``grader.classroom.pool.run_all``, on the cluster's workers; ``more(n)``, when given, is asked for
        up to n further tasks whenever fewer than two chunks per worker are under way (a queue that fills while
        it runs), so the workers never wait for a round's slowest task; its chunks hold one task, and up to
        FED_CHUNK while it gives all that is asked."""
        distributed = _distributed()
        run = f"hog-run-{uuid.uuid4().hex}"
        # The work (with the variants it grades on) goes to each worker once, not with every chunk.
        shared = self.client.scatter(work, broadcast=True, hash=False)
        futures: dict = {}
        waiting = distributed.as_completed([])

        def submit(chunks: list[list]) -> None:
            for chunk in chunks:
                future = self.client.submit(run_chunk, shared, chunk, run, pure=False)
                futures[future] = chunk
                waiting.add(future)
        submit(self.chunks(tasks))
        finished, fed = False, 1   # fed: the tasks in each chunk of what ``more`` gives
        try:
            while signals.received is None:
                if more is not None and waiting.count() < 2 * self.workers:
                    wanted = (2 * self.workers - waiting.count()) * fed
                    given = more(wanted)
                    submit([given[start:start + fed] for start in range(0, len(given), fed)])
                    fed = min(FED_CHUNK, 2 * fed) if given and len(given) == wanted else 1
                if waiting.is_empty():
                    break
                ready = waiting.next_batch(block=False)
                if not ready:
                    time.sleep(POLL_SECONDS if more is None else pool.ASK_SECONDS)
                    continue
                for future in ready:
                    chunk = futures[future]
                    if future.status == "finished":
                        try:
                            replies = future.result()
                        except Exception:   # its result died with a worker as it was fetched: run again
                            waiting.add(future)
                            continue
                        del futures[future]
                        for task, (kind, value) in zip(chunk, replies):
                            (done if kind == "done" else lost)(task, value)
                    elif future.status == "error":
                        del futures[future]
                        why = f"the cluster could not run it: {type(future.exception()).__name__}: " \
                              f"{future.exception()}"
                        for task in chunk:
                            lost(task, why)
                    elif future.status != "cancelled":   # its result died with a worker: Dask runs it again
                        waiting.add(future)
            finished = signals.received is None
        finally:
            if not finished:
                with contextlib.suppress(Exception):
                    self.client.run(_stop, run, on_error="ignore")
                with contextlib.suppress(Exception):
                    self.client.cancel(list(futures), force=True)
                if self.local is not None:   # ours: its workers (and their sandboxes) end now
                    self.close()

    def map(self, function: Callable, items: list, *shared) -> list:
        """``[function(item, *shared) for item in items]`` on the workers, ``shared`` sent once to each;
        stopped (pending work cancelled, a local cluster closed) if this is interrupted."""
        scattered = [self.client.scatter(value, broadcast=True, hash=False) for value in shared]
        futures = [self.client.submit(_apply, function, item, *scattered, pure=False) for item in items]
        try:
            while not all(future.done() for future in futures):   # a signal lands here, not inside Dask
                time.sleep(POLL_SECONDS)
            return self.client.gather(futures)
        except BaseException:
            with contextlib.suppress(Exception):
                self.client.cancel(futures, force=True)
            if self.local is not None:
                self.close()
            raise


_ONE_AT_A_TIME = threading.Lock()   # a process's scratch folder is one: its chunks run one after another
_STOPPED: set[str] = set()           # on a worker: the runs it was told have stopped (``_stop``)


def _stop(run: str) -> None:
    """On each worker, as ``Cluster.run_all`` stops: its chunks of ``run`` stop before their next task."""
    _STOPPED.add(run)


def _apply(function: Callable, item, *shared):
    with _ONE_AT_A_TIME, pool.scratch_folder():
        return function(item, *shared)


def run_chunk(work: Callable, chunk: list, run: str) -> list[tuple[str, object]]:
    """On a worker: ``("done", work(task))`` or ``("error", why)`` for each task, stopping early (the
    rest unreported) once this worker was told that ``run`` stopped."""
    replies = []
    with _ONE_AT_A_TIME, pool.scratch_folder():
        for task in chunk:
            if run in _STOPPED:
                break
            try:
                replies.append(("done", work(task)))
            except Exception as error:   # the kit broke on this task: reported here as pool's workers do
                replies.append(("error", f"{type(error).__name__}: {error}"))
    return replies
