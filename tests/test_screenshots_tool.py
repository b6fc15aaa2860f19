"""tools/screenshots.py, which makes the README's pictures, still runs and makes them all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import tcod

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_tool_makes_every_picture_the_readme_shows_of_it(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "screenshots.py"), str(tmp_path / "shots")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    made = sorted(path.name for path in (tmp_path / "shots").iterdir())
    assert made and made == sorted(Path(line).name for line in done.stdout.split())
    for name in made:
        assert f"(docs/{name})" in README, f"docs/{name} is not in the README"
        pixels = tcod.image.Image.from_file(tmp_path / "shots" / name)
        assert (pixels.width, pixels.height) == (800, 500)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shots"]  # Nothing else written.
