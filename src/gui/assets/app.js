// The page of `doushou gui`. Everything about the game (legal moves, FEN,
// game end) comes from the server's state; this script only draws it and
// sends what the user does. API: docs/gui.md.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 64;
const MARGIN = 28;
const FILES = 7;
const RANKS = 9;
const COLOURS = {
  land: "#eadcae", landAlt: "#e4d4a2", water: "#5fa8de", trap: "#d8b07a",
  denRed: "#f3c9c4", denBlue: "#c7d6f3", grid: "#b9a672",
  red: "#c62828", blue: "#1565c0", last: "rgba(255, 214, 10, .45)", select: "#2f6f4f",
};

let state = null;          // the last state from the server
let gameId = null;
let flipped = false;
let selected = null;       // the square whose piece is picked up
let drag = null;           // {from, group, start point}
let analysis = null;       // the last analysis update
let events = null;

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- the API

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (_) { /* no body */ }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

async function action(name, body) {
  try {
    show(await api("POST", `/api/game/${gameId}/${name}`, body || {}));
    return true;
  } catch (e) {
    showError(e.message);
    if (e.status === 404 && /no game/.test(e.message)) await startSession();
    else if (state) render();
    return false;
  }
}

// `fromServer`: the state's own error, cleared by the next state without one.
function showError(message, fromServer = false) {
  $("error-text").textContent = message;
  $("error").hidden = !message;
  $("error").dataset.fromServer = fromServer ? "1" : "";
}

// ---------------------------------------------------------------- the board

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function coords(square) {
  const file = square.charCodeAt(0) - 97;
  const rank = parseInt(square.slice(1), 10) - 1;
  const col = flipped ? FILES - 1 - file : file;
  const row = flipped ? rank : RANKS - 1 - rank;
  return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
}

function centre(square) {
  const { x, y } = coords(square);
  return { x: x + CELL / 2, y: y + CELL / 2 };
}

