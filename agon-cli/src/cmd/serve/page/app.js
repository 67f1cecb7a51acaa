// agon serve: the page. Plain JavaScript, no build step. The board is drawn as SVG from
// /api/geometry (the numbers `agon render` draws with); every rule question (legal
// actions, captures, results, positions, validation) is asked of the API, never answered
// here.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const S = {
  mode: "replay",
  geometry: null,
  meta: null,
  flipped: false,
  // What the board shows: a game (its spec, plies and the state after each ply) and
  // the ply shown.
  view: { spec: { rules: "standard", start: null, moves: [] }, plies: [], states: [], index: 0, verdict: null },
  replay: { games: [], current: null },
  play: {
    active: false, players: { white: "human", black: "random" }, seed: 1,
    spec: null, plies: [], states: [], busy: false, paused: false, resigned: false,
    selected: null, token: 0,
  },
  editor: { pieces: new Map(), toMove: "white", rules: "standard", tool: "white-queen", notation: null },
  analysis: { controller: null, on: false, token: 0 },
};

// ---------------------------------------------------------------- API

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch("/api/" + path, options);
  } catch (e) {
    throw new Error("the server cannot be reached (is `agon serve` still running?)");
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || ("the server answered " + response.status));
    error.status = response.status;
    throw error;
  }
  return data;
}

// ---------------------------------------------------------------- messages

function say(text, kind) {
  const box = $("message");
  if (!text) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.textContent = text;
  box.className = "message" + (kind ? " " + kind : "");
}
const sayError = (e) => say(e.message || String(e), "error");

// ---------------------------------------------------------------- board drawing

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function cellShape(name) {
  return S.geometry.byName.get(name);
}

// A point of the board, turned when the board is flipped.
function pt(x, y) {
  const g = S.geometry;
  return S.flipped ? [g.width - x, g.height - y] : [x, y];
}

function points(corners) {
  return corners.map(([x, y]) => pt(x, y).join(",")).join(" ");
}

// Draws the board: `pieces` is a list of {cell, side, kind, captured}; `last` a ply view;
// `marks` has `selected` (a cell), `targets` (cells), `captures` (cells a target captures).
function drawBoard(pieces, last, marks) {
  const g = S.geometry;
  const p = g.proportions;
  const s = g.size;
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  const byCell = new Map(pieces.map((piece) => [piece.cell, piece]));
  const cells = el("g", {}, svg);
  for (const c of g.cells) {
    el("polygon", {
      points: points(c.corners), fill: c.fill, stroke: g.palette.grid,
      "stroke-width": Math.max(1, s * p.grid_width), class: "cell", "data-cell": c.name,
    }, cells);
  }
  const lift = p.piece_lift * s;
  const overlay = el("g", { class: "mark" }, svg);
  marks = marks || {};
  if (marks.selected) {
    const c = cellShape(marks.selected);
    el("polygon", { points: points(hexAt(c, 0.92)), fill: "rgba(31,111,208,0.28)", stroke: g.palette.arrow, "stroke-width": s * 0.08 }, overlay);
  }
  for (const name of marks.targets || []) {
    const c = cellShape(name);
    const [x, y] = pt(c.x, c.y);
    if (byCell.has(name)) {
      el("polygon", { points: points(hexAt(c, 0.8)), fill: "none", stroke: "#2e8b57", "stroke-width": s * 0.1 }, overlay);
    } else {
      el("circle", { cx: x, cy: y, r: s * 0.2, fill: "rgba(46,139,87,0.75)" }, overlay);
    }
  }
  for (const name of marks.captures || []) {
    const c = cellShape(name);
    el("polygon", { points: points(hexAt(c, 0.7)), fill: "none", stroke: g.palette.capture, "stroke-width": s * 0.06, "stroke-dasharray": `${s * 0.15} ${s * 0.1}` }, overlay);
  }
  // Names, then pieces.
  const names = el("g", {}, svg);
  for (const c of g.cells) {
    const has = byCell.has(c.name);
    const [x, y] = pt(c.x, c.y + (has ? p.name_drop * s : 0));
    const size = (has ? p.name_under_piece : p.name) * s;
    const text = el("text", {
      x, y, "font-size": size, fill: g.palette.name, "text-anchor": "middle",
      "dominant-baseline": "central", "font-family": "DejaVu Sans, Verdana, sans-serif",
    }, names);
    text.textContent = c.name;
  }
  const layer = el("g", {}, svg);
  for (const piece of pieces) drawPiece(layer, piece, lift);
  if (last) drawLast(svg, last, lift);
  svg.setAttribute("aria-label", boardLabel(pieces));
}

function hexAt(c, scale) {
  const g = S.geometry;
  return c.corners.map(([x, y]) => [c.x + (x - c.x) * scale, c.y + (y - c.y) * scale]);
}

