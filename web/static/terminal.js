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
  // A node that does not run the game answers "moved" with the socket of the one that does
  // (/node/NAME/...): opened at once (docs/browser.md, "Nodes").
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let socket = null;
  let said = false;
  function connect(path) {
    const opened = new WebSocket(scheme + location.host + path);
    let movedTo = null;
    socket = opened;
    opened.binaryType = "arraybuffer";
    opened.onopen = function () {
      if (keys === "all") { status.textContent = "Connected: type to play."; }
      term.focus();
    };
    opened.onmessage = function (event) {
      if (typeof event.data === "string") {
        const message = JSON.parse(event.data);
        if (message.status === "moved" && typeof message.socket === "string" && message.socket.startsWith("/node/")) {
          movedTo = message.socket;
          return;
        }
        status.textContent = message.message;
        status.dataset.status = message.status;
        said = true;
      } else {
        term.write(new Uint8Array(event.data));
      }
    };
    opened.onclose = function () {
      if (movedTo !== null) { return connect(movedTo); }
      if (!said) {
        status.textContent = "The connection closed. Your game saves itself: reload the page to continue.";
        status.dataset.status = "closed";
      }
    };
  }
  connect(box.dataset.socket);
  term.onData(function (data) {
    if (keys === "none" || socket.readyState !== WebSocket.OPEN) { return; }
    if (keys === "replay") { data = data.replace(/[^ +=-]/g, ""); }
    if (data) { socket.send(data); }
  });
})();
