"""The save file: its format, writing it safely, and reading it safely.

A save is one file::

    b"YARLSAVE"            8 bytes, the magic: "this is a save of this game"
    FORMAT_VERSION         2 bytes, big-endian unsigned
    xz stream              the `Engine`, pickled (protocol 5), xz-compressed

Why each part is there:

* The magic and the version come first and uncompressed, so that a file that
  is not a save, or a save this game cannot read, is recognised from its first
  ten bytes and reported as such, rather than as a baffling unpickling error.
  Bump `FORMAT_VERSION` whenever the pickled classes change in a way older
  saves cannot follow (a renamed class or attribute, a new required one).
* The payload is an xz stream (lzma with a CRC32 check) rather than raw lzma:
  the check costs four bytes and turns a damaged or truncated file into a
  clear "damaged" error instead of a garbled game.
* Saving writes a temporary file beside the save, syncs it to disk and then
  renames it over the save, so a crash or power cut at any moment leaves
  either the old save or the new one, whole, never a mix or a stub.
* Loading unpickles with an allowlist (`_SaveUnpickler`): a pickle can name
  any function in any module and have it called, so a save file passed around
  by players could otherwise run any code on the loading machine.  Only the
  game's own classes, and the few numpy functions that rebuild arrays, may be
  named; anything else is refused before anything runs.
* Every way a save can be unusable has its own `SaveError` subclass, whose
  `str()` is one plain sentence the main menu shows in a popup.  A missing
  file raises the usual `FileNotFoundError`.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import lzma
import os
import pickle
import struct
import sys
import tempfile
from typing import TYPE_CHECKING, Final, cast

if TYPE_CHECKING:
    from engine import Engine

# The one save the game keeps, in the folder it is run from (as in the tutorial).
SAVE_FILENAME: Final = "savegame.sav"

MAGIC: Final = b"YARLSAVE"
FORMAT_VERSION: Final = 2

# Magic, then the version as a big-endian unsigned short.
_HEADER: Final = struct.Struct(f">{len(MAGIC)}sH")

# Pinned rather than `pickle.HIGHEST_PROTOCOL`, so that a newer Python does not
# silently change what format version 1 means.  Protocol 5 stores numpy
# arrays as one raw buffer each, which is both the smallest and fastest.
PICKLE_PROTOCOL: Final = 5

# LZMA2 at its strongest (`PRESET_EXTREME` saves another 6%), but with a
# 1 MiB dictionary: a floor pickles to about 90 KB, so preset 9's 64 MiB
# dictionary would compress no better, only take 40 ms to set up instead of 3
# and more memory to load.  Pickles are not text: fewer literal context bits
# (lc) and no position bits (pb) shave off another 2%.
_FILTERS: Final = (
    {
        "id": lzma.FILTER_LZMA2,
        "preset": 9 | lzma.PRESET_EXTREME,
        "dict_size": 1 << 20,
        "lc": 1,
        "lp": 0,
        "pb": 0,
    },
)

# A floor pickles to about 90 KB.  Refusing to inflate more than this keeps a
# tiny hostile file ("lzma bomb") from filling the memory.
MAX_PAYLOAD: Final = 64 << 20


class SaveError(Exception):
    """A save file that could not be loaded, or a game that could not be saved.

    `str(exc)` is one sentence fit for a popup.  Catch `SaveError` to handle
    every case; the subclasses say which one it was.
    """


class EmptySaveError(SaveError):
    """The file has no bytes at all (e.g. the disk filled up under an old,
    non-atomic save)."""

    def __init__(self) -> None:
        super().__init__("The save file is empty.")


class NotASaveError(SaveError):
    """The file does not start with `MAGIC`: something else was put there."""

    def __init__(self) -> None:
        super().__init__("This is not a save file of this game.")


class SaveVersionError(SaveError):
    """The file is a save of this game, but of a format this game can't read."""

    def __init__(self, found: int, expected: int = FORMAT_VERSION) -> None:
        self.found = found
        self.expected = expected
        super().__init__(
            f"The save is from format version {found}; this game reads version {expected}."
        )


class DamagedSaveError(SaveError):
    """The header is right but the rest is cut short or corrupt."""

    def __init__(self) -> None:
        super().__init__("The save file is damaged or truncated.")


class RefusedSaveError(SaveError):
    """The save names something outside the allowlist (see `_SaveUnpickler`).

    Either it was tampered with to run code, or it was made by a version of
    the game whose classes this one lacks.  What it asked for was not run.
    `module` and `name` say what that was.
    """

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        super().__init__(
            f"The save file contains code the game won't run ({module}.{name}); it was not loaded."
        )


