// The game drawn in the page with the window's own tiles: the frames the game sends
// (web/frames.py) decoded in order and drawn cell by cell into a canvas of one pixel per tile
// pixel, shown scaled by a whole number of device pixels so that it stays crisp.
// data-socket names the socket; data-input="on" (the player's own game) sends keys, the
// pointer and the touch bar's commands, as the server's /play/socket takes them.
"use strict";
(function () {
  const canvas = document.getElementById("game");
  const stage = document.getElementById("stage");
  const status = document.getElementById("status");
  const bar = document.getElementById("touch");
  const beside = stage.closest(".beside");  // The game with its chat beside it.
  const input = canvas.dataset.input === "on";
  const context = canvas.getContext("2d", {alpha: false});
  const TILES = 288;  // len(frames.CODEPOINTS): tcod's charmap, then U+2580..U+259F.
  const ATLAS_COLUMNS = 32;
  const LONG_PRESS_MS = 500;
  const game = {frame: null, canvas: canvas, drawn: 0, status: null};
  window.game = game;  // For the tests, which read the frame and the canvas's pixels.
  let image = null;  // The canvas's pixels, 1x: a tile pixel is a canvas pixel.
  let atlas = null;  // The frame's tile size's tiles: {size, width, data}.
  const atlases = {};
  let said = false;

  // The tiles of one size, as RGBA bytes, from the server's /tiles/SIZE.png.
  function atlasOf(size) {
    if (!atlases[size]) {
      atlases[size] = new Promise(function (resolve, reject) {
        const picture = new Image();
        picture.onload = function () {
          const scratch = document.createElement("canvas");
          scratch.width = picture.width;
          scratch.height = picture.height;
          const drawing = scratch.getContext("2d");
          drawing.drawImage(picture, 0, 0);
          const data = drawing.getImageData(0, 0, picture.width, picture.height).data;
          resolve({size: size, width: picture.width, data: data});
        };
        picture.onerror = function () { reject(new Error("no tiles of " + size + " pixels")); };
        picture.src = "/tiles/" + size + ".png";
      });
    }
    return atlases[size];
  }

  async function inflate(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // Each colour byte plus the one of the cell on its left: PNG's Sub filter undone.
  function plusLeft(colours, columns) {
    const row = columns * 3;
    for (let start = 0; start < colours.length; start += row) {
      for (let i = start + 3; i < start + row; i++) { colours[i] = (colours[i] + colours[i - 3]) & 255; }
    }
  }

  async function full(bytes) {
    if (bytes.length < 5 || bytes[1] !== 1) { throw new Error("a frame of another version"); }
    const columns = bytes[2], rows = bytes[3], size = bytes[4], cells = columns * rows;
    if (!cells || !size) { throw new Error("an empty frame"); }
    const body = await inflate(bytes.subarray(5));
    if (body.length !== cells * 7) { throw new Error("a frame cut short"); }
    const tiles = body.slice(0, cells), fg = body.slice(cells, cells * 4), bg = body.slice(cells * 4);
    if (tiles.some(function (tile) { return tile >= TILES; })) { throw new Error("a tile outside the sheet"); }
    plusLeft(fg, columns);
    plusLeft(bg, columns);
    atlas = await atlasOf(size);
    game.frame = {columns: columns, rows: rows, tileSize: size, tiles: tiles, fg: fg, bg: bg};
    if (canvas.width !== columns * size || canvas.height !== rows * size) {
      canvas.width = columns * size;
      canvas.height = rows * size;
      fit();
    }
    image = context.createImageData(canvas.width, canvas.height);
    for (let cell = 0; cell < cells; cell++) { drawCell(cell); }
    context.putImageData(image, 0, 0);
  }

  async function changes(bytes) {
    const frame = game.frame;
    if (!frame) { throw new Error("changes before a whole frame"); }
    const body = await inflate(bytes.subarray(1));
    if (body.length % 9) { throw new Error("a record cut short"); }
    let left = frame.columns, top = frame.rows, right = -1, bottom = -1;
    for (let at = 0; at < body.length; at += 9) {
      const x = body[at], y = body[at + 1], tile = body[at + 2];
      if (x >= frame.columns || y >= frame.rows || tile >= TILES) { throw new Error("a cell outside the frame"); }
      const cell = y * frame.columns + x;
      frame.tiles[cell] = tile;
      frame.fg.set(body.subarray(at + 3, at + 6), cell * 3);
      frame.bg.set(body.subarray(at + 6, at + 9), cell * 3);
      drawCell(cell);
      left = Math.min(left, x); right = Math.max(right, x);
      top = Math.min(top, y); bottom = Math.max(bottom, y);
    }
    if (right >= 0) {
      const size = frame.tileSize;
      context.putImageData(image, 0, 0, left * size, top * size, (right - left + 1) * size, (bottom - top + 1) * size);
    }
  }

  // One cell's pixels as tcod renders them: the tile's colour times the foreground, laid over
  // the background by the tile's alpha, in whole numbers as libtcod does.
  function drawCell(cell) {
    const frame = game.frame, size = frame.tileSize, width = canvas.width, pixels = image.data;
    const tile = frame.tiles[cell], x = cell % frame.columns, y = (cell - x) / frame.columns;
    const tiles = atlas.data, atlasRow = atlas.width * 4, row = width * 4;
    let from = ((tile / ATLAS_COLUMNS | 0) * size * atlas.width + (tile % ATLAS_COLUMNS) * size) * 4;
    let to = (y * size * width + x * size) * 4;
    const fr = frame.fg[cell * 3], fgG = frame.fg[cell * 3 + 1], fb = frame.fg[cell * 3 + 2];
    const br = frame.bg[cell * 3], bgG = frame.bg[cell * 3 + 1], bb = frame.bg[cell * 3 + 2];
    for (let line = 0; line < size; line++, from += atlasRow, to += row) {
      for (let i = 0; i < size * 4; i += 4) {  // `| 0`: the clamped array would round.
        const a = tiles[from + i + 3], rest = 255 - a;
        pixels[to + i] = (((fr * tiles[from + i] / 255) | 0) * a + br * rest) / 255 | 0;
        pixels[to + i + 1] = (((fgG * tiles[from + i + 1] / 255) | 0) * a + bgG * rest) / 255 | 0;
        pixels[to + i + 2] = (((fb * tiles[from + i + 2] / 255) | 0) * a + bb * rest) / 255 | 0;
        pixels[to + i + 3] = 255;
      }
    }
  }

  async function received(data) {
    if (typeof data === "string") { return told(JSON.parse(data)); }
    const start = performance.now();
    const bytes = new Uint8Array(data);
    const kind = String.fromCharCode(bytes[0]);
    if (kind === "F") {
      await full(bytes);
    } else if (kind === "C") {
      await changes(bytes);
    } else if (kind === "S") {
      game.status = JSON.parse(new TextDecoder().decode(bytes.subarray(1)));
      return;
    } else {
      throw new Error("an unknown message");
    }
    game.drawn += 1;
    game.took = performance.now() - start;  // Decoded and drawn, in ms: for measuring.
  }

  // What the server says: a line for the status, or a watched game's end with where to go.
  function told(message) {
    said = true;
    status.dataset.status = message.status;
    if (message.status === "ended" && message.player && !input) {
      status.textContent = message.player + "'s game has ended. See the ";
      status.append(link("/scores", "scores"), " or the ", link("/lobby", "lobby"), ".");
    } else {
      status.textContent = message.message;
    }
  }

  function link(href, text) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    return a;
  }

  // The biggest whole number of device pixels per canvas pixel that fits the page; below one,
  // the canvas is shrunk to fit, smoothly, as no whole step can be crisp there.
  function fit() {
    if (!canvas.width) { return; }
    if (beside) { beside.classList.remove("stacked"); }
    let room = measured();
    if (room.step < 1 && beside) {  // The chat goes under the game, if the game need not shrink there.
      beside.classList.add("stacked");
      const under = measured();
      if (under.step >= 1) { room = under; } else { beside.classList.remove("stacked"); }
    }
    const ratio = window.devicePixelRatio || 1, step = room.step;
    let scale = step / ratio;
    if (step < 1) { scale = Math.min(room.wide / canvas.width, Math.max(room.high, 1) / canvas.height); }
    canvas.classList.toggle("shrunk", step < 1);
    canvas.style.width = canvas.width * scale + "px";
    canvas.style.height = canvas.height * scale + "px";
    game.step = step;
  }

  // The stage's room, and the whole device pixels per canvas pixel that fit in it.
  function measured() {
    const ratio = window.devicePixelRatio || 1;
    const barHeight = bar && !bar.hidden ? bar.getBoundingClientRect().height + 8 : 0;
    const wide = stage.clientWidth;
    const high = window.innerHeight - (stage.getBoundingClientRect().top + window.scrollY) - barHeight - 8;
    return {wide: wide, high: high, step: Math.floor(Math.min(wide * ratio / canvas.width, high * ratio / canvas.height))};
  }
  window.addEventListener("resize", fit);

  // The tile under a point of the page, inside the frame.
  function tileAt(event) {
    const frame = game.frame, box = canvas.getBoundingClientRect();
    const x = Math.floor((event.clientX - box.left) / box.width * frame.columns);
    const y = Math.floor((event.clientY - box.top) / box.height * frame.rows);
    return [Math.max(0, Math.min(frame.columns - 1, x)), Math.max(0, Math.min(frame.rows - 1, y))];
  }

  // The socket: data-socket on whichever node nginx picks; a node that does not run the game
  // answers "moved" with the socket of the one that does (/node/NAME/...), opened at once.  A
  // connection lost without a word (the node gone) is opened again, after 1, 2, 3... seconds,
  // at data-socket: another node then takes the game over (docs/browser.md, "Nodes").
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const RETRIES = 30;
  let socket = null;
  let tries = 0;
  let order = Promise.resolve();
  function connect(path) {
    const opened = new WebSocket(scheme + location.host + path);
    let movedTo = null;
    socket = opened;
    opened.binaryType = "arraybuffer";
    opened.onmessage = function (event) {
      if (typeof event.data === "string") {
        const message = JSON.parse(event.data);
        if (message.status === "moved" && typeof message.socket === "string" && message.socket.startsWith("/node/")) {
          movedTo = message.socket;
          return;
        }
      } else {
        tries = 0;  // The game answers: a later loss may try again as many times.
      }
      order = order.then(function () { return received(event.data); }).catch(function (error) {
        status.textContent = "The game's picture could not be read (" + error.message + "): reload the page.";
        status.dataset.status = "broken";
      });
    };
    opened.onopen = function () {
      if (input) { status.textContent = "Connected: type to play."; }
    };
    opened.onclose = function () {
      if (said) { return; }
      if (movedTo !== null) { return connect(movedTo); }
      if (tries < RETRIES) {
        tries += 1;
        status.dataset.status = "reconnecting";
        status.textContent = "The connection was lost: connecting again…";
        setTimeout(function () { connect(canvas.dataset.socket); }, Math.min(tries, 5) * 1000);
        return;
      }
      status.dataset.status = "closed";
      status.textContent = input
        ? "The connection closed. Your game saves itself: reload the page to continue."
        : "The connection closed.";
    };
  }
  connect(canvas.dataset.socket);

  function send(event) {
    if (socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(event)); }
  }

  if (!input) { return; }

  // Keys that only modify others: the game reads them from the next key's bits.
  const MODIFIERS = new Set(["Shift", "Control", "Alt", "AltGraph", "Meta", "CapsLock", "NumLock", "ScrollLock", "OS"]);
  // Keys the game uses that the browser would take (scroll, leave the page, open its help).
  // F5, F11 and F12 stay the browser's (reload, full screen, its tools), as do Ctrl, Alt and
  // Meta chords (Ctrl+R, Ctrl+W...), which are still sent to the game.
  const KEPT = new Set([
    "Tab", "Escape", "Backspace", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
    "Home", "End", "PageUp", "PageDown", "F1", "F2", "F3", "F4", "F6", "F7", "F8", "F9", "F10",
  ]);
  document.addEventListener("keydown", function (event) {
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, button, a")) {
      if (event.key === "Enter" || event.key === " " || target.closest("input, textarea, select")) { return; }
    }
    if (MODIFIERS.has(event.key)) { return; }
    const mod = (event.shiftKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.altKey ? 4 : 0) | (event.metaKey ? 8 : 0);
    if (!(mod & 14) && (KEPT.has(event.key) || event.key.length === 1)) { event.preventDefault(); }
    send({key: event.key, code: event.code, mod: mod});
  });

  // The mouse: the tile under the pointer when it changes, a click as the window's.
  let pointed = null;
  let pressed = false;
  canvas.addEventListener("pointermove", function (event) {
    if (event.pointerType !== "mouse" || !game.frame) { return; }
    const tile = tileAt(event);
    if (pointed && pointed[0] === tile[0] && pointed[1] === tile[1]) { return; }
    pointed = tile;
    send({move: tile});
  });
  canvas.addEventListener("pointerleave", function () { pointed = null; });

  // A finger: a tap is a click, a press held still for half a second looks at the tile.
  let press = null;
  canvas.addEventListener("pointerdown", function (event) {
    if (!game.frame) { return; }
    if (event.pointerType === "mouse") {
      pressed = event.button === 0;
      return;
    }
    const tile = tileAt(event);
    const held = {tile: tile, looked: false, timer: 0};
    held.timer = setTimeout(function () { held.looked = true; send({look: held.tile}); }, LONG_PRESS_MS);
    press = held;
  });
  canvas.addEventListener("pointerup", function (event) {
    if (!game.frame) { return; }
    if (event.pointerType === "mouse") {
      if (pressed && event.button === 0) { send({click: tileAt(event).concat([1])}); }
      pressed = false;
      return;
    }
    if (press) {
      clearTimeout(press.timer);
      if (!press.looked) { send({click: press.tile.concat([1])}); }
      press = null;
    }
  });
  canvas.addEventListener("pointercancel", function () {
    if (press) { clearTimeout(press.timer); press = null; }
  });
  canvas.addEventListener("pointermove", function (event) {
    if (!press || event.pointerType === "mouse") { return; }
    const tile = tileAt(event);
    if (tile[0] !== press.tile[0] || tile[1] !== press.tile[1]) {  // A slide, not a press.
      clearTimeout(press.timer);
      press = null;
    }
  });
  canvas.addEventListener("contextmenu", function (event) {
    event.preventDefault();
    if (event.pointerType === "touch" || press || !game.frame) { return; }  // A long press: a look.
    send({click: tileAt(event).concat([3])});
  });

  // The touch bar, shown where the pointer is a finger.
  if (bar && (window.matchMedia("(pointer: coarse)").matches || "ontouchstart" in window)) {
    bar.hidden = false;
    for (const button of bar.querySelectorAll("button[data-command]")) {
      button.addEventListener("click", function () { send({command: button.dataset.command}); });
    }
    fit();
  }
})();
