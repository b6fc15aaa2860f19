"""A recording means the same game everywhere: it keeps the keys and the
options that change play (format 4), and replays and recoveries play by its
own, whatever the viewer's `keys.txt` and `options.txt` say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import key, replay_text, screens_of, typed
from tcod.event import KeySym

import input_handlers
import main
import setup_game
from controls import key_file
from replays import record_format, record_reader, recording, replay, replay_lines, rules
from saving import paths
from screens.stack import Screens
from window import options

# The viewer's own files, each making the recording's keys mean something else.
OTHER_OPTIONS = "gather_items = off\nwalk_speed = slow\n"
OTHER_KEYS = "clear explore\nexplore e\nclear wait\nwait s\nclear move_east\nmove_east f\n"


def explored(seed: int) -> list[str]:
    """The recording of a game of `seed` played by the default keys and options:
    exploring, waiting, stepping east."""
    screens = screens_of(replay.start(record_reader.Script(seed, [])))
    for event in [key(KeySym.X), typed("."), key(KeySym.X), key(KeySym.L), key(KeySym.X), key(KeySym.X)]:
        replay_lines.replay_line(screens, event)
        replay_lines.finish_walk(screens)
    engine = screens.engine
    assert engine is not None
    return list(engine.recording)


@pytest.fixture
def gathering() -> list[str]:
    """A recording whose exploring picked an item up (the first such seed)."""
    for seed in range(1, 200):
        lines = explored(seed)
        engine = replay_text_of(lines).engine
        assert engine is not None
        if len(engine.player.inventory.items) > 2 and engine.turns > 5:
            return lines
    raise AssertionError("no game of seeds 1 to 199 picks an item up exploring")


def replay_text_of(lines: list[str]) -> Screens:
    return replay_text("\n".join(lines))


def headless_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], name: str, own: bool
) -> dict[str, object]:
    """Where `--replay --headless` ends the recording, for a viewer with (or
    without) options and keys of their own."""
    folder = tmp_path / name
    folder.mkdir()
    if own:
        (folder / paths.OPTIONS_NAME).write_text(OTHER_OPTIONS)
        (folder / paths.KEYS_NAME).write_text(OTHER_KEYS)
    path = folder / "game.rec"
    path.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main.main(["--replay", str(path), "--headless", "--data-dir", str(folder)]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_the_header_names_every_binding_and_play_option() -> None:
    lines = explored(3)
    script = record_reader.parse("\n".join(lines), "<test>")
    assert lines[0] == "recording 4" and script.version == 4
    assert "option gather_items on" in lines
    assert "bind explore x o" in lines and "bind wait . kp_5 clear" in lines
    # They make the default settings again, whatever the viewer's.
    viewer = options.Settings(options.Options(gather_items=False), options.Settings().keys)
    made = rules.settings_of(4, script.rules, viewer)
    assert made.keys == options.Settings().keys and made.options.gather_items
    assert not made.keep


def test_the_same_recording_ends_the_same_under_other_options_and_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gathering: list[str]
) -> None:
    plain = headless_end(tmp_path, capsys, gathering, "plain", own=False)
    other = headless_end(tmp_path, capsys, gathering, "other", own=True)
    assert plain == other
    assert len(plain["inventory"]) > 2  # type: ignore[arg-type]
    # The viewer's files were read and left as they were.
    assert (tmp_path / "other" / paths.OPTIONS_NAME).read_text() == OTHER_OPTIONS


def test_a_format_3_recording_plays_by_the_viewers_keys_as_ever(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gathering: list[str]
) -> None:
    script = record_reader.parse("\n".join(gathering), "<test>")
    old = record_format.header(script.seed, 3) + gathering[2 + len(script.rules) :]
    plain = headless_end(tmp_path, capsys, old, "plain", own=False)
    other = headless_end(tmp_path, capsys, old, "other", own=True)
    assert plain != other  # What the test above proves could fail.
    assert plain == headless_end(tmp_path, capsys, gathering, "today", own=False)


def test_a_game_continued_with_other_keys_records_the_change_where_it_happened(
    in_tmp: Path,
) -> None:
    screens = Screens(setup_game.MainMenu(seed=3))
    screens.press(key(KeySym.N))
    game = screens.top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    game.engine.save_as(str(paths.save_path()))
    # The player gives `e` to exploring and turns picking up off, then continues.
    (in_tmp / paths.KEYS_NAME).write_text("clear explore\nexplore e\n")
    tables, notice = key_file.load()
    assert notice is None
    settings = options.Settings(options.Options(gather_items=False), tables)
    continued = Screens(setup_game.MainMenu(settings))
    continued.press(key(KeySym.C))
    engine = continued.engine
    assert engine is not None and engine.settings is settings
    after = engine.recording[-2:]
    assert after == ["option gather_items off", "bind explore e"]
    # Replayed by anyone, the game goes on with those keys from there.
    replayed = replay_text_of(list(engine.recording)).engine
    assert replayed is not None and replayed.settings.keys == tables
    assert not replayed.settings.options.gather_items


@pytest.mark.parametrize(
    "line, why",
    [
        ("bind fly f", "'bind' takes a command"),
        ("bind explore nokey", "unknown key"),
        ("bind move_east >", "a move takes keys"),
        ("option gather_items maybe", "option gather_items"),
        ("option palette tutorial", "'option' takes one of gather_items"),
    ],
)
def test_a_bad_rule_is_refused_naming_its_line(line: str, why: str) -> None:
    with pytest.raises(record_reader.RecordingError, match=f"line 3: {why}"):
        record_reader.parse(f"recording 4\nseed 1\n{line}\n", "<test>")


def test_continue_recovers_by_the_recordings_keys_and_options(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], gathering: list[str]
) -> None:
    """Killed after its save, a game is recovered as its recording replays,
    though the player has since changed their options and keys."""
    script = record_reader.parse("\n".join(gathering), "<test>")
    screens = Screens(setup_game.MainMenu(seed=script.seed))
    screens.press(key(KeySym.N))
    game = screens.top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    recording.write_new(game.engine)  # As the main loop does after each frame.
    game.engine.save_as(str(paths.save_path()))
    for event in script.events:  # Played, never saved: then the game is killed.
        replay_lines.replay_line(screens, event)
    replay_lines.finish_walk(screens)
    recording.write_new(game.engine)
    played = replay.summary(screens)
    (in_tmp / paths.OPTIONS_NAME).write_text(OTHER_OPTIONS)
    (in_tmp / paths.KEYS_NAME).write_text(OTHER_KEYS)
    settings, notice = main.read_settings(False)
    assert notice is None and not settings.options.gather_items
    recovered = Screens(setup_game.MainMenu(settings))
    recovered.press(key(KeySym.C))
    assert isinstance(recovered.top, input_handlers.PopupMessage)
    under_the_popup = Screens(recovered.menu, *recovered.stack[1:-1])
    assert replay.summary(under_the_popup) == played
    engine = recovered.engine
    assert engine is not None and engine.settings is settings  # The player's from now on.
    assert engine.recording.held[-4:] == [  # Those the file lacks, after the lines recovered.
        "option gather_items off",
        "bind explore e",
        "bind move_east f",
        "bind wait s",
    ]


def by_rebuilding(rule: rules.Bind, settings: options.Settings) -> None:
    """What a `bind` line means, as the key file says it: its keys taken from every
    action, then given to its action alone."""
    bindings = key_file.Bindings.of(settings.keys)
    for bound in bindings.keys_of.values():
        bound[:] = [key for key in bound if key not in rule.keys]
    bindings.keys_of[rule.action] = list(rule.keys)
    settings.keys = key_file.tables(bindings)


def test_a_bind_line_means_what_the_key_file_says_at_the_cost_of_the_keys_it_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A recording may hold a million `bind` lines: each changes the keys it names,
    with no rebuild of every binding, and leaves the keys as the key file would."""
    import random

    rng = random.Random(5)
    words = [*list(key_file.key_names())[:60], ">", "<", "."]
    binds: list[rules.Bind] = []
    while len(binds) < 200:
        try:
            rule = rules.rule_of("bind", [rng.choice(list(key_file.COMMAND_NAMES)), *rng.sample(words, rng.randint(0, 3))])
        except ValueError:
            continue  # A symbol for a move.
        assert isinstance(rule, rules.Bind)
        binds.append(rule)
    expected = options.Settings()
    for rule in binds:
        by_rebuilding(rule, expected)
    settings = options.Settings()
    monkeypatch.setattr(key_file.Bindings, "of", None)  # No rebuild:
    monkeypatch.setattr(key_file, "tables", None)  # neither half of one.
    for rule in binds:
        rules.apply(rule, settings)
    assert dict(settings.keys.main) == dict(expected.keys.main)
    assert dict(settings.keys.move) == dict(expected.keys.move)
    assert sorted(map(str, settings.keys.wait)) == sorted(map(str, expected.keys.wait))
