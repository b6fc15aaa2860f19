"""The browser front end (`python -m web`): the game played, watched and scored in a web page.

`cli` reads the command line and serves `server`'s tornado application: its `pages`, the
`sessions` that sign players up and in (`accounts`, kept in `store`'s SQLite database), the
`limits` on what a browser may cost, and the `sockets` that run each one's game, `main.py`
itself (`children`), in a pseudo-terminal of its own (`pty_process`, `live`; `state` is what
they share), shown by xterm.js or, for a screen reader, as lines (`lines`); it lists the games
being played (the lobby) and the verified finished ones (`scores`).
docs/browser.md says how, and what it trusts.
"""
