"""What a key press means, kept in the recording (format 4 on): the dungeon's
key bindings and the options that change play, so that a recording replays the
same game whatever the viewer's `keys.txt` and `options.txt` say.

A new game's recording names them all after its seed (`bind explore o`,
`option gather_items on`); a game continued with other keys or options records
the lines that changed, where they changed.  A replay or a recovery plays by
these lines, on a copy of the viewer's settings that no change writes back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, Final, cast

from tcod.event import KeySym

from controls import key_file
from controls.key_file import Action, Bindings
from controls.keys import Command, Key, KeyTables
from window import options
from window.options import Settings

# The first recording format that keeps its bindings and options.
SINCE_VERSION: Final = 4


@dataclasses.dataclass(frozen=True)
class Bind:
    """A `bind ACTION KEY...` line: from here on, `action` takes these keys, and
    no other action takes them (none: the action has no key)."""

    action: Action
    keys: tuple[Key, ...]

    def line(self) -> str:
        words = [key if isinstance(key, str) else key.name.lower() for key in self.keys]
        return " ".join(["bind", key_file.action_name(self.action), *words])


@dataclasses.dataclass(frozen=True)
class SetOption:
    """An `option NAME VALUE` line: from here on, the option that changes play is `value`."""

    name: str
    value: Any

    def line(self) -> str:
        return f"option {self.name} {options.play_choices()[self.name].format(self.value)}"


Rule = Bind | SetOption


def rule_of(command: str, words: list[str]) -> Rule:
    """The rule of a `bind` or `option` line's words; ValueError saying what is wrong."""
    if command == "option":
        choices = options.play_choices()
        if len(words) < 2 or words[0] not in choices:
            raise ValueError(f"'option' takes one of {', '.join(choices)} and its value")
        try:  # A value's name may hold a space ("25% HP").
            return SetOption(words[0], choices[words[0]].parse(" ".join(words[1:])))
        except options.OptionsError as exc:
            raise ValueError(f"option {words[0]}: {exc}") from None
    if not words or words[0] not in key_file.COMMAND_NAMES:
        raise ValueError("'bind' takes a command of the key file, then its keys")
    action = key_file.COMMAND_NAMES[words[0]]
    bound = tuple(key_file.key_of(word) for word in words[1:])
    if isinstance(action, tuple) and any(isinstance(key, str) for key in bound):
        raise ValueError("a move takes keys, not symbols")
    return Bind(action, bound)


def rules_for(settings: Settings, since: Settings | None = None) -> list[Rule]:
    """The rules that make `settings` of those `since` (all of them, for a new game)."""
    rules: list[Rule] = [
        SetOption(name, getattr(settings.options, name))
        for name in options.play_choices()
        if since is None or getattr(since.options, name) != getattr(settings.options, name)
    ]
    now = Bindings.of(settings.keys).keys_of
    before = None if since is None else Bindings.of(since.keys).keys_of
    rules += [
        Bind(action, tuple(bound))
        for action, bound in now.items()
        if before is None or before.get(action) != bound
    ]
    return rules


def apply(rule: Rule, settings: Settings) -> None:
    """Play by `rule` from now on (never written to the player's files).

    A `bind` takes its keys from whatever held them and gives the action only
    those: a pass over the tables in force, as cheap as an event's, not a
    rebuild of every binding (a recording may hold a million such lines)."""
    if isinstance(rule, SetOption):
        settings.options = dataclasses.replace(settings.options, **{rule.name: rule.value})
        return
    taken, action, tables = set(rule.keys), rule.action, settings.keys
    move = {key: way for key, way in tables.move.items() if key not in taken and way != action}
    main = {key: command for key, command in tables.main.items() if key not in taken and command != action}
    wait = [] if action == key_file.WAIT else [key for key in tables.wait if key not in taken]
    for key in rule.keys:
        if isinstance(action, tuple):
            assert isinstance(key, KeySym), "rule_of lets only keys move"
            move[key] = action
        elif action == key_file.WAIT:
            wait.append(key)
        else:
            main[key] = cast(Command, action)
    settings.keys = KeyTables(move, tuple(wait), main)


def base(viewer: Settings) -> Settings:
    """What a recording of format 4 plays by before its rules: the default keys
    and play options, with the viewer's other options (how the game looks)."""
    defaults = {name: getattr(options.Options(), name) for name in options.play_choices()}
    return Settings(dataclasses.replace(viewer.options, **defaults), KeyTables(), keep=False)


def settings_of(version: int, rules: Iterable[Rule], viewer: Settings) -> Settings:
    """The settings a recording plays by after `rules`: for formats before 4,
    which kept none, the viewer's, as those recordings always replayed."""
    if version < SINCE_VERSION:
        return viewer.private()
    settings = base(viewer)
    for rule in rules:
        apply(rule, settings)
    return settings
