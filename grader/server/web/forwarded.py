"""Who a request comes from: the socket's peer, or behind a proxy of ``[server] proxies`` (the addresses whose
``X-Forwarded-For`` is trusted, as waitress's ``trusted_proxy`` would be) the address that proxy set, the last
of ``X-Forwarded-For`` (Caddy sets it to its peer; nginx's ``$proxy_add_x_forwarded_for`` adds its peer
last). ``hog serve`` hands the headers to the app untouched (waitress clears none), and they are read here.

"From this machine" (``local``), which lets a Prometheus read ``/metrics`` without its token: with no proxy
configured, a loopback peer and no forwarding header at all; behind a proxy, the loopback address that the
proxy set. A request from a proxy's address without the forwarded address it sets, or with only a forwarded
header of another kind (``Forwarded``, ``X-Real-IP``), is not from this machine."""

from __future__ import annotations

import ipaddress

from flask import request

from grader.server.web import access

FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Real-IP", "X-Forwarded-Host", "X-Forwarded-Proto")


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip().strip("[]")))
    except ValueError:
        return None


def client() -> str | None:
    """The address of who asks; None behind a proxy that did not say (or said what is not an address)."""
    peer = _address(request.environ.get("REMOTE_ADDR") or "")
    if peer is None or peer not in access.settings().server.proxies:
        return peer
    chain = request.headers.getlist("X-Forwarded-For")
    last = ",".join(chain).split(",")[-1] if chain else ""
    return _address(last)


def local() -> bool:
    """Whether the request comes from this machine (see the module's docstring)."""
    peer = _address(request.environ.get("REMOTE_ADDR") or "")
    if peer is None:
        return False
    if peer not in access.settings().server.proxies:
        return ipaddress.ip_address(peer).is_loopback and not any(request.headers.get(name) for name in FORWARDING)
    found = client()
    return found is not None and ipaddress.ip_address(found).is_loopback
