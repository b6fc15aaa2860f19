"""Recordings: the format, recording during play, Continue, crashes and replays."""

from __future__ import annotations

import json
import string
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod
from conftest import (
    after_frame,
    all_lines,
    click,
    engine_of,
    first_save,
    key,
    motion,
    new_header,
    play_events,
    replay_text,
    screens_of,
    typed,
)
from tcod.event import KeySym, Modifier, MouseButton

import actions
import input_handlers
import main
import setup_game
from controls import keys
from engine import Engine
from replays import record_format, record_reader, recording, recovery, replay
from saving import autosave, paths
from screens.base import Pop, Quit
from screens.question import Question
from screens.stack import Screens
from window import command_line, loop

SEED = 1234
HEADER = f"recording 3\nseed {SEED}\n"
NEW_HEADER = "".join(line + "\n" for line in new_header(SEED))


def recording_name(engine: Engine) -> str:
    """The name of the file the game is recorded in."""
    assert engine.recording_file is not None
    return engine.recording_file


def picture(engine: Engine) -> object:
    """Everything in the game, but the name of its recording's file (it says when it began)."""
    from test_soak import canonical

    file_name, engine.recording_file = engine.recording_file, None
    try:
        return canonical(engine)
    finally:
        engine.recording_file = file_name


# The format.


@pytest.mark.parametrize(
    "sym", [sym for sym in KeySym if not keys.types_symbol(sym)], ids=lambda sym: sym.name
)
def test_every_key_round_trips(sym: KeySym) -> None:
    for mod, words in [
        (Modifier.NONE, ""),
        (Modifier.RSHIFT, " shift"),
        (Modifier.LCTRL | Modifier.RALT | Modifier.NUM, " ctrl alt"),
    ]:
        line = record_format.line_of(key(sym, mod))
        assert line == f"key {sym.name.lower()}{words}"
        event = record_format.event_of(line)
        assert isinstance(event, tcod.event.KeyDown)
        assert event.sym is sym
        assert record_format.line_of(event) == line


def test_mouse_events_round_trip_as_tiles() -> None:
    for event, line in [
        (click(12, 30), "click 12 30"),
        (click(-3, 52, MouseButton.RIGHT), "click -3 52 right"),
        (click(0, 0, MouseButton.MIDDLE), "click 0 0 middle"),
        (motion(40, 20), "move 40 20"),
        (motion(-1, 60), "move -1 60"),
    ]:
        assert record_format.line_of(event) == line
        again = record_format.event_of(line)
        assert type(again) is type(event)
        assert isinstance(again, tcod.event.MouseButtonDown | tcod.event.MouseMotion)
        assert isinstance(event, tcod.event.MouseButtonDown | tcod.event.MouseMotion)
        assert again.integer_position == event.integer_position
        assert record_format.line_of(again) == line


def test_other_events_are_not_recorded() -> None:
    assert record_format.line_of(tcod.event.Quit()) is None
    assert record_format.line_of(tcod.event.KeyUp(scancode=tcod.event.Scancode.A, sym=KeySym.A, mod=Modifier.NONE)) is None
    assert record_format.line_of(tcod.event.TextInput(text="a")) is None


def test_the_issues_example_reads() -> None:
    script = record_reader.parse(
        "recording 1\nseed 1234\n# a comment\nkey n\nkey period shift\nkey kp_5\nkey x\n"
        "click 12 30\nmove 40 20\n",
        "example.rec",
    )
    assert script.seed == 1234
    assert [record_format.line_of(event) for event in script.events] == [
        "key n",
        "text >",
        "key kp_5",
        "key x",
        "click 12 30",
        "move 40 20",
    ]
    shifted = script.events[1]
    # `>` as the US keyboard sends it: the character typed.
    assert isinstance(shifted, tcod.event.TextInput) and shifted.text == ">"



@pytest.mark.parametrize("symbol", [chr(c) for c in range(33, 127) if keys.is_symbol(chr(c))])
def test_every_symbol_round_trips_as_text(symbol: str) -> None:
    line = record_format.line_of(typed(symbol))
    assert line == f"text {symbol}"
    event = record_format.event_of(line)
    assert isinstance(event, tcod.event.TextInput) and event.text == symbol


