"""The canvas page (`web/static/canvas.js`) in a real Chromium: it draws the frames of
`web.frames` with the atlas of `web.tiles` exactly as tcod renders the same console, and sends
what the player presses as the JSON the game's `--browser` reads.

The page is the real template and script, served by a small tornado app made here with the
server's own content policy; its socket sends frames made from a real tcod console and keeps
what the page sends.  The browser tests skip when selenium, chromium or chromedriver is missing
(`pip install -r requirements-web.txt`; `apt-get install chromium chromium-driver`).
Screenshots are kept when WEB_SCREENSHOTS names a folder.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import struct
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest
import tcod
from loopback import free_port

from web import frames, tiles
from window import assets, options, title

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

import tornado.web
import tornado.websocket

from web.guard import content_policy

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SHOTS = os.environ.get("WEB_SCREENSHOTS")
PHONE = {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True}
T = TypeVar("T")
# The canvas's pixels, 1x, as base64 of its RGBA bytes.
PIXELS_JS = (
    "const c = window.game.canvas;"
    "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
    "let s = ''; for (let i = 0; i < d.length; i += 0x8000) {"
    "  s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000)); }"
    "return [c.width, c.height, btoa(s)];"
)


def wait_for(what: Callable[[], T | None], seconds: float = 20.0) -> T:
    """`what()` once it is truthy; fails after `seconds` (a bound, not a measure)."""
    end = time.monotonic() + seconds
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"still {value!r} after {seconds} s")
        time.sleep(0.05)


# The tiles.


def read_png(data: bytes) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """An 8-bit RGBA PNG's pixels, for the one kind `web.tiles` writes (no filter)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, dict[bytes, bytes]()
    while at < len(data):
        (length,) = struct.unpack_from(">I", data, at)
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        assert struct.unpack_from(">I", data, at + 8 + length)[0] == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height, depth, colour, *_ = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour) == (8, 6)
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, 1 + width * 4)
    assert not rows[:, 0].any()
    return rows[:, 1:].reshape(height, width, 4)


@pytest.mark.parametrize("size", list(options.TILE_SIZES))
def test_the_atlas_holds_the_windows_tiles_in_the_frames_order(size: int) -> None:
    tileset = assets.load_tileset(assets.TILESET_PATHS[size])
    pixels = read_png(tiles.atlas_png(size))
    assert pixels.shape[1] == frames.ATLAS_COLUMNS * size
    for index, codepoint in enumerate(frames.CODEPOINTS):
        y, x = divmod(index, frames.ATLAS_COLUMNS)
        tile = pixels[y * size : (y + 1) * size, x * size : (x + 1) * size]
        assert (tile == tileset.get_tile(codepoint)).all(), hex(codepoint)
    # The menu's block elements are there, drawn as the window draws them.
    full_block = frames.CODEPOINTS.index(0x2588)
    y, x = divmod(full_block, frames.ATLAS_COLUMNS)
    assert (pixels[y * size : (y + 1) * size, x * size : (x + 1) * size, 3] == 255).all()
    assert tiles.atlas_png(size) is tiles.atlas_png(size)  # Made once.


def test_the_atlas_refuses_a_size_the_game_has_not() -> None:
    with pytest.raises(ValueError, match="no tile sheet"):
        tiles.atlas_png(12)


# A console as the game draws it: the menu's picture with its title, then a dungeon's lines.


def menu_console() -> tcod.console.Console:
    console = tcod.console.Console(80, 50, order="F")
    console.draw_semigraphics(title.background_image(), 0, 0)
    console.print(
        40, 21, "TOMBS OF THE ANCIENT KINGS", fg=(255, 255, 63), alignment=tcod.constants.CENTER
    )
    for row, text in enumerate(("[N] Play a new game", "[C] Continue last game", "[Q] Quit")):
        console.print(28, 23 + row, text, fg=(255, 255, 255), bg=(0, 0, 0))
    return console


