"""The README and the player's guide: the key list in docs/playing.md is exactly the one
the game's key tables give, and the set-up commands are the README's."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import readme_keys  # noqa: E402
from readme_keys import keys_markdown  # noqa: E402

PLAYING = ROOT / "docs" / "playing.md"


def test_the_guides_key_list_matches_the_key_tables() -> None:
    page = PLAYING.read_text(encoding="utf-8")
    start = page.index("<!-- keys:start -->\n") + len("<!-- keys:start -->\n")
    end = page.index("<!-- keys:end -->")
    assert page[start:end] == keys_markdown(), "run: python tools/readme_keys.py --write"
    assert readme_keys.PAGE == PLAYING
    # The README gives the keys in brief, and links the full list.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "<!-- keys:start -->" not in readme and "](docs/playing.md#keys)" in readme


def test_readme_keys_write_puts_todays_list_between_the_markers(tmp_path: Path) -> None:
    """What `--write` makes of a page whose key list is out of date is the page of today."""
    page = PLAYING.read_text(encoding="utf-8")
    stale = tmp_path / "playing.md"
    stale.write_text(page.replace("| Keys | What they do |", "| Old | List |"), encoding="utf-8")
    assert readme_keys.main(["--write", "--page", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == page


def test_readme_gives_the_two_set_up_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -r requirements.txt && python main.py" in readme
    assert "pip install -r requirements-dev.txt && python -m pytest" in readme


def test_the_readmes_set_up_works_in_a_fresh_virtual_environment(tmp_path: Path) -> None:
    """The README's venv line, then its install line, as written, in bash; then the game
    starts (`--help`: no window).  The environment sees the packages installed here
    (`--system-site-packages`), so that pip, finding them, needs no network."""
    import subprocess

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    venv_line = "python3 -m venv .venv && . .venv/bin/activate"
    install = "pip install -r requirements.txt && python main.py"
    assert venv_line in readme and readme.index(venv_line) < readme.index(install)
    venv = tmp_path / "venv"
    script = (
        venv_line.replace(".venv", str(venv)).replace("-m venv", "-m venv --system-site-packages")
        + f" && {install} --help"
    )
    result = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
             "PIP_NO_INDEX": "1", "SDL_VIDEODRIVER": "dummy"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Requirement already satisfied: tcod" in result.stdout and "\nusage: main.py " in result.stdout
    assert (venv / "bin" / "python").exists()  # `python` is there, whatever the system calls it.


def test_the_guide_names_every_command_a_key_file_takes() -> None:
    from controls import key_file

    page = PLAYING.read_text(encoding="utf-8")
    listed = page[page.index("The commands are") :].split("(as the help", 1)[0]
    for name in key_file.COMMAND_NAMES:
        if not name.startswith("move_") or name in ("move_north", "move_southeast"):
            assert f"`{name}`" in listed, name

