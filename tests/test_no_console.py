"""The game started as players start it with no console: the Windows and macOS downloads
and `pythonw` have no stdin or stdout (None), a shell may close them (`0<&-`).  The window
opens all the same; `--terminal`, which needs them, says so in one line.

Real processes, each quitting after its first frame (`loop.FIRST_FRAME_ONLY`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from window import loop, windowed

ROOT = Path(__file__).resolve().parent.parent
MAIN = ROOT / "main.py"
REFUSAL = "main.py: --terminal needs a terminal for its input and output\n"


def started(shell: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`shell` in sh, from `tmp_path`, with SDL's dummy video driver and the first-frame quit;
    `$GAME` is `python main.py --data-dir=<tmp_path>/data`."""
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        loop.FIRST_FRAME_ONLY: "1",
        "GAME": f"{sys.executable} {MAIN} --data-dir={tmp_path / 'data'}",
    }
    return subprocess.run(
        ["sh", "-c", shell], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )


def with_no_stdin(*args: str) -> str:
    """The shell command of `python main.py args` run with sys.stdin None, as under pythonw."""
    code = (
        f"import runpy, sys; sys.stdin = None; sys.path.insert(0, {str(ROOT)!r}); "
        f"sys.argv[:] = [{str(MAIN)!r}, *{list(args)!r}]; runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    return f'{sys.executable} -c "{code}"'


def test_the_window_opens_with_stdin_closed(tmp_path: Path) -> None:
    done = started("$GAME 0<&-", tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert loop.FIRST_FRAME_SHOWN in done.stdout


def test_the_window_opens_where_there_is_no_stdin_at_all(tmp_path: Path) -> None:
    """As under pythonw or in a windowed build: sys.stdin is None."""
    done = started(with_no_stdin("--data-dir=data"), tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert loop.FIRST_FRAME_SHOWN in done.stdout


def test_windowed_with_no_stdin_stdout_or_stderr_says_in_its_log_it_showed_a_frame(tmp_path: Path) -> None:
    """What the release workflow checks of each build: started as a player starts a download."""
    done = started("$GAME --windowed 0<&- 1>&- 2>&-", tmp_path)
    assert done.returncode == 0
    log = (tmp_path / "data" / windowed.LOG_NAME).read_text(encoding="utf-8")
    assert loop.FIRST_FRAME_SHOWN in log and "Traceback" not in log


def test_the_terminal_with_stdin_or_stdout_closed_refuses_in_one_line(tmp_path: Path) -> None:
    for closed in ("0<&-", "1>&-", "0<&- 1>&-"):
        done = started(f"$GAME --terminal {closed}", tmp_path)
        assert (done.returncode, done.stderr) == (1, REFUSAL), closed
    done = started("$GAME --screen-reader 0<&-", tmp_path)
    assert (done.returncode, done.stderr) == (1, REFUSAL)


def test_the_terminal_where_there_is_no_stdin_at_all_refuses_in_one_line(tmp_path: Path) -> None:
    done = started(with_no_stdin("--terminal", "--data-dir=data"), tmp_path)
    assert (done.returncode, done.stderr) == (1, REFUSAL)


def test_a_file_closed_at_start_is_the_null_device_not_the_next_file_opened(tmp_path: Path) -> None:
    """Else a save opened as file 2 would take what a library writes to its stderr."""
    code = (
        f"import os, sys; sys.path.insert(0, {str(ROOT)!r}); import main; main.standard_files_kept_open(); "
        "print(os.path.samestat(os.fstat(2), os.stat(os.devnull)), open('f', 'w').fileno())"
    )
    done = started(f'{sys.executable} -c "{code}" 2>&-', tmp_path)
    assert done.stdout.split() == ["True", "3"]