def dungeon_console() -> tcod.console.Console:
    console = tcod.console.Console(80, 50, order="F")
    console.draw_rect(0, 0, 80, 43, ord("#"), fg=(90, 90, 120), bg=(20, 20, 40))
    console.draw_rect(10, 5, 30, 20, ord("."), fg=(160, 160, 80), bg=(50, 50, 30))
    console.print(20, 12, "@", fg=(255, 255, 255))
    console.print(24, 14, "o", fg=(63, 127, 63))
    console.print(26, 9, "T", fg=(0, 127, 0), bg=(120, 0, 0))
    console.print(30, 18, "!", fg=(127, 0, 255))
    console.print(1, 45, "HP: 30/30", fg=(255, 255, 255), bg=(0, 96, 0))
    console.print(1, 47, "Dungeon level: 1", fg=(200, 200, 255))
    console.print(
        21, 45, "Hello and welcome, adventurer, to yet another dungeon!", fg=(32, 160, 255)
    )
    console.print(21, 46, "The orc attacks you for 3 hit points.", fg=(255, 160, 160))
    return console


GAME = {
    "player": "ada",
    "mode": "tiles",
    "level": 2,
    "depth": 3,
    "turns": 140,
    "screen": "playing",
    "idle": 5,
    "watchers": 1,
}

# The page, served by a small app with the real template, script and atlas.


class Hub:
    """The app's sockets: what each page is sent on opening, and what the pages sent."""

    def __init__(self) -> None:
        self.first: list[bytes | str] = []
        self.sockets: list[tornado.websocket.WebSocketHandler] = []
        self.received: list[object] = []
        self.loop: Any = None

    def send(self, message: bytes | str) -> None:
        """`message` to every page, from the tests' thread."""

        def sending() -> None:
            for each in self.sockets:
                each.write_message(message, binary=isinstance(message, bytes))

        self.loop.add_callback(sending)

    def got(self, wanted: object) -> bool:
        return wanted in self.received


class Page(tornado.web.RequestHandler):
    def initialize(self, template: str) -> None:
        self.template = template

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", content_policy(self.request.host))

    def get(self) -> None:
        self.render(self.template, player=None, watched="ada")


class LobbyPage(tornado.web.RequestHandler):
    def get(self) -> None:
        self.render("lobby.html", player="vera", games=[GAME])


class Atlas(tornado.web.RequestHandler):
    def get(self, size: str) -> None:
        if int(size) not in options.TILE_SIZES:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", "image/png")
        self.finish(tiles.atlas_png(int(size)))


class Socket(tornado.websocket.WebSocketHandler):
    def initialize(self, hub: Hub) -> None:
        self.hub = hub

    def open(self, *args: str, **kwargs: str) -> None:
        self.hub.sockets.append(self)
        for message in self.hub.first:
            self.write_message(message, binary=isinstance(message, bytes))

    def on_message(self, message: str | bytes) -> None:
        self.hub.received.append(json.loads(message))

    def on_close(self) -> None:
        self.hub.sockets.remove(self)


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, Hub]]:
    """The app on a loopback port, in a thread of its own, and its sockets' hub."""
    hub, port, ready = Hub(), free_port(), threading.Event()
    stopping: list[asyncio.Event] = []

    async def serve() -> None:
        application = tornado.web.Application(
            [
                (r"/play", Page, {"template": "play.html"}),
                (r"/watch/ada", Page, {"template": "watch.html"}),
                (r"/tiles/([0-9]{1,2})\.png", Atlas),
                (r"/play/socket", Socket, {"hub": hub}),
                (r"/watch/ada/socket", Socket, {"hub": hub}),
                (r"/lobby", LobbyPage),
                (r"/lobby/socket", Socket, {"hub": hub}),
            ],
            static_path=str(ROOT / "web" / "static"),
            template_path=str(ROOT / "web" / "templates"),
        )
        server = application.listen(port, address="127.0.0.1")
        hub.loop = tornado.ioloop.IOLoop.current()
        stopping.append(asyncio.Event())
        ready.set()
        await stopping[0].wait()
        server.stop()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(20)
    yield f"http://127.0.0.1:{port}", hub
    hub.loop.add_callback(stopping[0].set)
    thread.join(20)


