"""The browser front end (`python -m web`): the game played, watched and scored in a web page.

A tornado server (`server`) signs players up and in (`accounts`, kept in `store`'s SQLite
database), runs each one's game in a pseudo-terminal of its own (`pty_process`, `live`), shown
by xterm.js or, for a screen reader, as lines (`lines`), lists the games being played (the
lobby) and the verified finished games (`scores`).  docs/browser.md says how, and what it trusts.
"""
