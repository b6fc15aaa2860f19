"""How a saved object is written as plain data and read back: from one declaration of its fields.

Each saved class declares every field its objects hold, once, in a class
attribute `saved_fields`, each with how it is saved and checked; a subclass
adds its own to its bases'.  For example, `Level`::

    saved_fields = {"current_level": Int(1, MAX_LEVEL), "current_xp": Int(0, MAX_STAT), ...}

`write` turns an object into a dict of its saved fields, refusing a field the
object holds that its class does not declare (`UndeclaredFieldError`); `read`
makes an object of the class without calling its constructor, each field read
from its record and checked, a record refused for a field missing (unless
declared with a default), unknown, or out of bounds; then it calls the
object's `check_loaded(what)`, if its class has one, for what one field can't
say alone (hit points within the maximum).  `save` calls the game's
`before_save()` first, if its class has one (the game records its save).
Fields that are not saved are
declared too: `Link` (the object holding this one) and `Fresh`, `New`.
An object of many alike, of plain values (a message), is saved as a `Row`:
a tuple of the same fields, by the same declaration, in its order.
"""

from __future__ import annotations

import copy
import importlib
import operator
import os
import sys
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, ClassVar, Final, cast

import numpy as np

import tile_types
from replays import record_format, record_reader, recording
from saving import savefile
from saving.savefile import DamagedSaveError, UnsaveableGameError, all_of_type

# The layout of the data.  Bump it whenever a field is added without a
# default, removed, or changes meaning, with a step in `save_data.UPGRADES`.
# (Format 8 is format 7's data, compressed by zlib: see `savefile`; format 9
# saves each message as a `Row`; format 10 each tile with its name and sign;
# format 11 names how far its recording's file goes instead of holding its lines;
# format 12's recording ends that stretch on the save's own line, `recording.save_line`.)
FORMAT_VERSION: Final = 12

# Bounds generous for any game played, tight enough that no value can make
# the game allocate, loop or draw without bound.
MAX_SIDE: Final = 1000
MAX_STAT: Final = 1_000_000
MAX_LEVEL: Final = 10_000  # The character screen sums what each level cost.
MAX_NUMBER: Final = MAX_SIDE  # A bonus, a number of turns, a radius, a step of a path.
MAX_NAME: Final = 200
MAX_TILE_KINDS: Final = 256  # A map's kinds of tile: each tile's kind is saved in a byte.
MAX_TILES: Final = 80 * 43  # A map's tiles (`game_map.MAP_WIDTH` by `MAP_HEIGHT`): the longest path.
MAX_LINE: Final = 200
MAX_TURNS: Final = 10**9
MAX_RECORDING: Final = record_reader.MAX_LINES  # Lines: one per key press, click or move.
HEAD_LINES: Final = record_format.HEAD_LINES  # A recording's format and seed.

Fields = dict[str, "Field"]
NO_DEFAULT: Final = object()


class UndeclaredFieldError(UnsaveableGameError):
    """An object holds a field its class neither saves nor declares not saved."""

    def __init__(self, cls: type, name: str) -> None:
        self.field = f"{cls.__name__}.{name}"
        super().__init__(
            f"{self.field} is neither saved nor declared not saved (add it to {cls.__name__}'s saved fields)."
        )


def fields_of(cls: type) -> Fields:
    """Every field `cls` declares, its bases' first."""
    fields: Fields = {}
    for base in reversed(cls.__mro__):
        fields.update(vars(base).get("saved_fields", {}))
    return fields


def write(obj: object) -> dict[str, object]:
    """`obj` as a dict of its saved fields (see the module's docstring)."""
    fields = fields_of(type(obj))
    for name, value in vars(obj).items():
        if name not in fields and not callable(value):  # A method patched on (a test's spy) is no field.
            raise UndeclaredFieldError(type(obj), name)
    data: dict[str, object] = {}
    for name, field in fields.items():
        if field.saved:
            value = getattr(obj, name, NO_DEFAULT)
            if value is NO_DEFAULT:
                raise UnsaveableGameError(f"{type(obj).__name__}.{name} is declared, but the {type(obj).__name__} has none.")
            data[name] = field.write(value, obj)
    return data