@pytest.fixture(scope="module")
def browsers() -> Iterator[Callable[..., Any]]:
    """A maker of headless Chromiums (a phone's when given its metrics); all quit at the end."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (requirements-web.txt)")
    from selenium.webdriver.chrome.service import Service

    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("no chromium and chromedriver (apt-get install chromium chromium-driver)")
    made: list[Any] = []
    profiles: list[str] = []

    def make(phone: dict[str, object] | None = None) -> Any:
        profile = tempfile.mkdtemp(prefix="web-test-chromium-")
        profiles.append(profile)
        chrome = webdriver.ChromeOptions()
        chrome.binary_location = str(CHROMIUM)
        for argument in (
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1400,1000", "--force-device-scale-factor=1", f"--user-data-dir={profile}",
        ):  # fmt: skip
            chrome.add_argument(argument)
        if phone is not None:
            chrome.add_experimental_option("mobileEmulation", {"deviceMetrics": phone})
        driver = webdriver.Chrome(options=chrome, service=Service(str(CHROMEDRIVER)))
        made.append(driver)
        return driver

    yield make
    for driver in made:
        driver.quit()
    for profile in profiles:
        shutil.rmtree(profile, ignore_errors=True)


def shot(driver: Any, name: str) -> None:
    if SHOTS:
        driver.save_screenshot(str(Path(SHOTS) / f"canvas-{name}.png"))


def pixels_of(driver: Any) -> np.ndarray[Any, np.dtype[np.uint8]]:
    width, height, data = driver.execute_script(PIXELS_JS)
    return np.frombuffer(base64.b64decode(data), np.uint8).reshape(height, width, 4).copy()


def difference(driver: Any, console: tcod.console.Console) -> int:
    """The biggest difference of any channel between the canvas and tcod's own rendering."""
    tileset = assets.load_tileset(assets.TILESET_PATHS[10])
    drawn = pixels_of(driver).astype(np.int16)
    rendered = tileset.render(console).astype(np.int16)
    assert drawn.shape == rendered.shape
    return int(np.abs(drawn - rendered).max())


def drawn(driver: Any) -> int:
    return int(driver.execute_script("return window.game.drawn"))


def opened(driver: Any, hub: Hub, url: str, first: list[bytes | str]) -> None:
    """The page at `url`, once it has drawn the `first` messages' frames."""
    hub.first = first
    hub.received.clear()
    driver.get(url)
    count = sum(isinstance(message, bytes) and message[:1] != frames.STATUS for message in first)
    wait_for(lambda: drawn(driver) >= count)


def scale(driver: Any) -> tuple[float, float]:
    """The canvas's device pixels per canvas pixel, across and down, as the screen shows them
    (a page zoomed out to fit a phone shows them smaller), to the 1/64 CSS pixel layout keeps."""
    across, down = driver.execute_script(
        "const c = window.game.canvas, r = c.getBoundingClientRect();"
        "const d = window.devicePixelRatio * visualViewport.scale;"
        "return [r.width * d / c.width, r.height * d / c.height];"
    )
    return round(float(across), 2), round(float(down), 2)


def test_the_canvas_draws_a_frame_and_its_changes_as_tcod_renders_them(
    site: tuple[str, Hub], browsers: Callable[..., Any]
) -> None:
    url, hub = site
    driver = browsers()
    menu = menu_console()
    shown = frames.frame_of(menu, 10)
    opened(
        driver,
        hub,
        url + "/play",
        [frames.encode_full(shown), frames.encode_status({"screen": "menu"})],
    )
    assert difference(driver, menu) == 0
    frame = driver.execute_script(
        "const f = window.game.frame; return [f.columns, f.rows, f.tileSize, Array.from(f.fg.slice(0, 6))];"
    )
    assert frame == [80, 50, 10, shown.fg[0, :2].ravel().tolist()]
    wait_for(lambda: driver.execute_script("return window.game.status") == {"screen": "menu"})
    shot(driver, "menu")

    dungeon = dungeon_console()
    opened(driver, hub, url + "/play", [frames.encode_full(frames.frame_of(dungeon, 10))])
    assert difference(driver, dungeon) == 0
    # A few cells change: only they are drawn again.  A mark put on the canvas far from them
    # stays, and everything else is tcod's picture of the changed console.
    driver.execute_script(
        "const x = window.game.canvas.getContext('2d'); x.fillStyle = '#f0f'; x.fillRect(700, 400, 10, 10);"
    )
    before = frames.frame_of(dungeon, 10)
    dungeon.print(21, 12, "@", fg=(255, 255, 255), bg=(50, 50, 30))
    dungeon.print(20, 12, ".", fg=(160, 160, 80), bg=(50, 50, 30))
    dungeon.print(23, 14, "o", fg=(255, 0, 0), bg=(90, 0, 0))
    changes = frames.encode_changes(before, frames.frame_of(dungeon, 10))
    assert changes is not None and changes[:1] == frames.CHANGES
    count = drawn(driver)
    hub.send(changes)
    wait_for(lambda: drawn(driver) > count)
    canvas = pixels_of(driver)
    assert (canvas[400:410, 700:710, :3] == (255, 0, 255)).all()
    tileset = assets.load_tileset(assets.TILESET_PATHS[10])
    canvas[400:410, 700:710] = tileset.render(dungeon)[400:410, 700:710]
    assert int(np.abs(canvas.astype(np.int16) - tileset.render(dungeon)).max()) == 0
    shot(driver, "dungeon")