function drawPiece(layer, piece, lift) {
  const g = S.geometry;
  const p = g.proportions;
  const s = g.size;
  const c = cellShape(piece.cell);
  const [x, y] = pt(c.x, c.y + lift);
  const radius = (piece.kind === "queen" ? p.queen_radius : p.guard_radius) * s;
  const white = piece.side === "white";
  const fill = white ? g.palette.white : g.palette.black;
  const ink = white ? g.palette.black : g.palette.white;
  const alpha = piece.captured ? p.captured_opacity : 1;
  const group = el("g", {
    class: "piece", opacity: alpha, "data-piece": `${piece.side}-${piece.kind}${piece.captured ? "-captured" : ""}`,
    "data-cell": piece.cell,
  }, layer);
  el("circle", { cx: x, cy: y, r: radius, fill, stroke: g.palette.black, "stroke-width": Math.max(1, s * p.piece_outline) }, group);
  if (piece.kind === "queen") {
    el("circle", {
      cx: x, cy: y, r: radius * p.queen_ring, fill: "none", stroke: ink,
      "stroke-opacity": p.queen_ring_opacity, "stroke-width": Math.max(1, s * p.queen_ring_width),
    }, group);
  }
  const letter = el("text", {
    x, y, "font-size": radius * p.letter, "font-weight": "bold", fill: ink, "text-anchor": "middle",
    "dominant-baseline": "central", "font-family": "DejaVu Sans, Verdana, sans-serif",
  }, group);
  letter.textContent = piece.kind === "queen" ? "Q" : "G";
  if (piece.captured) {
    const d = radius * p.cross;
    const w = Math.max(2, s * p.cross_width);
    for (const [a, b] of [[[-d, -d], [d, d]], [[-d, d], [d, -d]]]) {
      el("line", { x1: x + a[0], y1: y + a[1], x2: x + b[0], y2: y + b[1], stroke: g.palette.capture, "stroke-width": w, "stroke-linecap": "round" }, group);
    }
  }
}

// The last action: captured cells ringed, a placement ringed, a step or relocation as an
// arrow (dashed for a relocation).
function drawLast(svg, last, lift) {
  const g = S.geometry;
  const p = g.proportions;
  const s = g.size;
  const width = Math.max(2, s * p.arrow_width);
  const layer = el("g", { class: "mark", "data-last": last.kind }, svg);
  for (const name of last.captures) {
    el("polygon", { points: points(hexAt(cellShape(name), p.mark_ring)), fill: "none", stroke: g.palette.capture, "stroke-width": width, class: "captured-mark" }, layer);
  }
  if (!last.to) return;
  if (!last.from) {
    el("polygon", { points: points(hexAt(cellShape(last.to), p.mark_ring)), fill: "none", stroke: g.palette.arrow, "stroke-width": width }, layer);
    return;
  }
  const a = cellShape(last.from);
  const b = cellShape(last.to);
  const [x0, y0] = pt(a.x, a.y + lift);
  const [x1, y1] = pt(b.x, b.y + lift);
  const dx = x1 - x0;
  const dy = y1 - y0;
  const length = Math.max(1, Math.hypot(dx, dy));
  const ux = dx / length;
  const uy = dy / length;
  const tip = [x1 - ux * p.arrow_tip_gap * s, y1 - uy * p.arrow_tip_gap * s];
  const base = [tip[0] - ux * p.arrow_head * s, tip[1] - uy * p.arrow_head * s];
  const start = [x0 + ux * p.arrow_start_gap * s, y0 + uy * p.arrow_start_gap * s];
  const half = p.arrow_head_half * s;
  const colour = last.kind === "relocation" ? "#7a3fc0" : g.palette.arrow;
  el("line", {
    x1: start[0], y1: start[1], x2: base[0], y2: base[1], stroke: colour, "stroke-width": width,
    "stroke-opacity": p.arrow_opacity, "stroke-dasharray": last.kind === "relocation" ? `${width * 1.6} ${width}` : "none",
  }, layer);
  el("polygon", {
    points: [tip, [base[0] - uy * half, base[1] + ux * half], [base[0] + uy * half, base[1] - ux * half]].map((q) => q.join(",")).join(" "),
    fill: colour, "fill-opacity": p.arrow_opacity,
  }, layer);
}

function boardLabel(pieces) {
  const word = (piece) => `${piece.side} ${piece.kind}${piece.captured ? " (captured)" : ""} on ${piece.cell}`;
  return "the board: " + (pieces.length ? pieces.map(word).join(", ") : "empty");
}

// ---------------------------------------------------------------- what is shown

function shownState() {
  return S.view.states[S.view.index] || null;
}

function shownSpec() {
  const v = S.view;
  return { rules: v.spec.rules, start: v.spec.start, moves: v.spec.moves.slice(0, v.index) };
}

function render() {
  if (!S.geometry) return;
  if (S.mode === "editor") {
    renderEditor();
  } else {
    const state = shownState();
    const marks = S.mode === "play" ? playMarks() : {};
    if (state) {
      drawBoard(state.position.pieces, state.last, marks);
      renderCaption(state);
      $("status").textContent = statusText(state);
    } else {
      drawBoard([], null, {});
      $("caption").textContent = "";
      $("status").textContent = "";
    }
  }
  const v = S.view;
  const total = Math.max(0, v.states.length - 1);
  $("ply-counter").textContent = S.mode === "editor" ? "editor" : `ply ${v.index} / ${total}`;
  const navigable = S.mode !== "editor";
  $("first").disabled = $("prev").disabled = !navigable || v.index === 0;
  $("next").disabled = $("last").disabled = !navigable || v.index >= total;
  renderMovetext();
  renderPlayControls();
}

