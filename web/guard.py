"""What every answer carries, and which host names the server answers to.

Every response, a page's or a static file's, an error's (tornado's own 404s included) or a
socket's refusal, carries the security headers (`Secured`): a content policy that loads nothing
from another host, no framing, no sniffing, no referrer.  A request, or a socket, that names a
host the server was not told it is (`--allowed-host`, besides 127.0.0.1, localhost and the
`--host`) is refused with 421 before any handler sees it: a DNS-rebinding page, whose host name
points at this server, gets neither a page nor a socket, even with Host and Origin agreeing.
A socket whose Origin is not its Host is refused by tornado (403).  A request's address is its
connection's, but for a connection from a proxy the server was told to trust (`--trusted-proxy`):
then the address that proxy gives in X-Real-IP, so that limits per address count the players,
not the proxy.  No one else's X-Real-IP is read.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any, Final

import tornado.httputil
import tornado.web

MISDIRECTED: Final = 421
# Addresses that listen everywhere: no browser names them as a host.
WILDCARDS: Final = frozenset({"", "0.0.0.0", "::"})


def content_policy(host: str) -> str:
    """Scripts, styles, images and sockets from this server only; no frames, no forms elsewhere."""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"img-src 'self'; font-src 'self'; connect-src 'self' ws://{host} wss://{host}; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )


def host_name(host: str) -> str:
    """The name in a Host header (or an origin's): lower case, with no port and no brackets."""
    name, _ = tornado.httputil.split_host_and_port(host.strip().lower())
    return name.removeprefix("[").removesuffix("]")


def allowed_hosts(listen: str, named: Iterable[str]) -> frozenset[str]:
    """The host names served: those named, 127.0.0.1, localhost and the address listened on."""
    names = {"127.0.0.1", "localhost", *(host_name(name) for name in named)}
    if listen.strip() not in WILDCARDS:
        names.add(host_name(listen))
    return frozenset(names)


class Secured(tornado.web.RequestHandler):
    """A handler whose every response, errors included, carries the security headers."""

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", content_policy(self.request.host))
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Referrer-Policy", "no-referrer")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {self._reason}\n")


class Static(Secured, tornado.web.StaticFileHandler):
    """The scripts, styles and vendored files under web/static/."""


class NotFound(Secured):
    """Any path no route matches."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(404)


class Misdirected(Secured):
    """A request for a host this server is not: refused, whatever its path."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(MISDIRECTED, reason="Misdirected Request")


def checked_address(text: str) -> str:
    """An IP address as tornado writes a connection's; ValueError if `text` is none."""
    return str(ipaddress.ip_address(text.strip()))


def forwarded_address(request: tornado.httputil.HTTPServerRequest) -> str | None:
    """The client's address in the X-Real-IP a proxy set, if it is one."""
    try:
        return checked_address(request.headers.get("X-Real-IP", ""))
    except ValueError:
        return None


class Guarded(tornado.web.Application):
    """The application, answering only for the host names in its `allowed_hosts` setting, and
    taking the address a proxy in its `trusted_proxies` setting gives."""

    def find_handler(
        self, request: tornado.httputil.HTTPServerRequest, **kwargs: Any
    ) -> tornado.web._HandlerDelegate:
        if request.remote_ip in self.settings["trusted_proxies"]:
            request.remote_ip = forwarded_address(request) or request.remote_ip
        if host_name(request.host) not in self.settings["allowed_hosts"]:
            return self.get_handler_delegate(request, Misdirected)
        return super().find_handler(request, **kwargs)
