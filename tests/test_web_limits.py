"""The red team's cases against the sign-in and sign-up limits, through the real server: requests
sent all at once (threads released together, each on its own connection), and from several
loopback addresses (127.0.0.2 and on: the client's socket bound to each as its source).

The server runs with its embedded SQLite, then with PostgreSQL (`postgres_server`; skipped,
saying why, where PostgreSQL is missing), at its default caps: 10 failed sign-ins per name and
50 per address every 10 minutes, 20 sign-ups per address.
"""

from __future__ import annotations

import concurrent.futures
import http.client
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from loopback import free_port
from postgres_server import Postgres, postgres  # noqa: F401
from test_web import (
    PASSWORD,
    ROOT,
    Client,
    Server,
    _answers,
    assert_no_traceback,
    signed_up,
    wait_for,
)

SIGN_IN_FAILURES = 10  # web.limits' defaults, which the server is started with.
SIGN_UPS = 20


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """`python -m web` at its default limits, on each store."""
    options: list[str] = []
    if request.param == "postgresql":
        running: Postgres | None = request.getfixturevalue("postgres")
        if running is None:
            pytest.skip("PostgreSQL is not installed (apt-get install postgresql) or psycopg is missing")
        options = ["--database", running.new_database()]
    folder = Path(tempfile.mkdtemp(prefix="web-limits-"))
    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web", "--port", str(port), "--data-dir", str(folder), *options],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _answers(url), 20)
        yield Server(url, folder, process, log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(40)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        server_log = log.read_text(errors="replace")
        shutil.rmtree(folder, ignore_errors=True)
    assert process.returncode == 0, server_log
    assert_no_traceback(server_log)


def xsrf_token(server: Server) -> str:
    """An XSRF token, sent as the cookie and the form's field alike."""
    client = Client(server)
    client.xsrf()
    (token,) = [cookie.value for cookie in client.jar if cookie.name == "_xsrf"]
    assert token
    return token


def post_from(server: Server, source: str, path: str, fields: dict[str, str], token: str) -> int:
    """POST a form from the loopback address `source`; the answer's status."""
    port = urllib.parse.urlsplit(server.url).port
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    try:
        body = urllib.parse.urlencode({"_xsrf": token, **fields})
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"_xsrf={token}"}
        connection.request("POST", path, body, headers)
        return connection.getresponse().status
    finally:
        connection.close()


def all_at_once(server: Server, posts: list[tuple[str, str, dict[str, str]]]) -> Counter[int]:
    """Send every (source, path, fields) at the same moment, each on its own connection; the
    answers' statuses, counted."""
    token = xsrf_token(server)
    start = threading.Barrier(len(posts))

    def send(post: tuple[str, str, dict[str, str]]) -> int:
        start.wait()
        return post_from(server, *post, token)

    with concurrent.futures.ThreadPoolExecutor(len(posts)) as pool:
        return Counter(pool.map(send, posts))


def test_guesses_sent_at_once_are_answered_up_to_the_limit_then_refused(server: Server) -> None:
    """The red team's 120 simultaneous guesses on one name: at most the limit's worth are
    checked, the rest refused, and the right password after them is refused too."""
    signed_up(server, "target")
    guess = {"name": "target", "password": "wrong password"}
    answers = all_at_once(server, [("127.0.0.1", "/signin", guess)] * 120)
    assert answers[403] <= SIGN_IN_FAILURES, answers
    assert answers[429] >= 120 - SIGN_IN_FAILURES, answers
    assert set(answers) <= {403, 429}, answers
    assert Client(server).sign_in("target").status == 429


def test_sign_ups_sent_at_once_from_one_address_stop_at_the_cap(server: Server) -> None:
    """The red team's 60 simultaneous sign-ups from one address against the cap of 20."""
    source = "127.0.0.7"
    posts = [(source, "/signup", {"name": f"many{i}", "password": PASSWORD}) for i in range(60)]
    answers = all_at_once(server, posts)
    assert answers[302] <= SIGN_UPS and answers[302] + answers[429] == 60, answers
    made = [name for name in (server.folder / "players").iterdir() if name.name.startswith("many")]
    assert len(made) == answers[302]


def test_failures_on_one_name_from_five_addresses_are_counted_together(server: Server) -> None:
    """The red team's five loopback addresses, ten failures each, on one name."""
    signed_up(server, "victim")
    guess = {"name": "victim", "password": "wrong password"}
    token = xsrf_token(server)
    answers: Counter[int] = Counter()
    for source in [f"127.0.0.{i}" for i in range(2, 7)]:
        answers.update(post_from(server, source, "/signin", guess, token) for _ in range(10))
    assert answers == {403: SIGN_IN_FAILURES, 429: 50 - SIGN_IN_FAILURES}, answers
    assert Client(server).sign_in("victim").status == 429


def test_a_right_password_gives_its_slots_back(server: Server) -> None:
    """Signing in does not count against the name: a player who signs in often is never
    refused."""
    signed_up(server, "regular")
    for _ in range(SIGN_IN_FAILURES + 2):
        client = Client(server)
        assert client.sign_in("regular").status == 302