function statusText(state) {
  let text = state.status;
  if (S.mode === "play" && S.play.active && S.view.index === S.view.states.length - 1) {
    if (S.play.resigned) text = `Game over: ${S.play.resigned}`;
    else if (S.play.busy) text = `${cap(state.decider)} (${S.play.players[state.decider]}) is thinking…`;
  }
  return text;
}

function renderCaption(state) {
  const box = $("caption");
  box.replaceChildren();
  const last = state.last;
  box.append(state.caption);
  if (last) {
    const badge = document.createElement("span");
    badge.className = "badge";
    if (last.kind === "pass") {
      badge.classList.add("pass");
      badge.textContent = "pass";
      box.append(" ", badge);
    } else if (last.kind === "relocation") {
      badge.textContent = "relocation";
      box.append(" ", badge);
    }
    if (last.captures.length) {
      const c = document.createElement("span");
      c.className = "badge capture";
      c.textContent = `captures ${last.captures.join(" ")}`;
      box.append(" ", c);
    }
  }
}

function cap(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

// A record's comment in the movetext, in braces as written.
function commentSpan(text) {
  const comment = document.createElement("span");
  comment.className = "comment";
  comment.textContent = `{${text}}`;
  return comment;
}

// The movetext of the game shown: numbered plies, each a button; comments after their
// ply; an invalid record's failing action struck out, with its verdict.
function renderMovetext() {
  const list = S.mode === "play" ? $("play-moves") : $("movetext");
  if (S.mode === "editor") return;
  list.replaceChildren();
  const v = S.view;
  const start = document.createElement("li");
  const startButton = plyButton(0, "start");
  startButton.classList.add("start");
  start.append(startButton);
  if (v.comment) start.append(commentSpan(v.comment));
  list.append(start);
  v.plies.forEach((ply, i) => {
    const item = document.createElement("li");
    if (ply.side === "white" || i === 0) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = ply.side === "white" ? `${ply.number}.` : `${ply.number}...`;
      item.append(number);
    }
    const button = plyButton(i + 1, ply.token);
    button.classList.add(ply.kind);
    if (ply.captures.length) button.classList.add("capture");
    button.title = `ply ${ply.ply}: ${cap(ply.side)} ${ply.token}`;
    item.append(button);
    if (ply.comment) item.append(commentSpan(ply.comment));
    list.append(item);
  });
  if (v.verdict && v.verdict.ply > 0) {
    const item = document.createElement("li");
    const bad = document.createElement("span");
    bad.className = "ply bad";
    bad.textContent = v.verdict.token || `ply ${v.verdict.ply}`;
    bad.title = v.verdict.text;
    item.append(bad);
    list.append(item);
  }
  const state = v.states[v.states.length - 1];
  const result = S.mode === "replay" && S.replay.current ? S.replay.current.summary.result
    : state && state.outcome ? state.outcome.result : null;
  if (result) {
    const item = document.createElement("li");
    const r = document.createElement("span");
    r.className = "result";
    r.textContent = result;
    item.append(r);
    list.append(item);
  }
  const current = list.querySelector(".ply.current");
  if (current && list.scrollHeight > list.clientHeight) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - 40;
  }
}

function plyButton(index, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "ply" + (index === S.view.index ? " current" : "");
  button.textContent = text;
  button.dataset.ply = index;
  button.addEventListener("click", () => goTo(index));
  return button;
}

function goTo(index) {
  const v = S.view;
  const total = v.states.length - 1;
  v.index = Math.max(0, Math.min(total, index));
  S.play.selected = null;
  render();
  positionChanged();
}

// ---------------------------------------------------------------- replay

async function loadGameList(selectId) {
  const games = await api("games");
  S.replay.games = games;
  const body = $("game-list").querySelector("tbody");
  body.replaceChildren();
  const tag = (g, name) => (g.tags.find(([n]) => n === name) || [null, ""])[1];
  for (const g of games) {
    const row = document.createElement("tr");
    row.dataset.id = g.id;
    if (!g.valid) { row.classList.add("invalid"); row.title = g.error; }
    const cells = [g.id + 1, tag(g, "White") || "?", tag(g, "Black") || "?", g.result, g.plies, tag(g, "Event") || g.file];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      row.append(td);
    }
    row.addEventListener("click", () => openGame(g.id));
    body.append(row);
  }
  $("no-games").hidden = games.length > 0;
  $("game-count").textContent = games.length ? `(${games.length})` : "";
  if (selectId !== undefined && selectId !== null) await openGame(selectId);
}

