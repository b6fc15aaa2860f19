"""Reading and writing the player's files safely: bounded reads, writes that follow no link.

Every file the game reads may be hostile, and every file it writes lands in
a folder the player (or anyone) may have filled with links:

* `read_bytes` reads a regular file only (never a FIFO, which would hang, or
  a device such as /dev/zero, which never ends), opened without blocking, and
  at most `limit` bytes of it; anything else is an `OSError` whose
  `strerror` says why in a few words.
* `write_new` creates a file that did not exist: a name taken by anything,
  a link included (even one pointing nowhere), is `FileExistsError`.
* `write_atomic` writes a whole file or nothing: a temporary file beside
  it, renamed over the name.  A rename replaces a link itself, never its
  target.  `write_temporary` is its first half, for a caller with work to do
  before the rename; `remove_temporaries` clears those of writes killed
  midway, `sync_folder` makes a rename survive a power cut.
* The files `write_atomic` and `create_atomic` write are synced to disk
  by `sync_pending`, which the main loop calls once the frame is presented:
  a key press never waits for the disk.  A kill loses nothing meanwhile
  (the system holds what was written); only a power cut within that frame
  could.
* `append` adds to a regular file, never through a link; `sync` flushes one.
  Neither waits on a FIFO put in its place: every open here is non-blocking.
* `write_first_free` writes a new file under the first free name of a
  numbered series (`numbered`): screenshots, morgue files, recordings.

Windows has no O_NOFOLLOW or O_NONBLOCK; there a link is checked for just
before opening, and a FIFO can't be named in a folder.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

_BINARY = getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)

# Files written and not yet synced (`sync_pending`), in the order written.
_unsynced: dict[Path, None] = {}


def _refused(path: str | os.PathLike[str], reason: str) -> OSError:
    return OSError(errno.EINVAL, reason, os.fspath(path))


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at `path`, if it holds at most `limit` of them."""
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refused(path, "not a regular file")
        if info.st_size > limit:
            raise _refused(path, f"bigger than {limit:,} bytes")
        chunks = []
        size = 0
        while chunk := os.read(fd, limit + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # It grew while being read.
                raise _refused(path, f"bigger than {limit:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def open_text(path: str | os.PathLike[str]) -> BinaryIO:
    """The regular file at `path`, open to be read as it comes (never a FIFO, which
    would hang, nor a device such as /dev/zero); an `OSError` saying why not."""
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(path, "not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_head(path: str | os.PathLike[str], size: int) -> bytes:
    """The first `size` bytes (or fewer) of the regular file at `path`, never through a link."""
    fd = _open_no_link(Path(path), os.O_RDONLY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(path, "not a regular file")
        return os.read(fd, size)
    finally:
        os.close(fd)


def _open_no_link(path: Path, flags: int) -> int:
    if not _NOFOLLOW and path.is_symlink():
        raise _refused(path, "a link, not a file")
    try:
        return os.open(path, flags | _NOFOLLOW | _NONBLOCK | _BINARY, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a link.
            raise _refused(path, "a link, not a file") from None
        if exc.errno == errno.ENXIO:  # A FIFO no one reads, opened to write, or a socket.
            raise _refused(path, "not a regular file") from None
        raise


def write_new(path: Path, data: bytes) -> None:
    """Create `path` holding `data`; `FileExistsError` if the name is taken, even by a link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o644)
    try:
        _write_all(fd, data)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Make `path` hold `data`, whole or not at all, replacing what had the name (never its target);
    synced to disk by the next `sync_pending`."""
    temp = write_temporary(path, data, sync=False)
    try:
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _unsynced[path] = None



def sync_pending() -> None:
    """Sync to disk the files written since the last call, and their folders' entries.

    The main loop calls this after presenting a frame: the wait for the disk
    comes after the key press's answer is on screen, not before."""
    paths = list(_unsynced)
    _unsynced.clear()
    for path in paths:
        try:
            fd = _open_no_link(path, os.O_RDONLY)
        except OSError:
            continue  # Gone or replaced meanwhile: nothing of ours to sync.
        try:
            with contextlib.suppress(OSError):
                os.fsync(fd)
        finally:
            os.close(fd)
    for folder in dict.fromkeys(Path(os.path.abspath(path)).parent for path in paths):
        sync_folder(folder)


def write_temporary(path: Path, data: bytes, *, sync: bool = True) -> Path:
    """A new file beside `path` holding `data`, synced to disk (unless not `sync`), under a temporary name.

    For a caller with work to do between writing and renaming it over `path`
    (`savefile` keeps a backup); the caller removes it if it never renames it.
    Named `.<name>.<random>.tmp` (`remove_temporaries`); on any failure here it is removed.
    """
    temp = _temporary_name(path)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            if sync:
                os.fsync(file.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return Path(temp)


def _temporary_name(path: Path) -> Path:
    """A name for a temporary file beside `path`, `.<name>.<random>.tmp`, free with
    all but certainty (`O_EXCL` makes sure); what `remove_temporaries` looks for."""
    return path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")


def link_atomic(source: Path, path: Path) -> None:
    """Make `path` name the regular file `source` names, replacing what had
    the name (never its target): a hard link, the file neither read nor copied.
    Where hard links can't be made, `path` is written as a copy (`write_atomic`)."""
    temp = _temporary_name(path)
    try:
        os.link(source, temp, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # No hard links on this file system.
        write_atomic(path, read_bytes(source, os.stat(source).st_size))
        return
    try:
        os.replace(temp, path)
    finally:
        # Gone once renamed; but a rename onto a link to the same file does nothing.
        with contextlib.suppress(OSError):
            os.unlink(temp)


def remove_temporaries(path: Path) -> None:
    """Remove the temporary files `write_temporary` made for `path` in writes killed midway."""
    prefix = f".{path.name}."
    with contextlib.suppress(OSError):
        for entry in os.scandir(os.path.dirname(os.path.abspath(path))):
            if entry.name.startswith(prefix) and entry.name.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    if entry.is_file(follow_symlinks=False):
                        os.unlink(entry.path)


def sync_folder(folder: Path) -> None:
    """Sync a folder's entries, so a rename in it survives a power cut (not on Windows)."""
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


def create_atomic(path: Path, data: bytes) -> None:
    """Create `path` holding `data`, whole or not at all; `FileExistsError` if the name is taken.

    Written under a temporary name and hard-linked to `path` (which never
    replaces anything), so a kill leaves no half-written file under the name.
    Where hard links can't be made, the file is created and written in place.
    Synced to disk by the next `sync_pending`.
    """
    temp = write_temporary(path, data, sync=False)
    try:
        try:
            os.link(temp, path)
        except FileExistsError:
            raise
        except OSError:  # No hard links on this file system.
            write_new(path, data)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    _unsynced[path] = None


def numbered(stem: str, suffix: str, *, first_bare: bool = False) -> Iterator[str]:
    """The names of a numbered series: stem-001.suffix, stem-002.suffix, ...;
    or, `first_bare`, stem.suffix, then stem-2.suffix, stem-3.suffix, ..."""
    if first_bare:
        yield stem + suffix
        yield from (f"{stem}-{number}{suffix}" for number in itertools.count(2))
    else:
        yield from (f"{stem}-{number:03d}{suffix}" for number in itertools.count(1))


def write_first_free(folder: Path, names: Iterable[str], data: bytes) -> Path:
    """Write `data`, whole (`create_atomic`), under the first of `names` not
    taken in `folder`; return its path.

    A name taken by anything, a link pointing nowhere included, is skipped
    before anything is written: nothing is ever written over another file,
    nor through a link.
    """
    for name in names:
        path = folder / name
        if os.path.lexists(path):
            continue
        try:
            create_atomic(path, data)
        except FileExistsError:
            continue  # Taken since it was looked at.
        return path
    raise AssertionError("unreachable: the names never end")


def append(path: Path, data: bytes) -> None:
    """Add `data` at the end of the regular file `path` (made if missing), never through a link."""
    fd = _open_no_link(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(path, "not a regular file")
        _write_all(fd, data)
    finally:
        os.close(fd)


def sync(path: Path) -> None:
    """Flush the regular file `path` (made if missing) to the disk, never through a link,
    never waiting on a FIFO put in its place (no reader: ENXIO; a reader: refused)."""
    fd = _open_no_link(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(path, "not a regular file")
        os.fsync(fd)
    finally:
        os.close(fd)


def truncate(path: Path, size: int) -> None:
    """Cut the regular file `path` to its first `size` bytes, never through a link."""
    fd = _open_no_link(path, os.O_WRONLY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(path, "not a regular file")
        os.ftruncate(fd, size)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