@pytest.mark.parametrize(
    ("line", "symbol"),
    [("key period shift", ">"), ("key slash shift", "?"), ("key period", "."), ("key slash", "/"),
     ("key equals", "="), ("key less shift", "<")],
)
def test_a_symbols_key_reads_as_the_text_it_typed_in_format_1(line: str, symbol: str) -> None:
    """Format 1 recorded `>` as the US keys that type it; the KeyDown of a symbol's
    key does nothing now, so such a line reads as its text."""
    event = record_format.event_of(line)
    assert isinstance(event, tcod.event.TextInput) and event.text == symbol


@pytest.mark.parametrize("line", ["text", "text a", "text 7", "text > >", "text ab"])
def test_text_takes_one_symbol(line: str) -> None:
    with pytest.raises(ValueError, match="one symbol"):
        record_format.event_of(line)


BAD = {
    "unknown key name": ("recording 1\nseed 5\nkey l\nkey sprocket\n", 4, "unknown key name 'sprocket'"),
    "bad number": ("recording 1\nseed 5\n\nclick 3 4.5\n", 4, "'4.5' is not a whole number"),
    "bad seed": ("recording 1\nseed five\n", 2, "'five' is not a whole number"),
    "wrong version": ("recording 5\nseed 5\n", 1, "format version 5; this game reads versions 1, 2, 3, 4"),
    "empty file": ("", 1, "the file is empty"),
    "only comments": ("# nothing\n\n", 3, "the file is empty"),
    "not a recording": ("savegame\n", 1, "not a recording"),
    "no seed": ("recording 1\n", 2, "'seed N' line is missing"),
    "no seed but a number": ("recording 1\nspeed 5\n", 2, "the second line must be 'seed N'"),
    "unknown modifier": ("recording 1\nseed 5\nkey a hyper\n", 3, "unknown modifier 'hyper'"),
    "unknown event": ("recording 1\nseed 5\njump 3\n", 3, "unknown event 'jump'"),
    "move needs two numbers": ("recording 1\nseed 5\nmove 3\n", 3, "'move' takes X Y"),
    "a number too long to read": (f"recording 1\nseed 5\nclick {'9' * 5000} 1\n", 3, "longer than 200"),
    "a line one over the cap": ("recording 1\nseed 5\n#" + "x" * 200 + "\n", 3, "longer than 200"),
    "a number too big for a tile": (f"recording 1\nseed 5\nclick 1{'0' * 100} 0\n", 3,
                                    "is not a whole number from"),
    "a coordinate one over": ("recording 1\nseed 5\nmove 1000001 0\n", 3, "from -1000000 to 1000000"),
    "a seed --seed refuses": (f"recording 1\nseed {10**100}\n", 2, "is not a whole number from 0"),
    "a seed one over": (f"recording 1\nseed {2**64}\n", 2, "is not a whole number from 0"),
}