async function openGame(id) {
  try {
    const game = await api("games/" + id);
    S.replay.current = game;
    setView({
      spec: { rules: game.summary.rules, start: game.start, moves: game.plies.map((p) => p.action) },
      plies: game.plies, states: game.states, verdict: game.verdict,
      index: game.verdict ? game.states.length - 1 : 0,
    });
    for (const row of $("game-list").querySelectorAll("tbody tr")) {
      const current = Number(row.dataset.id) === id;
      row.classList.toggle("current", current);
      if (current) row.scrollIntoView({ block: "nearest" });
    }
    renderGameInfo(game);
    if (game.verdict) say(`This record is invalid. agon validate says:\n${game.verdict.text}`, "error");
    else say("");
    render();
    positionChanged();
  } catch (e) {
    sayError(e);
  }
}

function setView(view) {
  S.view = Object.assign({ verdict: null }, view);
}

function renderGameInfo(game) {
  const s = game.summary;
  const title = $("game-title");
  title.textContent = `Game ${s.id + 1}: ${s.file.split(/[\\/]/).pop()}, game ${s.game}`;
  title.title = s.file;
  const tags = $("tags");
  tags.replaceChildren();
  const rows = [...s.tags, ["Rules", s.rules], ["Result", s.result]];
  if (game.start) rows.push(["Start", game.start]);
  for (const [name, value] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = value;
    tags.append(dt, dd);
  }
  const verdict = $("verdict");
  verdict.hidden = !game.verdict;
  verdict.textContent = game.verdict ? game.verdict.text : "";
}

async function openText(name, text) {
  try {
    const games = await api("open", { name, text });
    const invalid = games.filter((g) => !g.valid).length;
    say(`${name}: ${games.length} game${games.length === 1 ? "" : "s"} opened${invalid ? `, ${invalid} invalid` : ""}.`, invalid ? "error" : "ok");
    await loadGameList(games[0].id);
  } catch (e) {
    sayError(e);
  }
}

async function validateText(name, text) {
  const out = $("validate-output");
  try {
    const result = await api("validate", { name, text });
    out.hidden = false;
    out.textContent = [...result.lines, result.summary].join("\n");
  } catch (e) {
    out.hidden = true;
    sayError(e);
  }
}

// ---------------------------------------------------------------- play

function rulesChoice() {
  const preset = $("preset").value;
  if (preset === "name") return $("rules-text").value.trim() || "standard";
  if (preset !== "switches") return preset;
  const parts = [];
  for (const select of $("switches").querySelectorAll("select")) {
    if (select.selectedIndex > 0) parts.push(`${select.name}=${select.value}`);
  }
  return parts.length ? parts.join(",") : "standard";
}

// `start`, if given, is {notation, rules}: the game starts there, under those rules.
async function newGame(start) {
  const p = S.play;
  p.token += 1;
  p.players = { white: $("white").value.trim() || "human", black: $("black").value.trim() || "human" };
  p.seed = Number($("seed").value) || 0;
  p.resigned = false;
  p.paused = false;
  p.selected = null;
  const spec = start ? { rules: start.rules, start: start.notation, moves: [] } : { rules: rulesChoice(), start: null, moves: [] };
  try {
    const state = await api("state", { game: spec });
    spec.rules = state.rules;
    p.spec = spec;
    p.active = true;
    p.plies = [];
    p.states = [state];
    $("rules-name").textContent = `Rules: ${state.rules}`;
    $("players").textContent = `White: ${p.players.white} · Black: ${p.players.black} · seed ${p.seed}`;
    say("");
    showPlay();
    await turn();
  } catch (e) {
    sayError(e);
  }
}

function showPlay() {
  const p = S.play;
  setView({ spec: p.spec, plies: p.plies, states: p.states, index: p.states.length - 1 });
  render();
  positionChanged();
}

function playState() {
  return S.play.states[S.play.states.length - 1];
}

function isHumanTurn() {
  const p = S.play;
  const state = playState();
  return p.active && !p.resigned && !state.outcome && p.players[state.decider].toLowerCase() === "human";
}

// Lets the agents move while it is their turn.
async function turn() {
  const p = S.play;
  const token = p.token;
  while (p.active && !p.resigned && !p.paused && S.mode === "play") {
    const state = playState();
    if (state.outcome) {
      say(`Game over: ${state.outcome.text}`, "ok");
      break;
    }
    const player = p.players[state.decider];
    if (player.toLowerCase() === "human") break;
    if (p.plies.length >= 1000) {
      say("1000 plies played: the agents are paused (Undo, Save or start a new game).");
      p.paused = true;
      break;
    }
    p.busy = true;
    render();
    try {
      const answer = await api("agent", { game: p.spec, agent: player, seed: p.seed * 1000 + p.plies.length });
      if (token !== p.token) return;
      p.busy = false;
      applyPlayed(answer);
    } catch (e) {
      p.busy = false;
      if (token !== p.token) return;
      p.paused = true;
      sayError(e);
      break;
    }
  }
  p.busy = false;
  render();
}

function applyPlayed(answer) {
  const p = S.play;
  p.spec.moves.push(answer.ply.action);
  p.plies.push(answer.ply);
  p.states.push(answer.state);
  p.selected = null;
  showPlay();
}