def read(cls: type, record: Record, owner: object) -> Any:
    """A new `cls` from `record`, each field checked; `owner` holds it (see `Link`)."""
    obj: Any = object.__new__(cls)
    for name, field in fields_of(cls).items():
        if not field.saved:
            value = field.fresh(owner)
        elif field.default is not NO_DEFAULT and not record.has(name):
            value = copy.copy(field.default)  # Saved before the field was.
        else:
            value = field.read(record.field(name), record.about(name), obj)
        if value is not getattr(cls, name, NO_DEFAULT):  # A class's default stays the class's.
            obj.__dict__[name] = value
    record.done()
    if hasattr(obj, "check_loaded"):
        obj.check_loaded(record.what)
    return obj


def from_data(cls: type, data: object) -> Any:
    """A new game (a `cls`) built from `data`, every field checked."""
    return read(cls, Record(data, "the game", root=True), None)


def save(game: object, path: str | os.PathLike[str], *, keep_backup: bool = True) -> None:
    """Save `game` to `path` (see `savefile.write`), once its data is known to
    load, within the loader's limits on its size too: a game the save could not
    bring back is never written (`UnsaveableGameError`), as it would be lost at
    the next load.

    The data is read as a load reads it, from memory: the pickle and its
    compression give back what they were given, so reading the file back
    would check nothing more, at twice the cost.  The game's `before_save()`, if
    it has one, comes first; what it returns takes it back if the save fails."""
    take_back = game.before_save() if hasattr(game, "before_save") else None
    try:
        data = write(game)
        try:
            savefile.check_plain(data)
            from_data(type(game), _cut_for_check(type(game), data))
        except savefile.SaveError as exc:
            raise UnsaveableGameError(str(exc)) from exc
        blob = savefile.dumps_loadable(data, FORMAT_VERSION)
        savefile.write(blob, path, FORMAT_VERSION, keep_backup=keep_backup)
    except BaseException:
        if take_back is not None:
            take_back()
        raise


def _cut_for_check(cls: type, data: dict[str, object]) -> dict[str, object]:
    """`data` (of a `cls`) cut for the check before a save, to what the check would
    read in vain at every save:

    - the lines its recording holds cut to none: each line was checked once, as it
      came (`record_format.line_of` made it, or a load read it); `Recording.write` counts them;
    - a list of rows (a full log's thousand messages) cut to its last row once its
      columns are read here (`Row.read_columns`): a row is made of checked values alone,
      nothing of it can fail, so a thousand more rows made and thrown away check nothing
      more.  (The holder's `check_loaded` sees that row alone.)  A list these checks
      refuse is left whole, for the read to say what is wrong."""
    cut = dict(data)
    for name, field in fields_of(cls).items():
        saved = cut.get(name)
        if isinstance(field, Recording) and isinstance(saved, dict):
            first = "" if saved["written"] else "\n".join(cast(str, saved["held"]).split("\n", HEAD_LINES)[:HEAD_LINES])
            cut[name] = {**saved, "held": first}
        elif isinstance(field, Part) and type(saved) is dict:
            cut[name] = _cut_for_check(the_class(field.cls), saved)
        elif (
            isinstance(field, ListOf) and isinstance(field.field, Row) and type(saved) is list
            and 0 < len(saved) <= field.length and field.field.read_columns(saved) is not None
        ):  # fmt: skip
            cut[name] = saved[-1:]
    return cut


class Record:
    """One dict of the data being read: each field taken by name, none left over."""

    def __init__(self, value: object, what: str, *, root: bool = False) -> None:
        if type(value) is not dict:
            raise DamagedSaveError(f"{what} is not a record")
        self.value: dict[str, object] = value
        self.what = what
        self.root = root  # The game: its fields are named alone, "the turns".
        self.taken: set[str] = set()

    def has(self, key: str) -> bool:
        return key in self.value

    def field(self, key: str) -> object:
        if key not in self.value:
            raise DamagedSaveError(f"{self.what} has no {key}")
        self.taken.add(key)
        return self.value[key]

    def about(self, key: str) -> str:
        """How a message names field `key` of this record."""
        return f"the {key}" if self.root else f"the {key} of {self.what}"

    def done(self) -> None:
        """Refuse fields nobody read: a save this game did not write."""
        for key in self.value:
            if key not in self.taken:
                raise DamagedSaveError(f"{self.what} has a field this game does not know, {ascii(key)[:MAX_LINE]}")


