"""A real screen reader for the tests: Orca reading a VTE terminal (xfce4-terminal),
as a blind player on Linux hears a game in it.

`OrcaSession` starts, in a folder of its own: Xvfb, a D-Bus session (dbus-launch),
Orca (which starts the AT-SPI bus and speech-dispatcher, as on a desktop), and Orca's
debug log, which records each utterance as a "SPEECH OUTPUT" line; then the terminal
running a command, and keys pressed in it with xdotool.  What Orca said is read back
from that log; what the player hears, from what speech-dispatcher hands its output
module after its symbol rules (its own `symbols.dic`, at the punctuation level Orca
asks for): the text its espeak-ng module would give espeak-ng, "HP colon 30" for Orca's
"HP: 30".  The output module in its place (sd_generic, named espeak-ng) writes that text
to a file (`given`) and says nothing, so no sound card is needed.

Everything is waited for by polling the log, with a generous bound on a hang
(`PATIENCE`), never a measure of time: the machine may be busy.
"""

from __future__ import annotations

import itertools
import os
import re
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

# How long to wait for Orca, the terminal or an utterance before failing: a bound
# on a hang, never a measure (Orca and the game share a busy machine).
PATIENCE: Final = 60.0
# The programs the session runs; without any of them it can't start.
PROGRAMS: Final = ("Xvfb", "dbus-launch", "orca", "speech-dispatcher", "spd-say", "xfce4-terminal", "xdotool")
# speech-dispatcher's settings: its symbol rules as Debian ships them (its speechd.conf), and
# the output module that writes what it is given (`GIVEN`), an utterance a line (speech-dispatcher
# makes its line ends spaces); libao's null driver, should anything play.
SPEECHD_CONF: Final = """AudioOutputMethod "libao"
DefaultModule espeak-ng
AddModule "espeak-ng" "sd_generic" "espeak-ng.conf"
SymbolsPreproc "char"
SymbolsPreprocFile "gender-neutral.dic"
SymbolsPreprocFile "font-variants.dic"
SymbolsPreprocFile "symbols.dic"
SymbolsPreprocFile "emojis.dic"
SymbolsPreprocFile "orca.dic"
SymbolsPreprocFile "orca-chars.dic"
"""
GIVEN: Final = """GenericExecuteSynth "printf '%s\\\\n' '$DATA' >> {log}"
GenericMaxChunkLength 100000
GenericDelimiters "~"
AddVoice "en" "MALE1" "en"
"""
LIBAO_CONF: Final = "default_driver=null\n"
# A line of Orca's debug log starts with its time; the rest of a record is indented.
RECORD: Final = re.compile(r"^\d\d:\d\d:\d\d\.\d{6} - ", re.MULTILINE)
CONTINUED: Final = "\n" + " " * 18
# An utterance: the text, then (after its closing quote) the voice it was said in; a
# space before the voice marks Orca's own words (a key's name, a character, a message),
# not text it read.
SPOKEN: Final = re.compile(r"^SPEECH OUTPUT: '(.*?)'(?: voice=\S+)?( ?)\[?\{'", re.DOTALL)
# Orca run as its own script does, but with its debug log written line by line:
# Orca opens it buffered, and the last words said would wait in the buffer.
ORCA: Final = """
import builtins, runpy, sys
log, real_open = sys.argv[-1], builtins.open
def line_by_line(file, mode="r", *args, **kwargs):
    if file == log and "w" in mode:
        return real_open(file, mode, buffering=1)
    return real_open(file, mode, *args, **kwargs)
builtins.open = line_by_line
sys.argv = [sys.argv[1], *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
# Orca's first words once it runs.
READY: Final = "Screen reader on."

_sessions = itertools.count()


def missing() -> list[str]:
    """The programs a session needs that are not installed."""
    return [name for name in PROGRAMS if shutil.which(name) is None]


@dataclass
class Utterance:
    """One thing Orca said, and where in the log it was said (to read what came after);
    `read` if it is text Orca read from the screen, not its own words (a key's name)."""

    text: str
    at: int
    read: bool = True


def utterances(log: str) -> list[Utterance]:
    """What Orca said, in order, from its debug log."""
    said = []
    starts = [found.start() for found in RECORD.finditer(log)]
    for start, end in itertools.pairwise([*starts, len(log)]):
        record = log[start:end].rstrip("\n").replace(CONTINUED, "\n")
        record = record[RECORD.match(record).end() :]  # type: ignore[union-attr]
        spoken = SPOKEN.match(record)
        if spoken is not None:
            said.append(Utterance(spoken.group(1), start, read=not spoken.group(2)))
    return said


class OrcaSession:
    """Xvfb, D-Bus, Orca and a terminal, for one test, in `folder`; `close` ends them all."""

    def __init__(self, folder: Path, columns: int = 80, rows: int = 24) -> None:
        self.folder = folder
        self.columns, self.rows = columns, rows
        self.log_path = folder / "orca.log"
        self.given_path = folder / "given.log"
        self.env: dict[str, str] = {}
        self.started: list[subprocess.Popen[bytes]] = []
        self.dbus_pid = 0
        self.display_pipe = -1
        self.runtime = folder / f"run-{os.getpid()}-{next(_sessions)}"

    def start(self) -> None:
        """The desktop, Orca on it; once Orca has spoken its first words."""
        home = self.folder / "home"
        (home / ".config" / "speech-dispatcher").mkdir(parents=True)
        (home / ".config" / "speech-dispatcher" / "speechd.conf").write_text(SPEECHD_CONF)
        modules = home / ".config" / "speech-dispatcher" / "modules"
        modules.mkdir()
        (modules / "espeak-ng.conf").write_text(GIVEN.format(log=self.given_path))
        (home / ".libao").write_text(LIBAO_CONF)
        self.runtime.mkdir(mode=0o700)
        env = {
            name: value for name, value in os.environ.items()
            if not name.startswith(("DBUS_", "XDG_", "DISPLAY", "WAYLAND", "AT_SPI", "GTK_", "NO_AT_BRIDGE"))
        }  # fmt: skip
        env.update(HOME=str(home), XDG_RUNTIME_DIR=str(self.runtime), XDG_CONFIG_HOME=str(home / ".config"))
        env["DISPLAY"] = self.x_server(env)
        bus = subprocess.run(["dbus-launch", "--sh-syntax"], env=env, capture_output=True, text=True, check=True)
        found = dict(re.findall(r"^(\w+)='?([^';\n]*)'?;", bus.stdout, re.MULTILINE))
        env["DBUS_SESSION_BUS_ADDRESS"] = found["DBUS_SESSION_BUS_ADDRESS"]
        self.dbus_pid = int(found["DBUS_SESSION_BUS_PID"])
        self.env = env
        prefs = self.folder / "orca-prefs"
        prefs.mkdir()
        orca = shutil.which("orca") or "orca"
        python = Path(orca).read_text(errors="replace").partition("\n")[0].removeprefix("#!").strip()
        self.spawn([python, "-c", ORCA, orca, "--user-prefs", str(prefs), "--debug-file", str(self.log_path)])
        self.wait_until(lambda: any(said.text == READY for said in self.spoken()), "Orca never spoke")
        self.check_symbols()

    def check_symbols(self) -> None:
        """Speech-dispatcher's symbol rules apply before the output module, as Orca speaks
        (English, punctuation "most"): "HP: 30" is given as "HP colon: 30"."""
        mark = self.given_mark()
        say = ["spd-say", "--wait", "--language", "en-us", "--punctuation-mode", "most", "HP: 30"]
        subprocess.run(say, env=self.env, check=True, capture_output=True, timeout=PATIENCE)
        heard = lambda: any(said.startswith("HP") for said in self.given(mark))  # noqa: E731
        self.wait_until(heard, "speech-dispatcher gave its output module nothing")
        assert any("HP colon" in said for said in self.given(mark)), f"no symbol rules: {self.given(mark)}"

    def x_server(self, env: dict[str, str]) -> str:
        """A new Xvfb's display, once it accepts clients."""
        read_end, write_end = os.pipe()
        server = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_end,), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.started.append(server)
        os.close(write_end)
        # Kept open while Xvfb runs: it writes its number's line end apart, and a
        # pipe closed by then ends the server.
        self.display_pipe = read_end
        ready, _, _ = select.select([read_end], [], [], PATIENCE)
        assert ready, "Xvfb did not start"
        number = os.read(read_end, 32).decode().strip()
        assert number.isdigit(), f"Xvfb did not say which display it took: {number!r}"
        return f":{number}"

    def spawn(self, command: list[str]) -> subprocess.Popen[bytes]:
        """`command` in the session, its output kept beside the log."""
        with (self.folder / f"{Path(command[0]).name}.out").open("ab") as out:
            process = subprocess.Popen(command, env=self.env, stdout=out, stderr=subprocess.STDOUT, cwd=self.folder)
        self.started.append(process)
        return process

    def open_terminal(self, command: str, wanted: str) -> None:
        """xfce4-terminal running the shell `command`, focused; once the terminal has
        shown `wanted` (Orca saw it inserted, spoken or not)."""
        size = f"{self.columns}x{self.rows}"
        self.spawn(["xfce4-terminal", "--disable-server", f"--geometry={size}", "-x", "sh", "-c", command])
        self.wait_until(self.focused, "the terminal never had focus")
        self.wait_until(lambda: self.shown(wanted), f"the terminal never showed {wanted!r}")

    def focused(self) -> bool:
        """Whether Orca follows the terminal: with no window manager to activate it,
        its first focus may come before Orca knows it, so it is focused again."""
        if "locusOfFocus: [terminal | Terminal]" in self.log():
            return True
        windows = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--class", "xfce4-terminal"],
            env=self.env, capture_output=True, text=True, check=False,
        ).stdout.split()  # fmt: skip
        for window in windows:
            again = ["windowunmap", "--sync", window, "windowmap", "--sync", window, "windowfocus", "--sync", window]
            subprocess.run(["xdotool", *again], env=self.env, capture_output=True, check=False)
        time.sleep(1)
        return False

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def shown(self, wanted: str) -> bool:
        """Whether text holding `wanted` was inserted in the terminal (Orca's events)."""
        return any(
            wanted in record
            for record in self.log().replace(CONTINUED, "\n").split("EVENT MANAGER: object:text-changed:insert")[1:]
        )

    def spoken(self, since: int = 0) -> list[Utterance]:
        """What Orca said, from `since` (a place in its log) on."""
        return [said for said in utterances(self.log()) if said.at >= since]

    def mark(self) -> int:
        """The end of the log now: what is said from here on is news."""
        return len(self.log())

    def given_mark(self) -> int:
        """The end of what the speech was given now."""
        return self.given_path.stat().st_size if self.given_path.exists() else 0

    def given(self, since: int) -> list[str]:
        """What the speech was given to say after its symbol rules, from `since` (`given_mark`) on."""
        if not self.given_path.exists():
            return []
        text = self.given_path.read_bytes()[since:].decode(errors="replace")
        return [said for said in text.splitlines() if said.strip()]

    def press(self, key: str) -> None:
        """Press `key` (an X key name: `h`, `Left`, `KP_4`, `greater`, `Escape`)."""
        subprocess.run(["xdotool", "key", "--clearmodifiers", key], env=self.env, check=True)

    def quiet(self, since: int, settle: float = 1.5) -> list[Utterance]:
        """What Orca said from `since`, once its log has not grown for `settle` seconds
        (a walk's steps and Orca's speech both have ended)."""
        deadline = time.monotonic() + PATIENCE
        size, still_since = -1, time.monotonic()
        while True:
            now = self.log_path.stat().st_size
            if now != size:
                size, still_since = now, time.monotonic()
            elif time.monotonic() - still_since >= settle:
                return self.spoken(since)
            assert time.monotonic() < deadline, "Orca never went quiet"
            time.sleep(0.1)

    def wait_until(self, done: Callable[[], bool], why: str) -> None:
        """Until `done()`; AssertionError saying `why` if not in `PATIENCE` seconds."""
        deadline = time.monotonic() + PATIENCE
        while not done():
            assert time.monotonic() < deadline, why
            time.sleep(0.1)

    def close(self) -> None:
        """End every process the session started: its own, and those they started in
        turn (the AT-SPI bus, speech-dispatcher), known by the session's runtime folder."""
        for process in reversed(self.started):
            if process.poll() is None:
                process.terminate()
        for process in self.started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.display_pipe >= 0:
            os.close(self.display_pipe)
        pids = [self.dbus_pid, *self.descendants()] if self.dbus_pid else self.descendants()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue

    def descendants(self) -> list[int]:
        """Processes started in the session that outlived it (daemons): their
        environment names this session's runtime folder."""
        marker = f"XDG_RUNTIME_DIR={self.runtime}".encode()
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                environ = (entry / "environ").read_bytes()
            except OSError:
                continue
            if marker in environ.split(b"\0"):
                found.append(int(entry.name))
        return found
