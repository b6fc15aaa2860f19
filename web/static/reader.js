// The screen reader's page: the game's lines added to an aria-live region as text, and each
// key pressed in the input sent to the game as a terminal would send it.
"use strict";
(function () {
  const input = document.getElementById("keys");
  const log = document.getElementById("lines");
  const status = document.getElementById("status");
  const KEEP = 300;  // Lines kept on the page.
  const NAMED = {
    Enter: "\r", Escape: "\x1b", Tab: "\t", Backspace: "\x7f",
    ArrowUp: "\x1b[A", ArrowDown: "\x1b[B", ArrowRight: "\x1b[C", ArrowLeft: "\x1b[D",
    Home: "\x1b[H", End: "\x1b[F", PageUp: "\x1b[5~", PageDown: "\x1b[6~", F1: "\x1bOP",
  };
  // A node that does not run the game answers "moved" with the socket of the one that does
  // (/node/NAME/...): opened at once (docs/browser.md, "Nodes").
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let socket = null;
  let said = false;
  function connect(path) {
    const opened = new WebSocket(scheme + location.host + path);
    let movedTo = null;
    socket = opened;
    opened.onopen = function () { status.textContent = "Connected."; input.focus(); };
    opened.onmessage = function (event) {
      const message = JSON.parse(event.data);
      if (message.lines) {
        for (const line of message.lines) {
          const p = document.createElement("p");
          p.textContent = line;  // Text, never markup.
          log.appendChild(p);
        }
        while (log.childElementCount > KEEP) { log.removeChild(log.firstElementChild); }
      } else if (message.status === "moved" && typeof message.socket === "string" && message.socket.startsWith("/node/")) {
        movedTo = message.socket;
      } else {
        status.textContent = message.message;
        status.dataset.status = message.status;
        said = true;
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
  connect(input.dataset.socket);
  input.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    let data = NAMED[event.key];
    if (data === undefined && event.key.length === 1) { data = event.key; }
    if (data === undefined) { return; }
    event.preventDefault();
    input.value = "";
    if (socket.readyState === WebSocket.OPEN) { socket.send(data); }
  });
})();