function drawBoard() {
  const width = 2 * MARGIN + FILES * CELL;
  const height = 2 * MARGIN + RANKS * CELL;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, id: "board-svg", role: "img" });
  el("rect", { x: 0, y: 0, width, height, rx: 10, fill: "#f7f1df" }, svg);
  const defs = el("defs", {}, svg);
  const marker = el("marker", {
    id: "arrowhead", viewBox: "0 0 10 10", refX: 3, refY: 5,
    markerWidth: 2.6, markerHeight: 2.6, orient: "auto",
  }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#2e7d32" }, marker);

  const ground = el("g", { class: "squares" }, svg);
  const lastSquares = state.last_move ? [state.last_move.slice(0, 2), state.last_move.slice(2)] : [];
  for (const sq of state.board) {
    const { x, y } = coords(sq.square);
    const file = sq.square.charCodeAt(0) - 97;
    const rank = parseInt(sq.square.slice(1), 10);
    let fill = (file + rank) % 2 ? COLOURS.land : COLOURS.landAlt;
    if (sq.ground === "water") fill = COLOURS.water;
    if (sq.ground === "trap") fill = COLOURS.trap;
    if (sq.ground === "den") fill = sq.owner === "red" ? COLOURS.denRed : COLOURS.denBlue;
    const g = el("g", { class: `square ${sq.ground}`, "data-square": sq.square }, ground);
    el("rect", { class: "sq-hit", x, y, width: CELL, height: CELL, fill, stroke: COLOURS.grid, "stroke-width": 1 }, g);
    if (sq.ground === "water") {
      for (const dy of [-10, 10]) {
        el("path", {
          d: `M${x + 14},${y + CELL / 2 + dy} q9,-6 18,0 t18,0`, fill: "none",
          stroke: "#d9ecfa", "stroke-width": 2, "stroke-linecap": "round", opacity: .8,
        }, g);
      }
    } else if (sq.ground === "trap" || sq.ground === "den") {
      const c = sq.owner === "red" ? COLOURS.red : COLOURS.blue;
      el("rect", {
        x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 6, fill: "none",
        stroke: c, "stroke-width": 2, "stroke-dasharray": "5,3", opacity: .8,
      }, g);
      const label = el("text", {
        x: x + CELL / 2, y: y + CELL / 2 + 5, "font-size": sq.ground === "den" ? 15 : 12,
        fill: c, "text-anchor": "middle", opacity: .75, "font-weight": 600,
      }, g);
      label.textContent = sq.ground;
    }
    if (lastSquares.includes(sq.square)) {
      el("rect", { x, y, width: CELL, height: CELL, fill: COLOURS.last, "pointer-events": "none" }, g);
    }
  }

  const coordinates = el("g", { "font-size": 13, fill: "#8a7a52", "font-weight": 600 }, svg);
  for (let f = 0; f < FILES; f++) {
    const letter = String.fromCharCode(97 + f);
    const { x } = centre(`${letter}1`);
    for (const y of [MARGIN - 9, MARGIN + RANKS * CELL + 19]) {
      el("text", { x, y, "text-anchor": "middle" }, coordinates).textContent = letter;
    }
  }
  for (let r = 1; r <= RANKS; r++) {
    const { y } = centre(`a${r}`);
    for (const x of [MARGIN / 2, MARGIN + FILES * CELL + MARGIN / 2]) {
      el("text", { x, y: y + 5, "text-anchor": "middle" }, coordinates).textContent = r;
    }
  }

  const marks = el("g", { class: "marks", "pointer-events": "none" }, svg);
  if (selected && state.legal[selected]) {
    const c = centre(selected);
    el("rect", {
      x: c.x - CELL / 2 + 2, y: c.y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4,
      rx: 6, fill: "none", stroke: COLOURS.select, "stroke-width": 4,
    }, marks);
    for (const to of state.legal[selected]) {
      const t = centre(to);
      const occupied = state.pieces.some((p) => p.square === to);
      if (occupied) {
        el("circle", { cx: t.x, cy: t.y, r: 29, fill: "none", stroke: COLOURS.select, "stroke-width": 4, opacity: .7, class: "target", "data-target": to }, marks);
      } else {
        el("circle", { cx: t.x, cy: t.y, r: 9, fill: COLOURS.select, opacity: .55, class: "target", "data-target": to }, marks);
      }
    }
  }

  const pieces = el("g", { class: "pieces" }, svg);
  for (const p of state.pieces) drawPiece(pieces, p);
  el("g", { id: "arrows", "pointer-events": "none" }, svg);

  if (state.outcome) {
    const banner = el("g", { class: "outcome", "pointer-events": "none" }, svg);
    const y = MARGIN + 4 * CELL;
    el("rect", { x: MARGIN + 10, y: y - 6, width: FILES * CELL - 20, height: CELL + 12, rx: 12, fill: "rgba(35,64,47,.9)" }, banner);
    el("text", { x: width / 2, y: y + 24, "text-anchor": "middle", "font-size": 24, "font-weight": 700, fill: "#ffd97a" }, banner).textContent = state.outcome.result;
    el("text", { x: width / 2, y: y + 48, "text-anchor": "middle", "font-size": 14, fill: "#fff" }, banner).textContent = state.outcome.text;
  }

  const host = $("board");
  host.replaceChildren(svg);
  drawArrow();
}