class NotAGameError(SaveError):
    """The save unpickled safely, but to something other than an `Engine`."""

    def __init__(self, found: object) -> None:
        self.found_type = type(found)
        super().__init__("The save file holds something other than a game and was not loaded.")


class UnsaveableGameError(SaveError):
    """Raised by `save` when the game would not load back from its save.

    Writing such a save would lose the game at the next load, so nothing is
    written and the previous save is kept.  This is a bug in the game.  When
    the game holds an object of a class loading refuses, `module` and `name`
    name it, and the fix is usually to add its module to `GAME_MODULES`;
    otherwise they are None, and the chained exception tells what failed.
    """

    def __init__(self, refused: RefusedSaveError | None = None) -> None:
        self.module = None if refused is None else refused.module
        self.name = None if refused is None else refused.name
        if refused is None:
            message = "The game could not be saved: it would not load back."
        else:
            message = (
                f"The game could not be saved: it holds {refused.module}.{refused.name}, "
                "which saves may not contain."
            )
        super().__init__(message)


# The game's modules whose classes a save may contain: exactly those whose
# instances hang off an `Engine`.  Only classes defined in these modules (by
# their `__module__`) may be named, not everything these modules import: a
# module imports `random`, `numpy as np`, `savefile`..., and a save naming
# `("engine", "random")` must not reach them.  Modules not listed here
# (actions, input_handlers, procgen, setup_game, ...) have no business in a save.
GAME_MODULES: Final = frozenset(
    {
        "engine",
        "entity",
        "game_map",
        "message_log",
        "render_order",
        "equipment_types",
        "components.ai",
        "components.base_component",
        "components.consumable",
        "components.equipment",
        "components.equippable",
        "components.fighter",
        "components.inventory",
        "components.level",
    }
)

# The numpy functions and classes that numpy's own pickles of arrays, dtypes
# and scalars name, as (module, name) in the save -> (module, name) to use.
# A floor's save names only `numpy.dtype` and `numpy._core.numeric._frombuffer`
# (protocol 5, contiguous arrays); the others rebuild a non-contiguous array
# or a numpy scalar, so that one slipping into the game does not break saving.
# numpy 1.x wrote `numpy.core...`, in numpy 2 a deprecated alias: it is mapped
# to `numpy._core` rather than imported.  All of these only build arrays from
# bytes: `np.frombuffer` refuses object dtypes, and an object array gets its
# items from this same unpickler.
_NUMPY_GLOBALS: Final = {
    (real_module.replace("numpy._core", written_as), name): (real_module, name)
    for real_module, name in (
        ("numpy._core.numeric", "_frombuffer"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "scalar"),
    )
    for written_as in ("numpy._core", "numpy.core")
} | {("numpy", "dtype"): ("numpy", "dtype"), ("numpy", "ndarray"): ("numpy", "ndarray")}


class _SaveUnpickler(pickle.Unpickler):
    """An unpickler that can only reach the game's classes and numpy's arrays.

    Every global a pickle refers to (the only way it can reach code: a class
    to build, a function to call) goes through `find_class`, so refusing
    there stops a hostile save before anything in it runs.  Allowed are:

    * a class defined in one of `GAME_MODULES`, named by its plain top-level
      name (no dots, no leading underscore): the name must be a class whose
      `__module__` and `__qualname__` are exactly the module and name asked
      for, so module attributes (`engine.random`, `game_map.np`), imported
      names and functions are all refused;
    * the numpy globals in `_NUMPY_GLOBALS`.

    Nothing from builtins, copyreg or the standard library is needed: protocol
    5 has opcodes for sets, bytearrays and objects' `__new__`, and the
    engine keeps its random generator's state as a plain tuple.
    """

    def find_class(self, module: str, name: str, /) -> object:
        numpy_global = _NUMPY_GLOBALS.get((module, name))
        if numpy_global is not None:
            real_module, real_name = numpy_global
            return getattr(importlib.import_module(real_module), real_name)
        if module in GAME_MODULES and name.isidentifier() and not name.startswith("_"):
            # Import the module only after checking its name against the list.
            namespace = vars(importlib.import_module(module))
            obj = namespace.get(name)
            if isinstance(obj, type) and obj.__module__ == module and obj.__qualname__ == name:
                return obj
        raise RefusedSaveError(module, name)


