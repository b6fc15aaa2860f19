"""The browser front end (`python -m web`): the game played, watched and scored in a web page.

`cli` reads the command line and serves `server`'s tornado application (`connections` takes
connections in, capped, and waits out accept's failures): its `pages`, the `sessions` that sign
players up and in (`accounts`), the `limits` on what a browser may cost, `guard`'s security
headers on every answer and the host names it answers to, and the `sockets` each page talks
to its game through.  What the server keeps is in its `store`: an interface, SQLite in the
server's folder by default (`store_sqlite`) or PostgreSQL shared by a cluster's nodes
(`store_postgres`).
`live` keeps the games (`main.py` itself, `children`; `state` is what the handlers share): on
pipes for the canvas page (`pipe_process`, its events checked by `events`), or in a
pseudo-terminal (`pty_process`) for xterm.js or a screen reader's lines (`lines`), both a
`program` (a session of its own, its end polled, a grace once hung up).  Every game
writes what it draws as `frames` (`stream` in the game, its page's events read by `browser`),
which one `hub` a game fans out to the player's canvas and every watcher's; `tiles` is the
window's tile sheet for the canvas.  It lists the games being played (the lobby, every node's:
`lobby`) and the verified finished ones (`scores`).  Several servers make a cluster: each is
one of the `nodes` (its name, its heartbeat, which node runs a player's game), a game's files
reach the shared store as they are written and come back from it on another node
(`game_files`), and `nginx` writes the configuration of the one address in front.  The nodes
talk on a `bus` (Redis's pub/sub, or in-process for one server): a game played on another node
is watched through a `relay` of its frames, and `chat` carries the lines said beside a game.
docs/browser.md says how, and what it
trusts.
"""
