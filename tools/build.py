#!/usr/bin/env python3
"""Build the game into a folder that runs without Python, and an archive of it.

Usage: ``python tools/build.py [--dist DIR] [--work DIR]``, from any folder,
with PyInstaller installed (``pip install -r requirements-dev.txt``).

Makes, for the machine it runs on (Linux, Windows or macOS):

* ``dist/tombs-of-the-ancient-kings/``: the program
  ``tombs-of-the-ancient-kings`` (``.exe`` on Windows) beside an ``_internal``
  folder that holds Python, tcod, numpy, the tile sheet and the menu
  background, and the README with the pages it links (``docs/*.md``).  Copy
  the whole folder anywhere and run the
  program in it;
* on macOS also ``dist/Tombs of the Ancient Kings.app``, that folder as an app;
* ``dist/tombs-of-the-ancient-kings-<system>-<machine>.tar.gz`` (``.zip`` on
  Windows): the folder (the app on macOS) packed, to hand to players.

It writes PyInstaller's spec for the system first (``spec_text``;
``build/tombs-of-the-ancient-kings.spec``), then builds from it.  On Windows
and macOS the program is windowed, with the game's icon; on Linux it is a
console program.  ``build/`` keeps PyInstaller's work between builds, which
makes the next one faster.  Both folders are git-ignored.

PyInstaller sets each module's ``__file__`` inside ``_internal``
(``sys._MEIPASS``), where the assets are put, so main.py and setup_game.py
find them next to themselves just as when run from the source.  The built
program keeps the player's files in the player's data folder (see paths.py).
"""

from __future__ import annotations

import argparse
import importlib.util
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

from window.assets import TILESET_PATHS  # noqa: E402
from window.title import BACKGROUND_PATH, GAME_TITLE  # noqa: E402

# The program's (and its folder's) name: the title, as a file name.
NAME = GAME_TITLE.lower().replace(" ", "-")
# Read by the game at start-up: put inside the build.
ASSETS = (*TILESET_PATHS.values(), BACKGROUND_PATH)
# The pages the README links, carried beside it in a `docs` folder (not their pictures).
DOC_PAGES = tuple(sorted((ROOT / "docs").glob("*.md")))
# The program's icon on Windows and macOS, drawn by tools/make_icon.py.
ICO_PATH = ROOT / "icons" / "icon.ico"
ICNS_PATH = ROOT / "icons" / "icon.icns"
# shutil.make_archive's format: a zip on Windows, a tar.gz (which keeps the
# links inside a macOS app) elsewhere.
ARCHIVE_FORMAT = "zip" if sys.platform == "win32" else "gztar"
# Modules the game never runs that the analysis would bring in: cffi's and
# numpy's build-time tools (setuptools also adds a start-up hook that imports
# pkg_resources: about 0.1 s of CPU at every start, measured as `python -c
# "import pkg_resources"` against `python -c pass`) and numpy's optional YAML output.
EXCLUDED = ("setuptools", "pkg_resources", "numpy.f2py", "yaml")


def system_name(system: str = sys.platform) -> str:
    """The platform as players name it, for the archive's name."""
    return {"win32": "windows", "darwin": "macos"}.get(system, system)


def app_path(dist: Path) -> Path:
    """The macOS app in `dist`: the program's folder, bundled as an app (BUNDLE in the spec)."""
    return dist / f"{GAME_TITLE}.app"


def program_path(dist: Path, system: str = sys.platform) -> Path:
    """The built program in `dist`."""
    if system == "darwin":
        return app_path(dist) / "Contents" / "MacOS" / NAME
    return dist / NAME / (NAME + (".exe" if system == "win32" else ""))


def archive_base(dist: Path, system: str = sys.platform) -> Path:
    """The archive of the build in `dist`, less its suffix."""
    return dist / f"{NAME}-{system_name(system)}-{platform.machine().lower()}"


def archive_path(dist: Path, system: str = sys.platform) -> Path:
    """The archive of the build in `dist`: a zip on Windows, a tar.gz elsewhere."""
    suffix = ".zip" if system == "win32" else ".tar.gz"
    return archive_base(dist, system).with_name(archive_base(dist, system).name + suffix)


def spec_text(system: str = sys.platform) -> str:
    """PyInstaller's spec for a one-folder build of main.py on `system`.

    On Windows and macOS the program is windowed: no console opens beside
    the game (what it prints goes to a log file, see windowed.py), and it
    wears the game's icon; macOS gets an app (BUNDLE).  On Linux it stays
    a console program, as games there are.
    """
    windowed = system in ("win32", "darwin")
    icon = {"win32": ICO_PATH, "darwin": ICNS_PATH}.get(system)
    lines = [
        f"# PyInstaller's spec for {GAME_TITLE} on {system_name(system)}, written by tools/build.py.",
        "a = Analysis(",
        f"    [{str(ROOT / 'main.py')!r}],",
        f"    pathex=[{str(ROOT)!r}],",
        # (SOURCE, DESTINATION): each asset at the top of _internal.
        f"    datas={[(str(asset), '.') for asset in ASSETS]!r},",
        f"    excludes={list(EXCLUDED)!r},",
        ")",
        "pyz = PYZ(a.pure)",
        "exe = EXE(",
        "    pyz, a.scripts, [],",
        "    exclude_binaries=True,",
        f"    name={NAME!r},",
        f"    console={not windowed!r},",
        f"    icon={None if icon is None else str(icon)!r},",
        ")",
        f"coll = COLLECT(exe, a.binaries, a.datas, name={NAME!r})",
    ]
    if system == "darwin":
        lines += [
            "app = BUNDLE(",
            "    coll,",
            f"    name={app_path(Path()).name!r},",
            f"    icon={str(ICNS_PATH)!r},",
            # Sharp tiles on a Retina screen.
            "    info_plist={'NSHighResolutionCapable': True},",
            ")",
        ]
    return "\n".join(lines) + "\n"


def pyinstaller_command(spec: Path, dist: Path, work: Path) -> list[str]:
    """PyInstaller's command line to build from `spec`."""
    return [
        sys.executable, "-m", "PyInstaller", str(spec),
        "--noconfirm",
        "--log-level", "ERROR",
        "--distpath", str(dist),
        "--workpath", str(work),
    ]  # fmt: skip


def build(dist: Path, work: Path) -> Path:
    """Build into `dist` (through `work`); return the archive."""
    work.mkdir(parents=True, exist_ok=True)
    spec = work / f"{NAME}.spec"
    spec.write_text(spec_text(), encoding="utf-8")
    subprocess.run(pyinstaller_command(spec, dist, work), check=True)
    add_readme(dist)
    # What players get: the app on macOS, the program's folder elsewhere.
    packed = app_path(dist) if sys.platform == "darwin" else dist / NAME
    archive = shutil.make_archive(
        str(archive_base(dist)), ARCHIVE_FORMAT, root_dir=dist, base_dir=packed.name
    )
    return Path(archive)


def add_readme(dist: Path, system: str = sys.platform) -> Path:
    """Put the README beside the built program, where its `--help` says it is, and the pages
    it links (docs/*.md) in a `docs` folder beside it, so that its links lead somewhere."""
    readme = program_path(dist, system).parent / "README.md"
    shutil.copyfile(ROOT / "README.md", readme)
    docs = readme.parent / "docs"
    docs.mkdir(exist_ok=True)
    for page in DOC_PAGES:
        shutil.copyfile(page, docs / page.name)
    return readme


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
