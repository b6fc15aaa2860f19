"""A throwaway PostgreSQL for the tests: Debian's server, started once per test session in a
temporary folder on a free loopback port, and a fresh database for each test that asks.

`initdb` and `pg_ctl` come from `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package,
installed by `.ci/run`).  PostgreSQL refuses to run as root, so when the tests are root it runs
as the `postgres` user (or `nobody`), its folder chowned to that user.  Where there is no
server, or no psycopg, `postgres_url` skips its test, saying why.

Use: `from postgres_server import postgres, postgres_url  # noqa: F401` in a test module, then
take `postgres_url` (a URL of an empty database, made for the test) as a fixture.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest
from loopback import free_port

# How long the server may take to start or stop: a bound on a hang, not a measure.
START_SECONDS: Final = 60
_numbers = itertools.count(1)


@dataclass
class Postgres:
    """A running throwaway server: its folder, port and superuser."""

    folder: Path
    port: int
    user: str = "postgres"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database's URL (made from template0: nothing a test left in another)."""
        import psycopg

        name = f"test_{os.getpid()}_{next(_numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, if any."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: p.parent.parent.name)
    return found[-1].parent if found else None


def missing() -> str | None:
    """Why no throwaway PostgreSQL can run here, if so."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "psycopg and psycopg-pool are not installed (pip install -r requirements-web.txt)"
    if binaries() is None:
        return "PostgreSQL is not installed (apt-get install postgresql)"
    return None


def _as_user(command: list[str]) -> list[str]:
    """`command` run as an unprivileged user when the tests run as root."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", _unprivileged().pw_name, "--", *command]


def _unprivileged() -> pwd.struct_passwd:
    with contextlib.suppress(KeyError):
        return pwd.getpwnam("postgres")
    return pwd.getpwnam("nobody")


def start() -> Postgres:
    """initdb and start a server in a new temporary folder; its `Postgres`."""
    bin_folder = binaries()
    assert bin_folder is not None
    folder = Path(tempfile.mkdtemp(prefix="postgres-test-"))
    if os.geteuid() == 0:
        user = _unprivileged()
        os.chown(folder, user.pw_uid, user.pw_gid)
    data = folder / "data"
    port = free_port()
    _run([str(bin_folder / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
          "-E", "UTF8", "--no-sync", "--no-instructions"], folder)  # fmt: skip
    options = f"-h 127.0.0.1 -p {port} -k {folder} -F -c max_connections=300"
    _run([str(bin_folder / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"),
          "-o", options, "-w", "-t", str(START_SECONDS), "start"], folder)  # fmt: skip
    return Postgres(folder, port)


def _run(command: list[str], folder: Path, check: bool = True) -> None:
    """Run one of the server's programs in its folder (as the unprivileged user if root)."""
    subprocess.run(
        _as_user(command), check=check, capture_output=True, timeout=START_SECONDS, cwd=folder
    )


def stop(server: Postgres) -> None:
    bin_folder = binaries()
    assert bin_folder is not None
    data = server.folder / "data"
    _run([str(bin_folder / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
         server.folder, check=False)  # fmt: skip
    shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres | None]:
    """The session's throwaway server (None where PostgreSQL is missing)."""
    if missing() is not None:
        yield None
        return
    server = start()
    try:
        yield server
    finally:
        stop(server)


@pytest.fixture
def postgres_url(postgres: Postgres | None) -> str:
    """A fresh empty database's URL; skips, saying why, where there is no PostgreSQL."""
    if postgres is None:
        pytest.skip(str(missing()))
    return postgres.new_database()