# --- Fields ----------------------------------------------------------------------


class Field:
    """One field: how it is written as plain data, and read back checked."""

    saved: ClassVar[bool] = True

    def __init__(self, *, default: object = NO_DEFAULT) -> None:
        self.default = default  # What older saves read.

    def write(self, value: Any, owner: Any) -> object:
        return value

    def read(self, value: object, what: str, owner: Any) -> object:
        raise NotImplementedError

    def fresh(self, owner: object) -> object:
        raise NotImplementedError

    def write_list(self, values: Iterable[Any], owner: Any) -> list[object]:
        """Each of `values` written (a `ListOf`'s entries)."""
        return [self.write(value, owner) for value in values]

    def read_list(self, values: list[object], what: str, owner: Any) -> list[Any]:
        """Each of `values` read, named as the entry it is (a `ListOf`'s)."""
        return [self.read(value, f"entry {n} of {what}", owner) for n, value in enumerate(values)]

    def write_column(self, values: list[Any]) -> list[object]:
        """Each of `values` written: a column of `Row`s, whose fields hold plain values."""
        return values if type(self).write is Field.write else [self.write(value, None) for value in values]

    def read_column(self, values: list[object]) -> list[object] | None:
        """Each of `values` read, or None if one is damaged (its rows are then
        read one by one, to name it): a column of `Row`s, as `write_column`."""
        try:
            return [self.read(value, "", None) for value in values]
        except DamagedSaveError:
            return None


