"""The tornado application: the routes to every page, form and socket, and its settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import tornado.web

from web.guard import Guarded, NotFound, Static
from web.limits import MAX_MESSAGE
from web.pages import Download, Front, Icon, Lobby, Play, Replay, Scoreboard, Tiles, Watch
from web.sessions import SignIn, SignOut, SignUp
from web.sockets import (
    ChatSocket,
    LobbySocket,
    PlaySocket,
    ReaderSocket,
    ReplaySocket,
    TerminalSocket,
    WatchSocket,
)
from web.state import State

STATIC: Final = Path(__file__).resolve().parent / "static"


def settings(state: State) -> dict[str, Any]:
    """The application's settings."""
    return dict(
        static_path=str(STATIC),
        static_handler_class=Static,
        default_handler_class=NotFound,
        allowed_hosts=state.config.allowed_hosts,
        trusted_proxies=state.config.trusted_proxies,
        xsrf_cookies=True,
        xsrf_cookie_kwargs={"httponly": True, "samesite": "Strict"},
        login_url="/",
        websocket_max_message_size=MAX_MESSAGE,
        websocket_ping_interval=10,
        websocket_ping_timeout=10,
        compiled_template_cache=True,
    )


def application(state: State) -> tornado.web.Application:
    """The routes."""
    s = {"state": state}
    app = Guarded(
        [
            (r"/", Front, s),
            (r"/signup", SignUp, s),
            (r"/signin", SignIn, s),
            (r"/signout", SignOut, s),
            (r"/play", Play, {**s, "template": "play.html"}),
            (r"/terminal", Play, {**s, "template": "terminal.html"}),
            (r"/read", Play, {**s, "template": "reader.html"}),
            (r"/play/socket", PlaySocket, s),
            (r"/terminal/socket", TerminalSocket, s),
            (r"/read/socket", ReaderSocket, s),
            (r"/lobby", Lobby, s),
            (r"/lobby/socket", LobbySocket, s),
            (r"/tiles/(10|16|24)\.png", Tiles, s),
            (r"/watch/([a-z][a-z0-9_]{1,19})", Watch, s),
            (r"/watch/([a-z][a-z0-9_]{1,19})/socket", WatchSocket, s),
            (r"/chat/([a-z][a-z0-9_]{1,19})/socket", ChatSocket, s),
            (r"/scores", Scoreboard, s),
            (r"/scores/([0-9]{1,11})\.rec", Download, s),
            (r"/replay/([0-9]{1,11})", Replay, s),
            (r"/replay/([0-9]{1,11})/socket", ReplaySocket, s),
        ],
        **settings(state),
    )
    # Tornado puts its own static route for /favicon.ico before every route given above
    # (a file in static/, which there is not); a host's routes come before those.
    app.add_handlers(r".*", [(r"/favicon\.ico", Icon, s)])
    return app
