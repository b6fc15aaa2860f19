// The lobby's table kept up to date from /lobby/socket, which pushes {"games": [...]} when
// the games change.  Every value is set as text, never as markup: a player's name is data.
// The time since each player's last key goes on counting here between pushes.  Without the
// socket, the page reloads itself now and then instead.
"use strict";
(function () {
  const table = document.getElementById("lobby");
  const body = table.tBodies[0];
  const none = document.getElementById("no-games");
  const watch = table.dataset.watch === "yes";
  const me = table.dataset.me;

  function idle(seconds) {
    if (seconds < 60) { return seconds + " s"; }
    return seconds < 3600 ? Math.floor(seconds / 60) + " min" : Math.floor(seconds / 3600) + " h";
  }

  function cell(row, text) {
    row.insertCell().textContent = text === undefined || text === null ? "" : String(text);
  }

  let idles = [];  // Each row's idle cell, and its seconds when pushed.
  let heardAt = 0;

  function tick() {
    const since = Math.floor((Date.now() - heardAt) / 1000);
    for (const [cell, seconds] of idles) { cell.textContent = idle(seconds + since); }
  }

  function show(games) {
    idles = [];
    body.replaceChildren();
    for (const game of games) {
      const row = body.insertRow();
      cell(row, game.player);
      cell(row, game.mode);
      cell(row, game.level);
      cell(row, game.screen === "menu" ? "menu" : game.depth);
      cell(row, game.turns);
      cell(row, idle(Number(game.idle) || 0));
      idles.push([row.cells[row.cells.length - 1], Number(game.idle) || 0]);
      cell(row, game.watchers || 0);
      const last = row.insertCell();
      if (watch && game.player === me) {
        last.textContent = "your game";
        last.className = "muted";
      } else if (watch) {
        const a = document.createElement("a");
        a.className = "watch";
        a.href = "/watch/" + encodeURIComponent(String(game.player));
        a.textContent = "Watch";
        last.append(a);
      } else {
        last.textContent = "sign in to watch";
        last.className = "muted";
      }
    }
    table.hidden = games.length === 0;
    none.hidden = games.length !== 0;
  }

  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + table.dataset.socket);
  let heard = false;
  socket.onmessage = function (event) {
    const message = JSON.parse(event.data);
    if (Array.isArray(message.games)) {
      heard = true;
      heardAt = Date.now();
      show(message.games);
    }
  };
  setInterval(tick, 1000);
  socket.onclose = function () {
    setTimeout(function () { location.reload(); }, heard ? 3000 : 10000);
  };
})();
