"""The browser's front end (`main.py --browser`, `web.browser`): the page's JSON lines as the
window's events into real handlers, and the whole game in a real subprocess on real pipes,
its frames read back as the page reads them; and `--served`, which shows no server path."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
import tcod
from conftest import ROOT, arena, dungeon, engine_of, give, key, pressing, screen_rows
from tcod.event import KeySym, Modifier

import entity_factories
import exceptions
import input_handlers
from controls import keys
from replays import replay
from saving import effects, paths
from screens.stack import Screens
from web import browser, frames, stream
from window import command_line, options


def events(sent: object, tables: keys.KeyTables | None = None) -> list[tcod.event.Event]:
    """The events of one line the page sends."""
    return browser.events_of(json.dumps(sent).encode(), tables or keys.KeyTables())


def shapes(found: list[tcod.event.Event]) -> list[tuple[str, object]]:
    """Each event's kind and what it carries: a key's sym and modifiers, a text, a tile."""
    said: list[tuple[str, object]] = []
    for event in found:
        match event:
            case tcod.event.KeyDown():
                said.append(("down", (event.sym, event.mod)))
            case tcod.event.TextInput():
                said.append(("text", event.text))
            case tcod.event.MouseMotion() | tcod.event.MouseButtonDown() | tcod.event.MouseButtonUp():
                said.append((type(event).__name__, event.integer_position))
    return said


def test_a_letter_a_capital_and_a_symbol_come_as_sdl_sends_them() -> None:
    assert shapes(events({"key": "i", "code": "KeyI", "mod": 0})) == [
        ("down", (KeySym.I, Modifier.NONE)),
        ("text", "i"),
    ]
    assert shapes(events({"key": "G", "code": "KeyG", "mod": 1})) == [
        ("down", (KeySym.G, Modifier.LSHIFT)),
        ("text", "G"),
    ]
    assert shapes(events({"key": ">", "code": "Period", "mod": 1}))[1] == ("text", ">")
    # A French player's keys come as what they type: é types, as the terminal's would.
    assert shapes(events({"key": "é", "code": "Digit2", "mod": 0})) == [("text", "é")]


def test_keys_that_type_nothing_and_the_numpad_by_its_code() -> None:
    assert shapes(events({"key": "Escape", "code": "Escape"})) == [("down", (KeySym.ESCAPE, Modifier.NONE))]
    assert shapes(events({"key": "Tab", "code": "Tab", "mod": 1})) == [("down", (KeySym.TAB, Modifier.LSHIFT))]
    assert shapes(events({"key": "F1", "code": "F1"})) == [("down", (KeySym.F1, Modifier.NONE))]
    assert shapes(events({"key": "ArrowLeft", "code": "ArrowLeft"}))[0][1] == (KeySym.LEFT, Modifier.NONE)
    # Whatever NumLock makes of it: the numpad's 5 waits, its + types "+".
    assert shapes(events({"key": "Clear", "code": "Numpad5"})) == [("down", (KeySym.KP_5, Modifier.NONE))]
    assert shapes(events({"key": "5", "code": "Numpad5"})) == [("down", (KeySym.KP_5, Modifier.NONE))]
    assert shapes(events({"key": "+", "code": "NumpadAdd"}))[1] == ("text", "+")
    # Ctrl+letter types nothing; AltGr (Ctrl+Alt) still types its symbol.
    assert shapes(events({"key": "s", "code": "KeyS", "mod": 2})) == [("down", (KeySym.S, Modifier.LCTRL))]
    assert shapes(events({"key": "@", "code": "Digit0", "mod": 6}))[-1] == ("text", "@")


def test_one_press_acts_once_in_the_real_handlers() -> None:
    engine = arena()
    screens = pressing(dungeon(engine), *events({"key": "i", "code": "KeyI"}))
    assert isinstance(screens.top, input_handlers.InventoryActivateHandler)
    screens = pressing(dungeon(engine), *events({"key": "?", "code": "Slash", "mod": 1}))
    assert len(screens.stack) == 3  # The help screen, once.


def test_a_command_of_the_bar_is_the_first_key_the_players_tables_bind_to_it() -> None:
    engine = arena()
    screens = dungeon(engine)
    pressing(screens, *events({"command": "wait"}))
    assert engine.turns == 1
    assert shapes(events({"command": "descend"}))[-1] == ("text", ">")
    assert shapes(events({"command": "autofight"})) == [("down", (KeySym.TAB, Modifier.NONE))]
    assert shapes(events({"command": "escape"})) == [("down", (KeySym.ESCAPE, Modifier.NONE))]
    own = keys.KeyTables(main={KeySym.Z: keys.Command.EXPLORE}, wait=(KeySym.KP_5,))
    assert shapes(events({"command": "explore"}, own))[0] == ("down", (KeySym.Z, Modifier.NONE))
    assert shapes(events({"command": "wait"}, own)) == [("down", (KeySym.KP_5, Modifier.NONE))]
    for unknown in ("EXPLORE", "fullscreen", "nothing"):
        with pytest.raises(browser.BadEvent):
            events({"command": unknown})


def test_a_look_opens_the_look_screen_on_the_tile() -> None:
    engine = arena()
    screens = pressing(dungeon(engine), *events({"look": [8, 7]}))
    assert isinstance(screens.top, input_handlers.LookHandler)
    assert engine.mouse_location == (8, 7)


def test_a_click_is_the_windows_press_and_release_on_the_tile() -> None:
    engine = arena()
    found = events({"click": [9, 5, 1]})
    assert shapes(found) == [("MouseButtonDown", (9, 5)), ("MouseButtonUp", (9, 5))]
    screens = pressing(dungeon(engine), *found)
    assert screens.walking  # A click on the floor walks there.
    pressing(screens, *events({"move": [7, 6]}))
    assert engine.mouse_location == (7, 6)


@pytest.mark.parametrize(
    "line",
    [
        b"not json",
        b"[1, 2]",
        b"{}",
        b'{"key": 1}',
        b'{"key": "a", "mod": 16}',
        b'{"key": "a", "extra": 1}',
        b'{"key": "NoSuchKey"}',
        b'{"move": [1, 2, 3]}',
        b'{"move": [80, 0]}',
        b'{"move": [true, 0]}',
        b'{"click": [1, 2, 4]}',
        b'{"command": 5}',
        b'{"move": [1, 1], "click": [1, 1, 1]}',
        b'{"shout": "hi"}',
        b"\xff\xfe",
    ],
)
def test_a_line_that_is_no_event_is_refused(line: bytes) -> None:
    with pytest.raises(browser.BadEvent):
        browser.events_of(line, keys.KeyTables())


def test_lines_come_whole_in_any_pieces_and_a_long_one_is_dropped_whole() -> None:
    lines = browser.Lines()
    assert lines.feed(b'{"key": "a"}\n{"ke') == [b'{"key": "a"}']
    assert lines.feed(b'y": "b"}\n') == [b'{"key": "b"}']
    long = b"x" * (browser.MAX_LINE + 100)
    assert lines.feed(long[:300]) == [] and lines.feed(long[300:]) == []
    assert lines.feed(b'tail"}\n{"key": "c"}\n') == [None, b'{"key": "c"}']


def test_the_front_end_waits_for_lines_and_quits_when_they_end(capsys: pytest.CaptureFixture[str]) -> None:
    read, write = os.pipe()
    writer = stream.FramesWriter(os.open(os.devnull, os.O_WRONLY))
    front = browser.BrowserFrontEnd(options.Settings(), writer, fd=read)
    try:
        assert front.events(0.01) == []
        os.write(write, b"nonsense\n{bad\n" + b'{"key": "j", "code": "KeyJ"}\n')
        assert shapes(front.events(None)) == [("down", (KeySym.J, Modifier.NONE)), ("text", "j")]
        os.close(write)
        assert [type(event) for event in front.events(None)] == [tcod.event.Quit]
        with pytest.raises(exceptions.QuitWithoutSaving):  # Asked again: the save failed.
            front.events(None)
    finally:
        os.close(read)
        os.close(writer.fd)
    assert capsys.readouterr().err.count("browser: a line from the page ignored") == 1


def test_browser_goes_with_frames_fd(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        command_line.parse_args(["--browser"])
    assert "--browser goes with --frames-fd" in capsys.readouterr().err
    read, write = os.pipe()
    try:
        assert command_line.parse_args(["--browser", "--frames-fd", str(write), "--served"]).served
        with pytest.raises(SystemExit):  # Frames from the window: the server runs none.
            command_line.parse_args(["--frames-fd", str(write)])
        assert "--frames-fd goes with --browser, --terminal or --screen-reader" in capsys.readouterr().err
    finally:
        os.close(read)
        os.close(write)
    with pytest.raises(SystemExit):  # Closed now.
        command_line.parse_args(["--browser", "--frames-fd", str(write)])
    assert f"{write} is no open file descriptor" in capsys.readouterr().err


class Game:
    """`python main.py --browser --frames-fd N` on real pipes, read as the page reads it."""

    def __init__(self, data: Path, *more: str) -> None:
        self.read, write = os.pipe()
        command = [sys.executable, str(ROOT / "main.py"), "--browser", "--frames-fd", str(write)]
        self.process = subprocess.Popen(
            [*command, "--seed", "1", "--data-dir", str(data), *more],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=[write],
            cwd=data,
        )
        os.close(write)
        self.unframer = frames.Unframer()
        self.frame: frames.Frame | None = None
        self.statuses: list[dict[str, object]] = []
        self.sizes: list[tuple[bytes, int]] = []
        self.log = ""

    def send(self, *lines: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"".join(line + b"\n" for line in lines))
        self.process.stdin.flush()

    def until_status(self, **wanted: object) -> dict[str, object]:
        """Read frames until a status with `wanted` comes (the game's own pace: no clock)."""
        while True:
            ready, _, _ = select.select([self.read], [], [], 120)
            assert ready, "no frame in two minutes"
            data = os.read(self.read, 1 << 16)
            assert data, "the frames ended"
            for message in self.unframer.feed(data):
                self.frame = frames.apply(message, self.frame)
                self.sizes.append((message[:1], len(message)))
                status = frames.status_of(message)
                if status is not None:
                    self.statuses.append(status)
                    if all(status.get(name) == value for name, value in wanted.items()):
                        return status

    def text(self) -> str:
        assert self.frame is not None
        return "\n".join("".join(chr(frames.CODEPOINTS[tile]) for tile in row) for row in self.frame.tiles)

    def close(self) -> int:
        _, log = self.process.communicate(timeout=120)  # Closes stdin: the page is gone.
        self.log = log.decode()
        os.close(self.read)
        return self.process.returncode


def test_the_game_plays_from_json_lines_and_saves_when_they_end(tmp_path: Path) -> None:
    data = tmp_path / "player"
    data.mkdir()
    game = Game(data)
    try:
        assert game.until_status(screen="menu") == {"screen": "menu"}
        assert game.sizes[0][0] == b"F"
        assert "TOMBS OF THE ANCIENT KINGS" in game.text() and "Play a new game" in game.text()
        game.send(b"not an event", json.dumps({"key": "n", "code": "KeyN", "mod": 0}).encode())
        assert game.until_status(screen="playing") == {"screen": "playing", "level": 1, "depth": 1, "turns": 0}
        before = game.text()
        game.send(json.dumps({"command": "wait"}).encode())
        assert game.until_status(turns=1)["depth"] == 1
        assert game.sizes[-2][0] == b"C" and game.text() != before
    finally:
        code = game.close()
    assert code == 0
    assert (data / paths.SAVE_NAME).is_file()
    assert game.log.count("browser: a line from the page ignored (not JSON)") == 1


def test_served_screens_name_files_inside_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "srv" / "players" / "someone"
    data.mkdir(parents=True)
    paths.use_data_dir(data)
    monkeypatch.setattr(paths, "_served", True)
    engine = arena()
    screens = pressing(dungeon(engine), key(KeySym.C))
    character = shown_text(screens)
    assert "your data folder" in character and "srv" not in character
    # Their own fireball kills them: the game over names the morgue file in the data folder.
    give(engine := arena(), entity_factories.fireball_scroll)
    entity_factories.orc.spawn(engine.game_map, 6, 5)
    engine.player.fighter.hp = 3
    screens = pressing(dungeon(engine), key(KeySym.I), key(KeySym.C), key(KeySym.RETURN), key(KeySym.Y))
    effects.after_frame(screens)
    over = shown_text(screens)
    assert "Morgue file: morgue/morgue-" in over and str(tmp_path) not in over
    assert not engine_of(screens).player.is_alive


def test_a_path_outside_the_data_folder_is_named_alone_when_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths.use_data_dir(tmp_path / "data")
    assert paths.shown(tmp_path / "elsewhere" / "game.rec") == str(tmp_path / "elsewhere" / "game.rec")
    monkeypatch.setattr(paths, "_served", True)
    assert paths.shown(tmp_path / "elsewhere" / "game.rec") == "game.rec"
    assert paths.shown(tmp_path / "data" / "morgue" / "m.txt") == "morgue/m.txt"


def test_a_served_replay_lists_only_the_keys_its_page_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    playback = replay.Playback([key(KeySym.J)], total=3)  # Not finished: its line shows.
    assert playback.status() is not None and "Esc: stop" in str(playback.status())
    monkeypatch.setattr(paths, "_served", True)
    status = str(playback.status())
    assert "Space: pause, +/-: speed" in status and "Esc" not in status


def shown_text(screens: Screens) -> str:
    """What the screens draw, the side windows' lines unwrapped into one."""
    return "".join(row.strip(" │") for row in screen_rows(screens))


@pytest.mark.parametrize("reader", [False, True], ids=["no reader", "a reader holding it open"])
def test_quitting_never_waits_on_a_recording_swapped_for_a_fifo(tmp_path: Path, reader: bool) -> None:
    """The page goes (stdin closes): the game is saved, and its recording, now a FIFO,
    is refused with a line saying why, not opened to wait for a reader that never
    reads (nor written to one that does)."""
    data = tmp_path / "player"
    data.mkdir()
    game = Game(data)
    held: int | None = None
    try:
        game.until_status(screen="menu")
        game.send(json.dumps({"key": "n", "code": "KeyN", "mod": 0}).encode())
        game.until_status(screen="playing")
        game.send(json.dumps({"command": "wait"}).encode())
        game.until_status(turns=1)
        (recorded,) = (data / "recordings").iterdir()
        while not recorded.read_bytes().endswith(b"text .\n"):  # Written after its frame.
            select.select([], [], [], 0.01)
        os.mkfifo(tmp_path / "fifo")
        os.replace(tmp_path / "fifo", recorded)
        if reader:
            held = os.open(recorded, os.O_RDONLY | os.O_NONBLOCK)
    finally:
        try:
            code = game.close()  # Two minutes at most: the game hung on the FIFO before.
        except subprocess.TimeoutExpired:
            game.process.kill()
            game.process.wait()
            raise
        if held is not None:
            assert os.read(held, 1 << 16) == b""  # Nothing written to it.
            os.close(held)
    assert code == 0
    assert (data / paths.SAVE_NAME).is_file()
    assert f"could not write the recording {recorded.name}: not a regular file" in game.log
