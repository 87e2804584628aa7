// The page of `doushou gui`. Everything about the game (legal moves, FEN,
// game end) comes from the server's state; this script (with board.js, the
// board) only draws it and sends what the user does. API: docs/gui.md.
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
let shownFen = null;       // the FEN last put in the FEN box by a state
let playersKey = null;     // who played each side at the last state: a change may flip
let outcomeDismissed = null; // the game end whose banner was closed
let stateAt = 0;           // when the state arrived (the running clock counts from it)

// Each kind of engine limit with its own default and range.
const LIMITS = {
  movetime: { value: 1000, min: 1, max: 3600000 },
  depth: { value: 8, min: 1, max: 64 },
  nodes: { value: 100000, min: 1, max: 10000000000 },
};
const VARIANT_TITLES = { jungle: "Dou Shou Qi · Jungle", xoudouqi: "Xou Dou Qi", custom: "Dou Shou Qi · custom rules" };

const $ = (id) => document.getElementById(id);

// The radius of a piece's disc on the board.
const PIECE_R = 27;

// The record tags shown under the moves, named for people.
const TAG_NAMES = {
  Red: "Red", Blue: "Blue", RedLevel: "Red level", BlueLevel: "Blue level",
  Round: "Round", Termination: "Ended by",
};

// ---------------------------------------------------------------- the API

