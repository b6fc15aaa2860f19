"""The pages: the front page, a player's game, the lobby, the scoreboard, a game watched or
replayed, a verified game's recording, the tile atlases and the site's icon.

The front page, the lobby, the scoreboard, the recordings, the atlases and the icon are public
and read-only; every other page needs a signed-in player (`sessions.Base`).
"""

from __future__ import annotations

import time

import tornado.web

from web import accounts, children
from web.sessions import Base
from web.state import State


class Front(Base):
    """The front page: the sign-in and sign-up forms, or the signed-in player's links."""

    def get(self) -> None:
        self.page("index.html", error=None, games=len(self.state.live.games))


class Play(Base):
    """The pages of a player's own game: its tiles on a canvas, in xterm.js, or as lines for
    a screen reader."""

    def initialize(self, state: State, template: str) -> None:  # type: ignore[override]
        self.state = state
        self.template = template

    @tornado.web.authenticated
    def get(self) -> None:
        self.page(self.template)


class Lobby(Base):
    """The games being played (public); the page's script keeps it as `/lobby/socket` pushes
    it."""

    async def get(self) -> None:
        self.page("lobby.html", games=await self.state.lobby.rows())


class Watch(Base):
    """The page that follows a player's game in play."""

    @tornado.web.authenticated
    def get(self, name: str) -> None:
        try:
            watched = accounts.checked_name(name)
        except accounts.BadName:
            raise tornado.web.HTTPError(404) from None
        self.page("watch.html", watched=watched)


class Scoreboard(Base):
    """The verified finished games (public)."""

    async def get(self) -> None:
        self.page("scores.html", games=await self.state.store.games(), date=date_of)


def date_of(when: float) -> str:
    """A moment as the scoreboard writes it."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))


class Download(Base):
    """A verified game's recording, by its id only, from the database (public)."""

    asks_who = False

    async def get(self, game_id: str) -> None:
        text = await self.state.store.recording(int(game_id)) if len(game_id) < 12 else None
        if text is None:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="game-{int(game_id)}.rec"')
        self.finish(text.encode("utf-8"))


class Replay(Base):
    """The page that replays a verified game."""

    @tornado.web.authenticated
    async def get(self, game_id: str) -> None:
        game = await self.state.store.game(int(game_id)) if len(game_id) < 12 else None
        if game is None:
            raise tornado.web.HTTPError(404)
        self.page("replay.html", game=game)


class Icon(Base):
    """The game's own icon (icons/icon.png), as the site's."""

    asks_who = False

    def get(self) -> None:
        self.set_header("Content-Type", "image/png")
        self.set_header("Cache-Control", "max-age=86400")
        self.finish((children.ROOT / "icons" / "icon.png").read_bytes())


class Tiles(Base):
    """The window's tiles at one size, in the order the frames name them (`web.tiles`), for
    the canvas."""

    asks_who = False

    def get(self, size: str) -> None:
        from web import tiles  # tcod and the window's sheets: loaded when a page first asks.

        png = tiles.atlas_png(int(size))
        self.set_header("Content-Type", "image/png")
        self.set_header("Cache-Control", "max-age=86400")
        self.finish(png)
