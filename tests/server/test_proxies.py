"""Who a request comes from, behind a proxy: /metrics answers this machine alone, whatever headers a stranger
sends, through the Caddy and nginx configurations of docs/guides/instructors/server.md as they are written
(Debian's caddy and nginx, over https with a certificate made here, in front of waitress as hog serve runs it)."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import socket
import subprocess
import threading
import ssl
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from grader import project
from grader.commands import serve
from grader.spec import course as course_config
from grader.spec.config_error import ConfigError
from grader.server.web.app import create_app
from tests.server.conftest import make_app

GUIDE = project.PACKAGE.parent / "docs" / "guides" / "instructors" / "server.md"
STRANGER = "203.0.113.9"


def proxied(course, database, migrated, proxies=("127.0.0.1",)):
    make_app(course, database, migrated)   # the database, migrated
    server = dataclasses.replace(course_config.current().server, proxies=proxies)
    app = create_app(course=course, server=server, database=database)
    app.config["TESTING"] = True
    return app


def metrics(app, peer: str = "127.0.0.1", **headers) -> int:
    return app.test_client().get("/metrics", environ_base={"REMOTE_ADDR": peer}, headers=headers).status_code


def test_without_proxies_the_loopback_with_any_forwarding_header_is_not_this_machine(app):
    assert metrics(app) == 200
    for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):
        assert metrics(app, **{header: "127.0.0.1"}) == 403
    assert metrics(app, peer=STRANGER) == 403


def test_behind_a_proxy_the_address_it_forwards_decides(course, database, migrated_sqlite):
    app = proxied(course, database, migrated_sqlite)
    assert metrics(app, **{"X-Forwarded-For": STRANGER}) == 403
    assert metrics(app, **{"X-Forwarded-For": f"127.0.0.1, {STRANGER}"}) == 403   # a stranger's claim, then theirs
    assert metrics(app, **{"X-Forwarded-For": f"{STRANGER}, 127.0.0.1"}) == 200   # on this machine, through it
    assert metrics(app) == 403                                                    # the proxy did not say
    assert metrics(app, Forwarded="for=127.0.0.1") == 403                         # another kind of header only
    assert metrics(app, **{"X-Forwarded-For": "not-an-address"}) == 403
    assert metrics(app, peer="::1") == 200                                        # not a proxy: its socket


def test_proxies_that_are_not_addresses_are_an_error_naming_the_key(course):
    text = (course / project.CONFIG_NAME).read_text().replace('url = "http://hog.test"',
                                                              'url = "http://hog.test"\nproxies = ["caddy"]')
    (course / project.CONFIG_NAME).write_text(text)
    with pytest.raises(ConfigError, match=r"server.proxies is \['caddy'\].*IP addresses"):
        course_config.current()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _block(after: str) -> str:
    """The first text block of the guide after the line ``after``."""
    return re.search(r"```text\n(.*?)```", GUIDE.read_text(encoding="utf-8").split(after, 1)[1], re.S)[1]


@pytest.fixture
def waitress_app(course, database, migrated_sqlite):
    """The course's app on waitress as hog serve runs it, proxies = ["127.0.0.1"]; its port."""
    server = serve.listening(proxied(course, database, migrated_sqlite), "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port
    server.close()
    thread.join(5)


def _through(port: int, *, client: str | None = None, **headers) -> int:
    """The status of GET /metrics over https to the proxy at ``port`` (with the PROXY protocol's line naming
    ``client`` first where given: a proxy told so takes the request as that address's, a stranger's)."""
    unchecked = ssl.create_default_context()
    unchecked.check_hostname, unchecked.verify_mode = False, ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), 10) as raw:
        if client is not None:
            raw.sendall(f"PROXY TCP4 {client} 127.0.0.1 40000 443\r\n".encode())
        with unchecked.wrap_socket(raw, server_hostname="hog.example.edu") as tls:
            lines = "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in headers.items())
            tls.sendall(f"GET /metrics HTTP/1.1\r\nHost: hog.example.edu\r\n{lines}Connection: close\r\n\r\n"
                        .encode())
            status = tls.makefile("rb").readline().split()
    return int(status[1])