// Every change is sent as JSON: the server refuses any other (docs/gui.md).
async function api(method, path, body) {
  const change = method !== "GET";
  const response = await fetch(path, {
    method,
    headers: change ? { "Content-Type": "application/json" } : {},
    body: change ? JSON.stringify(body === undefined ? {} : body) : undefined,
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

// Changes under way, on the page's body as data-pending, so that a test can
// wait for their answers (and the error they may show) instead of for time.
let pending = 0;
function busy(step) {
  pending += step;
  document.body.dataset.pending = String(pending);
}

async function action(name, body) {
  busy(1);
  try {
    show(await api("POST", `/api/game/${gameId}/${name}`, body || {}));
    showError(""); // an error stays up only until the next thing that works
    return true;
  } catch (e) {
    showError(e.message);
    if (e.status === 404 && /no game/.test(e.message)) await startSession();
    else if (state) render();
    return false;
  } finally {
    busy(-1);
  }
}

// `fromServer`: the state's own error, cleared by the next state without one.
// How long an error stays on a phone, where it covers what scrolls under it.
const PHONE_ERROR_MS = 6000;
let errorTimer = null;

function showError(message, fromServer = false) {
  $("error-text").textContent = message;
  $("error-text").title = message;
  $("error").hidden = !message;
  $("error").dataset.fromServer = fromServer ? "1" : "";
  // Beside the board the error covers only the top bar; on a phone the page
  // scrolls under it, so it goes by itself.
  clearTimeout(errorTimer);
  if (message && matchMedia("(max-width: 900px)").matches) {
    errorTimer = setTimeout(() => { $("error").hidden = true; }, PHONE_ERROR_MS);
  }
}

// ---------------------------------------------------------------- panels

function playerOptions(select, value) {
  const names = ["human", ...state.engines];
  select.replaceChildren(...names.map((n) => {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = n === "human" ? "Human" : n;
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
  // Numbered as the move list numbers them: full moves, Blue's with "…".
  if (state.ply < state.moves.length) {
    text += state.ply === 0 ? " · start position" : ` · after ${moveLabel(state.ply)}`;
    text += ` (game to ${moveLabel(state.moves.length)})`;
  } else if (who !== "human") text += ` · ${who} is thinking…`;
  status.appendChild(document.createTextNode(text));
}

// "5. g3g4" or "5… a7a6": the full-move number and the move of a ply (from 1).
function moveLabel(ply) {
  const blueFirst = state.start_fen.split(" ")[1] === "b";
  const startNumber = parseInt(state.start_fen.split(" ")[3] || "1", 10) || 1;
  const index = ply - 1 + (blueFirst ? 1 : 0);
  const number = startNumber + Math.floor(index / 2);
  const m = state.moves[ply - 1];
  return index % 2 === 0 ? `${number}. ${m}` : `${number}… ${m}`;
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  const blueFirst = state.start_fen.split(" ")[1] === "b";
  const startNumber = parseInt(state.start_fen.split(" ")[3] || "1", 10) || 1;
  let cells = [];
  if (blueFirst && state.moves.length) cells.push(null);
  state.moves.forEach((m, i) => cells.push({ m, ply: i + 1, view: state.move_list[i] }));
  const judged = {};
  if (state.review) for (const p of state.review.plies) judged[p.ply] = p;
  for (let i = 0; i < cells.length; i += 2) {
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${startNumber + i / 2}.`;
    box.appendChild(num);
    for (const cell of [cells[i], cells[i + 1]]) {
      const span = document.createElement("span");
      if (cell) {
        span.className = "mv" + (cell.ply === state.ply ? " current" : "") + (cell.ply > state.ply ? " future" : "");
        // The animal and × for people; the plain notation stays in data-move.
        span.textContent = cell.view ? cell.view.display : cell.m;
        span.dataset.ply = cell.ply;
        span.dataset.move = cell.m;
        const j = judged[cell.ply];
        if (j && j.judgement) {
          span.classList.add(j.judgement);
          span.dataset.judgement = j.judgement;
          span.title = `${j.judgement} (−${(j.drop / 100).toFixed(2)}); better: ${j.best}`;
        }
        span.addEventListener("click", () => action("navigate", { ply: cell.ply }));
      }
      box.appendChild(span);
    }
  }
  if (state.result !== "*") {
    const r = document.createElement("span");
    r.className = "result";
    r.textContent = state.result;
    box.appendChild(r);
  }
  const current = box.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  // The record's tags that say who played and how it ended, as words (a
  // placeholder `-`, such as the Round of a game outside a match, is left out).
  const tagBox = $("game-tags");
  tagBox.replaceChildren();
  for (const [, name, value] of state.pgn.matchAll(/\[(Red|Blue|RedLevel|BlueLevel|Round|Termination) "([^"]*)"\]/g)) {
    if (value === "" || value === "-") continue;
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.dataset.tag = name;
    const key = document.createElement("span");
    key.className = "tag-name";
    key.textContent = TAG_NAMES[name] || name;
    tag.append(key, value);
    tagBox.appendChild(tag);
  }
  $("download-pgn").href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(state.pgn);
  renderReview();
}

function renderReview() {
  const review = state.review;
  const progress = $("review-progress");
  const box = $("eval-graph");
  $("review").textContent = review && review.running ? "Cancel review" : "Review";
  if (!review) { progress.textContent = ""; box.replaceChildren(); return; }
  progress.textContent = review.running
    ? `${review.done} / ${review.total} positions (depth ${review.depth})…`
    : review.error ? `review failed: ${review.error}` : `reviewed at depth ${review.depth}`;
  if (!review.plies.length) { box.replaceChildren(); return; }
  // The evaluation after each move (Red up), squashed as the bar is.
  const w = 400, h = 90, n = review.plies.length;
  const x = (i) => n === 1 ? w / 2 : 6 + (i * (w - 12)) / (n - 1);
  const y = (cp) => h / 2 - (h / 2 - 6) * (2 / (1 + Math.exp(-cp / 350)) - 1);
  const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, preserveAspectRatio: "none", "data-eval-graph": "" });
  el("line", { x1: 0, x2: w, y1: h / 2, y2: h / 2, stroke: "#cfc6b2", "stroke-width": 1 }, svg);
  const points = review.plies.map((p, i) => `${x(i)},${y(p.cp)}`).join(" ");
  el("polygon", { points: `${x(0)},${h / 2} ${points} ${x(n - 1)},${h / 2}`, fill: "rgba(198,40,40,.18)" }, svg);
  el("polyline", { points, fill: "none", stroke: "#5a5244", "stroke-width": 1.5 }, svg);
  const colours = { inaccuracy: "#e0a800", mistake: "#e07000", blunder: "#c62828" };
  review.plies.forEach((p, i) => {
    const dot = el("circle", {
      cx: x(i), cy: y(p.cp), r: p.ply === state.ply ? 5 : p.judgement ? 4 : 2.5,
      fill: colours[p.judgement] || (p.ply === state.ply ? "#2f6f4f" : "#7a7264"),
      "data-ply": p.ply, "data-cp": p.cp,
    }, svg);
    const title = el("title", {}, dot);
    title.textContent = `${moveLabel(p.ply)}: ${(p.cp / 100).toFixed(2)}${p.judgement ? ` (${p.judgement}; better ${p.best})` : ""}`;
    dot.addEventListener("click", () => action("navigate", { ply: p.ply }));
  });
  box.replaceChildren(svg);
}

function renderRules() {
  $("variant-name").textContent = state.variant;
  const box = $("rules");
  if (box.contains(document.activeElement)) return; // do not disturb an edit
  box.replaceChildren();
  for (const rule of state.rules) {
    const label = document.createElement("label");
    label.textContent = rule.label;
    label.title = `${rule.name}: ${rule.help}`;
    label.htmlFor = `rule-${rule.name}`;
    let input;
    if (rule.kind === "check") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = rule.value === "true";
      input.addEventListener("change", () => setRule(rule.name, input.checked ? "true" : "false"));
    } else if (rule.kind === "combo") {
      input = document.createElement("select");
      // "custom" is always there: it keeps the switches as they are.
      let choices = rule.choices.includes(rule.value) ? rule.choices : [...rule.choices, rule.value];
      if (rule.name === "UCI_Variant" && !choices.includes("custom")) choices = [...choices, "custom"];
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
    input.title = rule.help;
    const help = document.createElement("div");
    help.className = "help";
    help.textContent = rule.help;
    box.append(label, input, help);
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
    if (state.limits[k] != null) {
      kind.value = k; value.value = state.limits[k];
      value.min = LIMITS[k].min; value.max = LIMITS[k].max;
      return;
    }
  }
}

// A new kind of limit starts from its own default, never the old number.
function changeLimitKind() {
  const k = LIMITS[$("limit-kind").value];
  $("limit-value").min = k.min; $("limit-value").max = k.max;
  $("limit-value").value = k.value;
  sendLimits();
}

function sendLimits() {
  const kind = $("limit-kind").value;
  const n = parseInt($("limit-value").value, 10);
  const { min, max } = LIMITS[kind];
  if (!(n >= min && n <= max)) { showError(`the engine's ${kind} must be ${min} to ${max}`); return; }
  action("options", { limits: { [kind]: n } });
}

function levelChoices(select, level, eloChoices) {
  if (!select.options.length) {
    const add = (value, text) => {
      const o = document.createElement("option");
      o.value = value; o.textContent = text; select.appendChild(o);
    };
    add("full", "full strength");
    for (let s = 0; s < 20; s++) add(`skill:${s}`, `Skill Level ${s}`);
    for (const e of eloChoices) add(`elo:${e}`, `Elo ${e}`);
  }
  select.value = level.skill != null ? `skill:${level.skill}` : level.elo != null ? `elo:${level.elo}` : "full";
}

function sendLevel(side, value) {
  const [kind, n] = value.split(":");
  const level = kind === "skill" ? { skill: +n } : kind === "elo" ? { elo: +n } : {};
  action("options", { levels: { [side]: level } });
}

function renderClocks() {
  const running = state.clocks.running;
  const any = state.clocks.red || state.clocks.blue;
  const kind = $("clock-kind");
  if (![kind, $("clock-min"), $("clock-inc"), $("clock-set")].includes(document.activeElement)) {
    kind.value = any ? "clock" : "none";
    if (any) {
      $("clock-min").value = +(any.control.base_ms / 60000).toFixed(2);
      $("clock-inc").value = any.control.increment_ms / 1000;
    }
  }
  $("clockbar").hidden = !any;
  showClockBoxes();
  // The clock of the side drawn at the top comes first.
  $("clockbar").style.flexDirection = flipped ? "row-reverse" : "row";
  for (const side of ["red", "blue"]) {
    const clock = state.clocks[side];
    const node = document.querySelector(`[data-clock="${side}"]`);
    node.classList.toggle("off", !clock);
    if (!clock) { node.textContent = ""; continue; }
    let ms = clock.remaining_ms;
    if (running === side) ms -= performance.now() - stateAt;
    ms = Math.max(0, ms);
    const total = Math.ceil(ms / 100) / 10;
    const minutes = Math.floor(total / 60);
    const seconds = total - minutes * 60;
    node.textContent = `${minutes}:${seconds < 10 ? "0" : ""}${ms < 10000 ? seconds.toFixed(1) : Math.floor(seconds)}`;
    node.dataset.ms = Math.round(ms);
    node.classList.toggle("running", running === side);
    node.classList.toggle("low", ms < 10000);
  }
}

// The minutes and increment boxes, only while a clock is chosen.
function showClockBoxes() {
  const none = $("clock-kind").value === "none";
  for (const id of ["clock-min", "clock-plus", "clock-inc"]) $(id).hidden = none;
}

function sendClocks() {
  if ($("clock-kind").value === "none") {
    action("options", { clocks: { red: null, blue: null } });
    return;
  }
  const base_ms = Math.round(parseFloat($("clock-min").value) * 60000);
  const increment_ms = Math.round(parseFloat($("clock-inc").value || "0") * 1000);
  if (!(base_ms >= 1000) || !(increment_ms >= 0)) { showError("a clock needs a time of at least a second"); return; }
  const control = { base_ms, increment_ms };
  action("options", { clocks: { red: control, blue: control } });
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
    pv.title = `${line.pv.join(" ")} (click to play it on the board)`;
    li.append(score, depth, pv);
    li.addEventListener("click", () => action("line", { moves: line.pv }));
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

// A table verdict in words, for `side` (the side it is for).
function verdictWords(side, v) {
  const plies = (n) => `${n} ${n === 1 ? "ply" : "plies"}`;
  if (v.result === "draw") return "draw";
  if (v.plies === 0) return `${side} has ${v.result === "win" ? "won" : "lost"}`;
  return `${side} ${v.result === "win" ? "wins" : "loses"} in ${plies(v.plies)}`;
}

function renderTablebase() {
  const tb = state.tablebase;
  $("tablebase").hidden = !tb;
  if (!tb) return;
  const side = state.side_to_move === "red" ? "Red" : "Blue";
  const badge = $("tablebase-verdict");
  badge.textContent = verdictWords(side, tb.verdict);
  badge.dataset.verdict = tb.verdict.text;
  badge.className = `badge tb-${tb.verdict.result}`;
  // The page may move here (state.legal): then a ranked move is played by a click.
  const playable = Object.keys(state.legal).length > 0;
  const list = $("tablebase-moves");
  list.replaceChildren();
  for (const m of tb.moves) {
    const li = document.createElement("li");
    li.className = `line tb-${m.verdict.result}` + (playable ? "" : " idle");
    li.dataset.move = m.move;
    li.dataset.verdict = m.verdict.text;
    const verdict = document.createElement("span");
    verdict.className = "score";
    verdict.textContent = m.verdict.text;
    const move = document.createElement("span");
    move.className = "pv";
    move.textContent = m.display;
    li.append(verdict, move);
    if (playable) {
      li.title = `${verdictWords(side, m.verdict)} (click to play it)`;
      li.addEventListener("click", () => action("move", { move: m.move }));
    }
    list.appendChild(li);
  }
  const limit = tb.plies_before_limit;
  const beyond = limit != null && tb.verdict.plies != null && tb.verdict.plies > limit;
  const note = $("tablebase-note");
  note.hidden = !beyond;
  note.textContent = beyond
    ? `The no-capture limit ends the game in ${limit} plies, before this ${tb.verdict.result} comes to pass.`
    : "";
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

function renderOutcome() {
  // Beside the board, never over it; once closed it stays closed for this end.
  const bar = $("outcome");
  const o = state.outcome;
  const key = o ? `${o.result}:${o.text}:${state.moves.length}` : null;
  bar.hidden = !o || outcomeDismissed === key;
  if (o) {
    $("outcome-text").textContent = `${o.result} · ${o.text}`;
    bar.dataset.key = key;
  }
}

function render() {
  if (!state) return;
  if (selected && !state.legal[selected]) selected = null;
  // Playing Blue against an engine: Blue at the bottom, once per change of players.
  const key = `${state.players.red}/${state.players.blue}`;
  if (key !== playersKey) {
    if (state.players.blue === "human" && state.players.red !== "human") flipped = true;
    else if (state.players.red === "human" && state.players.blue !== "human") flipped = false;
    playersKey = key;
  }
  const variant = state.variant;
  $("variant-title").textContent = VARIANT_TITLES[variant] || variant;
  document.title = `doushou · ${VARIANT_TITLES[variant] || variant}`;
  drawBoard();
  renderOutcome();
  renderClocks();
  renderStatus();
  renderMoves();
  renderRules();
  renderLimits();
  renderAnalysis();
  playerOptions($("player-red"), state.players.red);
  playerOptions($("player-blue"), state.players.blue);
  for (const side of ["red", "blue"]) {
    $(`level-${side}-box`).hidden = state.players[side] === "human";
    levelChoices($(`level-${side}`), state.levels[side], state.elo_choices);
  }
  const engineSelect = $("analysis-engine");
  if (engineSelect.options.length !== state.engines.length) {
    engineSelect.replaceChildren(...state.engines.map((n) => {
      const o = document.createElement("option");
      o.value = n; o.textContent = n; return o;
    }));
  }
  engineSelect.value = state.analysis.engine;
  engineSelect.hidden = state.engines.length < 2;
  // The FEN box follows the position, but what was typed stays until the
  // position changes (a refused FEN can be corrected).
  const fenInput = $("fen-input");
  if (state.fen !== shownFen && document.activeElement !== fenInput) {
    fenInput.value = state.fen;
    shownFen = state.fen;
  }
  $("draw-claim").hidden = !state.draw_claimable;
  const over = state.result !== "*";
  $("resign").disabled = $("draw-offer").disabled = over;
  $("takeback").disabled = !state.can_take_back;
  renderTablebase();
  $("nav-start").disabled = $("nav-back").disabled = state.ply === 0;
  $("nav-forward").disabled = $("nav-end").disabled = state.ply >= state.moves.length;
  if (state.error) showError(state.error, true);
}

// Takes a state from an answer or the event stream; older ones are dropped.
function show(next) {
  if (state && next.id === state.id && next.version < state.version) return;
  if (!state || next.generation !== state.generation) analysis = null;
  state = next;
  stateAt = performance.now();
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
  $("limit-kind").addEventListener("change", changeLimitKind);
  for (const side of ["red", "blue"]) {
    $(`level-${side}`).addEventListener("change", (e) => sendLevel(side, e.target.value));
  }
  $("clock-set").addEventListener("click", sendClocks);
  $("clock-kind").addEventListener("change", showClockBoxes);
  $("resign").addEventListener("click", () => action("resign", {}));
  $("draw-offer").addEventListener("click", () => action("draw", { action: "offer" }));
  $("draw-claim").addEventListener("click", () => action("draw", { action: "claim" }));
  $("takeback").addEventListener("click", () => action("takeback", {}));
  $("review").addEventListener("click", () => {
    if (state.review && state.review.running) action("review", { on: false });
    else action("review", { depth: parseInt($("review-depth").value, 10) || 8 });
  });
  $("analysis-engine").addEventListener("change", (e) => {
    const view = analysis ? analysis.analysis : state.analysis;
    action("analysis", { on: view.on, engine: e.target.value, multipv: parseInt($("multipv").value, 10) || 1 });
  });
  $("outcome-close").addEventListener("click", () => {
    outcomeDismissed = $("outcome").dataset.key;
    $("outcome").hidden = true;
  });
  setInterval(() => { if (state) renderClocks(); }, 200);
  // A page that goes stops listening at once (the server then stops its analysis).
  window.addEventListener("pagehide", () => { if (events) events.close(); });
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
    else if (e.key === "Home" && state.ply > 0) { e.preventDefault(); action("navigate", { ply: 0 }); }
    else if (e.key === "End" && state.ply < state.moves.length) { e.preventDefault(); action("navigate", { ply: state.moves.length }); }
    else if (e.key === "f") $("flip").click();
  });
}

init();
