#!/usr/bin/env python3
"""Make docs/browser.md's pictures: the play page, a watcher's page, the chat and the lobby, as
Debian's Chromium shows them at 1400x1000 and on a phone (390x844, three device pixels a
CSS pixel, touch).

    python tools/web_screenshots.py [folder]     # docs/ by default

It starts `python -m web --seed 3` on a loopback port with a temporary folder, signs a player
and a watcher up in the pages, plays a few keys, and saves each page with Chromium's own
screenshot.  Needs `chromium`, `chromium-driver` and requirements-web.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "screenshot-password"
PHONE = {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving() -> Iterator[str]:
    """`python -m web` on a free loopback port, stopped and its folder removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="web-shots-"))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "web", "--port", str(port), "--data-dir", str(folder), "--seed", "3"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        until(lambda: answers(url))
        yield url
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(60)
        shutil.rmtree(folder, ignore_errors=True)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/", timeout=2):
            return True
    except OSError:
        return False


def until(done: Callable[[], object], seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the page did not get there in time")
        time.sleep(0.1)


@contextlib.contextmanager
def chromium(phone: bool = False) -> Iterator[Any]:
    """A headless Chromium of its own profile, 1400x1000 or a phone's."""
    profile = tempfile.mkdtemp(prefix="web-shots-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     f"--user-data-dir={profile}"):  # fmt: skip
        options.add_argument(argument)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        if not phone:
            inner = driver.execute_script("return [outerWidth - innerWidth, outerHeight - innerHeight]")
            driver.set_window_size(1400 + inner[0], 1000 + inner[1])
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def signed_up(driver: Any, url: str, name: str) -> None:
    driver.get(url + "/")
    form = driver.find_element(By.ID, "signup")
    form.find_element(By.NAME, "name").send_keys(name)
    form.find_element(By.NAME, "password").send_keys(PASSWORD)
    form.find_element(By.CSS_SELECTOR, "button").click()
    until(lambda: driver.find_elements(By.ID, "signed-in"))


def playing(driver: Any, url: str) -> None:
    """The canvas page, a new game, and a few turns."""
    driver.get(url + "/play")
    until(lambda: driver.execute_script("return window.game && window.game.drawn > 0"))
    press(driver, "n")
    until(lambda: driver.execute_script("return (window.game.status || {}).screen === 'playing'"))
    for key in (Keys.NUMPAD6, Keys.NUMPAD6, Keys.NUMPAD2):
        press(driver, key)
        time.sleep(0.3)


def said(driver: Any, line: str) -> None:
    """A line said in the page's chat (Enter sends it)."""
    driver.find_element(By.ID, "chat-text").send_keys(line, Keys.ENTER)


def press(driver: Any, key: str) -> None:
    """A key typed into the page (the canvas page listens on the whole document)."""
    ActionChains(driver).send_keys(key).perform()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "docs")
    folder: Path = parser.parse_args().folder
    with serving() as url, chromium() as player, chromium() as watcher, chromium(phone=True) as phone:
        signed_up(player, url, "ada")
        playing(player, url)
        player.save_screenshot(str(folder / "browser-play.png"))
        signed_up(watcher, url, "bea")
        watcher.get(url + "/watch/ada")
        until(lambda: watcher.execute_script("return window.game && window.game.drawn > 0"))
        press(player, Keys.NUMPAD5)
        time.sleep(1.0)
        said(watcher, "Nice start! Mind the orc to the east.")
        ActionChains(player).key_down(Keys.ALT).send_keys("c").key_up(Keys.ALT).perform()
        said(player, "Thanks, I see it.")
        press(player, Keys.ESCAPE)
        until(lambda: len(watcher.find_elements(By.CSS_SELECTOR, "#chat-lines li")) == 2)
        player.save_screenshot(str(folder / "browser-chat.png"))
        watcher.save_screenshot(str(folder / "browser-watch.png"))
        watcher.get(url + "/lobby")
        time.sleep(1.0)
        watcher.save_screenshot(str(folder / "browser-lobby.png"))
        signed_up(phone, url, "cid")
        phone.get(url + "/play")
        until(lambda: phone.execute_script("return window.game && window.game.drawn > 0"))
        press(phone, "n")
        until(lambda: phone.execute_script("return (window.game.status || {}).screen === 'playing'"))
        phone.save_screenshot(str(folder / "browser-phone.png"))
        phone.get(url + "/lobby")
        time.sleep(1.0)
        phone.save_screenshot(str(folder / "browser-lobby-phone.png"))
    print(f"made browser-play, -chat, -watch, -lobby, -phone and -lobby-phone .png in {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
