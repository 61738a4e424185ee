"""Only the kit can use a Dask cluster it starts (`--workers N`): another user of the machine, or a
submission, that reaches its ports is refused; a scheduler of the instructor's own (`--scheduler`) is
reached with the TLS certificates of Dask's configuration, and an unencrypted one is used with a warning."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from grader import project
from grader.classroom import cluster
from grader.errors import UsageError
from grader.spec import load_variant
from tests.classroom.test_batch import gradebook, hog

distributed = pytest.importorskip(
    "distributed", reason="Dask's distributed is not installed: pip install 'hog-kit[cluster]' runs these")
dask = pytest.importorskip("dask")

# A stranger on the same machine: a client of the scheduler, then a word with each listener (the scheduler,
# each worker and nanny), every way in: each attempt printed as "refused: ..." or "ran ...".
STRANGER = r"""
import asyncio, os, socket, ssl, sys
import distributed
from distributed.comm import connect
from distributed.security import Security

def client(label, address, security=None):
    try:
        with distributed.Client(address, timeout="5s", security=security) as them:
            print(label, address, "ran as uid", them.run_on_scheduler(os.getuid), them.run(os.getuid))
    except Exception as error:
        print(label, address, "refused:", type(error).__name__)

async def identity(address, security):
    comm = await connect(address, timeout="5s", **(security.get_connection_args("client") if security else {}))
    try:
        await comm.write({"op": "identity"})
        return await comm.read()
    finally:
        await comm.close()

def word(label, address, security=None):
    try:
        print(label, address, "ran: it answered", str(asyncio.run(identity(address, security)))[:80])
    except Exception as error:
        print(label, address, "refused:", type(error).__name__)

def handshake(address):
    host, port = address.split("://")[1].rsplit(":", 1)
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    try:
        with socket.create_connection((host, int(port)), timeout=5) as raw, context.wrap_socket(raw) as tls:
            tls.sendall(b"\0" * 64)
            print("no-certificate", address, "ran: it sent", tls.recv(64))
    except OSError as error:
        print("no-certificate", address, "refused:", type(error).__name__)

scheduler, mine = sys.argv[1], Security.temporary()
client("client", scheduler)
client("client-tcp", scheduler.replace("tls://", "tcp://"))
client("client-own-certificate", scheduler, mine)
for address in sys.argv[1:]:
    word("tcp", address.replace("tls://", "tcp://"))
    word("own-certificate", address, mine)
    handshake(address)
