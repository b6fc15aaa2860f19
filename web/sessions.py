"""Who a request comes from: signing up, in and out, the session cookie that says so, checked
on every page and socket, and the headers every page carries so that no other host is trusted.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, Final

import tornado.web

from web import accounts
from web.guard import Secured
from web.limits import MAX_TRACKED, SIGN_IN_FAILURES, forget_quiet, too_many
from web.state import State

TEMPLATES: Final = Path(__file__).resolve().parent / "templates"
COOKIE: Final = "tombs_session"
SESSION_DAYS: Final = 30
LOG: Final = logging.getLogger("web")


def session_player(handler: tornado.web.RequestHandler, state: State) -> str | None:
    """The signed-in player a request's session cookie names, if any."""
    token = handler.get_cookie(COOKIE)
    if not token or len(token) > 100:
        return None
    return state.store.session_player(accounts.token_hash(token), time.time())


class Base(Secured):
    """Every page: its player from the session cookie, and headers that trust no other host."""

    def initialize(self, state: State) -> None:
        self.state = state

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")

    def get_current_user(self) -> str | None:
        return session_player(self, self.state)

    @property
    def player(self) -> str | None:
        player: str | None = self.current_user
        return player

    def get_template_path(self) -> str:
        return str(TEMPLATES)

    def page(self, template: str, **values: Any) -> None:
        self.render(template, player=self.player, **values)


class Form(Base):
    """The sign-up and sign-in forms' common part."""

    def fields(self) -> tuple[str, str]:
        """The checked name and password posted; BadName or ValueError saying why not."""
        name = accounts.checked_name(self.get_body_argument("name", "")[: accounts.MAX_NAME + 10])
        # As typed: tornado strips an argument's surrounding spaces unless told not to.
        password = self.get_body_argument("password", "", strip=False)
        if len(password) > accounts.MAX_PASSWORD:
            raise ValueError("That password is too long.")
        return name, password

    def refuse(self, status: int, error: str) -> None:
        self.set_status(status)
        self.page("index.html", error=error, games=len(self.state.live.games))

    def sign_in_as(self, name: str) -> None:
        token = accounts.new_token()
        expires = time.time() + SESSION_DAYS * 86400
        self.state.store.add_session(accounts.token_hash(token), name, expires)
        self.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="Strict",
            secure=self.state.config.secure_cookies,
            expires_days=SESSION_DAYS,
        )
        self.redirect("/")

    def hashed(self, password: str, salt: bytes) -> Awaitable[bytes]:
        """scrypt, off the event loop."""
        return asyncio.get_running_loop().run_in_executor(
            None, accounts.hash_password, password, salt
        )


class SignUp(Form):
    """A new player: a free, checked name and a password; signed in at once."""

    async def post(self) -> None:
        now = time.time()
        sign_ups = self.state.sign_ups[self.request.remote_ip or ""]
        if too_many(sign_ups, self.state.config.sign_ups, now):
            return self.refuse(429, "Too many sign-ups from here: try later.")
        try:
            name, password = self.fields()
            accounts.checked_password(password)
        except ValueError as exc:
            return self.refuse(400, str(exc))
        salt = accounts.new_salt()
        hashed = await self.hashed(password, salt)
        if not self.state.store.add_player(name, salt, hashed):
            return self.refuse(409, "That name is taken.")
        sign_ups.append(now)
        accounts.player_folder(self.state.config.root, name)
        LOG.info("%s signed up", name)
        self.sign_in_as(name)


class SignIn(Form):
    """A player's name and password, checked; failures counted."""

    async def post(self) -> None:
        now = time.time()
        try:
            name, password = self.fields()
        except ValueError:
            name, password = "", ""
        address = self.request.remote_ip or ""
        if len(self.state.failures) > MAX_TRACKED:
            forget_quiet(self.state.failures, now)
        failures = self.state.failures[address]
        tries = self.state.failures[f"{address} {name}"]
        if too_many(tries, SIGN_IN_FAILURES, now) or too_many(failures, 5 * SIGN_IN_FAILURES, now):
            return self.refuse(429, "Too many failed sign-ins: try later.")
        kept = self.state.store.password_of(name) if name else None
        # A name with no player costs the same hash, so that it can't be told by the time taken.
        salt, expected = kept if kept is not None else (accounts.new_salt(), b"")
        hashed = await self.hashed(password, salt)
        if kept is None or not hmac.compare_digest(hashed, expected):
            failures.append(now)
            tries.append(now)
            return self.refuse(403, "That name and password do not match.")
        self.sign_in_as(name)


class SignOut(Base):
    """The session ended, in the database and in the browser."""

    @tornado.web.authenticated
    def post(self) -> None:
        token = self.get_cookie(COOKIE)
        if token:
            self.state.store.end_session(accounts.token_hash(token))
        self.clear_cookie(COOKIE)
        self.redirect("/")