async function playAction(token) {
  const p = S.play;
  if (!p.active) { say("Start a game first (New game).", "error"); return; }
  if (S.view.index !== p.states.length - 1) { goTo(p.states.length - 1); }
  if (p.busy) { say("Wait for the agent's action.", "error"); return; }
  if (p.resigned) { say("The game is over: " + p.resigned, "error"); return; }
  const state = playState();
  if (!state.outcome && !isHumanTurn()) { say(`It is ${cap(state.decider)}'s turn, played by ${p.players[state.decider]}.`, "error"); return; }
  try {
    const answer = await api("play", { game: p.spec, action: token });
    say("");
    applyPlayed(answer);
    await turn();
  } catch (e) {
    p.selected = null;
    render();
    sayError(e);
  }
}

// Marks for the play board: the selected piece, its legal destinations and what each
// would capture.
function playMarks() {
  const p = S.play;
  const state = shownState();
  // A relocation has one piece to move: select it for the person.
  if (!p.selected && state && state.legal && isHumanTurn() && !p.busy && state.position.phase === "relocation") {
    const origins = new Set(state.legal.map((a) => a.from));
    if (origins.size === 1) p.selected = [...origins][0];
  }
  if (!p.active || !p.selected || !state || !state.legal || S.view.index !== p.states.length - 1) return {};
  const actions = state.legal.filter((a) => a.from === p.selected);
  return {
    selected: p.selected,
    targets: actions.map((a) => a.to),
    captures: [...new Set(actions.flatMap((a) => a.captures))],
  };
}

function clickPlay(cell) {
  const p = S.play;
  if (!p.active) { say("Start a game first (New game).", "error"); return; }
  if (S.view.index !== p.states.length - 1) { goTo(p.states.length - 1); return; }
  if (p.busy || !isHumanTurn()) return;
  const state = playState();
  const legal = state.legal || [];
  // Placements: a click on a cell places the piece in hand there.
  if (state.position.phase === "placement") {
    const placements = legal.filter((a) => a.kind === "placement" && a.to === cell);
    playAction(placements.length ? placements[0].action : `${state.position.in_hand[state.position.to_move].queen ? "Q" : "G"}@${cell}`);
    return;
  }
  const piece = state.position.pieces.find((x) => x.cell === cell);
  if (p.selected) {
    if (cell === p.selected) { p.selected = null; render(); return; }
    const action = legal.find((a) => a.from === p.selected && a.to === cell);
    if (action) { playAction(action.action); return; }
    const own = piece && legal.some((a) => a.from === cell);
    if (own) { p.selected = cell; render(); return; }
    // Not a legal destination: ask the engine, which says why.
    const from = state.position.pieces.find((x) => x.cell === p.selected);
    const relocation = state.position.phase === "relocation" || (from && from.captured);
    playAction(`${p.selected}${relocation ? "@" : "-"}${cell}`);
    return;
  }
  if (piece && (legal.some((a) => a.from === cell) || piece.side === state.position.to_move)) {
    p.selected = cell;
    render();
    if (!legal.some((a) => a.from === cell)) say(`The piece on ${cell} has no legal action now.`);
    return;
  }
  if (piece) { say(`The piece on ${cell} is ${cap(piece.side)}'s; ${cap(state.decider)} is to decide.`, "error"); return; }
  say(`${cell} is empty: click one of ${cap(state.decider)}'s pieces first.`);
}

function renderPlayControls() {
  const p = S.play;
  const atEnd = p.active && S.view.index === p.states.length - 1;
  const human = atEnd && isHumanTurn() && !p.busy;
  const state = p.active ? playState() : null;
  $("pass").disabled = !(human && state.legal.some((a) => a.kind === "pass"));
  $("undo").disabled = !p.active || p.busy || p.plies.length === 0;
  $("resign").disabled = !human;
  $("pause").disabled = !p.active || !!(state && state.outcome) || !!p.resigned;
  $("pause").textContent = p.paused ? "Resume agents" : "Pause agents";
  $("save").disabled = $("download").disabled = !p.active;
  $("action-input").disabled = !human;
}

function undo() {
  const p = S.play;
  if (!p.active || p.busy || !p.plies.length) return;
  const takeBack = () => {
    p.plies.pop();
    p.states.pop();
    p.spec.moves.pop();
  };
  takeBack();
  // Then any agent plies, so that a person is to decide (as `agon play` does).
  const someHuman = Object.values(p.players).some((x) => x.toLowerCase() === "human");
  while (someHuman && p.plies.length && !isHumanTurn()) takeBack();
  if (!someHuman) p.paused = true;
  p.resigned = false;
  p.selected = null;
  say("");
  showPlay();
}

function recordRequest() {
  const p = S.play;
  const date = new Date().toISOString().slice(0, 10).replaceAll("-", ".");
  return {
    game: p.spec,
    tags: [["Event", "agon serve"], ["Date", date], ["White", p.players.white], ["Black", p.players.black], ["Seed", String(p.seed)]],
    resigned: !!p.resigned,
  };
}

