"""tools/build.py's PyInstaller spec for each system, checked without building:
windowed with the game's icon on Windows and macOS (an app on macOS), a
console program on Linux.  The Linux build itself is tested in test_build.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_build import load_module

from window import assets, title

ROOT = Path(__file__).resolve().parent.parent
build = load_module("build")


class Target:
    """Stands for one of PyInstaller's build steps: keeps what it was given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        self.pure = self.scripts = self.binaries = self.datas = self


def read_spec(system: str) -> dict[str, Any]:
    """Run the spec as PyInstaller runs it, with its build steps standing in."""
    namespace: dict[str, Any] = {name: Target for name in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}
    exec(compile(build.spec_text(system), f"{system}.spec", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("system", ["linux", "win32", "darwin"])
def test_every_system_builds_main_py_with_the_assets_into_one_folder(system: str) -> None:
    spec = read_spec(system)
    assert spec["a"].args == ([str(ROOT / "main.py")],)
    datas = spec["a"].kwargs["datas"]
    every_sheet = {path.name for path in assets.TILESET_PATHS.values()}
    assert {Path(source).name for source, _ in datas} >= every_sheet | {"menu_background.png"}
    assert all(Path(source).is_file() and where == "." for source, where in datas)
    assert "setuptools" in spec["a"].kwargs["excludes"]
    assert spec["exe"].kwargs["name"] == spec["coll"].kwargs["name"] == build.NAME
    assert spec["exe"].kwargs["exclude_binaries"] is True  # One folder, not one file.


def test_linux_gets_a_console_program() -> None:
    spec = read_spec("linux")
    assert spec["exe"].kwargs["console"] is True
    assert "app" not in spec
    assert build.program_path(Path("dist"), "linux") == Path("dist", build.NAME, build.NAME)
    assert build.archive_path(Path("dist"), "linux").name.endswith("-linux-" + build.platform.machine().lower() + ".tar.gz")


def test_windows_gets_a_windowed_program_with_the_games_icon() -> None:
    spec = read_spec("win32")
    assert spec["exe"].kwargs["console"] is False
    ico = Path(spec["exe"].kwargs["icon"])
    assert ico.read_bytes()[:4] == b"\0\0\1\0", f"{ico} is not a Windows icon"
    assert build.program_path(Path("dist"), "win32") == Path("dist", build.NAME, build.NAME + ".exe")
    assert build.archive_path(Path("dist"), "win32").suffix == ".zip"


def test_macos_gets_a_windowed_app_with_the_games_icon() -> None:
    spec = read_spec("darwin")
    assert spec["exe"].kwargs["console"] is False
    app = spec["app"]
    assert app.args == (spec["coll"],)
    assert app.kwargs["name"] == f"{title.GAME_TITLE}.app"
    for icns in (app.kwargs["icon"], spec["exe"].kwargs["icon"]):
        assert Path(icns).read_bytes()[:4] == b"icns", f"{icns} is not a macOS icon"
    assert build.program_path(Path("dist"), "darwin") == Path(
        "dist", f"{title.GAME_TITLE}.app", "Contents", "MacOS", build.NAME
    )
    assert build.archive_path(Path("dist"), "darwin").name.endswith(".tar.gz")


@pytest.mark.parametrize("system", ["linux", "win32", "darwin"])
def test_the_readme_goes_beside_the_program_where_its_help_says(system: str, tmp_path: Path) -> None:
    program = build.program_path(tmp_path, system)
    program.parent.mkdir(parents=True)
    readme = build.add_readme(tmp_path, system)
    assert readme == program.parent / "README.md"
    assert readme.read_bytes() == (ROOT / "README.md").read_bytes()
    # The pages it links go beside it, as they sit beside it in the source.
    pages = sorted((ROOT / "docs").glob("*.md"))
    assert {"playing.md", "formats.md", "extending.md", "performance.md"} <= {page.name for page in pages}
    assert sorted(path.name for path in (readme.parent / "docs").iterdir()) == [page.name for page in pages]
    for page in pages:
        assert (readme.parent / "docs" / page.name).read_bytes() == page.read_bytes()
