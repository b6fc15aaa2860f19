"""Who a request comes from: signing up, in and out, the session cookie that says so, checked
on every page and socket, and the headers every page carries so that no other host is trusted.

The limits on signing up and in are taken from the store (`take`) before the password is
hashed, each in one step: requests sent at once can't all pass a check made before any of them
is counted, and every node of a cluster counts in the same place.
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
from web.limits import SIGN_IN_FAILURES, SIGN_IN_FAILURES_FROM, WINDOW_SECONDS
from web.state import State

TEMPLATES: Final = Path(__file__).resolve().parent / "templates"
COOKIE: Final = "tombs_session"
SESSION_DAYS: Final = 30
LOG: Final = logging.getLogger("web")


async def session_player(handler: tornado.web.RequestHandler, state: State) -> str | None:
    """The signed-in player a request's session cookie names, if any."""
    token = handler.get_cookie(COOKIE)
    if not token or len(token) > 100:
        return None
    return await state.store.session_player(accounts.token_hash(token), time.time())


class Base(Secured):
    """Every page: its player from the session cookie, and headers that trust no other host."""

    asks_who = True  # False for a public file that names no player: no store asked.

    def initialize(self, state: State) -> None:
        self.state = state

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")

    async def prepare(self) -> None:
        """The player, from the store (so not in `get_current_user`, which can't wait)."""
        if self.asks_who:
            self.current_user = await session_player(self, self.state)

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

    async def sign_in_as(self, name: str) -> None:
        token = accounts.new_token()
        expires = time.time() + SESSION_DAYS * 86400
        await self.state.store.add_session(accounts.token_hash(token), name, expires)
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
    """A new player: a free, checked name and a password; signed in at once.  Sign-ups from
    one address are capped (`--sign-ups` in the window); one whose name is taken is given back."""

    async def post(self) -> None:
        try:
            name, password = self.fields()
            accounts.checked_password(password)
        except ValueError as exc:
            return self.refuse(400, str(exc))
        store = self.state.store
        address = self.request.remote_ip or ""
        slot = await store.take(
            "sign-up", address, self.state.config.sign_ups, WINDOW_SECONDS, time.time()
        )
        if slot is None:
            return self.refuse(429, "Too many sign-ups from here: try later.")
        salt = accounts.new_salt()
        hashed = await self.hashed(password, salt)
        if not await store.add_player(name, salt, hashed):
            await store.give_back(slot)
            return self.refuse(409, "That name is taken.")
        accounts.player_folder(self.state.config.root, name)
        LOG.info("%s signed up", name)
        await self.sign_in_as(name)


class SignIn(Form):
    """A player's name and password, checked.  Each try takes a slot of the name's (from any
    address) and of the address's (for any name) before the hash is made; a failure keeps
    them, a success gives them back."""

    async def post(self) -> None:
        try:
            name, password = self.fields()
        except ValueError:
            name, password = "", ""
        slots = await self.take_slots(name, self.request.remote_ip or "")
        if slots is None:
            return self.refuse(429, "Too many failed sign-ins: try later.")
        kept = await self.state.store.password_of(name) if name else None
        # A name with no player costs the same hash, so that it can't be told by the time taken.
        salt, expected = kept if kept is not None else (accounts.new_salt(), b"")
        hashed = await self.hashed(password, salt)
        if kept is None or not hmac.compare_digest(hashed, expected):
            return self.refuse(403, "That name and password do not match.")
        for slot in slots:
            await self.state.store.give_back(slot)
        await self.sign_in_as(name)

    async def take_slots(self, name: str, address: str) -> list[int] | None:
        """A slot of the name's and one of the address's; None (and neither kept) if either
        limit is reached."""
        store, now = self.state.store, time.time()
        by_name = await store.take("sign-in", name, SIGN_IN_FAILURES, WINDOW_SECONDS, now)
        if by_name is None:
            return None
        by_address = await store.take(
            "sign-in-from", address, SIGN_IN_FAILURES_FROM, WINDOW_SECONDS, now
        )
        if by_address is None:
            await store.give_back(by_name)
            return None
        return [by_name, by_address]


class SignOut(Base):
    """The session ended, in the database and in the browser."""

    @tornado.web.authenticated
    async def post(self) -> None:
        token = self.get_cookie(COOKIE)
        if token:
            await self.state.store.end_session(accounts.token_hash(token))
        self.clear_cookie(COOKIE)
        self.redirect("/")
