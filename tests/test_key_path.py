"""tools/key_path.py traces one key press through the game: the wait on the numpad reaches the
handler and the enemies' turns, and what it counts is the game's own Python calls."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import key_path  # noqa: E402


def test_a_wait_crosses_the_handler_and_the_enemies_turns() -> None:
    path = key_path.in_child("this")
    assert "input_handlers.py:MainGameEventHandler.ev_keydown" in path.functions
    assert "engine.py:Engine.handle_enemy_turns" in path.functions
    assert {"input_handlers.py", "engine.py", "window/loop.py"} <= path.modules.keys()
    assert path.calls >= len(path.functions) >= len(path.modules)
    assert not any(name.startswith(("tools/", "tests/")) for name in path.modules)
    # The press handled, before the next frame is drawn: the handler and the turn, no drawing.
    handled = path.until_drawn()
    assert "input_handlers.py:MainGameEventHandler.ev_keydown" in handled.functions
    assert "engine.py:Engine.handle_enemy_turns" in handled.functions
    assert not any(name.endswith(".on_render") for name in handled.functions)
    assert handled.calls < path.calls and handled.modules.keys() <= path.modules.keys()


def test_the_tracer_counts_the_games_own_calls(tmp_path: Path) -> None:
    """Calls of the game's functions, a generator once however often resumed; not a
    comprehension, not a tool's function, not the standard library's."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "helper_of_trace.py").write_text("def helper() -> int:\n    return 1\n")
    (tmp_path / "game_of_trace.py").write_text(
        textwrap.dedent(
            """\
            import json

            from helper_of_trace import helper


            def steps():
                yield 1
                yield 2
                yield 3


            class Thing:
                def twice(self, n):
                    return [self.once(i) for i in range(n)]

                def once(self, i):
                    return i


            def play():
                json.dumps([helper()])
                return sum(steps()) + len(Thing().twice(2))
            """
        )
    )
    sys.path[:0] = [str(tmp_path), str(tmp_path / "tools")]
    tracer = key_path.Tracer(tmp_path)
    try:
        game = importlib.import_module("game_of_trace")
        tracer.start()
        game.play()
    finally:
        tracer.stop()
        del sys.path[:2]
        for name in ("game_of_trace", "helper_of_trace"):
            sys.modules.pop(name, None)
    assert dict(tracer.path.functions) == {
        "game_of_trace.py:play": 1,
        "game_of_trace.py:steps": 1,
        "game_of_trace.py:Thing.twice": 1,
        "game_of_trace.py:Thing.once": 2,
    }
    assert dict(tracer.path.modules) == {"game_of_trace.py": 5}
    assert tracer.path.calls == 5
