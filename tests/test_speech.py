"""The game speaking for itself (`window.speech`): each key's news said aloud in the
window, in the reader's words, the last speech cut off at the next key.

Speech goes through prismatoid to a private speech-dispatcher whose output module
(sd_generic) writes each utterance to a file instead of saying it: when it started,
what it said, and `end` if it was said whole.  An utterance cut off at the next key
has no `end`.  Without speech-dispatcher or prismatoid the test is skipped, saying so.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
import tcod
from conftest import stroke
from tcod.event import KeySym, Modifier

import main
import setup_game
from controls.keys import Key
from saving import paths
from screens.stack import Screens
from terminal.device import Input
from terminal.screen_reader import ScreenReaderFrontEnd
from window import command_line, loop, options, speech

LOG = logging.getLogger(__name__)
SEED = 8
# New game, steps, a wall or two, the options opened, a row chosen, closed.
KEYS: list[Key] = [KeySym.N, KeySym.L, KeySym.L, KeySym.K, KeySym.H, "=", KeySym.DOWN, KeySym.ESCAPE]
# How long each utterance "lasts": long enough that the next key comes before the
# last one of a key's news ends (a bound on the machine's slowness, not a measure).
UTTERANCE_SECONDS = 1.5
PATIENCE = 60.0  # A bound on a hang.
MODULE = """GenericExecuteSynth "printf 'start %s %s\\\\n' \\"$(date +%s.%N)\\" '$DATA' >> {log}; \
sleep {seconds}; printf 'end\\\\n' >> {log}"
GenericMaxChunkLength 100000
GenericDelimiters "~"
AddVoice "en" "MALE1" "en"
"""
CONFIG = 'AudioOutputMethod "libao"\nDefaultModule logger\nAddModule "logger" "sd_generic" "logger.conf"\n'


@dataclass
class Said:
    """An utterance: when its speaking started (seconds since the epoch), its text, and
    whether it was said to its end."""

    at: float
    text: str
    whole: bool = False


def said(log: Path) -> list[Said]:
    """What the output module was given to say, in order."""
    found: list[Said] = []
    text = log.read_text() if log.exists() else ""
    for line in text.splitlines():
        if line == "end":
            found[-1].whole = True
        else:
            _, at, words = line.split(" ", 2)
            found.append(Said(float(at), words))
    return found


@pytest.fixture
def speech_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private speech-dispatcher that writes what it is given to say to the file yielded."""
    pytest.importorskip("prism", reason="prismatoid (the speech library) is not installed")
    if shutil.which("speech-dispatcher") is None:
        pytest.skip("speech-dispatcher is not installed")
    folder = tmp_path / "speechd"
    (folder / "conf" / "modules").mkdir(parents=True)
    (folder / "run").mkdir(mode=0o700)
    log = folder / "said.log"
    (folder / "conf" / "speechd.conf").write_text(CONFIG)
    (folder / "conf" / "modules" / "logger.conf").write_text(MODULE.format(log=log, seconds=UTTERANCE_SECONDS))
    # A socket's path is at most 107 bytes: tmp_path's is often longer.
    short = Path(tempfile.mkdtemp(prefix="speechd-"))
    socket = short / "socket"
    server = subprocess.Popen(
        ["speech-dispatcher", "-s", "-t", "0", "-C", str(folder / "conf"), "-c", "unix_socket",
         "-S", str(socket), "-L", str(folder), "-P", str(folder / "pid"), "-l", "1"],
        env={**os.environ, "XDG_RUNTIME_DIR": str(folder / "run")},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until(socket.exists, "speech-dispatcher never opened its socket")
        monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{socket}")
        yield log
    finally:
        server.terminate()
        try:
            server.wait(PATIENCE / 6)
        except subprocess.TimeoutExpired:  # Held up by a client a failed test still holds.
            server.kill()
            server.wait()
        shutil.rmtree(short)


def wait_until(done: Callable[[], bool], failure: str) -> None:
    """Poll `done` until it holds; fail with `failure` after `PATIENCE`."""
    bound = time.monotonic() + PATIENCE
    while not done():
        assert time.monotonic() < bound, failure
        time.sleep(0.01)


class TallDevice:
    """A terminal too tall for a screen to need pages: the reader says each key's news whole."""

    def size(self) -> tuple[int, int]:
        return (80, 1000)

    def write(self, data: bytes) -> None:
        pass

    def read(self, timeout: float | None) -> Input:
        return Input(ended=True)

    def close(self) -> None:
        pass


class Reader(ScreenReaderFrontEnd):
    """The screen reader's front end, keeping the lines it says at each frame."""

    heard: list[list[str]]

    def say(self, lines: list[str]) -> None:
        self.heard.append([line for line in lines if line.strip()])


def game(settings: options.Settings) -> Screens:
    return Screens(setup_game.MainMenu(seed=SEED, settings=settings))


def frames(each: Callable[[int], None]) -> list[Callable[[], Iterable[tcod.event.Event]]]:
    """One frame's events per key of `KEYS`, `each(frame)` run first; then quitting."""

    def frame(index: int) -> Callable[[], Iterable[tcod.event.Event]]:
        def events() -> Iterable[tcod.event.Event]:
            each(index)
            return [stroke(KEYS[index])] if index < len(KEYS) else [tcod.event.Quit()]

        return events

    return [frame(index) for index in range(len(KEYS) + 1)]


def script(batches: list[Callable[[], Iterable[tcod.event.Event]]]) -> loop.EventSource:
    """An event source giving one batch a frame."""
    pending = list(batches)
    return lambda timeout=None: pending.pop(0)()


def reader_lines(folder: Path) -> list[list[str]]:
    """What `--screen-reader` says at each frame of `KEYS`, its files in `folder`; then
    `folder` moved aside and made again, empty: the game it saved can't be continued
    next time, and the options screen names the same folder."""
    folder.mkdir()
    paths.use_data_dir(folder)
    reader = Reader(TallDevice())
    reader.heard = []
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    loop.main_loop(reader, console, game(options.Settings(keep=False)), script(frames(lambda index: None)))
    folder.rename(folder.with_name("reader"))
    folder.mkdir()
    return reader.heard


def test_the_window_says_each_keys_news_as_the_reader_cutting_off_the_last_at_the_next_key(
    speech_log: Path, context: tcod.context.Context, tmp_path: Path
) -> None:
    heard = reader_lines(tmp_path / "game")
    assert len(heard) == len(KEYS) + 1 and all(heard)  # A frame's news for the menu and each key.
    pressed: list[float] = []

    def when_said(index: int) -> None:
        """Wait for the news of the frames so far to start, then press."""
        count = 1 + sum(len(lines) for lines in heard[: index + 1])  # "Speech on." first.
        wait_until(lambda: len(said(speech_log)) >= count, f"frame {index}'s news was never said")
        pressed.append(time.time())

    settings = options.Settings(options.Options(speech=True), keep=False)
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    loop.main_loop(context, console, game(settings), script(frames(when_said)))

    on, *spoken = said(speech_log)
    assert on.text == speech.ON and on.whole  # Said first, and not cut off by the menu's lines.
    assert [each.text for each in spoken] == [line for lines in heard for line in lines]
    starts = [sum(len(lines) for lines in heard[:frame]) for frame in range(len(heard))]
    for frame in range(1, len(heard)):  # The news of KEYS[frame - 1].
        assert not spoken[starts[frame] - 1].whole  # The last frame's last line, cut off by this key.
        assert spoken[starts[frame]].at >= pressed[frame - 1]
    delays = [spoken[starts[frame]].at - pressed[frame - 1] for frame in range(1, len(heard))]
    LOG.warning("Key to the start of speech, ms: %s", ", ".join(f"{delay * 1000:.1f}" for delay in delays))


def test_no_speech_is_one_line_in_the_log_and_a_notice_never_a_crash(
    context: tcod.context.Context, caplog: pytest.LogCaptureFixture
) -> None:
    settings = options.Settings(options.Options(speech=True), keep=False)
    screens = game(settings)
    front = loop.front_end_of(context)
    front.speech = speech.Speech(make=lambda: "no speech engine answered")  # type: ignore[attr-defined]
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    front.present(console, settings.options, screens)
    front.present(console, settings.options, screens)
    assert [record.getMessage() for record in caplog.records] == ["No speech: no speech engine answered."]
    assert screens.top.content().text() == [speech.SILENT.format("no speech engine answered")]  # type: ignore[union-attr]


def test_speak_turns_the_option_on_and_goes_without_the_screen_reader(capsys: pytest.CaptureFixture[str]) -> None:
    args = command_line.parse_args(["--speak"])
    settings, _ = main.read_settings(args.fullscreen, False, args.speak)
    assert settings.options.speech
    assert not main.read_settings(False, False, False)[0].options.speech
    with pytest.raises(SystemExit):
        command_line.parse_args(["--speak", "--screen-reader"])
    assert "--speak goes without --screen-reader" in capsys.readouterr().err


def play(
    context: tcod.context.Context, keys: Sequence[tcod.event.Event], settings: options.Settings, speech_log: Path, wanted: list[str]
) -> list[Said]:
    """The game in the window from the main menu with `settings`, each of `keys` pressed
    once an utterance holding `wanted[index]` has begun (then quitting, after the last
    of `wanted`); what was said."""

    missed: list[str] = []

    def frame(index: int) -> Callable[[], Iterable[tcod.event.Event]]:
        def events() -> Iterable[tcod.event.Event]:
            """The next key, or quitting where what it waits for was never said (an
            error raised here would be the loop's to report, and play would go on)."""
            bound = time.monotonic() + PATIENCE
            while wanted[index] and not any(wanted[index] in each.text for each in said(speech_log)):
                if time.monotonic() > bound:
                    missed.append(f"{wanted[index]!r} before key {index}")
                    return [tcod.event.Quit()]
                time.sleep(0.01)
            return [keys[index]] if index < len(keys) else [tcod.event.Quit()]

        return events

    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    loop.main_loop(context, console, game(settings), script([frame(index) for index in range(len(keys) + 1)]))
    assert not missed, (missed, said(speech_log))
    return said(speech_log)


SPEECH_KEY = stroke(KeySym.B, Modifier.LCTRL)


def test_ctrl_b_turns_speech_on_and_off_on_any_screen_and_keeps_it(
    speech_log: Path, context: tcod.context.Context, tmp_path: Path
) -> None:
    """Ctrl+B on the main menu, before anything is said: "Speech on." and the menu; a new
    game's news; Ctrl+B in the dungeon: "Speech off.", then nothing more is said."""
    paths.use_data_dir(tmp_path)
    settings = options.Settings()
    keys = [SPEECH_KEY, stroke(KeySym.N), SPEECH_KEY, stroke(KeySym.L), stroke(KeySym.L)]
    spoken = play(context, keys, settings, speech_log, ["", "Tombs", "welcome", *[speech.OFF] * 3])
    texts = [each.text for each in spoken]
    assert texts[:2] == [speech.ON, "Tombs of the Ancient Kings"], texts
    assert texts[-1] == speech.OFF and texts.count(speech.OFF) == 1, spoken
    assert any("welcome" in text for text in texts[2:-1])  # The new game's news, between.
    assert not settings.options.speech
    assert "speech = off" in (tmp_path / "options.txt").read_text()


def test_the_first_start_says_how_to_turn_speech_on_once(
    speech_log: Path, context: tcod.context.Context, tmp_path: Path
) -> None:
    """With no options file, the first start says the speech key aloud; the options file
    is written, and the next start says nothing until speech is turned on."""
    paths.use_data_dir(tmp_path)
    first, _ = main.read_settings(False)
    assert first.greet
    assert [each.text for each in play(context, [], first, speech_log, [speech.GREETING])] == [speech.GREETING]
    assert (tmp_path / "options.txt").exists()
    again, _ = main.read_settings(False)
    assert not again.greet
    assert [each.text for each in play(context, [SPEECH_KEY], again, speech_log, ["", "N, Play"])][1:3] == [
        speech.ON, "Tombs of the Ancient Kings"
    ]
