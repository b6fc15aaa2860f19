#!/usr/bin/env python3
"""Build the game into a folder that runs without Python, and an archive of it.

Usage: ``python tools/build.py [--dist DIR] [--work DIR]``, from any folder,
with PyInstaller installed (``pip install -r requirements-dev.txt``).

Makes, for the machine it runs on (Linux, Windows or macOS):

* ``dist/tombs-of-the-ancient-kings/``: the program
  ``tombs-of-the-ancient-kings`` (``.exe`` on Windows) beside an ``_internal``
  folder that holds Python, tcod, numpy, the tile sheet and the menu
  background.  Copy the whole folder anywhere and run the program in it;
* ``dist/tombs-of-the-ancient-kings-<system>-<machine>.tar.gz`` (``.zip`` on
  Windows): that folder packed, to hand to players.

``build/`` keeps PyInstaller's work between builds, which makes the next one
faster.  Both folders are git-ignored.

PyInstaller sets each module's ``__file__`` inside ``_internal``
(``sys._MEIPASS``), where the assets are put, so main.py and setup_game.py
find them next to themselves just as when run from the source.  The built
program keeps the player's files in the player's data folder (see paths.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from main import TILESET_PATH  # noqa: E402
from setup_game import BACKGROUND_PATH, GAME_TITLE  # noqa: E402

# The program's (and its folder's) name: the title, as a file name.
NAME = GAME_TITLE.lower().replace(" ", "-")
# Read by the game at start-up: put inside the build.
ASSETS = (TILESET_PATH, BACKGROUND_PATH)
# shutil.make_archive's format, and the suffix it gives.
ARCHIVE_FORMAT, ARCHIVE_SUFFIX = ("zip", ".zip") if sys.platform == "win32" else ("gztar", ".tar.gz")
# Modules the game never runs that the analysis would bring in: cffi's and
# numpy's build-time tools (setuptools also adds a start-up hook that imports
# pkg_resources: about 0.1 s of CPU at every start, measured as `python -c
# "import pkg_resources"` against `python -c pass`) and numpy's optional YAML output.
EXCLUDED = ("setuptools", "pkg_resources", "numpy.f2py", "yaml")


def system_name() -> str:
    """The platform as players name it, for the archive's name."""
    return {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)


def program_path(dist: Path) -> Path:
    """The built program in `dist`."""
    return dist / NAME / (NAME + (".exe" if sys.platform == "win32" else ""))


def archive_base(dist: Path) -> Path:
    """The archive of the build in `dist`, less its suffix."""
    return dist / f"{NAME}-{system_name()}-{platform.machine().lower()}"


def archive_path(dist: Path) -> Path:
    """The archive of the build in `dist`: a zip on Windows, a tar.gz elsewhere."""
    return archive_base(dist).with_name(archive_base(dist).name + ARCHIVE_SUFFIX)


def pyinstaller_command(dist: Path, work: Path) -> list[str]:
    """PyInstaller's command line for a one-folder build of main.py."""
    command = [
        sys.executable, "-m", "PyInstaller", str(ROOT / "main.py"),
        "--name", NAME,
        "--onedir",
        "--noconfirm",
        "--log-level", "ERROR",
        "--distpath", str(dist),
        "--workpath", str(work),
        "--specpath", str(work),
    ]  # fmt: skip
    for asset in ASSETS:
        # SOURCE{os.pathsep}DESTINATION, the destination inside _internal.
        command += ["--add-data", f"{asset}{os.pathsep}."]
    for module in EXCLUDED:
        command += ["--exclude-module", module]
    return command


def build(dist: Path, work: Path) -> Path:
    """Build into `dist` (through `work`); return the archive."""
    subprocess.run(pyinstaller_command(dist, work), check=True)
    archive = shutil.make_archive(
        str(archive_base(dist)), ARCHIVE_FORMAT, root_dir=dist, base_dir=NAME
    )
    return Path(archive)


def size(path: Path) -> str:
    """The size of a file or folder in MB (a link inside counts as nothing, as on disk)."""
    files = path.rglob("*") if path.is_dir() else [path]
    total = sum(file.stat().st_size for file in files if file.is_file() and not file.is_symlink())
    return f"{total / 1e6:.0f} MB"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--dist", type=Path, default=ROOT / "dist", help="where the build goes (default: dist/)"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=ROOT / "build",
        help="PyInstaller's working folder (default: build/)",
    )
    args = parser.parse_args(argv)
    if importlib.util.find_spec("PyInstaller") is None:
        print(
            "build.py: PyInstaller is not installed: pip install -r requirements-dev.txt",
            file=sys.stderr,
        )
        return 1
    start = time.perf_counter()
    try:
        archive = build(args.dist.resolve(), args.work.resolve())
    except subprocess.CalledProcessError as exc:
        print(f"build.py: PyInstaller failed (exit status {exc.returncode})", file=sys.stderr)
        return 1
    program = program_path(args.dist.resolve())
    print(f"built in {time.perf_counter() - start:.0f} s:")
    print(f"  {program} (the folder: {size(program.parent)})")
    print(f"  {archive} ({size(archive)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