async function save(overwrite) {
  const name = $("save-name").value.trim() || "game.agn";
  try {
    const answer = await api("save", Object.assign(recordRequest(), { name, overwrite: !!overwrite }));
    say(`Saved ${answer.path}`, "ok");
  } catch (e) {
    if (e.status === 409 && window.confirm(`${e.message}\n\nOverwrite it?`)) return save(true);
    sayError(e);
  }
}

async function download() {
  try {
    const answer = await api("record", recordRequest());
    const blob = new Blob([answer.text], { type: "text/plain" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = $("save-name").value.trim() || "game.agn";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (e) {
    sayError(e);
  }
}

// ---------------------------------------------------------------- editor

function editorPieces() {
  return [...S.editor.pieces.entries()].map(([cell, piece]) => Object.assign({ cell }, piece));
}

function renderEditor() {
  drawBoard(editorPieces(), null, {});
  $("caption").textContent = "Editor: click cells to place or remove pieces";
  $("status").textContent = S.editor.notation ? `${cap(S.editor.toMove)} to move` : "not a position that can arise in a game yet";
}

async function checkEditor() {
  const e = S.editor;
  e.toMove = $("to-move").value;
  e.rules = $("editor-rules").value.trim() || "standard";
  try {
    const answer = await api("setup", { rules: e.rules, to_move: e.toMove, pieces: editorPieces() });
    e.notation = answer.notation;
    if (answer.notation) $("notation").value = answer.notation;
    const list = $("problems");
    list.replaceChildren();
    for (const problem of answer.problems) {
      const item = document.createElement("li");
      item.textContent = problem;
      list.append(item);
    }
    $("play-here").disabled = !answer.valid;
    say("");
  } catch (err) {
    e.notation = null;
    $("play-here").disabled = true;
    sayError(err);
  }
  render();
  positionChanged();
}

function clickEditor(cell) {
  const e = S.editor;
  const tool = document.querySelector('input[name="tool"]:checked').value;
  const piece = e.pieces.get(cell);
  if (tool === "remove") {
    e.pieces.delete(cell);
  } else if (tool === "captured") {
    if (!piece) { say(`${cell} is empty: only a piece can be marked captured.`); return; }
    piece.captured = !piece.captured;
  } else {
    const [side, kind] = tool.split("-");
    if (piece && piece.side === side && piece.kind === kind) e.pieces.delete(cell);
    else e.pieces.set(cell, { side, kind, captured: false });
  }
  checkEditor();
}

function setEditorPosition(position) {
  const e = S.editor;
  e.pieces = new Map(position.pieces.map((p) => [p.cell, { side: p.side, kind: p.kind, captured: p.captured }]));
  e.toMove = position.to_move;
  $("to-move").value = position.to_move;
  $("editor-rules").value = position.rules;
}

async function importPosition() {
  try {
    const position = await api("position", { rules: $("editor-rules").value.trim() || "standard", notation: $("notation").value });
    setEditorPosition(position);
    await checkEditor();
    say("Position imported.", "ok");
  } catch (e) {
    sayError(e);
  }
}

// ---------------------------------------------------------------- analysis

// The game of the position on the board, for the analysis (null when there is none).
function analysedSpec() {
  if (S.mode === "editor") {
    return S.editor.notation ? { rules: S.editor.rules, start: S.editor.notation, moves: [] } : null;
  }
  return shownState() ? shownSpec() : null;
}

let evaluationTimer = null;
function positionChanged() {
  clearTimeout(evaluationTimer);
  evaluationTimer = setTimeout(showEvaluation, 60);
  if (S.analysis.on) startAnalysis();
}

async function showEvaluation() {
  const spec = analysedSpec();
  const body = $("terms").querySelector("tbody");
  const table = $("terms");
  for (const foot of table.querySelectorAll("tfoot")) foot.remove();
  body.replaceChildren();
  if (!spec) return;
  try {
    const answer = await api("evaluate", { game: spec });
    body.replaceChildren();
    for (const foot of table.querySelectorAll("tfoot")) foot.remove();
    const e = answer.evaluation;
    if (!e) {
      const row = body.insertRow();
      const td = row.insertCell();
      td.colSpan = 4;
      td.textContent = "the side to move has no legal action";
      return;
    }
    for (const term of e.terms) addTermRow(body, term.name, term.white, term.black);
    const foot = table.createTFoot();
    addTermRow(foot, "total", e.white, e.black);
  } catch (err) {
    if (err.status !== 422) sayError(err);
  }
}

function addTermRow(section, name, white, black) {
  const row = section.insertRow();
  const diff = white - black;
  for (const text of [name, white, black, (diff > 0 ? "+" : "") + diff]) {
    row.insertCell().textContent = text;
  }
}

function stopAnalysis() {
  S.analysis.token += 1;
  if (S.analysis.controller) S.analysis.controller.abort();
  S.analysis.controller = null;
}

function toggleAnalysis() {
  S.analysis.on = !S.analysis.on;
  $("analyse").textContent = S.analysis.on ? "Stop" : "Analyse";
  if (S.analysis.on) startAnalysis();
  else stopAnalysis();
}

async function startAnalysis() {
  stopAnalysis();
  const spec = analysedSpec();
  const line = $("analysis-line");
  if (!spec) { line.textContent = "No position to analyse."; return; }
  const state = S.mode === "editor" ? null : shownState();
  if (state && state.outcome) { line.textContent = `The game is over: ${state.outcome.text}`; return; }
  const controller = new AbortController();
  const token = S.analysis.token;
  S.analysis.controller = controller;
  const body = { game: spec };
  const depth = Number($("depth").value);
  const seconds = Number($("seconds").value);
  if (depth) body.depth = depth;
  if (seconds) body.ms = Math.round(seconds * 1000);
  line.textContent = "Thinking…";
  try {
    const response = await fetch("/api/analyse", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: controller.signal,
    });
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      throw new Error((data && data.error) || `the server answered ${response.status}`);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let last = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (!text.trim() || token !== S.analysis.token) continue;
        const message = JSON.parse(text);
        if (message.type === "iteration") { last = message; showIteration(message, false); }
        if (message.type === "tick" && last) showIteration(last, false, message.time_ms);
        if (message.type === "done") {
          showIteration(message.last || last, true, null, message);
          S.analysis.on = false;
          $("analyse").textContent = "Analyse";
        }
      }
    }
  } catch (e) {
    if (e.name !== "AbortError" && token === S.analysis.token) {
      line.textContent = e.message;
      S.analysis.on = false;
      $("analyse").textContent = "Analyse";
    }
  }
}

