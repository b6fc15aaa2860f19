// The game's terminal in the page: xterm.js, 80 columns by 50 rows, fed by the server's
// socket.  data-keys says what the page may type: "all" (the player's own game), "replay"
// (Space, + and -) or "none" (watching).
"use strict";
(function () {
  const box = document.getElementById("terminal");
  const status = document.getElementById("status");
  const keys = box.dataset.keys;
  // The biggest font whose 50 rows fit the window under the page's top lines (at least 8px).
  const fontSize = Math.max(8, Math.min(18, Math.floor((window.innerHeight - 110) / 50 / 1.2)));
  const term = new Terminal({
    cols: 80, rows: 50, fontSize: fontSize, scrollback: 0, cursorBlink: false,
    disableStdin: keys === "none", fontFamily: "DejaVu Sans Mono, Menlo, Consolas, monospace",
  });
  window.term = term;  // For the tests, which read term.buffer.
  term.open(box);
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + box.dataset.socket);
  socket.binaryType = "arraybuffer";
  let said = false;
  socket.onopen = function () {
    if (keys === "all") { status.textContent = "Connected: type to play."; }
    term.focus();
  };
  socket.onmessage = function (event) {
    if (typeof event.data === "string") {
      const message = JSON.parse(event.data);
      status.textContent = message.message;
      status.dataset.status = message.status;
      said = true;
    } else {
      term.write(new Uint8Array(event.data));
    }
  };
  socket.onclose = function () {
    if (!said) {
      status.textContent = "The connection closed. Your game saves itself: reload the page to continue.";
      status.dataset.status = "closed";
    }
  };
  term.onData(function (data) {
    if (keys === "none" || socket.readyState !== WebSocket.OPEN) { return; }
    if (keys === "replay") { data = data.replace(/[^ +=-]/g, ""); }
    if (data) { socket.send(data); }
  });
})();
