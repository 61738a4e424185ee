"""Only the kit can use a Dask cluster it starts (`--workers N`): another user of the machine, or a
submission, that reaches its ports is refused."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from grader.classroom import cluster

distributed = pytest.importorskip(
    "distributed", reason="Dask's distributed is not installed: pip install 'hog-kit[cluster]' runs these")

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
def test_a_local_cluster_serves_no_web_pages(two):
    info = two.client.scheduler_info(n_workers=-1)
    ports = [info["services"]["dashboard"], *(worker["services"]["dashboard"] for worker in info["workers"].values())]
    for port in ports:
        for page in ("info/main/workers.html", "info/main/logs.html", "json/identity.json", "metrics", "health"):
            with pytest.raises(urllib.error.HTTPError, match="404"):
                urllib.request.urlopen(f"http://127.0.0.1:{port}/{page}", timeout=10)