def dumps(engine: Engine) -> bytes:
    """Return the bytes of a save file holding `engine`.

    The result is checked by loading it back with the same rules `loads`
    uses, so a game that a save could not bring back is never written (see
    `UnsaveableGameError`).  The check costs about as much as a load.
    """
    pickled = pickle.dumps(engine, protocol=PICKLE_PROTOCOL)
    try:
        _unpickle(pickled)
    except RefusedSaveError as exc:
        raise UnsaveableGameError(exc) from exc
    except SaveError as exc:  # Some class failed to rebuild itself.
        raise UnsaveableGameError() from exc
    payload = lzma.compress(
        pickled, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=_FILTERS
    )
    return _HEADER.pack(MAGIC, FORMAT_VERSION) + payload


def loads(data: bytes) -> Engine:
    """Return the `Engine` held by the bytes of a save file.

    Raises a `SaveError` subclass saying why when `data` is not a save this
    game can load; nothing in a refused save is run.
    """
    if not data:
        raise EmptySaveError()
    if len(data) < _HEADER.size:
        # A short start of the magic is a save cut short; anything else isn't one.
        if MAGIC.startswith(data[: len(MAGIC)]):
            raise DamagedSaveError()
        raise NotASaveError()
    magic, version = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise NotASaveError()
    if version != FORMAT_VERSION:
        raise SaveVersionError(version)

    decompressor = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        pickled = decompressor.decompress(data[_HEADER.size :], max_length=MAX_PAYLOAD)
    except lzma.LZMAError as exc:  # Corrupt data, or a failed CRC32 check.
        raise DamagedSaveError() from exc
    if not decompressor.eof or decompressor.unused_data:
        # Cut short (or too big to be a real save), or has bytes after the end.
        raise DamagedSaveError()

    engine = _unpickle(pickled)
    # Checked by name: `engine` imports this module, so this one can't import
    # it back.  The unpickler admits only the game's real classes, so the
    # name is as good as the class.
    kind = type(engine)
    if (kind.__module__, kind.__qualname__) != ("engine", "Engine"):
        raise NotAGameError(engine)
    return cast("Engine", engine)


def _unpickle(pickled: bytes) -> object:
    """Unpickle with `_SaveUnpickler`; any failure but a refusal is damage.

    When loading, the xz check has already vouched for the bytes, so an error
    here means a pickle that was broken when written (or crafted by hand); it
    is chained, for the traceback.
    """
    stream = io.BytesIO(pickled)
    try:
        obj = _SaveUnpickler(stream).load()
    except SaveError:
        raise
    except Exception as exc:
        raise DamagedSaveError() from exc
    if stream.tell() != len(pickled):
        raise DamagedSaveError()  # Bytes after the pickle's end.
    return obj


def save(engine: Engine, filename: str | os.PathLike[str]) -> None:
    """Save `engine` to `filename`, atomically.

    The save is written to a temporary file in the same folder (so the final
    rename cannot cross file systems), flushed and synced to the disk, and
    only then renamed over `filename`; the folder is synced too, where the
    system allows, so the rename itself survives a power cut.  Whatever
    happens meanwhile, `filename` holds the old save or the new one, whole,
    and the temporary file is removed on any failure.

    The new file is readable by its owner only, as `tempfile` creates it.
    """
    data = dumps(engine)
    folder = os.path.dirname(os.path.abspath(filename))
    fd, temp_path = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(filename)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp_path, filename)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_path)
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: str) -> None:
    """Sync a folder's entries to disk, so a rename in it is durable.

    Windows can't open folders this way and has no need: skip it there, and
    on any file system that refuses.
    """
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def load(filename: str | os.PathLike[str]) -> Engine:
    """Load the game saved in `filename`.

    Raises `FileNotFoundError` when there is no save (and other `OSError`s
    when it can't be read), or a `SaveError` subclass when the file is not a
    save this game can load; see `keep_bad_save` for what to do with those.
    """
    with open(filename, "rb") as file:
        data = file.read()
    return loads(data)


def keep_bad_save(filename: str | os.PathLike[str]) -> str:
    """Move an unloadable save aside to `filename + ".bad"` and return that path.

    The game would otherwise overwrite it at the next save; kept, a player can
    still send it in with a bug report, or retry with a newer game.  An older
    `.bad` file is replaced.
    """
    bad_path = os.fspath(filename) + ".bad"
    os.replace(filename, bad_path)
    return bad_path