function drawPiece(parent, p) {
  const { x, y } = centre(p.square);
  const colour = p.side === "red" ? COLOURS.red : COLOURS.blue;
  const g = el("g", {
    class: "piece", "data-piece": p.piece, "data-square": p.square,
    "data-side": p.side, "data-animal": p.animal, transform: `translate(${x},${y})`,
  }, parent);
  el("circle", { cx: 0, cy: 2, r: 27, fill: "rgba(0,0,0,.18)" }, g);
  el("circle", { cx: 0, cy: 0, r: 27, fill: colour, stroke: "#fff", "stroke-width": 2.5 }, g);
  el("circle", { cx: 0, cy: 0, r: 22.5, fill: "none", stroke: "rgba(255,255,255,.35)", "stroke-width": 1 }, g);
  el("text", { x: 0, y: 4, "font-size": 22, "font-weight": 800, fill: "#fff", "text-anchor": "middle" }, g).textContent = p.piece.toUpperCase();
  el("text", { x: 0, y: 16, "font-size": 8.5, fill: "#fff", "text-anchor": "middle", opacity: .95 }, g).textContent = p.animal;
  el("circle", { cx: 19, cy: -19, r: 8, fill: "#fff", stroke: colour, "stroke-width": 1.5 }, g);
  el("text", { x: 19, y: -15.5, "font-size": 10, "font-weight": 800, fill: colour, "text-anchor": "middle" }, g).textContent = p.rank;
}

function drawArrow() {
  const layer = document.getElementById("arrows");
  if (!layer) return;
  layer.replaceChildren();
  const line = bestLine();
  if (!line || !line.pv.length || !state || state.outcome) return;
  const m = line.pv[0];
  const a = centre(m.slice(0, 2));
  const b = centre(m.slice(2, 4));
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const head = 12;
  el("line", {
    class: "arrow", "data-move": m, x1: a.x, y1: a.y,
    x2: b.x - (b.x - a.x) / len * head, y2: b.y - (b.y - a.y) / len * head,
    stroke: "#2e7d32", "stroke-width": 9, "stroke-opacity": .8, "stroke-linecap": "round",
    "marker-end": "url(#arrowhead)",
  }, layer);
}

function bestLine() {
  if (!analysis) return null;
  if (analysis.analysis.on && analysis.analysis.lines.length) return analysis.analysis.lines[0];
  return null;
}

// ---------------------------------------------------------------- moving

function squareAt(clientX, clientY) {
  for (const node of document.elementsFromPoint(clientX, clientY)) {
    const holder = node.closest && node.closest("[data-square]");
    if (holder && !holder.classList.contains("dragging")) return holder.getAttribute("data-square");
  }
  return null;
}

function svgPoint(svg, clientX, clientY) {
  const pt = svg.createSVGPoint();
  pt.x = clientX; pt.y = clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function onPointerDown(event) {
  if (!state || event.button > 0) return;
  const square = squareAt(event.clientX, event.clientY);
  if (!square) return;
  if (selected && selected !== square && (state.legal[selected] || []).includes(square)) {
    event.preventDefault();
    play(selected + square);
    return;
  }
  if (state.legal[square]) {
    event.preventDefault();
    selected = square;
    drawBoard();
    const group = document.querySelector(`.piece[data-square="${square}"]`);
    const svg = $("board-svg");
    if (group && svg) {
      drag = { from: square, group, svg, moved: false, x0: event.clientX, y0: event.clientY };
      svg.setPointerCapture && svg.setPointerCapture(event.pointerId);
    }
  } else if (selected) {
    selected = null;
    drawBoard();
  }
}

function onPointerMove(event) {
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < 4) return;
  drag.moved = true;
  drag.group.classList.add("dragging");
  drag.group.parentNode.appendChild(drag.group);
  const p = svgPoint(drag.svg, event.clientX, event.clientY);
  drag.group.setAttribute("transform", `translate(${p.x},${p.y}) scale(1.1)`);
}

function onPointerUp(event) {
  if (!drag) return;
  const { from, moved } = drag;
  drag = null;
  if (!moved) return; // a click: the piece stays selected for a second click
  const to = squareAt(event.clientX, event.clientY);
  if (to && to !== from && (state.legal[from] || []).includes(to)) {
    play(from + to);
  } else {
    drawBoard();
  }
}

function play(move) {
  selected = null;
  action("move", { move });
}

// ---------------------------------------------------------------- panels

