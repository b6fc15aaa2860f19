"""docs/house.md's figures are the tree's (tools/house_figures.py measures them), and the
tool measures what it says: lines, long functions, value methods, checks of a screen's class,
and the import graph's arrows, floors and circles."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import house_figures  # noqa: E402

# A small game: a screen class two steps from the base, checked four ways outside the screens
# (one of them no screen), a function of 45 lines, and a circle of two modules closed by an
# import under TYPE_CHECKING.
LONG_BODY = "".join(f"    x{i} = {i}\n" for i in range(43))
GAME = {
    "screens/__init__.py": '"""Screens."""\n',
    "screens/base.py": textwrap.dedent(
        """\
        class Content:
            pass


        class BaseEventHandler:
            def __repr__(self) -> str:
                return "a screen"


        def is_screen(x: object) -> bool:
            return isinstance(x, BaseEventHandler)  # In screens/: not counted.
        """
    ),
    "handlers.py": textwrap.dedent(
        """\
        from screens import base
        from screens.base import BaseEventHandler


        class Menu(BaseEventHandler):
            pass


        class Sub(Menu):
            pass


        class Plain(base.Content):
            pass
        """
    ),
    "engine.py": "from typing import TYPE_CHECKING\n\nimport handlers\n\nif TYPE_CHECKING:\n"
    "    from loop import Loop\n\n\ndef long() -> None:\n    \"\"\"Long.\"\"\"\n" + LONG_BODY,
    "loop.py": textwrap.dedent(
        """\
        import engine
        import handlers as h
        from handlers import Plain, Sub


        def f(x: object) -> None:
            from screens import base

            if isinstance(x, (Plain, Sub)):
                pass
            if isinstance(x, Plain):  # No screen.
                pass
            match x:
                case h.Menu():
                    pass
            if type(x) is Sub:
                pass
        """
    ),
    "tests/test_loop.py": "import loop\n" + "\n" * 600,  # Not the game.
    "tools/tool.py": "import engine\n" + "\n" * 600,  # Nor this.
}
PAGE = "# The house\n\n<!-- figures: made by tools/house_figures.py; do not edit -->\n<!-- end figures -->\n\nHistory.\n"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    for path, text in {**GAME, "docs/house.md": PAGE}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_pages_figures_are_the_trees() -> None:
    assert house_figures.differences(ROOT) == [], "run: python tools/house_figures.py"


def test_what_a_small_game_measures(game: Path) -> None:
    figures = house_figures.measure(game)
    assert figures["biggest module"] == "`engine.py`, 53 lines"
    assert figures["biggest of `screens/`"] == "`screens/base.py`, 11 lines"
    assert figures["functions over 40 lines"] == (
        "1: `engine.long` (45); beyond the tutorial's two (`new_game`, `generate_dungeon`): 1"
    )
    assert figures["hand-written `__eq__`, `__hash__`, `__repr__`, `replace`"] == (
        "1, in 1 class: `screens.base.BaseEventHandler`: `__repr__`"
    )
    assert figures["checks of a screen's class outside `screens/` and `input_handlers.py`"] == (
        "3: `loop.py` 3"
    )
    assert figures["modules of the game"] == "5"
    assert figures["import arrows"] == "6, 4 of them taken when a module loads"
    # screens, screens.base: 1; handlers: 2; engine: 3; loop: 4, held up by engine at load.
    assert figures["floors"] == "4"
    assert figures["arrows that run back up"] == "1"  # engine -> loop, under TYPE_CHECKING.
    assert figures["biggest import circle"] == (
        "2 modules, of 1 circle; none of the imports taken when a module loads"
    )


def test_check_names_the_figures_that_differ(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert house_figures.main(["--check", "--root", str(game)]) == 1  # The section is empty.
    assert house_figures.main(["--root", str(game)]) == 0  # Writes the section.
    page = (game / "docs" / "house.md").read_text(encoding="utf-8")
    assert page.startswith("# The house\n\n<!-- figures:") and page.endswith("<!-- end figures -->\n\nHistory.\n")
    assert house_figures.main(["--check", "--root", str(game)]) == 0

    with (game / "engine.py").open("a", encoding="utf-8") as module:
        module.write("\n\ndef g(x: object) -> bool:\n    return isinstance(x, handlers.Menu)\n")
    capsys.readouterr()
    assert house_figures.main(["--check", "--root", str(game)]) == 1
    said = capsys.readouterr().out
    assert "checks of a screen's class" in said and "biggest module" in said
    assert "floors" not in said and "import arrows" not in said
    assert (game / "docs" / "house.md").read_text(encoding="utf-8") == page  # Only checked.
