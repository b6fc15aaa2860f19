"""nginx's configuration for a cluster of nodes: one address in front of them all.

    python -m web.nginx --listen 0.0.0.0:80 a=10.0.0.1:8000 b=10.0.0.2:8000 > nodes.conf

Any node serves the pages, signing in and up, the lobby, scores and watching, so `/` goes to
all of them in turn (a node that refuses the connection is skipped for the next).  A player's
game runs on one node (`store.claim` says which): its socket, opened at `/play/socket` on any
node, is answered by a node that does not run the game with `{"status": "moved", "socket":
"/node/NAME/play/socket"}`, and the page opens that: `/node/NAME/` goes to that node only, the
prefix taken off.  Sockets are passed on as sockets (`Upgrade`), for as long as they last; the
address each request came from is passed on in `X-Real-IP`, which a node started with
`--trusted-proxy` (nginx's address) takes as the client's (the limits count by it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from typing import Final

from web.nodes import NODE_NAME

# How long a socket may stay silent through nginx: the server pings every 10 s.
SOCKET_SECONDS: Final = 3600
ADDRESS: Final = re.compile(r"\A[A-Za-z0-9.\-\[\]:]+:[0-9]{1,5}\Z")

PROXIED: Final = """\
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_read_timeout {seconds}s;
            proxy_send_timeout {seconds}s;
            proxy_buffering off;
"""


class BadNode(ValueError):
    """A node's name or address that nginx's configuration can't hold."""


def checked(nodes: Mapping[str, str]) -> dict[str, str]:
    """The nodes' names and addresses (`host:port`), each checked; BadNode if one is not one."""
    if not nodes:
        raise BadNode("no node")
    for name, address in nodes.items():
        if not NODE_NAME.fullmatch(name):
            raise BadNode(f"{name!r} is no node's name")
        if not ADDRESS.fullmatch(address):
            raise BadNode(f"{address!r} is no host:port")
    return dict(nodes)


def http_block(nodes: Mapping[str, str], listen: str) -> str:
    """What goes in nginx's `http { }`: the upstreams and the one server in front."""
    nodes = checked(nodes)
    if not ADDRESS.fullmatch(listen):
        raise BadNode(f"{listen!r} is no host:port to listen on")
    proxied = PROXIED.format(seconds=SOCKET_SECONDS)
    every = "".join(
        f"        server {address} max_fails=1 fail_timeout=2s;\n" for address in nodes.values()
    )
    parts = [
        "    map $http_upgrade $connection_upgrade {\n        default upgrade;\n        '' close;\n    }\n",
        f"    upstream nodes {{\n{every}    }}\n",
        *(
            f"    upstream node_{name} {{\n        server {address};\n    }}\n"
            for name, address in nodes.items()
        ),
        f"    server {{\n        listen {listen};\n        client_max_body_size 64k;\n",
        f"        location / {{\n            proxy_pass http://nodes;\n{proxied}"
        "            proxy_next_upstream error timeout http_502;\n        }\n",
        *(
            f"        location /node/{name}/ {{\n            proxy_pass http://node_{name}/;\n{proxied}        }}\n"
            for name in nodes
        ),
        "    }\n",
    ]
    return "".join(parts)


def configuration(nodes: Mapping[str, str], listen: str) -> str:
    """A whole nginx.conf, its logs, pid and temporary files under nginx's prefix (`-p`)."""
    return (
        "worker_processes 1;\n"
        "error_log logs/error.log warn;\n"
        "pid logs/nginx.pid;\n"
        "events {\n    worker_connections 4096;\n}\n"
        "http {\n"
        "    access_log off;\n"
        "    client_body_temp_path tmp/body;\n"
        "    proxy_temp_path tmp/proxy;\n"
        "    fastcgi_temp_path tmp/fastcgi;\n"
        "    uwsgi_temp_path tmp/uwsgi;\n"
        "    scgi_temp_path tmp/scgi;\n"
        f"{http_block(nodes, listen)}"
        "}\n"
    )


def parse_nodes(pairs: list[str]) -> dict[str, str]:
    """`name=host:port` pairs as a mapping; BadNode for one that is not."""
    nodes: dict[str, str] = {}
    for pair in pairs:
        name, sep, address = pair.partition("=")
        if not sep or name in nodes:
            raise BadNode(f"{pair!r} is no new name=host:port")
        nodes[name] = address
    return checked(nodes)


def main(argv: list[str] | None = None) -> int:
    """`python -m web.nginx`: print the configuration."""
    parser = argparse.ArgumentParser(
        prog="python -m web.nginx", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--listen", default="127.0.0.1:8080", help="nginx's address (host:port)")
    parser.add_argument(
        "--block",
        action="store_true",
        help="only what goes in http { }, for a site's own nginx.conf",
    )
    parser.add_argument("nodes", nargs="+", metavar="NAME=HOST:PORT")
    args = parser.parse_args(argv)  # fmt: skip
    try:
        nodes = parse_nodes(args.nodes)
        text = http_block(nodes, args.listen) if args.block else configuration(nodes, args.listen)
    except BadNode as exc:
        print(f"python -m web.nginx: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