class Int(Field):
    """A whole number from `low` to `high`.  Saved at most at `high`: a number
    play makes grow (turns, hit points...) is saved at its cap rather than
    refused, so a save that loads can always be saved again."""

    def __init__(self, low: int, high: int, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.low, self.high = low, high

    def write(self, value: Any, owner: Any) -> object:
        return self.high if type(value) is int and value > self.high else value

    def read(self, value: object, what: str, owner: Any) -> int:
        if type(value) is not int or not self.low <= value <= self.high:
            raise DamagedSaveError(f"{what} is not a whole number from {self.low} to {self.high}")
        return value

    def write_column(self, values: list[Any]) -> list[object]:
        if max(values, default=self.high) <= self.high:
            return values
        return [self.write(value, None) for value in values]

    def read_column(self, values: list[object]) -> list[object] | None:
        numbers = cast("list[int]", values)
        if all_of_type(values, int) and self.low <= min(numbers, default=self.low) and max(numbers, default=self.high) <= self.high:
            return values
        return None


class Bool(Field):
    def read(self, value: object, what: str, owner: Any) -> bool:
        if type(value) is not bool:
            raise DamagedSaveError(f"{what} is not true or false")
        return value


class Text(Field):
    """A text of at most `length` characters (exactly, with `exact`)."""

    def __init__(self, length: int = MAX_NAME, exact: bool = False, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.length, self.exact = length, exact

    def read(self, value: object, what: str, owner: Any) -> str:
        if type(value) is not str or len(value) > self.length or (self.exact and len(value) != self.length):
            amount = "exactly" if self.exact else "at most"
            characters = "character" if self.length == 1 else "characters"
            raise DamagedSaveError(f"{what} is not a text of {amount} {self.length} {characters}")
        try:
            value.encode("utf-8")  # Lone surrogates can't be drawn.
        except UnicodeEncodeError:
            raise DamagedSaveError(f"{what} is not valid text") from None
        return value

    def read_column(self, values: list[object]) -> list[object] | None:
        if self.exact or not all_of_type(values, str):
            return super().read_column(values)
        texts = cast("list[str]", values)
        if max(map(len, texts), default=0) > self.length:
            return None
        try:
            "".join(texts).encode("utf-8")
        except UnicodeEncodeError:
            return None
        return values


class Choice(Field):
    """A member of an Enum, saved by its name."""

    def __init__(self, enum: type[Enum], *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.enum = enum

    def write(self, value: Any, owner: Any) -> object:
        return value.name if isinstance(value, self.enum) else value

    def read(self, value: object, what: str, owner: Any) -> Enum:
        if type(value) is not str or value not in self.enum.__members__:
            raise DamagedSaveError(f"{what} is not a {self.enum.__name__} the game has")
        return self.enum[value]


class Group(Field):
    """A tuple of fixed length, each part its own field: (x, y), (r, g, b)."""

    def __init__(self, *parts: Field, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.parts = parts

    def write(self, value: Any, owner: Any) -> object:
        if type(value) is not tuple or len(value) != len(self.parts):
            return value
        return tuple(part.write(item, owner) for part, item in zip(self.parts, value, strict=True))

    def read(self, value: object, what: str, owner: Any) -> tuple[object, ...]:
        if type(value) is not tuple or len(value) != len(self.parts):
            raise DamagedSaveError(f"{what} is not a group of {len(self.parts)} values")
        return tuple(part.read(item, what, owner) for part, item in zip(self.parts, value, strict=True))


def Point() -> Group:  # Reads as the field it makes.
    """A place (x, y) on a map of any size the game allows."""
    return Group(Int(0, MAX_SIDE), Int(0, MAX_SIDE))


class Color(Field):
    """A colour (r, g, b), each from 0 to 255: one check, not three fields' (a full log holds a thousand)."""

    def read(self, value: object, what: str, owner: Any) -> object:
        if type(value) is tuple and len(value) == 3:
            r, g, b = value
            if type(r) is type(g) is type(b) is int and 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255:
                return value
        raise DamagedSaveError(f"{what} is not a colour: three whole numbers from 0 to 255")

    def read_column(self, values: list[object]) -> list[object] | None:
        """A log's thousand colours are a few tuples, each shared (`color`'s, or the
        unpickler's): each read once."""
        try:
            for value in dict(zip(map(id, values), values, strict=True)).values():
                self.read(value, "", None)
        except DamagedSaveError:
            return None
        return values


class Maybe(Field):
    """None, or a value of `field`."""

    def __init__(self, field: Field, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.field = field

    def write(self, value: Any, owner: Any) -> object:
        return None if value is None else self.field.write(value, owner)

    def read(self, value: object, what: str, owner: Any) -> object:
        return None if value is None else self.field.read(value, what, owner)

    def write_column(self, values: list[Any]) -> list[object]:
        present = [value for value in values if value is not None]
        return self._merge(values, present, self.field.write_column(present))

    def read_column(self, values: list[object]) -> list[object] | None:
        present = [value for value in values if value is not None]
        read = self.field.read_column(present)
        return None if read is None else self._merge(values, present, read)

    @staticmethod
    def _merge(values: list[object], present: list[object], done: list[object]) -> list[object]:
        """`values` with each of its `present` values (those not None) replaced, in order, by
        `done`'s; `values` itself when `done` is `present` (written or read as they are)."""
        if done is present:
            return values
        replaced = iter(done)
        return [None if value is None else next(replaced) for value in values]


class ListOf(Field):
    """A list of at most `length` values of `field`, each read as "entry N of" the list,
    read `into` another collection if given (`EntitySet`)."""

    def __init__(
        self, field: Field, length: int, into: Callable[[list[Any]], object] = list, *, default: object = NO_DEFAULT
    ) -> None:
        super().__init__(default=default)
        self.field, self.length, self.into = field, length, into

    def write(self, value: Any, owner: Any) -> object:
        return self.field.write_list(value, owner)

    def read(self, value: object, what: str, owner: Any) -> Any:
        if type(value) is not list or len(value) > self.length:
            raise DamagedSaveError(f"{what} is not a list of at most {self.length} entries")
        return self.into(self.field.read_list(value, what, owner))


class Counts(Field):
    """A count of each name, at most `length` names: the monsters killed."""

    def __init__(self, count: Int, length: int, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.count, self.length = count, length

    def write(self, value: Any, owner: Any) -> object:
        return {name: self.count.write(number, owner) for name, number in value.items()}

    def read(self, value: object, what: str, owner: Any) -> object:
        if type(value) is not dict or len(value) > self.length:
            raise DamagedSaveError(f"{what} is not a count of at most {self.length} names")
        return {Text().read(key, what, owner): self.count.read(number, what, owner) for key, number in value.items()}


def the_class(cls: type | str) -> type:
    """`cls`, or the class a text names ("components.fighter.Fighter"): named,
    not imported, where the class's module imports the declaring one."""
    if isinstance(cls, type):
        return cls
    module, _, name = cls.rpartition(".")
    found: type = getattr(sys.modules.get(module) or importlib.import_module(module), name)
    return found


class Part(Field):
    """An object of class `cls` itself (or named, see `the_class`), held by the
    owner: the Engine's map, an actor's Fighter."""

    def __init__(self, cls: type | str, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.cls = cls

    def write(self, value: Any, owner: Any) -> object:
        cls = the_class(self.cls)
        if type(value) is not cls:
            raise UnsaveableGameError(f"a {type(value).__name__} is where a {cls.__name__} is saved.")
        return write(value)

    def read(self, value: object, what: str, owner: Any) -> object:
        return read(the_class(self.cls), Record(value, what), owner)


class Row(Field):
    """An object of `cls`, a class of plain values (a message): every field it
    declares saved, and checked alone (it has no `check_loaded`).  Saved as a
    tuple of its fields in the order declared.  A list of rows (a full log is a
    thousand) is written and read a column at a time, a field's thousand values
    in one check (`read_column`): a row at a time, a full log's autosave took
    three times as long.  A record by name (formats up to 8) is read as a
    `Part` reads it."""

    def __init__(self, cls: type, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.cls = cls
        self.part, self.fields = Part(self.cls), fields_of(self.cls)  # Declared before the rows' holder is.
        if not all(field.saved for field in self.fields.values()) or hasattr(self.cls, "check_loaded"):
            raise TypeError(f"{self.cls.__name__} is no class of plain values: it can't be saved as a row")

    def write(self, value: Any, owner: Any) -> object:
        return tuple(cast("dict[str, object]", self.part.write(value, owner)).values())

    def read(self, value: object, what: str, owner: Any) -> object:
        if type(value) is dict:
            return self.part.read(value, what, owner)
        if type(value) is not tuple or len(value) != len(self.fields):
            raise DamagedSaveError(f"{what} is not a group of {len(self.fields)} values")
        obj: Any = object.__new__(self.cls)
        for (name, field), item in zip(self.fields.items(), value, strict=True):
            obj.__dict__[name] = field.read(item, f"the {name} of {what}", obj)
        return obj

    def write_list(self, values: Iterable[Any], owner: Any) -> list[object]:
        objects = list(values)
        held = list(map(vars, objects))  # What each object holds: its fields.
        # As many as declared, and each declared one there (or itemgetter raises): the declared and no other.
        if not objects or not all_of_type(objects, self.cls) or set(map(len, held)) != {len(self.fields)}:
            return super().write_list(objects, owner)  # A row at a time, to say what is wrong.
        try:
            columns = [field.write_column(list(map(operator.itemgetter(name), held))) for name, field in self.fields.items()]
        except KeyError:
            return super().write_list(objects, owner)
        return list(zip(*columns, strict=True))

    def read_columns(self, values: list[object]) -> list[list[object]] | None:
        """The columns of the rows `values` (not none), each read; None if one is damaged."""
        width = len(self.fields)
        if not all_of_type(values, tuple) or set(map(len, cast("list[tuple[object]]", values))) != {width}:
            return None
        rows = cast("list[tuple[object, ...]]", values)
        columns = [field.read_column(list(column)) for field, column in zip(self.fields.values(), zip(*rows, strict=True), strict=True)]
        return None if any(column is None for column in columns) else cast("list[list[object]]", columns)

    def read_list(self, values: list[object], what: str, owner: Any) -> list[Any]:
        columns = self.read_columns(values) if values else None
        if columns is None:
            return super().read_list(values, what, owner)  # A row at a time, to name the one damaged.
        objects = []
        for row in zip(*columns, strict=True):
            obj: Any = object.__new__(self.cls)
            obj.__dict__.update(zip(self.fields, row, strict=True))
            objects.append(obj)
        return objects


def is_the_games(cls: type) -> bool:
    """Whether a module of the game (not a test's, not a plugin's) defines `cls` under its name."""
    module = sys.modules.get(cls.__module__)
    return not cls.__module__.startswith(("test", "conftest")) and getattr(module, cls.__name__, None) is cls


class OneOf(Field):
    """An object of one of the game's classes under `bases`, its record naming
    it: {"kind": its class's name, then its fields}.  A class only a test
    defines is not the game's: a game holding one can't be saved."""

    def __init__(self, *bases: type | str, abstract: Iterable[type | str] = ()) -> None:
        super().__init__()
        self.bases, self.abstract = bases, tuple(abstract)

    def kinds(self) -> dict[str, type]:
        found: dict[str, type] = {}
        todo = [the_class(base) for base in self.bases]
        abstract = [the_class(cls) for cls in self.abstract]
        while todo:
            cls = todo.pop()
            todo.extend(cls.__subclasses__())
            if cls not in abstract and is_the_games(cls):
                found[cls.__name__] = cls
        return found

    def is_kind(self, cls: type) -> bool:
        """Whether `cls` is one of `kinds()`: asked of each entity saved, without walking them all."""
        bases = tuple(the_class(base) for base in self.bases)
        return issubclass(cls, bases) and cls not in [the_class(name) for name in self.abstract] and is_the_games(cls)

    def write(self, value: Any, owner: Any) -> object:
        cls = type(value)
        if not self.is_kind(cls):
            raise UnsaveableGameError(f"{cls.__name__} is a class no module of the game defines.")
        return {"kind": cls.__name__, **write(value)}

    def read(self, value: object, what: str, owner: Any) -> object:
        record = Record(value, what)
        kind = record.field("kind")
        cls = self.kinds().get(kind) if type(kind) is str else None
        if cls is None:
            raise DamagedSaveError(f"{record.about('kind')} is no {the_class(self.bases[0]).__name__} the game has")
        return read(cls, record, owner)


class Ref(Field):
    """One of the objects of a list the owner reaches by `path` ("game_map.entities"), saved as its index."""

    def __init__(self, path: str, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.path = path

    def among(self, owner: object) -> list[object]:
        return list(operator.attrgetter(self.path)(owner))

    def write(self, value: Any, owner: Any) -> object:
        for index, other in enumerate(self.among(owner)):
            if other is value:
                return index
        raise UnsaveableGameError(f"the {getattr(value, 'name', value)} is referred to but not in {self.path}.")

    def read(self, value: object, what: str, owner: Any) -> object:
        among = self.among(owner)
        return among[Int(0, len(among) - 1).read(value, what, owner)]


class Fresh(Field):
    """Not saved: each loaded game starts with `value`."""

    saved: ClassVar[bool] = False

    def __init__(self, value: Any, *, default: object = NO_DEFAULT) -> None:
        super().__init__(default=default)
        self.value = value

    def fresh(self, owner: object) -> object:
        return self.value


class Link(Field):
    """Not saved: the object holding this one (an entity's map, a component's entity), set again on loading."""

    saved: ClassVar[bool] = False

    def fresh(self, owner: object) -> object:
        return owner


class New(Fresh):
    """Not saved: each loaded object makes its own with `value` (the options in force)."""

    def fresh(self, owner: object) -> object:
        return self.value()


class Wrapped(Fresh):
    """Not saved here: the AI a confusion wraps, saved as the layer below it (`components.ai.Mind`)."""

    def __init__(self, value: Any = None, *, default: object = NO_DEFAULT) -> None:
        super().__init__(value, default=default)


# --- Fields of the game's own kinds ---------------------------------------------


class Tiles(Field):
    """The map's tiles as its kinds of tile, each once, and which kind each tile
    is: bytes of the game's own tile type, then a byte per tile."""

    def write(self, value: Any, owner: Any) -> object:
        tiles = value.ravel(order="F")
        # Each tile as columns of 8-byte words (zeros after its bytes), compared a
        # kind at a time: np.unique sorted the ninety-byte tiles three times slower.
        words = np.zeros((len(tiles), -(-tiles.itemsize // 8) * 8), np.uint8)
        words[:, : tiles.itemsize] = tiles.view(np.uint8).reshape(len(tiles), tiles.itemsize)
        columns = words.view(np.uint64).T.copy()
        which = np.zeros(len(tiles), np.uint8)
        kinds: list[int] = []  # The first tile of each kind.
        left = np.ones(len(tiles), bool)
        while left.any():
            if len(kinds) == MAX_TILE_KINDS:
                raise UnsaveableGameError(f"its map has more than {MAX_TILE_KINDS} kinds of tile.")
            first = int(left.argmax())
            same = left.copy()
            for column in columns:
                same &= column == column[first]
            which[same] = len(kinds)
            kinds.append(first)
            left &= ~same
        return tiles[kinds].tobytes(), which.tobytes()

    def read(self, value: object, what: str, owner: Any) -> object:
        size, count = tile_types.tile_dt.itemsize, owner.width * owner.height
        if not (type(value) is tuple and len(value) == 2 and all(type(part) is bytes for part in value)):
            raise DamagedSaveError(f"{what} is not a pair of bytes: the kinds of tile and which each tile is")
        kinds_saved, which_saved = value
        if not 0 < len(kinds_saved) <= MAX_TILE_KINDS * size or len(kinds_saved) % size or len(which_saved) != count:
            raise DamagedSaveError(f"{what} is not up to {MAX_TILE_KINDS} kinds of tile and {count} bytes long")
        kinds = np.frombuffer(kinds_saved, tile_types.tile_dt)
        which = np.frombuffer(which_saved, np.uint8)
        if (which >= len(kinds)).any():
            raise DamagedSaveError(f"{what} hold a tile of a kind that is not saved")
        # Any other byte would make nonsense of moves and sight, or of drawing.
        for flag in ("walkable", "transparent"):
            if (kinds[flag].view(np.uint8) > 1).any():
                raise DamagedSaveError(f"{what} hold a {flag} flag that is neither true nor false")
        codes = [kinds[look]["ch"] for look in ("dark", "light")]
        codes += [np.frombuffer(np.ascontiguousarray(kinds[text]).tobytes(), np.int32) for text in ("name", "sign")]
        if any(((ch < 0) | (ch > 0x10FFFF) | ((ch >= 0xD800) & (ch <= 0xDFFF))).any() for ch in codes):
            raise DamagedSaveError(f"{what} hold a character that is not one")
        for text in ("name", "sign"):
            if (kinds[text] == "").any():
                raise DamagedSaveError(f"{what} hold a tile with no {text}")
        # `take`, not `kinds[which]`: indexing by bytes copies these wide tiles twenty times slower.
        return np.take(kinds, which).reshape((owner.width, owner.height), order="F")


class Bits(Field):
    """A boolean array of the map's size, packed eight to a byte."""

    def write(self, value: Any, owner: Any) -> object:
        return np.packbits(value.ravel(order="F")).tobytes()

    def read(self, value: object, what: str, owner: Any) -> object:
        count = owner.width * owner.height
        if type(value) is not bytes or len(value) != (count + 7) // 8:
            raise DamagedSaveError(f"{what} is not {(count + 7) // 8} bytes long")
        bits = np.unpackbits(np.frombuffer(value, np.uint8), count=count)
        return np.array(bits.reshape((owner.width, owner.height), order="F"), dtype=bool, order="F")


class Rng(Field):
    """The play generator's state: PCG64's two 128-bit words and its spare 32 bits."""

    def write(self, value: Any, owner: Any) -> object:
        state = value.bit_generator.state
        if state["bit_generator"] != "PCG64":
            raise UnsaveableGameError(f"its random generator is {state['bit_generator']}, not PCG64.")
        return state["state"]["state"], state["state"]["inc"], state["has_uint32"], state["uinteger"]

    def read(self, value: object, what: str, owner: Any) -> object:
        words = Int(0, 2**128 - 1)
        parts = Group(words, words, Int(0, 1), Int(0, 2**32 - 1)).read(value, what, owner)
        state, inc, has_uint32, uinteger = cast("tuple[int, int, int, int]", parts)
        bit_generator = np.random.PCG64()
        bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": inc},
            "has_uint32": has_uint32,
            "uinteger": uinteger,
        }
        return np.random.Generator(bit_generator)


class Recording(Field):
    """A game's recording (`recording.Lines`): how far its file goes (lines, bytes
    and their SHA-256: Continue reads on from there), the lines held since, and its
    first lines and rules, each as one text: a hundred thousand lines are one
    string to check, not a hundred thousand objects."""

    def write(self, value: Any, owner: Any) -> object:
        if not isinstance(value, recording.Lines):
            raise UnsaveableGameError("its recording is not one.")
        texts = {part: self._text(getattr(value, part)) for part in ("head", "rules", "held")}
        if len(value) > MAX_RECORDING:
            raise UnsaveableGameError(f"its recording is longer than {MAX_RECORDING:,} lines.")
        return {**texts, "written": value.written, "bytes": value.size, "sha256": value.sha256}

    @staticmethod
    def _text(lines: list[str]) -> str:
        text = "\n".join(lines)
        if lines and text.count("\n") != len(lines) - 1:
            raise UnsaveableGameError("a line of its recording holds a line break.")
        return text

    def read(self, value: object, what: str, owner: Any) -> object:
        record = Record(value, what)
        texts = {part: self._lines(record.field(part), record.about(part)) for part in ("head", "rules", "held")}
        written = Int(0, MAX_RECORDING).read(record.field("written"), record.about("written"), owner)
        size = Int(0, record_reader.MAX_BYTES).read(record.field("bytes"), record.about("bytes"), owner)
        sha256 = Text(64, exact=True).read(record.field("sha256"), record.about("sha256"), owner)
        record.done()
        if written + len(texts["held"]) > MAX_RECORDING or not written <= size <= written * (MAX_LINE + 1):
            raise DamagedSaveError(f"{what} has more lines, or longer, than any game's")
        if not all(c in "0123456789abcdef" for c in sha256) or (not written and sha256 != recording.EMPTY_SHA256):
            raise DamagedSaveError(f"the sha256 of {what} is not the SHA-256 of what it wrote")
        lines = recording.Lines.of(texts["held"]) if not written else recording.Lines(
            list(texts["held"]), written, size, sha256, texts["head"], texts["rules"]
        )
        self._check_head(lines, what)
        return lines

    @staticmethod
    def _lines(value: object, what: str) -> list[str]:
        text = Text(MAX_RECORDING * (MAX_LINE + 1)).read(value, what, None)
        lines = text.split("\n") if text else []
        if len(lines) > MAX_RECORDING or max(map(len, lines), default=0) > MAX_LINE:
            raise DamagedSaveError(f"{what} has more lines, or longer, than any game's")
        return lines

    @staticmethod
    def _check_head(lines: recording.Lines, what: str) -> None:
        """Its format and seed, as a replay reads them (a seed `--seed` takes), and
        its rules, each one a replay reads."""
        if not lines.head and not len(lines):
            return
        try:
            record_reader.parse("\n".join(lines.head[:HEAD_LINES]), what)
        except record_reader.RecordingError as exc:
            raise DamagedSaveError(str(exc)) from None
        for number, line in enumerate(lines.rules, start=1):
            try:
                if not line.startswith(record_format.RULE_WORDS):
                    raise ValueError("not a rule")
                record_format.event_of(line)
            except ValueError as exc:
                raise DamagedSaveError(f"{what}, rule {number}: {exc}") from None


class FileName(Field):
    """A file's bare name in its folder, or None: never a path to somewhere else."""

    def read(self, value: object, what: str, owner: Any) -> object:
        if value is None:
            return None
        name = Text().read(value, what, owner)
        if name in ("", ".", "..") or not all(c.isascii() and (c.isalnum() or c in "._-") for c in name):
            raise DamagedSaveError(f"{what} is not a plain file name")
        return name
