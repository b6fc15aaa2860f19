"""The canvas pages with everything real: `python -m web --seed 3`, the game it runs
(`main.py --browser --frames-fd 3 --served`) and Debian's Chromium, headless, through Selenium.

What the player's canvas shows is checked pixel for pixel against tcod's own rendering of the
frame the page holds, and that frame against the game (its text, its STATUS); a watcher's canvas
against the player's; the touch bar and a tap on a phone (Chromium's mobile emulation) against
the game's recording; a page closed and opened again against the same running game.  A
phone's page laid out at the phone's width, the canvas crisp there, is expected to fail (strict)
until the pages say `<meta name="viewport">`.  The
tests skip when tornado, selenium, chromium or chromedriver is missing (`pip install -r
requirements-web.txt`; `apt-get install chromium chromium-driver`).  Screenshots of the play,
watch and lobby pages at 1400x1000 and in a phone's size are kept when WEB_SCREENSHOTS names a
folder (`web-*-desktop.png`, `web-*-phone.png` there).
"""

from __future__ import annotations

import base64
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tcod

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from conftest import played_lines
from test_web import Server, by, shot, sign_up_in_page, wait_for
from test_web_canvas import PHONE
from test_web_canvas import browsers as browsers  # The fixture, shared with this module.
from test_web_stream import serve

import tile_types
from web import frames
from window import assets

# The frame the page holds, the canvas's 1x pixels and the page's counts, read in one script:
# the page changes its frame and its canvas in the same task, so the two always agree here.
SHOWN_JS = """
const g = window.game, f = g && g.frame;
if (!f) { return null; }
function text(a) {
  let s = '';
  for (let i = 0; i < a.length; i += 0x8000) { s += String.fromCharCode.apply(null, a.subarray(i, i + 0x8000)); }
  return btoa(s);
}
const c = g.canvas, d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
return {columns: f.columns, rows: f.rows, size: f.tileSize, tiles: text(f.tiles), fg: text(f.fg),
        bg: text(f.bg), width: c.width, height: c.height, pixels: text(d), drawn: g.drawn,
        status: g.status, said: document.getElementById('status').dataset.status || ''};
"""
CODEPOINTS = np.array(frames.CODEPOINTS)


@dataclass
class Shown:
    """What a canvas page shows: the frame it holds, its canvas, and what it was told."""

    frame: frames.Frame
    pixels: np.ndarray[Any, np.dtype[np.uint8]]
    drawn: int
    status: dict[str, object]
    said: str

    def text(self) -> str:
        """The frame's cells as text, a line a row."""
        return "\n".join("".join(map(chr, CODEPOINTS[row])) for row in self.frame.tiles)

    def turns(self) -> int:
        turns = self.status.get("turns", -1)
        assert isinstance(turns, int)
        return turns

    def same_picture(self, other: Shown) -> bool:
        mine, theirs = self.frame, other.frame
        return (
            mine.tile_size == theirs.tile_size
            and np.array_equal(mine.tiles, theirs.tiles)
            and np.array_equal(mine.fg, theirs.fg)
            and np.array_equal(mine.bg, theirs.bg)
        )


