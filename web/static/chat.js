// The chat beside a game (web/chat.py), on the watch page and beside the player's canvas.
// Every line is set as text, never as markup: what a player typed is data.  The list is a
// polite live region, so a screen reader reads each new line without moving there.  Alt+C
// goes to the box from anywhere on the page (the game keeps every other key), Escape goes
// back to the game; typing in the box sends nothing to the game (canvas.js leaves inputs be).
"use strict";
(function () {
  const panel = document.getElementById("chat");
  if (!panel) { return; }
  const list = document.getElementById("chat-lines");
  const form = document.getElementById("chat-form");
  const text = document.getElementById("chat-text");
  const state = document.getElementById("chat-state");
  const toggle = document.getElementById("chat-switch");
  const said = document.getElementById("chat-said");
  const player = panel.dataset.player;
  const mine = panel.dataset.me === player;
  let open = true;

  function time(seconds) {
    const at = new Date(seconds * 1000);
    return String(at.getHours()).padStart(2, "0") + ":" + String(at.getMinutes()).padStart(2, "0");
  }

  function add(line) {
    const item = document.createElement("li");
    const when = document.createElement("span");
    when.className = "chat-time";
    when.textContent = time(Number(line.at) || 0);
    const who = document.createElement("b");
    who.textContent = String(line.from);
    item.append(when, " ", who, ": ", String(line.text));
    list.append(item);
    while (list.children.length > 100) { list.firstElementChild.remove(); }
    list.scrollTop = list.scrollHeight;
  }

  function show(isOpen) {
    open = isOpen;
    panel.dataset.open = open ? "yes" : "no";
    text.disabled = !open;
    form.querySelector("button").disabled = !open;
    state.textContent = open ? "" : (mine ? "You have turned the chat off." : player + " has turned the chat off.");
    if (toggle) { toggle.textContent = open ? "Turn chat off" : "Turn chat on"; }
  }

  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + panel.dataset.socket);
  socket.onmessage = function (event) {
    const message = JSON.parse(event.data);
    if (typeof message.open === "boolean") {
      show(message.open);
      if (Array.isArray(message.recent) && !list.children.length) { message.recent.forEach(add); }
    } else if (message.line) {
      add(message.line);
    } else if (typeof message.refused === "string") {
      said.textContent = message.refused;
    }
  };
  socket.onclose = function () {
    text.disabled = true;
    state.textContent = "The chat's connection closed: reload the page to chat.";
  };

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    const line = text.value.trim();
    if (!line || socket.readyState !== WebSocket.OPEN) { return; }
    socket.send(JSON.stringify({say: line}));
    text.value = "";
    said.textContent = "";
  });
  text.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      event.preventDefault();
      text.blur();
    }
  });
  if (toggle && mine) {
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      if (socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify({open: !open})); }
    });
  }
  // Captured before the game's own listener, which never sees this key.
  document.addEventListener("keydown", function (event) {
    if (event.altKey && !event.ctrlKey && !event.metaKey && event.code === "KeyC") {
      event.preventDefault();
      event.stopImmediatePropagation();
      text.focus();
    }
  }, true);
})();
