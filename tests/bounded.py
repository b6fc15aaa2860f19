"""Run one hostile case in a child process, bounded in time and memory.

A case that crashes the interpreter, hangs or eats memory must show as that
case's failure, not end the test run: `in_child` forks, caps the child's
address space and CPU time, and waits at most `seconds` of wall clock.
Neither is a measurement: a case that must be quick is bounded by its CPU
time (`cpu_seconds`, which a busy machine hardly inflates), with the wall
clock left generous; no test asserts how long a case took.
What the case returns (plain data) comes back as JSON; an exception comes
back as its type and one-line message.  Linux only, as tests/save_worker.py.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

SECONDS = 5.0
MEMORY = 200 << 20


def in_child(
    run: Callable[[], Any], seconds: float = SECONDS, memory: int = MEMORY, cpu_seconds: int | None = None
) -> dict[str, Any]:
    """`run()` in a forked child with at most `memory` more bytes and `seconds` of time,
    of which at most `cpu_seconds` of CPU (by default one more than `seconds`): past
    that the system kills the child, a "crash".

    Returns {"result": "value", "value": ..., "seconds": ...}, or "raised"
    with "error" (the exception's class) and "message", or "hang" or "crash".
    """
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # The child.
        os.close(reader)
        start = time.perf_counter()
        try:
            size = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            resource.setrlimit(resource.RLIMIT_AS, (size + memory, size + memory))
            cpu = int(seconds) + 1 if cpu_seconds is None else cpu_seconds
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
            report: dict[str, Any] = {"result": "value", "value": run()}
        except BaseException as exc:  # Reported, whatever it was.
            report = {"result": "raised", "error": type(exc).__name__, "message": str(exc),
                      "traceback": traceback.format_exc(limit=6)}
        report["seconds"] = time.perf_counter() - start
        with os.fdopen(writer, "w") as pipe:
            pipe.write(json.dumps(report, default=str))
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "r") as pipe:
        ready, _, _ = select.select([pipe], [], [], seconds)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"result": "hang"}
        text = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not text:
        return {"result": "crash", "status": status}
    result: dict[str, Any] = json.loads(text)
    return result


def refused(outcome: dict[str, Any], error: str) -> str:
    """The one-line message of a case that raised `error`; fails on anything else."""
    assert outcome["result"] == "raised" and outcome["error"] == error, outcome
    message: str = outcome["message"]
    assert "\n" not in message, message
    return message