def shown(driver: Any) -> Shown | None:
    """What the page at `driver` shows, once it has a frame."""
    got = driver.execute_script(SHOWN_JS)
    if got is None:
        return None
    columns, rows = got["columns"], got["rows"]

    def cells(name: str, *shape: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
        return np.frombuffer(base64.b64decode(got[name]), np.uint8).reshape(rows, columns, *shape)

    frame = frames.Frame(cells("tiles"), cells("fg", 3), cells("bg", 3), got["size"])
    pixels = np.frombuffer(base64.b64decode(got["pixels"]), np.uint8)
    return Shown(
        frame,
        pixels.reshape(got["height"], got["width"], 4),
        got["drawn"],
        got["status"] or {},
        got["said"],
    )


def showing(driver: Any, holds: Callable[[Shown], object], seconds: float = 30) -> Shown:
    """What the page shows once `holds` says so of it."""

    def ready() -> Shown | None:
        now = shown(driver)
        assert now is None or now.said != "broken", "the page could not read a frame"
        return now if now is not None and holds(now) else None

    return wait_for(ready, seconds)


def rendered(frame: frames.Frame) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """tcod's own picture of the frame: the window's tile sheet of its size, its console."""
    rows, columns = frame.tiles.shape
    console = tcod.console.Console(columns, rows, order="C")
    console.rgb["ch"] = CODEPOINTS[frame.tiles]
    console.rgb["fg"] = frame.fg
    console.rgb["bg"] = frame.bg
    tileset = assets.load_tileset(assets.TILESET_PATHS[frame.tile_size])
    picture: np.ndarray[Any, np.dtype[np.uint8]] = tileset.render(console)
    return picture


def assert_drawn_as_tcod_renders(page: Shown) -> None:
    expected = rendered(page.frame)
    assert page.pixels.shape == expected.shape
    assert int(np.abs(page.pixels.astype(np.int16) - expected).max()) == 0


def player_at(page: Shown) -> tuple[int, int]:
    """Where the `@` is on the map (the rows above the panel)."""
    (y,), (x,) = np.nonzero(CODEPOINTS[page.frame.tiles[:43]] == ord("@"))
    return int(x), int(y)


# The numpad's digits and the steps they take.
STEPS = {"6": (1, 0), "4": (-1, 0), "2": (0, 1), "8": (0, -1), "3": (1, 1), "7": (-1, -1)}


def lit_floor(page: Shown, x: int, y: int) -> bool:
    """Whether the cell at (x, y) is drawn as a floor in view, with nothing on it."""
    floor = tile_types.floor["light"]
    frame = page.frame
    return bool(
        CODEPOINTS[frame.tiles[y, x]] == floor["ch"] and (frame.bg[y, x] == floor["bg"]).all()
    )


def step(page: Shown, by: int = 1) -> tuple[str, tuple[int, int]]:
    """A numpad digit whose way is floor for `by` steps from the player, and the tile there."""
    x, y = player_at(page)
    for digit, (dx, dy) in STEPS.items():
        if all(lit_floor(page, x + dx * n, y + dy * n) for n in range(1, by + 1)):
            return digit, (x + dx * by, y + dy * by)
    raise AssertionError(f"no floor next to the player:\n{page.text()}")


def press(driver: Any, *keys: str) -> None:
    """Keys typed into the page (the canvas page listens on the whole document)."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(*keys).perform()


def numpad(digit: str) -> str:
    from selenium.webdriver.common.keys import Keys

    key: str = getattr(Keys, f"NUMPAD{digit}")
    return key


def new_game(driver: Any, server: Server, name: str) -> Shown:
    """`name` signed up in the page, on /play with a new game begun."""
    driver.delete_all_cookies()
    sign_up_in_page(driver, server, name)
    driver.get(server.url + "/play")
    showing(driver, lambda page: page.status.get("screen") == "menu")
    press(driver, "n")
    return showing(driver, lambda page: "HP:" in page.text() and page.turns() == 0)


def recorded(server: Server, name: str) -> str:
    """The player's recordings, as text."""
    folder = server.player(name) / "recordings"
    return "".join(path.read_text() for path in sorted(folder.glob("*.rec")))


def pids_of(server: Server, name: str) -> list[int]:
    """The games the server started for `name`, as its log names them."""
    log = server.log.read_text(errors="replace")
    return [int(pid) for pid in re.findall(rf"\b{name} plays \(canvas\), pid (\d+)", log)]


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The real server and game, seeded; a closed page's game waits a minute for the next."""
    yield from serve(Path(tempfile.mkdtemp(prefix="web-play-")), "--idle-seconds", "60", real=True)


def sized(driver: Any, width: int = 1400, height: int = 1000) -> Any:
    """`driver` with a page of `width` x `height` CSS pixels (its window a little bigger)."""
    extra = driver.execute_script(
        "return [outerWidth - innerWidth, outerHeight - innerHeight, innerWidth, innerHeight]"
    )
    driver.set_window_size(width + extra[0], height + extra[1])
    inside = "return [innerWidth, innerHeight]"
    wait_for(lambda: driver.execute_script(inside) == [width, height], 10)
    return driver


@pytest.fixture(scope="module")
def desktop(browsers: Callable[..., Any]) -> Any:
    """A Chromium showing pages of 1400x1000 CSS pixels, one device pixel each: the player's."""
    return sized(browsers())


@pytest.fixture(scope="module")
def second(browsers: Callable[..., Any]) -> Any:
    """Another desktop Chromium: a watcher's."""
    return sized(browsers())


@pytest.fixture(scope="module")
def phone(browsers: Callable[..., Any]) -> Any:
    """A Chromium as a phone: 390x844 CSS pixels, three device pixels each, touch."""
    return browsers(PHONE)


def test_a_new_player_sees_the_game_drawn_with_its_own_tiles(server: Server, desktop: Any) -> None:
    desktop.delete_all_cookies()
    sign_up_in_page(desktop, server, "ada")
    desktop.get(server.url + "/play")
    menu = showing(desktop, lambda page: page.status.get("screen") == "menu")
    assert "Play a new game" in menu.text()
    assert menu.frame.size == (80, 50) and menu.frame.tile_size in assets.TILESET_PATHS
    assert_drawn_as_tcod_renders(menu)  # The menu's picture, half blocks and all.
    press(desktop, "n")
    begun = showing(desktop, lambda page: "HP:" in page.text() and page.turns() == 0)
    assert begun.status == {"screen": "playing", "level": 1, "depth": 1, "turns": 0}
    assert "@" in begun.text() and "Dungeon level: 1" in begun.text()
    assert_drawn_as_tcod_renders(begun)
    press(desktop, numpad("5"), numpad("5"))  # Two turns waited.
    showing(desktop, lambda page: page.turns() == 2)
    digit, there = step(begun)
    press(desktop, numpad(digit))  # A step onto the floor: the player is drawn there.
    moved = showing(desktop, lambda page: player_at(page) == there and page.turns() == 3)
    assert moved.drawn > begun.drawn  # Changes, drawn on the whole frame.
    assert_drawn_as_tcod_renders(moved)
    lines = recorded(server, "ada").splitlines()
    assert lines.count("key kp_5") == 2 and f"key kp_{digit}" in lines, lines
    shot(desktop, "play-desktop")


def test_a_watcher_sees_what_the_player_sees(server: Server, desktop: Any, second: Any) -> None:
    player = new_game(desktop, server, "bea")
    second.delete_all_cookies()
    sign_up_in_page(second, server, "cal")

    def listed() -> Any:
        second.get(server.url + "/lobby")
        links = second.find_elements(by("CSS_SELECTOR"), "a[href='/watch/bea']")
        return links[0] if links else None

    wait_for(listed, 20).click()
    wait_for(lambda: second.current_url == server.url + "/watch/bea")
    first = showing(second, lambda page: page.same_picture(player))
    assert_drawn_as_tcod_renders(first)
    digit, there = step(player)
    press(desktop, numpad("5"), numpad(digit), numpad("5"), numpad("5"))

    def alike() -> tuple[Shown, Shown] | None:
        """The player's page and the watcher's, once the four turns are shown on both alike."""
        played, watched = shown(desktop), shown(second)
        if played is None or watched is None or played.turns() != 4:
            return None
        same = played.same_picture(watched) and played.status == watched.status
        return (played, watched) if same and player_at(played) == there else None

    played, watched = wait_for(alike, 30)
    assert np.array_equal(watched.pixels, played.pixels)
    assert_drawn_as_tcod_renders(watched)
    assert watched.said != "broken" and played.frame.size == (80, 50)
    shot(second, "watch-desktop")
    # The lobby counts the watcher.
    desktop.get(server.url + "/lobby")
    row = wait_for(lambda: [r for r in lobby_rows(desktop) if r[0] == "bea" and r[6] == "1"], 20)
    assert row[0][1] == "canvas"
    shot(desktop, "lobby-desktop")
    second.get(server.url + "/")  # Nobody watches: the watch page's socket closes.


def lobby_rows(driver: Any) -> list[list[str]]:
    return [
        [cell.text for cell in row.find_elements(by("TAG_NAME"), "td")]
        for row in driver.find_elements(by("CSS_SELECTOR"), "#lobby tbody tr")
    ]


def tap(driver: Any, element: Any, x: int = 0, y: int = 0) -> None:
    """A finger's short tap on `element`, `x` and `y` CSS pixels from its middle."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    finger: Any = PointerInput  # Selenium's actions are untyped.
    actions = ActionBuilder(driver, mouse=finger(interaction.POINTER_TOUCH, "finger"))
    pointer: Any = actions.pointer_action
    pointer.move_to(element, x, y).pointer_down().pause(0.05).pointer_up()
    actions.perform()


def test_a_phone_plays_by_touch_and_watches(server: Server, desktop: Any, phone: Any) -> None:
    player = new_game(desktop, server, "dee")
    phone.delete_all_cookies()
    sign_up_in_page(phone, server, "eli")
    phone.get(server.url + "/lobby")
    wait_for(lambda: any(row[0] == "dee" for row in lobby_rows(phone)), 20)
    shot(phone, "lobby-phone")
    phone.get(server.url + "/watch/dee")
    assert_drawn_as_tcod_renders(showing(phone, lambda page: page.same_picture(player)))
    assert not phone.find_elements(by("CSS_SELECTOR"), "#touch:not([hidden])")  # Nothing to press.
    shot(phone, "watch-phone")

    phone.get(server.url + "/play")
    showing(phone, lambda page: page.status.get("screen") == "menu")
    press(phone, "n")  # A phone's keyboard still works.
    begun = showing(phone, lambda page: "HP:" in page.text() and page.turns() == 0)
    bar = phone.find_element(by("ID"), "touch")
    assert bar.is_displayed()
    before = len(recorded(server, "eli"))
    tap(phone, bar.find_element(by("CSS_SELECTOR"), "button[data-command='wait']"))
    waited = showing(phone, lambda page: page.turns() == 1)
    # The wait key the bar's command is (and the line of the new game's first save, written with it).
    added = played_lines(recorded(server, "eli")[before:].splitlines())
    assert added and set(added) <= {"text .", "key period", "key kp_5", "key clear"}, added
    assert_drawn_as_tcod_renders(waited)

    # A tap on a floor tile two steps from the player: the window's click, and the player
    # walks there.
    rows, columns = waited.frame.tiles.shape
    _, target = step(waited, 2)
    canvas = phone.execute_script("return window.game.canvas")
    width, height = phone.execute_script(
        "const r = window.game.canvas.getBoundingClientRect(); return [r.width, r.height];"
    )
    tap(
        phone,
        canvas,
        int((target[0] + 0.5) * width / columns - width / 2),
        int((target[1] + 0.5) * height / rows - height / 2),
    )
    wait_for(lambda: f"click {target[0]} {target[1]}" in recorded(server, "eli"), 20)
    showing(phone, lambda page: page.turns() > waited.turns())
    shot(phone, "play-phone")
    wait_for(lambda: CODEPOINTS[shown_frame(phone).tiles][target[1], target[0]] == ord("@"), 20)
    assert begun.frame.size == (80, 50)


def shown_frame(driver: Any) -> frames.Frame:
    page = shown(driver)
    assert page is not None
    return page.frame


def test_a_page_opened_again_shows_the_same_game_and_a_second_tab_takes_it_over(
    server: Server, desktop: Any
) -> None:
    new_game(desktop, server, "fox")
    press(desktop, numpad("5"), numpad("5"))
    before = showing(desktop, lambda page: page.turns() == 2)
    (pid,) = pids_of(server, "fox")
    desktop.get(server.url + "/")  # The page closes: the game waits for the next one.
    desktop.get(server.url + "/play")
    again = showing(desktop, lambda page: page.turns() == 2)
    assert again.same_picture(before) and again.status == before.status
    assert again.drawn >= 1 and again.said != "broken"  # A whole frame first: drawn at once.
    assert_drawn_as_tcod_renders(again)
    assert pids_of(server, "fox") == [pid] and alive(pid)  # The same game, still running.

    first = desktop.current_window_handle
    desktop.switch_to.new_window("tab")
    newer = desktop.current_window_handle
    desktop.get(server.url + "/play")
    taken = showing(desktop, lambda page: page.same_picture(before))
    assert taken.status == before.status
    desktop.switch_to.window(first)
    status = desktop.find_element(by("ID"), "status")
    wait_for(lambda: status.get_attribute("data-status") == "taken over")
    assert "another page" in status.text
    shot(desktop, "taken-over-desktop")
    desktop.close()
    desktop.switch_to.window(newer)
    press(desktop, numpad("5"))
    assert showing(desktop, lambda page: page.turns() == 3).said != "taken over"
    assert pids_of(server, "fox") == [pid] and alive(pid)


def test_a_phone_shows_the_page_at_its_width_and_the_canvas_crisp(
    server: Server, phone: Any
) -> None:
    new_game(phone, server, "gil")
    laid_out = phone.execute_script("return [innerWidth, visualViewport.scale]")
    assert laid_out == [PHONE["width"], 1]
    across = phone.execute_script(
        "const c = window.game.canvas, r = c.getBoundingClientRect();"
        "return r.width * devicePixelRatio * visualViewport.scale / c.width;"
    )
    # Whole device pixels, as far as layout's 1/64 CSS pixel allows (266.65625 for 800/3).
    assert round(across) >= 1 and abs(across - round(across)) < 0.01, across