def test_the_canvas_is_scaled_by_whole_device_pixels_and_refitted(
    site: tuple[str, Hub], browsers: Callable[..., Any]
) -> None:
    url, hub = site
    driver = browsers()
    opened(
        driver,
        hub,
        url + "/watch/ada",
        [frames.encode_full(frames.frame_of(dungeon_console(), 10))],
    )
    assert (
        driver.execute_script("return getComputedStyle(window.game.canvas).imageRendering")
        == "pixelated"
    )
    assert scale(driver) == (1.0, 1.0)  # 800x500 fits 1400x1000 once, not twice.
    driver.set_window_size(2000, 1400)
    wait_for(lambda: scale(driver) == (2.0, 2.0))
    shot(driver, "twice")
    # A frame of bigger tiles: the canvas takes its size and is fitted again.
    opened(
        driver,
        hub,
        url + "/watch/ada",
        [frames.encode_full(frames.frame_of(dungeon_console(), 16))],
    )
    assert driver.execute_script(
        "return [window.game.canvas.width, window.game.canvas.height]"
    ) == [1280, 800]
    assert scale(driver) == (1.0, 1.0)


def test_a_watch_page_sends_nothing_and_says_when_the_game_ends(
    site: tuple[str, Hub], browsers: Callable[..., Any]
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    url, hub = site
    driver = browsers()
    opened(
        driver,
        hub,
        url + "/watch/ada",
        [frames.encode_full(frames.frame_of(dungeon_console(), 10))],
    )
    canvas = driver.execute_script("return window.game.canvas")
    ActionChains(driver).send_keys("jjj").move_to_element(canvas).click(canvas).perform()
    hub.send(json.dumps({"status": "ended", "player": "ada", "message": "ada's game has ended."}))
    status = driver.find_element("id", "status")
    wait_for(lambda: status.get_attribute("data-status") == "ended")
    assert status.text.startswith("ada's game has ended.")
    links = [a.get_attribute("href") for a in status.find_elements("tag name", "a")]
    assert links == [url + "/scores", url + "/lobby"]
    assert hub.received == []
    assert not driver.find_elements("id", "touch")  # No touch bar to press.


def test_keys_and_clicks_are_sent_as_the_games_json(
    site: tuple[str, Hub], browsers: Callable[..., Any]
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    url, hub = site
    driver = browsers()
    opened(driver, hub, url + "/play", [frames.encode_full(frames.frame_of(dungeon_console(), 10))])
    wait_for(lambda: hub.sockets)
    driver.execute_script(
        "window.prevented = {};"
        "window.addEventListener('keydown', function (e) { window.prevented[e.key] = e.defaultPrevented; });"
    )
    ActionChains(driver).send_keys(Keys.NUMPAD8, "x", "X", Keys.ESCAPE, Keys.TAB).perform()
    for sent in (
        {"key": "8", "code": "Numpad8", "mod": 0},
        {"key": "x", "code": "KeyX", "mod": 0},
        {"key": "X", "code": "KeyX", "mod": 1},
        {"key": "Escape", "code": "Escape", "mod": 0},
        {"key": "Tab", "code": "Tab", "mod": 0},
    ):
        wait_for(lambda sent=sent: hub.got(sent))  # type: ignore[misc]
    assert not any(
        "key" in event and event["key"] == "Shift"
        for event in hub.received
        if isinstance(event, dict)
    )
    prevented = driver.execute_script("return window.prevented")
    assert prevented["Tab"] and prevented["Escape"]  # The page keeps its focus and place.

    # The pointer: the tile under it once per tile, a click and a right click on that tile.
    canvas = driver.execute_script("return window.game.canvas")
    width, height = driver.execute_script(
        "const r = window.game.canvas.getBoundingClientRect(); return [r.width, r.height];"
    )
    x, y = (12.5 * width / 80 - width / 2), (7.5 * height / 50 - height / 2)  # From the middle.
    hub.received.clear()
    ActionChains(driver).move_to_element_with_offset(
        canvas, int(x), int(y)
    ).click().context_click().perform()
    wait_for(lambda: hub.got({"click": [12, 7, 3]}))
    assert hub.received == [{"move": [12, 7]}, {"click": [12, 7, 1]}, {"click": [12, 7, 3]}]


def test_a_phone_gets_the_touch_bar_taps_and_long_presses(
    site: tuple[str, Hub], browsers: Callable[..., Any]
) -> None:
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    url, hub = site
    driver = browsers(PHONE)
    opened(driver, hub, url + "/play", [frames.encode_full(frames.frame_of(dungeon_console(), 10))])
    wait_for(lambda: hub.sockets)
    bar = driver.find_element("id", "touch")
    assert bar.is_displayed()
    labels = [button.text for button in bar.find_elements("tag name", "button")]
    assert "Wait" in labels and "Explore" in labels
    # Crisp: a whole number of device pixels per canvas pixel, on a screen of 3 per CSS pixel.
    across, down = scale(driver)
    assert across == down and across >= 1 and across == int(across)
    shot(driver, "phone")
    bar.find_element("css selector", "button[data-command='wait']").click()
    wait_for(lambda: hub.got({"command": "wait"}))

    canvas = driver.execute_script("return window.game.canvas")
    width, height = driver.execute_script(
        "const r = window.game.canvas.getBoundingClientRect(); return [r.width, r.height];"
    )
    x, y = int(30.5 * width / 80 - width / 2), int(20.5 * height / 50 - height / 2)
    hub.received.clear()

    def touch(hold: float) -> None:
        finger: Any = PointerInput  # Selenium's actions are untyped.
        actions = ActionBuilder(driver, mouse=finger(interaction.POINTER_TOUCH, "finger"))
        pointer: Any = actions.pointer_action
        pointer.move_to(canvas, x, y).pointer_down().pause(hold).pointer_up()
        actions.perform()

    touch(0.05)
    wait_for(lambda: hub.got({"click": [30, 20, 1]}))
    touch(1.5)  # Held three times the long press: a look, and no click.
    wait_for(lambda: hub.got({"look": [30, 20]}))
    assert hub.received == [{"click": [30, 20, 1]}, {"look": [30, 20]}]


def test_the_lobby_is_kept_up_to_date_as_text(
    site: tuple[str, Hub], browsers: Callable[..., Any]
) -> None:
    url, hub = site
    driver = browsers()
    hub.first = []
    driver.get(url + "/lobby")

    def rows() -> list[list[str]]:
        return [
            [cell.text for cell in row.find_elements("tag name", "td")]
            for row in driver.find_elements("css selector", "#lobby tbody tr")
        ]

    # From the server; the idle time counts on in the page, a second at a time (under load the
    # page may have ticked before it is read).
    ((*shown, idle, watchers, watch),) = rows()
    assert (shown, watchers, watch) == (["ada", "tiles", "2", "3", "140"], "1", "Watch")
    assert re.fullmatch(r"([5-9]|1\d) s", idle), idle
    wait_for(lambda: hub.sockets)
    bold = {**GAME, "player": "<b>bo</b>", "screen": "menu", "idle": 125, "watchers": 0}
    hub.send(json.dumps({"games": [GAME, bold]}))
    wait_for(lambda: len(rows()) == 2)
    assert rows()[1] == ["<b>bo</b>", "tiles", "2", "menu", "140", "2 min", "0", "Watch"]
    assert not driver.find_elements("css selector", "#lobby b")  # A name is text, never markup.
    links = driver.find_elements("css selector", "#lobby a.watch")
    assert [a.get_attribute("href") for a in links] == [
        url + "/watch/ada",
        url + "/watch/%3Cb%3Ebo%3C%2Fb%3E",
    ]
    shot(driver, "lobby")
    hub.send(json.dumps({"games": [{**GAME, "player": "vera"}]}))  # The signed-in player's own.
    wait_for(lambda: rows() and rows()[0][0] == "vera")
    assert rows()[0][-1] == "your game" and not driver.find_elements("css selector", "#lobby a.watch")
    hub.send(json.dumps({"games": []}))
    wait_for(lambda: driver.find_element("id", "no-games").is_displayed())
    assert not driver.find_element("id", "lobby").is_displayed()