@pytest.mark.parametrize("text, line, why", BAD.values(), ids=BAD.keys())
def test_a_bad_recording_gets_one_line_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, why: str
) -> None:
    path = tmp_path / "bad.rec"
    path.write_text(text)
    assert main.main(["--replay", str(path), "--headless"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and len(err) < 200 + len(str(path))
    assert f"{path}, line {line}: " in err
    assert why in err


def test_a_missing_recording_is_one_line_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.rec"
    assert main.main(["--replay", str(path), "--headless"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "No such file" in err


# Replaying headless.


def test_headless_replay_prints_where_the_game_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "walk.rec"
    path.write_text(HEADER + "key l\nkey l\nkey period shift\nkey c\n")
    screen = tmp_path / "screen.txt"
    assert main.main(["--replay", str(path), "--headless", "--screen", str(screen)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") == 1
    report = json.loads(out)
    assert list(report) == [
        "screen", "seed", "floor", "turns", "player", "explored", "walkable",
        "inventory", "kills", "messages", "in_view",
    ]  # fmt: skip
    assert list(report["player"]) == ["x", "y", "hp", "max_hp", "level", "xp", "power", "defense"]
    assert report["screen"] == "CharacterScreenEventHandler"
    assert report["seed"] == SEED and report["floor"] == 1
    # Two steps east took a turn each; `>` off the stairs took none.
    assert report["turns"] == 2
    assert report["messages"][-1] == "You haven't found the stairs."
    assert report["inventory"] == ["Dagger", "Leather Armor"]
    assert 0 < report["explored"] < report["walkable"]
    # The same game as the same keys through the handlers.
    engine = engine_of(replay_text(HEADER + "key l\nkey l\nkey period shift\n"))
    assert (report["player"]["x"], report["player"]["y"]) == (engine.player.x, engine.player.y)
    rows = screen.read_text().split("\n")
    assert len(rows) == main.SCREEN_HEIGHT + 1 and rows[-1] == ""
    assert any(row.startswith(" HP: ") for row in rows)
    assert any("Character Information" in row for row in rows)
    assert any(f"Seed: {SEED}" in row for row in rows)


def test_replay_is_the_game_the_keys_play() -> None:
    """A recording replays what the same events do through the handlers, to the last attribute."""
    events = [key(KeySym.L), key(KeySym.J), motion(3, 3), key(KeySym.I), key(KeySym.ESCAPE), key(KeySym.K)]
    direct = setup_game.new_game(SEED)
    screens = play_events(replay.start(record_reader.Script(SEED, [])), [])
    screens = play_events(screens, events)
    played = engine_of(screens)
    lines = played.recording
    start = new_header(SEED)
    assert lines[: len(start)] == start and start[:2] == ["recording 4", f"seed {SEED}"]
    assert lines[len(start) :] == ["key l", "key j", "move 3 3", "key i", "key escape", "key k"]
    again = replay_text("\n".join(lines))
    assert picture(engine_of(again)) == picture(played)
    assert picture(direct) != picture(played)


# Recording during play.


def handled(context: tcod.context.Context, screens: Screens, event: tcod.event.Event) -> Screens:
    """An event through the main loop's door, then what the loop writes after its frame."""
    loop.handle_event(context, screens, event)
    return after_frame(screens)


def menu(seed: int | None = None) -> Screens:
    """The main menu alone, as the program starts on it."""
    return Screens(setup_game.MainMenu(seed=seed))


def test_play_is_recorded_in_its_own_file(in_tmp: Path, context: tcod.context.Context) -> None:
    screens = handled(context, menu(SEED), key(KeySym.N))  # The menu's keys: not recorded.
    engine = engine_of(screens)
    files = list((in_tmp / "recordings").iterdir())
    assert [f.name for f in files] == [engine.recording_file]
    assert recording_name(engine).startswith("game-")
    assert recording_name(engine).endswith(f"-{SEED}.rec")
    x, y = engine.mouse_location
    events = [
        key(KeySym.LSHIFT, Modifier.LSHIFT),  # A modifier alone: nothing.
        typed(">"),  # `>`: no stairs here, but the game said so.
        key(KeySym.F12),  # A screenshot: the window's, not the game's.
        key(KeySym.RETURN, Modifier.LALT),  # Fullscreen: the same.
        motion(x, y),  # Onto the tile the game already points at: nothing changes.
        motion(x + 1, y),
        motion(x + 1, y),  # Within the same tile.
        motion(200, 200),  # Off the map: the game keeps its pointer.
        key(KeySym.F2),  # Bound to nothing: recorded all the same.
        typed("/"),
        click(x + 2, y, MouseButton.RIGHT),  # Closes the look screen.
        tcod.event.KeyUp(scancode=tcod.event.Scancode.L, sym=KeySym.L, mod=Modifier.NONE),
        key(KeySym.L),
    ]
    for event in events:
        handled(context, screens, event)
    expected = [
        *new_header(SEED),
        first_save(SEED),  # Saved after its first frame.
        "text >",
        f"move {x + 1} {y}",
        "key f2",
        "text /",
        f"click {x + 2} {y} right",
        "key l",
    ]
    assert all_lines(engine) == expected and engine.recording.held == []  # Written, none kept.
    assert files[0].read_text() == "".join(line + "\n" for line in expected)
    # Another game started in the same second (over the first one's save) gets a file of its own.
    asked = handled(context, menu(SEED), key(KeySym.N))
    assert isinstance(asked.top, Question)
    other = engine_of(handled(context, asked, key(KeySym.Y)))
    assert other.recording_file != engine.recording_file
    assert len(list((in_tmp / "recordings").iterdir())) == 2
    assert files[0].read_text() == "".join(line + "\n" for line in expected)


def test_continue_carries_on_the_same_recording(in_tmp: Path, context: tcod.context.Context) -> None:
    screens = handled(context, menu(SEED), key(KeySym.N))
    engine = engine_of(screens)
    for sym in (KeySym.L, KeySym.L, KeySym.J):
        handled(context, screens, key(sym))
    handled(context, screens, key(KeySym.ESCAPE))  # Save and quit?
    handled(context, screens, key(KeySym.Y))
    assert screens.quitting == Quit()  # Yes: the main loop saves and quits, as here.
    autosave.back_to_start(screens)
    autosave.save_game(screens)
    path = in_tmp / "recordings" / recording_name(engine)
    saved_text = path.read_text()
    # Not the answer that quit; the game goes on in the dungeon, not in the question.
    assert saved_text.endswith("key l\nkey l\nkey j\nkey escape\nresume\n")

    # Played on, then the program died before it could save.
    screens = handled(context, menu(), key(KeySym.C))
    for sym in (KeySym.K, KeySym.K):
        handled(context, screens, key(sym))
    assert path.read_text() == saved_text + f"{recording.save_line(engine)}\nkey k\nkey k\n"
    saved_text = path.read_text().removesuffix("key k\nkey k\n")  # With the line of the save quitting made.

    # Continue recovers those from the file (`recovery`), and goes on from there.
    screens = handled(context, menu(), key(KeySym.C))
    assert isinstance(screens.top, input_handlers.PopupMessage)
    assert isinstance(screens.stack[-2], input_handlers.MainGameEventHandler)
    continued = engine_of(screens)
    assert continued.recording_file == engine.recording_file
    assert path.read_text() == saved_text + "key k\nkey k\n"
    screens.apply(Pop())  # Back to the dungeon under the popup.
    resaved = recording.save_line(continued)  # Saved after the frame it was recovered on.
    handled(context, screens, key(KeySym.H))
    assert path.read_text() == saved_text + f"key k\nkey k\n{resaved}\nkey h\n"
    assert list((in_tmp / "recordings").iterdir()) == [path]

    # The recording of both sittings replays to the game being played.
    replayed = replay_text(path.read_text())
    assert picture(engine_of(replayed)) == picture(continued)


def test_an_unwritable_recording_is_said_and_the_game_goes_on_unrecorded(
    in_tmp: Path, context: tcod.context.Context, capsys: pytest.CaptureFixture[str]
) -> None:
    screens = handled(context, menu(SEED), key(KeySym.N))
    engine = engine_of(screens)
    path = in_tmp / "recordings" / recording_name(engine)
    path.unlink()
    path.mkdir()  # Now the file can't be appended to.
    handled(context, screens, key(KeySym.L))
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "could not write the recording" in err
    handled(context, screens, key(KeySym.L))
    assert capsys.readouterr().err == ""  # Said once.
    said = [message.plain_text for message in engine.message_log.messages]
    assert [text for text in said if text.startswith("The recording could not be written (")] == [
        recording.NOT_WRITTEN.format(reason="Is a directory")
    ]
    assert engine.recording.held == [first_save(SEED), "key l", "key l"]  # Kept with the game, and saved with it.
    autosave.save_game(screens)
    # What the file held is out of reach: Continue says so, and the game goes on unrecorded.
    shown = handled(context, menu(), key(KeySym.C))
    assert isinstance(shown.top, input_handlers.PopupMessage) and shown.top.text == recovery.UNWRITTEN
    continued = engine_of(shown)
    assert continued.recording_file is None and continued.recording.lost


# A crash.


def test_a_crash_leaves_its_recording(
    in_tmp: Path,
    context: tcod.context.Context,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    wait = actions.WaitAction.perform

    def broken(self: actions.WaitAction) -> None:
        if self.entity is self.engine.player:
            raise RuntimeError("a bug in waiting")
        wait(self)

    monkeypatch.setattr(actions.WaitAction, "perform", broken)
    frames: Iterator[list[tcod.event.Event]] = iter([[key(KeySym.N)], [key(KeySym.L)], [typed(".")], [key(KeySym.KP_5)], [tcod.event.Quit()]])
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    loop.main_loop(context, console, menu(SEED), lambda: next(frames))
    err = capsys.readouterr().err
    assert "RuntimeError: a bug in waiting" in err
    first, second = in_tmp / "crash-001.rec", in_tmp / "crash-002.rec"
    started = NEW_HEADER + first_save(SEED) + "\n"  # Saved after its first frame.
    assert first.read_text() == started + "key l\ntext .\n"
    assert second.read_text() == started + "key l\ntext .\nkey kp_5\n"
    assert "python main.py --replay crash-001.rec" in err
    assert "python main.py --replay crash-002.rec" in err
    # Replayed, the crash happens again, reported as in the game, and play goes on.
    assert main.main(["--replay", str(first), "--headless"]) == 0
    out, err = capsys.readouterr()
    assert "RuntimeError: a bug in waiting" in err
    assert json.loads(out)["screen"] == "MainGameEventHandler"


# Playback in the window.


def test_playback_keys() -> None:
    playback = replay.Playback([key(KeySym.L)] * 3, speed=8)
    playback.control(key(KeySym.SPACE))
    assert playback.paused and playback.timeout() is None and playback.next_event() is None
    assert "paused" in (playback.status() or "")
    playback.control(key(KeySym.SPACE))
    assert not playback.paused
    playback.control(key(KeySym.EQUALS, Modifier.LSHIFT))  # Its text acts, not its KeyDown.
    playback.control(typed("+"))
    playback.control(typed("="))  # `+` without Shift.
    assert playback.speed == 32
    playback.control(typed("-"))
    assert playback.speed == 16
    assert playback.next_event() is not None and playback.played == 1
    playback.control(key(KeySym.L))  # Anything else the player does goes nowhere.
    playback.control(motion(5, 5))
    assert playback.played == 1 and not playback.finished
    playback.control(key(KeySym.ESCAPE))
    assert playback.finished and playback.next_event() is None
    # Closing the window quits, as in play (the replay's frame, `play_frame`).
    screens = screens_of(replay.start(record_reader.Script(SEED, [])))
    replay.play_frame(screens, playback, lambda timeout=None: [tcod.event.Quit()])
    assert screens.quitting == Quit()


def test_playback_in_the_loop_ends_where_the_headless_replay_does(
    in_tmp: Path, context: tcod.context.Context
) -> None:
    text = HEADER + "key l\nkey l\nmove 10 10\nkey i\nkey escape\nkey j\ntext /\nkey k\nkey return\nkey h\n"
    script = record_reader.parse(text, "walk.rec")
    first = replay.start(script)
    recording.start_file(first.engine)
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    # Played on after the replay (asked first: yes), then quit.
    after: Iterator[list[tcod.event.Event]] = iter(
        [[key(KeySym.L)], [key(KeySym.Y)], [key(KeySym.SPACE)], [key(KeySym.L)], [tcod.event.Quit()]]
    )
    playback = replay.Playback(script.events, speed=replay.FASTEST)
    loop.main_loop(context, console, screens_of(first), lambda: next(after), playback)
    assert playback.finished
    saved = setup_game.load_game(paths.SAVE_NAME)
    # Left in look mode: the game goes on from its save on the dungeon's screen.
    assert picture(saved) == picture(engine_of(replay_text(text + "key l\nresume\n")))
    # The replayed game was recorded anew, with the play after it.
    assert (in_tmp / "recordings" / recording_name(saved)).read_text() == text + "key l\nresume\n"


def test_replay_options_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--headless"], ["--screen", "x.txt"], ["--replay", "a.rec", "--seed", "3"]):
        with pytest.raises(SystemExit) as exited:
            command_line.parse_args(argv)
        assert exited.value.code == 2
        assert "error:" in capsys.readouterr().err


def test_playback_in_the_window_plays_a_walk_as_one_event(
    in_tmp: Path, context: tcod.context.Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recorded walk is one event at the replay's pace, not drawn step by step
    at the walk's (which made a fast replay crawl), and the game ends where the
    headless replay ends."""
    # Seed 10: no monster in view; one of the 6 turns picks up an item.
    text = "recording 1\nseed 10\nkey x\nsteps 6\nkey period\n"
    script = record_reader.parse(text, "walk.rec")
    handler = replay.start(script)
    recording.start_file(handler.engine)
    start = handler.engine.player.x, handler.engine.player.y
    seen: list[tuple[int, int]] = []
    present = context.present

    def watch(console: tcod.console.Console, **kwargs: object) -> None:
        seen.append((handler.engine.player.x, handler.engine.player.y))
        present(console, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "present", watch)
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    playback = replay.Playback(script.events, speed=replay.FASTEST)
    loop.main_loop(context, console, screens_of(handler), lambda: iter([tcod.event.Quit()]), playback)
    places = [place for i, place in enumerate(seen) if i == 0 or place != seen[i - 1]]
    assert len(places) == 2 and places[0] == start  # The start, then the walk's end.
    assert handler.engine.turns == 7  # The walk's 6 steps and the wait.
    assert len(seen) <= len(script.events) + 2  # A frame an event, and the first and last.
    assert len(handler.engine.player.inventory.items) == 3  # And the pick-up.
    assert picture(handler.engine) == picture(engine_of(replay_text(text)))
    assert not (in_tmp / paths.SAVE_NAME).exists()  # A replay not played on is not saved.


def test_the_recording_caps_take_what_is_at_them() -> None:
    text = (f"recording 1\nseed {record_format.MAX_SEED}\n#" + "x" * (record_reader.MAX_LINE - 1)
            + "\nmove 1000000 0\nclick -1000000 1000000\nsteps 1000000\n")
    script = record_reader.parse(text, "edge")
    assert script.seed == 2**64 - 1 and len(script.events) == 3
    assert max(len(line) for line in text.splitlines()) == record_reader.MAX_LINE


def test_escape_in_a_window_replay_stops_the_walk_it_shows(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping the replay stops the walk under way too, recorded as a key
    stopping it would be: the player's next key is not eaten stopping it."""
    script = record_reader.parse("recording 3\nseed 10\nkey x\n", "walk.rec")
    screens = screens_of(replay.start(script))
    playback = replay.Playback(script.events, speed=replay.FASTEST)
    monkeypatch.setattr(tcod.event, "wait", lambda timeout=None: [])
    while not screens.walking:
        replay.play_frame(screens, playback)
    replay.play_frame(screens, playback)  # A step.
    monkeypatch.setattr(tcod.event, "wait", lambda timeout=None: [key(KeySym.ESCAPE)])
    replay.play_frame(screens, playback)
    assert playback.finished and not screens.walking
    engine = engine_of(screens)
    assert engine is not None and engine.recording[-1].startswith("steps ")
    # And the recording replays to the same place.
    again = engine_of(replay_text("\n".join(engine.recording) + "\n"))
    assert again is not None
    assert (again.player.x, again.player.y) == (engine.player.x, engine.player.y)


def test_a_window_replay_says_when_the_keys_are_the_players(
    in_tmp: Path, context: tcod.context.Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the replay is over, the top line says the player has the keys, until the first key."""
    script = record_reader.parse("recording 3\nseed 10\nkey l\nkey h\n", "two.rec")
    first = replay.start(script)
    recording.start_file(first.engine)
    tops: list[str] = []
    present = context.present

    def watch(console: tcod.console.Console, **kwargs: object) -> None:
        tops.append("".join(chr(c) for c in console.rgb["ch"][:, 0]).strip())
        present(console, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "present", watch)
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    after: Iterator[list[tcod.event.Event]] = iter([[key(KeySym.PERIOD)], [tcod.event.Quit()]])
    playback = replay.Playback(script.events, speed=replay.FASTEST)
    loop.main_loop(context, console, screens_of(first), lambda: next(after), playback)
    told = [i for i, top in enumerate(tops) if top.startswith(replay.TAKEN_OVER)]
    assert told and tops[0].startswith("Replay 0/2")
    assert len(told) == 1 and told[0] == len(tops) - 2  # Until the player's key.
    assert replay.TAKEN_OVER not in tops[-1]


@pytest.mark.parametrize(
    "command", ["i", "d", "c", "v", "text ?"], ids=["inventory", "drop", "character", "history", "help"]
)
def test_a_window_replays_status_line_covers_no_menu(
    in_tmp: Path, context: tcod.context.Context, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """The replay's line is printed over the top row: a menu the recording opens keeps
    its frame and its title whole below it, whatever the line says."""
    line = command if command.startswith("text ") else f"key {command}"
    script = record_reader.parse(f"recording 3\nseed 10\n{line}\n", "menu.rec")
    first = replay.start(script)
    recording.start_file(first.engine)
    frames: list[list[str]] = []
    present = context.present

    def watch(console: tcod.console.Console, **kwargs: object) -> None:
        frames.append(["".join(chr(c) for c in console.rgb["ch"][:, y]) for y in range(console.height)])
        present(console, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "present", watch)
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    playback = replay.Playback(script.events, speed=replay.FASTEST)
    loop.main_loop(context, console, screens_of(first), lambda: iter([tcod.event.Quit()]), playback)
    with_menu = [rows for rows in frames if any("┘" in row for row in rows)]  # Its bottom edge.
    assert with_menu, "the recording opened no menu"
    for rows in with_menu:
        assert rows[0].startswith(("Replay ", replay.TAKEN_OVER))
        top = next((y for y, row in enumerate(rows) if "┌" in row), None)
        assert top is not None, f"the menu's top edge is covered: {rows[0]!r}"
        left, right = rows[top].index("┌"), rows[top].index("┐")
        title = rows[top][left + 1 : right].strip("─")
        assert top > 0 and title.strip() and set(title) <= set(" " + string.ascii_letters), rows[top]
        bottom = next(y for y, row in enumerate(rows) if "└" in row)
        assert all(rows[y][left] == "│" == rows[y][right] for y in range(top + 1, bottom)), "a side broken"


def test_a_playback_walk_stops_where_its_steps_line_says_and_not_before() -> None:
    """The next line decides whether a walk under way takes another step: a key
    (or anything but a pointer move or a `steps N`) lets it walk on; `steps 3`
    stops it at 3 steps, not sooner."""
    playback = replay.Playback([key(KeySym.X), key(KeySym.L), record_format.Steps(3)])
    assert play_one(playback) == key(KeySym.X)
    assert playback.walk_goes_on(5)  # A key comes after the walk stopped by itself.
    assert play_one(playback) == key(KeySym.L)
    assert playback.walk_goes_on(2) and not playback.walk_goes_on(3)
    assert play_one(playback) == record_format.Steps(3)
    assert not playback.walk_goes_on(0)  # Finished.


def play_one(playback: replay.Playback) -> record_format.Recorded | None:
    """The playback's next event, played now whatever its pace."""
    playback.due = 0.0
    return playback.next_event()


def test_a_window_replay_reads_its_file_as_it_plays_and_stops_at_a_line_changed_since(tmp_path: Path) -> None:
    """`--replay` in the window checks every line before the window opens, keeping none,
    and reads them again one ahead as they play: a line changed in between stops the
    replay there, saying where (the file by its name: the status is one line)."""
    path = tmp_path / "game.rec"
    lines = [*record_format.header(3), "key l", "key h", "key l", "key h"]
    path.write_text("\n".join(lines) + "\n")
    checked = recording.Checked(path)
    assert (checked.script.seed, checked.script.events, checked.count) == (3, [], 4)
    playback = replay.Playback(checked.events(), total=checked.count)
    assert play_one(playback) == key(KeySym.L)
    assert "Replay 1/4" in (playback.status() or "")
    path.write_text("\n".join([*lines[:-2], "key nonsense", "key h"]) + "\n")
    fresh = replay.Playback(checked.events(), total=checked.count)
    assert [play_one(fresh) for _ in range(3)] == [key(KeySym.L), key(KeySym.H), None]
    assert fresh.status() == f"Replay stopped: game.rec, line {len(lines) - 1}: unknown key name 'nonsense'"
    with pytest.raises(record_reader.RecordingError, match="unknown key name"):
        recording.Checked(path)


def test_the_playback_keeps_its_pace_and_a_late_one_does_not_rush_to_catch_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 8 events a second each event is due 1/8 s after the last; a playback that
    fell behind (a slow frame) is due at most 1/8 s back, not all it lost."""
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])  # As the replay reads it.
    playback = replay.Playback([key(KeySym.L)] * 3, speed=8)
    assert playback.next_event() is not None
    assert playback.due == 100.125
    clock[0] = 110.0  # Ten seconds late.
    assert playback.next_event() is not None
    assert playback.due == 109.875
