"""tools/screenshots.py, which makes the pictures of the README and the player's guide
(docs/playing.md), still runs and makes them all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import tcod

ROOT = Path(__file__).resolve().parent.parent
# Each page, and how it names a picture in docs/: the README by its path, a page beside it by its name.
PAGES = {
    "README.md": ((ROOT / "README.md").read_text(encoding="utf-8"), "docs/"),
    **{f"docs/{page.name}": (page.read_text(encoding="utf-8"), "") for page in (ROOT / "docs").glob("*.md")},
}


def pages_showing(name: str) -> list[str]:
    return [page for page, (text, folder) in PAGES.items() if f"]({folder}{name})" in text]


def test_the_tool_makes_every_picture_the_pages_show_of_it(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "screenshots.py"), str(tmp_path / "shots")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    made = sorted(path.name for path in (tmp_path / "shots").iterdir())
    assert made and made == sorted(Path(line).name for line in done.stdout.split())
    for name in made:
        assert pages_showing(name), f"docs/{name} is on no page"
        pixels = tcod.image.Image.from_file(tmp_path / "shots" / name)
        assert (pixels.width, pixels.height) == (800, 500)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shots"]  # Nothing else written.