"""


@pytest.fixture(scope="module")
def two():
    """A local cluster of two workers, started as grade-batch and contest start theirs."""
    with cluster.connect(workers=2) as started:
        yield started


def listeners(two) -> list[str]:
    """The addresses the cluster listens at: its scheduler, and each worker and nanny."""
    info = two.client.scheduler_info(n_workers=-1)
    return [two.client.scheduler.address, *info["workers"], *(worker["nanny"] for worker in info["workers"].values())]


@pytest.mark.slow
def test_a_stranger_is_refused_by_the_scheduler_every_worker_and_every_nanny_and_the_work_goes_on(two):
    addresses = listeners(two)
    assert len(addresses) == 5 and all(address.startswith("tls://127.0.0.1:") for address in addresses)
    stranger = subprocess.run([sys.executable, "-c", STRANGER, *addresses], capture_output=True, text=True,
                              timeout=180)
    lines = stranger.stdout.splitlines()
    assert len(lines) == 3 + 3 * len(addresses), stranger.stderr[-3000:]
    assert all(" refused: " in line for line in lines), "\n".join(lines)
    assert two.map(abs, [-1, -2, -3]) == [1, 2, 3]


@pytest.mark.slow
def test_a_local_clusters_certificate_is_its_own_on_an_elliptic_curve(two):
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import ec
    security = two.client.security
    certificate = x509.load_pem_x509_certificate(security.tls_client_cert.encode())
    assert isinstance(certificate.public_key(), ec.EllipticCurvePublicKey)
    assert security.require_encryption and security.tls_ca_file == security.tls_worker_cert == security.tls_client_cert
    with cluster.connect(workers=1) as other:   # another cluster: another key
        assert other.client.security.tls_client_key != security.tls_client_key


@pytest.mark.slow
def test_a_local_cluster_serves_no_web_pages(two):
    info = two.client.scheduler_info(n_workers=-1)
    ports = [info["services"]["dashboard"], *(worker["services"]["dashboard"] for worker in info["workers"].values())]
    for port in ports:
        for page in ("info/main/workers.html", "info/main/logs.html", "json/identity.json", "metrics", "health"):
            with pytest.raises(urllib.error.HTTPError, match="404"):
                urllib.request.urlopen(f"http://127.0.0.1:{port}/{page}", timeout=10)


@pytest.fixture(scope="module")
def secured(tmp_path_factory):
    """A scheduler of the instructor's own with one worker, TLS only, and the files of its certificate
    (which is its own authority) and key, as the instructor would keep them: (address, folder)."""
    folder = tmp_path_factory.mktemp("tls")
    folder.chmod(0o700)
    security = distributed.Security.temporary()
    for name, pem in (("ca.pem", security.tls_ca_file), ("key.pem", security.tls_client_key)):
        (folder / name).touch(mode=0o600)
        (folder / name).write_text(pem)
    with dask.config.set(cluster.NO_WEB_PAGES):
        scheduler = distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                                             dashboard_address=None, scheduler_kwargs=cluster.NO_DASHBOARD,
                                             silence_logs=50, security=security)
    with scheduler:
        yield scheduler.scheduler_address, folder


def tls_config(folder: Path) -> dict[str, str]:
    return {"distributed.comm.tls.ca-file": str(folder / "ca.pem"),
            "distributed.comm.tls.client.cert": str(folder / "ca.pem"),
            "distributed.comm.tls.client.key": str(folder / "key.pem")}


@pytest.mark.slow
def test_a_tls_scheduler_is_used_with_the_certificate_of_dasks_configuration_and_no_warning(secured):
    address, folder = secured
    assert address.startswith("tls://")
    notes = io.StringIO()
    with dask.config.set(tls_config(folder)), cluster.connect(scheduler=address, notes=notes) as theirs:
        assert theirs.map(abs, [-4, 5]) == [4, 5]
    assert notes.getvalue() == ""


@pytest.mark.slow
def test_a_certificate_the_scheduler_does_not_know_is_a_usage_error(secured, tmp_path):
    address, _ = secured
    other = distributed.Security.temporary()
    (tmp_path / "ca.pem").write_text(other.tls_ca_file)
    (tmp_path / "key.pem").write_text(other.tls_client_key)
    with dask.config.set(tls_config(tmp_path)), pytest.raises(UsageError) as refused:
        with cluster.connect(scheduler=address):
            pass
    assert f"--scheduler {address}: no Dask scheduler answered or accepted the certificate" in str(refused.value)


@pytest.mark.slow
def test_grade_batch_reaches_a_tls_scheduler_with_dasks_environment_variables(secured, tmp_path):
    address, folder = secured
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bob"):
        shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / f"{name}.py")
    shutil.copy(project.ROOT / "tests" / "submissions" / "buggy" / "fa18_more_than_margin.py", subs / "cy.py")
    env = {f"DASK_{key.upper().replace('.', '__').replace('-', '_')}": value
           for key, value in tls_config(folder).items()}
    assert "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY" in env
    run = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(tmp_path / "out"), "--scheduler", address,
              env=env)
    assert run.returncode == 0, run.stderr
    assert "Warning" not in run.stderr and "Traceback" not in run.stderr
    scores = {name: float(row["score"]) for name, row in gradebook(tmp_path / "out").items()}
    points = load_variant("fa18").points
    assert scores["ada"] == scores["bob"] == points and scores["cy"] < points


def test_a_tls_scheduler_without_a_certificate_in_dasks_configuration_is_a_usage_error_naming_the_settings():
    with pytest.raises(UsageError, match=r"tls://127\.0\.0\.1:9: a tls:// scheduler admits only clients holding "
                                         r"a certificate of its cluster; set distributed\.comm\.tls\.ca-file"):
        with cluster.connect(scheduler="tls://127.0.0.1:9"):
            pass


def test_a_certificate_file_that_cannot_be_read_is_a_usage_error_naming_it(tmp_path):
    with dask.config.set(tls_config(tmp_path)), pytest.raises(UsageError, match="cannot be used") as refused:
        with cluster.connect(scheduler="tls://127.0.0.1:9"):
            pass
    assert "No such file" in str(refused.value)


def test_an_unencrypted_address_when_dasks_configuration_requires_encryption_is_a_usage_error():
    with dask.config.set({"distributed.comm.require-encryption": True}), pytest.raises(
            UsageError, match=r"tcp://127\.0\.0\.1:9: Dask's configuration requires encryption"):
        with cluster.connect(scheduler="tcp://127.0.0.1:9"):
            pass


def test_an_unencrypted_scheduler_is_used_and_stderr_says_who_else_can_use_it():
    with distributed.LocalCluster(n_workers=1, processes=False, protocol="tcp://", dashboard_address=None,
                                  scheduler_kwargs=cluster.NO_DASHBOARD, silence_logs=50) as open_one:
        notes = io.StringIO()
        with cluster.connect(scheduler=open_one.scheduler_address, notes=notes) as theirs:
            assert theirs.client.submit(abs, -6).result() == 6   # its worker is a thread of this process
    said = notes.getvalue()
    assert said.startswith(f"Warning: --scheduler {open_one.scheduler_address} is neither encrypted nor "
                           f"authenticated: whoever reaches")
    assert "can run code on its workers" in said and "tls://" in said and "--workers N" in said