function playerOptions(select, value) {
  const names = ["human", ...state.engines];
  select.replaceChildren(...names.map((n) => {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = n === "human" ? "Human" : `Engine: ${n}`;
    return o;
  }));
  select.value = value;
}

function renderStatus() {
  const status = $("status");
  status.replaceChildren();
  if (state.outcome) {
    const span = document.createElement("span");
    span.className = "over";
    span.textContent = `Game over: ${state.outcome.text} (${state.outcome.result})`;
    status.appendChild(span);
    return;
  }
  const dot = document.createElement("span");
  dot.className = "turn";
  dot.style.background = state.side_to_move === "red" ? COLOURS.red : COLOURS.blue;
  status.appendChild(dot);
  const who = state.players[state.side_to_move];
  const side = state.side_to_move === "red" ? "Red" : "Blue";
  let text = `${side} to move`;
  if (state.ply < state.moves.length) text += ` · move ${state.ply} of ${state.moves.length}`;
  else if (who !== "human") text += ` · ${who} is thinking…`;
  status.appendChild(document.createTextNode(text));
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  const blueFirst = state.start_fen.split(" ")[1] === "b";
  const startNumber = parseInt(state.start_fen.split(" ")[3] || "1", 10) || 1;
  let cells = [];
  if (blueFirst && state.moves.length) cells.push(null);
  state.moves.forEach((m, i) => cells.push({ m, ply: i + 1 }));
  for (let i = 0; i < cells.length; i += 2) {
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${startNumber + i / 2}.`;
    box.appendChild(num);
    for (const cell of [cells[i], cells[i + 1]]) {
      const span = document.createElement("span");
      if (cell) {
        span.className = "mv" + (cell.ply === state.ply ? " current" : "") + (cell.ply > state.ply ? " future" : "");
        span.textContent = cell.m;
        span.dataset.ply = cell.ply;
        span.addEventListener("click", () => action("navigate", { ply: cell.ply }));
      }
      box.appendChild(span);
    }
  }
  const result = state.pgn.match(/\[Result "([^"]*)"\]/);
  if (result && result[1] !== "*") {
    const r = document.createElement("span");
    r.className = "result";
    r.textContent = result[1];
    box.appendChild(r);
  }
  const current = box.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  const tags = state.pgn.match(/\[(Red|Blue|Termination|Round) "[^"]*"\]/g) || [];
  $("game-tags").textContent = state.pgn.includes('[Event "doushou match"]') ? tags.join(" ") : "";
}

function renderRules() {
  $("variant-name").textContent = state.variant;
  const box = $("rules");
  if (box.contains(document.activeElement)) return; // do not disturb an edit
  box.replaceChildren();
  for (const rule of state.rules) {
    const label = document.createElement("label");
    label.textContent = rule.name;
    label.htmlFor = `rule-${rule.name}`;
    let input;
    if (rule.kind === "check") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = rule.value === "true";
      input.addEventListener("change", () => setRule(rule.name, input.checked ? "true" : "false"));
    } else if (rule.kind === "combo") {
      input = document.createElement("select");
      const choices = rule.choices.includes(rule.value) ? rule.choices : [...rule.choices, rule.value];
      for (const c of choices) {
        const o = document.createElement("option");
        o.value = c; o.textContent = c;
        input.appendChild(o);
      }
      input.value = rule.value;
      input.addEventListener("change", () => setRule(rule.name, input.value));
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.min = rule.min; input.max = rule.max;
      input.value = rule.value;
      input.addEventListener("change", () => setRule(rule.name, input.value));
    }
    input.id = `rule-${rule.name}`;
    input.dataset.rule = rule.name;
    box.append(label, input);
  }
}

function setRule(name, value) {
  action("options", { rules: { [name]: value } });
}

function renderLimits() {
  const kind = $("limit-kind");
  const value = $("limit-value");
  if (document.activeElement === value || document.activeElement === kind) return;
  for (const k of ["movetime", "depth", "nodes"]) {
    if (state.limits[k] != null) { kind.value = k; value.value = state.limits[k]; return; }
  }
}

function sendLimits() {
  const n = parseInt($("limit-value").value, 10);
  if (!(n > 0)) { showError("the engine limit must be a positive number"); return; }
  action("options", { limits: { [$("limit-kind").value]: n } });
}

function renderAnalysis() {
  const view = analysis ? analysis.analysis : state.analysis;
  const thinking = analysis ? analysis.thinking : state.thinking;
  const toggle = $("analysis-toggle");
  toggle.textContent = view.on ? "Stop" : "Start";
  toggle.classList.toggle("running", view.on);
  const list = $("analysis-lines");
  list.replaceChildren();
  for (const line of view.lines) {
    const li = document.createElement("li");
    li.className = "line";
    li.dataset.multipv = line.multipv;
    const score = document.createElement("span");
    const value = line.score.mate != null ? line.score.mate : line.score.cp;
    score.className = "score " + (value > 0 ? "pos" : value < 0 ? "neg" : "");
    score.textContent = line.score.text + (line.bound ? (line.bound === "lower" ? "↑" : "↓") : "");
    const depth = document.createElement("span");
    depth.className = "depth";
    depth.textContent = `d${line.depth}`;
    const pv = document.createElement("span");
    pv.className = "pv";
    pv.textContent = line.pv.join(" ");
    pv.title = line.pv.join(" ");
    li.append(score, depth, pv);
    list.appendChild(li);
  }
  $("analysis-idle").hidden = view.on;
  const box = $("thinking");
  if (thinking) {
    box.hidden = false;
    const l = thinking.line;
    box.textContent = `${thinking.engine} (${thinking.side}) thinking` +
      (l ? ` · depth ${l.depth} · ${l.score.text} · ${l.pv.slice(0, 6).join(" ")}` : "…");
  } else {
    box.hidden = true;
  }
  const line = (view.on && view.lines[0]) || (thinking && thinking.line);
  renderEvalBar(line ? line.score : null);
  drawArrow();
}

function renderEvalBar(score) {
  let share = 0.5;
  let text = "";
  if (score) {
    if (score.mate != null) share = score.mate > 0 ? 1 : 0;
    else share = 1 / (1 + Math.exp(-score.cp / 350));
    text = score.text;
  }
  if (state && state.outcome) {
    share = state.outcome.winner === "red" ? 1 : state.outcome.winner === "blue" ? 0 : 0.5;
    text = state.outcome.result;
  }
  const bar = $("evalbar");
  bar.classList.toggle("flipped", flipped);
  // The top part is the side drawn at the top of the board.
  $("evalbar-blue").style.height = `${(flipped ? share : 1 - share) * 100}%`;
  $("evalbar-text").textContent = text;
}

function render() {
  if (!state) return;
  if (selected && !state.legal[selected]) selected = null;
  drawBoard();
  renderStatus();
  renderMoves();
  renderRules();
  renderLimits();
  renderAnalysis();
  playerOptions($("player-red"), state.players.red);
  playerOptions($("player-blue"), state.players.blue);
  const fenInput = $("fen-input");
  if (document.activeElement !== fenInput) fenInput.value = state.fen;
  $("nav-start").disabled = $("nav-back").disabled = state.ply === 0;
  $("nav-forward").disabled = $("nav-end").disabled = state.ply >= state.moves.length;
  if (state.error) showError(state.error, true);
}

// Takes a state from an answer or the event stream; older ones are dropped.
function show(next) {
  if (state && next.id === state.id && next.version < state.version) return;
  if (!state || next.generation !== state.generation) analysis = null;
  state = next;
  if (!state.error && $("error").dataset.fromServer === "1") showError("");
  render();
}

// ---------------------------------------------------------------- session

function listen() {
  if (events) events.close();
  events = new EventSource(`/api/game/${gameId}/events`);
  events.addEventListener("state", (e) => show(JSON.parse(e.data)));
  events.addEventListener("analysis", (e) => {
    const update = JSON.parse(e.data);
    if (state && update.generation === state.generation) {
      analysis = update;
      renderAnalysis();
    }
  });
  events.onerror = () => {
    // The browser reconnects by itself; a server restart loses the game.
    api("GET", `/api/game/${gameId}`).catch((err) => {
      if (err.status === 404) startSession();
    });
  };
}

async function startSession() {
  const next = await api("POST", "/api/game", {});
  gameId = next.id;
  sessionStorage.setItem("doushou-game", gameId);
  analysis = null;
  state = null;
  show(next);
  listen();
}

async function init() {
  wire();
  const saved = sessionStorage.getItem("doushou-game");
  if (saved) {
    try {
      gameId = saved;
      show(await api("GET", `/api/game/${saved}`));
      listen();
      return;
    } catch (_) { /* gone: start anew */ }
  }
  try {
    await startSession();
  } catch (e) {
    showError(`cannot start a game: ${e.message}`);
  }
}

function copy(text, button) {
  const done = () => {
    const old = button.textContent;
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = old; }, 1200);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
  } else {
    fallbackCopy(text, done);
  }
}

function fallbackCopy(text, done) {
  const area = document.createElement("textarea");
  area.value = text;
  document.body.appendChild(area);
  area.select();
  try { document.execCommand("copy"); done(); } catch (_) { showError("copying failed: select the text by hand"); }
  area.remove();
}

function wire() {
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", () => { drag = null; if (state) drawBoard(); });
  $("error-close").addEventListener("click", () => showError(""));
  $("flip").addEventListener("click", () => { flipped = !flipped; render(); });
  $("nav-start").addEventListener("click", () => action("navigate", { ply: 0 }));
  $("nav-back").addEventListener("click", () => action("navigate", { ply: Math.max(0, state.ply - 1) }));
  $("nav-forward").addEventListener("click", () => action("navigate", { ply: Math.min(state.moves.length, state.ply + 1) }));
  $("nav-end").addEventListener("click", () => action("navigate", { ply: state.moves.length }));
  $("new-game").addEventListener("click", () => action("new"));
  for (const side of ["red", "blue"]) {
    $(`player-${side}`).addEventListener("change", (e) => action("options", { players: { [side]: e.target.value } }));
  }
  $("limit-kind").addEventListener("change", sendLimits);
  $("limit-value").addEventListener("change", sendLimits);
  $("analysis-toggle").addEventListener("click", () => {
    const on = !(analysis ? analysis.analysis.on : state.analysis.on);
    action("analysis", { on, multipv: parseInt($("multipv").value, 10) || 1 });
  });
  $("multipv").addEventListener("change", () => {
    const view = analysis ? analysis.analysis : state.analysis;
    if (view.on) action("analysis", { on: true, multipv: parseInt($("multipv").value, 10) || 1 });
  });
  $("fen-set").addEventListener("click", () => action("position", { fen: $("fen-input").value }));
  $("fen-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("fen-set").click(); });
  $("copy-fen").addEventListener("click", (e) => copy(state.fen, e.target));
  $("copy-pgn").addEventListener("click", (e) => copy(state.pgn, e.target));
  $("pgn-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("pgn-input").value = await file.text();
  });
  $("pgn-load").addEventListener("click", () => action("pgn", {
    pgn: $("pgn-input").value,
    index: Math.max(0, (parseInt($("pgn-index").value, 10) || 1) - 1),
  }));
  document.addEventListener("keydown", (e) => {
    if (!state || e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft" && state.ply > 0) action("navigate", { ply: state.ply - 1 });
    else if (e.key === "ArrowRight" && state.ply < state.moves.length) action("navigate", { ply: state.ply + 1 });
    else if (e.key === "f") $("flip").click();
  });
}

init();