def _answering(port: int, process: subprocess.Popen, log: Path) -> None:
    for _ in range(100):
        if process.poll() is not None:
            pytest.fail(f"the proxy ended: {log.read_text() if log.exists() else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    pytest.fail("the proxy does not answer")


def _needs(binary: str) -> str:
    found = shutil.which(binary) or (f"/usr/sbin/{binary}" if os.path.exists(f"/usr/sbin/{binary}") else None)
    if found is None:
        if os.environ.get("HOG_REQUIRE_PROXIES") == "1":
            pytest.fail(f"HOG_REQUIRE_PROXIES=1 but no {binary} (apt-get install {binary})")
        pytest.skip(f"no {binary} here to test the guide's configuration with (apt-get install {binary})")
    return found


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.mark.slow
def test_the_guide_s_caddy_configuration_keeps_metrics_from_strangers(waitress_app, tmp_path):
    caddy = _needs("caddy")
    port = _free_port()
    site = _block("With Caddy").replace("hog.example.edu", f"https://hog.example.edu:{port}") \
        .replace("127.0.0.1:8000", f"127.0.0.1:{waitress_app}")
    (tmp_path / "Caddyfile").write_text("{\n    admin off\n    local_certs\n    skip_install_trust\n"
                                        f"    default_bind 127.0.0.1\n    http_port {_free_port()}\n}}\n" + site)
    log = tmp_path / "caddy.log"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "HOME": str(tmp_path)}
    with log.open("w") as out:
        process = subprocess.Popen([caddy, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
                                   stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        _answering(port, process, log)
        for _ in range(50):   # its certificate is made at start
            try:
                _through(port)
                break
            except (ssl.SSLError, OSError, IndexError):
                time.sleep(0.1)
        # Caddy sets X-Forwarded-For to its client (here this machine), whatever the client claims; the app
        # believes it since it comes from a proxy of [server] proxies, and nothing else from that address.
        assert _through(port) == 200 and _through(port, X_Forwarded_For=STRANGER) == 200
        direct = urllib.request.Request(f"http://127.0.0.1:{waitress_app}/metrics")
        with pytest.raises(urllib.error.HTTPError, match="403"):   # from the proxy's address, without its header
            urllib.request.urlopen(direct, timeout=10)
    finally:
        _stop(process)


@pytest.mark.slow
def test_the_guide_s_nginx_configuration_keeps_metrics_from_strangers(waitress_app, tmp_path):
    nginx, openssl = _needs("nginx"), _needs("openssl")
    port = _free_port()
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=hog.example.edu", "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)
    # As written, but on a port of the loopback where the test speaks the PROXY protocol first, so that nginx
    # takes a request as a stranger's (203.0.113.9) as it would one from the Internet.
    site = _block("With nginx").replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl proxy_protocol;") \
        .replace("server_name hog.example.edu;", f"server_name hog.example.edu;\n    ssl_certificate {tmp_path}/cert.pem;"
                                                  f"\n    ssl_certificate_key {tmp_path}/key.pem;\n"
                                                  f"    set_real_ip_from 127.0.0.1;\n    real_ip_header proxy_protocol;") \
        .replace("127.0.0.1:8000", f"127.0.0.1:{waitress_app}")
    temp = {name: tmp_path / name for name in ("client", "proxy", "fastcgi", "uwsgi", "scgi")}
    (tmp_path / "nginx.conf").write_text(
        f"daemon off;\nmaster_process off;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        f"events {{}}\nhttp {{\n  access_log off;\n" + "".join(
            f"  {name}_temp_path {path};\n" for name, path in (("client_body", temp["client"]),
                                                               *((n, temp[n]) for n in ("proxy", "fastcgi", "uwsgi",
                                                                                        "scgi"))))
        + site + "}\n")
    log = tmp_path / "error.log"
    process = subprocess.Popen([nginx, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _answering(port, process, log)
        assert _through(port, client=STRANGER) == 403
        assert _through(port, client=STRANGER, X_Forwarded_For="127.0.0.1") == 403   # nginx adds the client last
        assert _through(port, client=STRANGER, Forwarded="for=127.0.0.1") == 403
        assert _through(port, client="127.0.0.1") == 200                               # a client on this machine
    finally:
        _stop(process)