function scoreText(it) {
  const score = it.score;
  const side = cap(it.side);
  if ("win" in score) return `${side} wins in ${score.win}`;
  if ("loss" in score) return `${side} loses in ${score.loss}`;
  const white = it.white;
  return `White ${white > 0 ? "+" : ""}${white}`;
}

function showIteration(it, done, timeMs, final) {
  const line = $("analysis-line");
  line.classList.remove("muted");
  line.replaceChildren();
  if (!it) {
    line.textContent = final && final.best ? `Only one action: ${final.best}` : "No iteration completed.";
    return;
  }
  const score = document.createElement("span");
  score.className = "score " + (it.white > 0 ? "good" : it.white < 0 ? "bad" : "");
  score.textContent = scoreText(it);
  score.title = "from White's point of view (100 is about one guard stepping from the outer ring to ring 1)";
  const facts = document.createElement("span");
  const ms = timeMs || it.time_ms;
  facts.textContent = `depth ${it.depth} · ${(it.nodes / 1000).toFixed(0)} k nodes · ${(ms / 1000).toFixed(1)} s` +
    (done ? ` · done (${final ? final.reason : "stopped"})` : " · thinking…");
  const pv = document.createElement("span");
  pv.className = "pv";
  pv.textContent = "best line: " + it.pv.join(" ");
  line.append(score, facts, pv);
}

// ---------------------------------------------------------------- modes and events

function setMode(mode) {
  if (S.mode === mode) return;
  if (S.mode === "replay") {
    S.replay.view = S.view;
    const state = shownState();
    if (state) S.lastShown = { notation: state.position.notation, rules: state.rules };
  }
  if (S.mode === "editor" && S.editor.notation) S.lastShown = { notation: S.editor.notation, rules: S.editor.rules };
  S.mode = mode;
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
  }
  for (const name of ["replay", "play", "editor"]) $("panel-" + name).hidden = name !== mode;
  say("");
  if (mode === "replay") {
    setView(S.replay.view || { spec: { rules: "standard", start: null, moves: [] }, plies: [], states: S.startStates, index: 0 });
  } else if (mode === "play") {
    if (S.play.active) setView({ spec: S.play.spec, plies: S.play.plies, states: S.play.states, index: S.play.states.length - 1 });
    else setView({ spec: { rules: "standard", start: null, moves: [] }, plies: [], states: S.startStates, index: 0 });
  } else {
    checkEditor();
  }
  render();
  positionChanged();
  if (mode === "play") turn();
}

function boardClick(event) {
  const target = event.target.closest("[data-cell]");
  if (!target) return;
  const cell = target.getAttribute("data-cell");
  if (S.mode === "play") clickPlay(cell);
  else if (S.mode === "editor") clickEditor(cell);
}

function keyDown(event) {
  if (event.target.closest("input, textarea, select")) return;
  const v = S.view;
  const keys = {
    ArrowLeft: () => goTo(v.index - 1), ArrowRight: () => goTo(v.index + 1),
    Home: () => goTo(0), End: () => goTo(v.states.length - 1),
    f: () => { S.flipped = !S.flipped; render(); },
  };
  const action = keys[event.key];
  if (action && S.mode !== "editor") { event.preventDefault(); action(); }
}

