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

  let idles = [];  // Each row's idle cell, and its seconds when pushed.
  let heardAt = 0;

  function tick() {
    const since = Math.floor((Date.now() - heardAt) / 1000);
    for (const [cell, seconds] of idles) { cell.textContent = idle(seconds + since); }
  }

  function texts(game) {
    const shown = [game.player, game.mode, game.level, game.screen === "menu" ? "menu" : game.depth,
      game.turns, idle(Number(game.idle) || 0), game.watchers || 0];
    return shown.map(function (value) { return value === undefined || value === null ? "" : String(value); });
  }

  function watchCell(cell, player) {
    if (cell.dataset.player === player) { return; }  // Its link kept: a click on it is never lost.
    cell.dataset.player = player;
    cell.replaceChildren();
    cell.className = "";
    if (watch && player === me) {
      cell.textContent = "your game";
      cell.className = "muted";
    } else if (watch) {
      const a = document.createElement("a");
      a.className = "watch";
      a.href = "/watch/" + encodeURIComponent(player);
      a.textContent = "Watch";
      cell.append(a);
    } else {
      cell.textContent = "sign in to watch";
      cell.className = "muted";
    }
  }

  // The rows are changed in place, a cell's text only where it changed: a row rebuilt at
  // each push would take the link from under the pointer of a player about to click it.
  function show(games) {
    idles = [];
    games.forEach(function (game, index) {
      const row = body.rows[index] || body.insertRow();
      while (row.cells.length < 8) { row.insertCell(); }
      texts(game).forEach(function (text, column) {
        if (row.cells[column].textContent !== text) { row.cells[column].textContent = text; }
      });
      idles.push([row.cells[5], Number(game.idle) || 0]);
      watchCell(row.cells[7], String(game.player));
    });
    while (body.rows.length > games.length) { body.deleteRow(-1); }
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
