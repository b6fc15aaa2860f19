"""The README: its key list is exactly the one the game's key tables give."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import readme_keys  # noqa: E402
from readme_keys import keys_markdown  # noqa: E402


def test_readme_key_list_matches_the_key_tables() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("<!-- keys:start -->\n") + len("<!-- keys:start -->\n")
    end = readme.index("<!-- keys:end -->")
    assert readme[start:end] == keys_markdown(), "run: python tools/readme_keys.py --write"


def test_readme_keys_write_puts_todays_list_between_the_markers(tmp_path: Path) -> None:
    """What `--write` makes of a README whose key list is out of date is the README of today."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = tmp_path / "README.md"
    stale.write_text(readme.replace("| Keys | What they do |", "| Old | List |"), encoding="utf-8")
    assert readme_keys.main(["--write", "--readme", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == readme


def test_readme_gives_the_two_set_up_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -r requirements.txt && python main.py" in readme
    assert "pip install -r requirements-dev.txt && python -m pytest" in readme
