"""The browser front end (`python -m web`): the game played, watched and scored in a web page.

A tornado server (`server`) signs players up and in (`accounts`, kept in `store`'s SQLite
database) and runs each one's game, `main.py` itself (`children`), in a pseudo-terminal of its
own (`pty_process`, `live`), shown by xterm.js or, for a screen reader, as lines (`lines`); it
lists the games being played (the lobby) and the verified finished ones (`scores`).
docs/browser.md says how, and what it trusts.
"""
