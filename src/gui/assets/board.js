// The board of `doushou gui`'s page: drawing it, and moving on it by click
// or drag. A classic script loaded before app.js, whose globals (the state,
// the constants) its functions read when called.
"use strict";

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
  el("circle", { cx: 0, cy: 2, r: PIECE_R, fill: "rgba(0,0,0,.18)" }, g);
  el("circle", { cx: 0, cy: 0, r: PIECE_R, fill: colour, stroke: "#fff", "stroke-width": 2.5 }, g);
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
  const [ux, uy] = [(b.x - a.x) / len, (b.y - a.y) / len];
  const head = 12;
  // From the edge of the moving piece, so that its letter stays readable.
  el("line", {
    class: "arrow", "data-move": m, x1: a.x + ux * PIECE_R, y1: a.y + uy * PIECE_R,
    x2: b.x - ux * head, y2: b.y - uy * head,
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