function buildSwitches(meta) {
  const box = $("switches");
  for (const sw of meta.switches) {
    const label = document.createElement("label");
    label.textContent = sw.name;
    label.htmlFor = "switch-" + sw.name;
    const select = document.createElement("select");
    select.id = "switch-" + sw.name;
    select.name = sw.name;
    select.title = sw.values;
    for (const choice of sw.choices) select.add(new Option(choice, choice));
    if (sw.name === "repetition") for (const n of [2, 4, 5]) select.add(new Option(String(n), String(n)));
    select.addEventListener("change", showRulesName);
    box.append(label, select);
  }
  const list = $("agent-list");
  const specs = ["human", "random", "greedy", "alphabeta:depth=3", "alphabeta:depth=5", "alphabeta:ms=1000", "mcts:playouts=2000", "mcts:ms=1000"];
  for (const spec of specs) list.append(new Option(spec));
}

async function showRulesName() {
  $("switches").hidden = $("preset").value !== "switches";
  $("rules-text").hidden = $("preset").value !== "name";
  try {
    const state = await api("state", { game: { rules: rulesChoice(), moves: [] } });
    $("rules-name").textContent = `Rules: ${state.rules}`;
  } catch (e) {
    $("rules-name").textContent = e.message;
  }
}

function wire() {
  for (const tab of document.querySelectorAll(".tabs button")) tab.addEventListener("click", () => setMode(tab.dataset.mode));
  $("first").addEventListener("click", () => goTo(0));
  $("prev").addEventListener("click", () => goTo(S.view.index - 1));
  $("next").addEventListener("click", () => goTo(S.view.index + 1));
  $("last").addEventListener("click", () => goTo(S.view.states.length - 1));
  $("flip").addEventListener("click", () => { S.flipped = !S.flipped; render(); });
  $("board").addEventListener("click", boardClick);
  document.addEventListener("keydown", keyDown);
  $("upload").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    await openText(file.name, await file.text());
    event.target.value = "";
  });
  $("open-text").addEventListener("click", () => openText("pasted", $("paste").value));
  $("validate-text").addEventListener("click", () => validateText("pasted", $("paste").value));
  $("preset").addEventListener("change", showRulesName);
  $("rules-text").addEventListener("change", showRulesName);
  $("new-game").addEventListener("click", async () => {
    let start = null;
    if ($("start-from").value === "shown") {
      if (!S.lastShown) { say("Show a position in Replay or Editor first.", "error"); return; }
      start = S.lastShown;
    }
    await newGame(start);
  });
  $("action-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("action-input").value.trim();
    if (!text) return;
    $("action-input").value = "";
    playAction(text);
  });
  $("pass").addEventListener("click", () => playAction("pass"));
  $("undo").addEventListener("click", undo);
  $("resign").addEventListener("click", () => {
    const state = playState();
    const winner = state.decider === "white" ? "Black" : "White";
    S.play.resigned = `${cap(state.decider)} resigned; ${winner} wins`;
    say(`Game over: ${S.play.resigned}.`, "ok");
    render();
  });
  $("pause").addEventListener("click", () => {
    S.play.paused = !S.play.paused;
    render();
    if (!S.play.paused) turn();
  });
  $("save").addEventListener("click", () => save(false));
  $("download").addEventListener("click", download);
  $("to-move").addEventListener("change", checkEditor);
  $("editor-rules").addEventListener("change", checkEditor);
  $("editor-start").addEventListener("click", async () => {
    $("notation").value = S.meta.start;
    await importPosition();
  });
  $("editor-clear").addEventListener("click", () => { S.editor.pieces.clear(); checkEditor(); });
  $("import").addEventListener("click", importPosition);
  $("play-here").addEventListener("click", async () => {
    if (!S.editor.notation) return;
    const notation = S.editor.notation;
    const rules = S.editor.rules;
    setMode("play");
    $("preset").value = ["standard", "ludii"].includes(rules) ? rules : "standard";
    const spec = { rules, start: notation, moves: [] };
    S.play.token += 1;
    try {
      const state = await api("state", { game: spec });
      Object.assign(S.play, {
        spec, active: true, plies: [], states: [state], resigned: false, paused: false, selected: null,
        players: { white: $("white").value.trim() || "human", black: $("black").value.trim() || "human" },
        seed: Number($("seed").value) || 0,
      });
      $("players").textContent = `White: ${S.play.players.white} · Black: ${S.play.players.black} · from the editor's position`;
      showPlay();
      await turn();
    } catch (e) {
      sayError(e);
    }
  });
  $("analyse").addEventListener("click", toggleAnalysis);
}

async function main() {
  wire();
  try {
    const [meta, geometry] = await Promise.all([api("meta"), api("geometry")]);
    S.meta = meta;
    geometry.byName = new Map(geometry.cells.map((c) => [c.name, c]));
    S.geometry = geometry;
    $("version").textContent = meta.version;
    buildSwitches(meta);
    const start = await api("state", { game: { moves: [] } });
    S.startStates = [start];
    setView({ spec: { rules: "standard", start: null, moves: [] }, plies: [], states: S.startStates, index: 0 });
    setEditorPosition(start.position);
    $("notation").value = start.position.notation;
    render();
    await loadGameList(meta.games > 0 ? 0 : null);
    if (!meta.games) positionChanged();
    showRulesName();
    document.body.dataset.ready = "true";
  } catch (e) {
    sayError(e);
  }
}

main();
