// app.js: the page's state and behaviour: the game being shown (the server is stateless, so the
// page holds the start FEN and the move list and sends them with every request), the modes
// (free, play against the engine, infinite analysis), navigation, undo/redo, position set-up,
// PDN import/export, the game review and its graph, the clocks and the status line.

import * as api from './api.js';
import { BoardView, pieceSvg } from './board.js';

const $ = (id) => document.getElementById(id);
const GRAPH_LIMIT = 3;         // the review graph clamps scores to +-3 men
const ANALYSIS_DEBOUNCE_MS = 120;
const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

const state = {
  squares: [],
  game: { fen: null, moves: [], variant: 'brazilian' },
  plies: [],
  legal: [],
  outcome: null,
  cursor: 0,
  redo: [],
  legalAt: new Map(),   // ply index before the end -> legal moves there (fetched when needed)
  mode: 'free',
  notation: 'algebraic',
  flipped: false,
  review: null,         // the /api/review answer, plus the key of the game it belongs to
  tags: [],
  result: '*',
  setup: null,          // {pieces: Map(square -> {color, king}), side} while editing
  imported: [],         // the games of the last PDN import, for the chooser
  pending: 0,           // /api/game requests on their way
  clocks: null,         // {white, black, increment, running, since} in ms, play mode only
  flagged: null,        // the side whose clock ran out
  lines: [],            // analysis lines by multipv index
};

let board = null;
let engine = null;       // the one search or review running: {controller, kind, key}
let loadSequence = 0;
let analysisTimer = null;
let renderedFen = null;

// ------------------------------------------------------------------ status and errors

function setStatus(text, kind = 'info') {
  const status = $('status');
  status.textContent = text;
  status.className = `status ${kind}`;
}

function showError(err) {
  if (err && err.name === 'AbortError') return;
  setStatus(err instanceof api.ApiError ? err.message : `Error: ${err?.message ?? err}`, 'error');
}

// Every event handler runs through this, so a failed request shows in the status line instead of
// becoming an uncaught exception.
function guard(fn) {
  return (...args) => {
    try {
      const result = fn(...args);
      if (result && typeof result.catch === 'function') result.catch(showError);
    } catch (err) {
      showError(err);
    }
  };
}

// ------------------------------------------------------------------ the game

// The variant is part of a game's identity: the same moves under other rules are another game.
const gameKey = (fen, moves) => `${state.game.variant}|${fen ?? ''}|${moves.join(' ')}`;
const endIndex = () => state.plies.length - 1;
const shownPly = () => state.plies[state.cursor];
const sideToMoveAtEnd = () => state.plies[endIndex()]?.side;
const humanSide = () => $('play-side').value;
const engineSide = () => (humanSide() === 'white' ? 'black' : 'white');
const moveText = (move) => move[state.notation] ?? move.hub;

// Asks the server to replay a game and takes the answer as the new state. cursor: 'end',
// 'start' or a ply index. The game keeps the current variant unless it names one. Resolves to
// false (after showing the error) when the server refuses.
async function loadGame(game, cursor = 'end') {
  const variant = game.variant ?? state.game.variant;
  const sequence = ++loadSequence;
  state.pending++;
  render();
  let answer;
  try {
    answer = await api.postGame({ fen: game.fen ?? null, moves: game.moves, variant });
  } catch (err) {
    state.pending--;
    if (sequence === loadSequence) showError(err);
    render();
    return false;
  }
  state.pending--;
  if (sequence !== loadSequence) { render(); return false; }
  const previousMoves = state.game.moves.length;
  const sameStart = (state.game.fen ?? null) === (game.fen ?? null);
  const sameVariant = state.game.variant === variant;
  state.game = { fen: game.fen ?? null, moves: [...game.moves], variant };
  $('variant').value = variant;
  state.plies = answer.plies;
  state.legal = answer.legal;
  state.outcome = answer.outcome;
  state.legalAt = new Map();
  if (state.review && state.review.key !== gameKey(state.game.fen, state.game.moves)) clearReview();
  const end = endIndex();
  state.cursor = cursor === 'end' ? end : cursor === 'start' ? 0 : Math.max(0, Math.min(end, cursor));
  syncClock(sameVariant && sameStart && state.game.moves.length === previousMoves + 1);
  if (state.outcome) setStatus(`Game over: ${state.outcome.result} (${state.outcome.reason})`);
  else setStatus(turnText());
  render();
  afterPositionChange();
  return true;
}

function turnText() {
  const side = shownPly()?.side;
  if (!side) return '';
  return `${side === 'white' ? 'White' : 'Black'} to move`;
}

// The legal moves of the shown position: the server gives those of the last position, others are
// asked for when the user steps back (so a move can branch off there).
function shownLegal() {
  if (state.cursor === endIndex()) return state.legal;
  const cached = state.legalAt.get(state.cursor);
  if (cached) return cached;
  const index = state.cursor;
  const key = gameKey(state.game.fen, state.game.moves);
  state.legalAt.set(index, []);
  api.postGame({ fen: state.game.fen, moves: state.game.moves.slice(0, index), variant: state.game.variant })
    .then((answer) => {
      if (key !== gameKey(state.game.fen, state.game.moves)) return;
      state.legalAt.set(index, answer.legal);
      if (state.cursor === index) render();
    })
    .catch((err) => { state.legalAt.delete(index); showError(err); });
  return [];
}

function humanMayMove() {
  if (state.pending || state.setup) return false;
  const ply = shownPly();
  if (!ply) return false;
  if (state.mode === 'play') {
    if (state.flagged || ply.side !== humanSide()) return false;
    if (state.cursor === endIndex() && state.outcome) return false;
  }
  return true;
}

async function playMove(move) {
  if (engine?.kind === 'play') stopEngine();
  state.redo = [];
  const moves = [...state.game.moves.slice(0, state.cursor), move.hub];
  await loadGame({ fen: state.game.fen, moves });
}

// In play mode one "undo" gives the move back to the human, so it takes back the engine's reply too.
async function undo() {
  if (!state.game.moves.length) return;
  stopEngine();
  const moves = [...state.game.moves];
  const taken = [moves.pop()];
  if (state.mode === 'play') {
    while (moves.length && sideAfter(moves.length) !== humanSide()) taken.unshift(moves.pop());
    state.flagged = null;
    if (state.clocks) resetClocks();
  }
  const redo = [...taken, ...state.redo];
  if (await loadGame({ fen: state.game.fen, moves })) {
    state.redo = redo;
    render();
  }
}

async function redoMove() {
  if (!state.redo.length) return;
  stopEngine();
  const redo = [...state.redo];
  const moves = [...state.game.moves, redo.shift()];
  if (state.mode === 'play') {
    while (redo.length && sideAfter(moves.length) !== humanSide()) moves.push(redo.shift());
  }
  if (await loadGame({ fen: state.game.fen, moves })) {
    state.redo = redo;
    render();
  }
}

// The side to move after `count` moves of the current game (known for plies already replayed).
function sideAfter(count) {
  const ply = state.plies[count];
  if (ply) return ply.side;
  const startSide = state.plies[0]?.side ?? 'white';
  return count % 2 === 0 ? startSide : (startSide === 'white' ? 'black' : 'white');
}

// A new game from the initial position under `variant` (default: the current one).
async function newGame(variant = state.game.variant) {
  stopEngine();
  state.redo = [];
  state.tags = [];
  state.result = '*';
  state.flagged = null;
  clearReview();
  if (state.mode === 'play') resetClocks();
  return loadGame({ fen: null, moves: [], variant });
}

function goTo(index) {
  const target = Math.max(0, Math.min(endIndex(), index));
  if (target === state.cursor) return;
  board.select(null);
  state.cursor = target;
  setStatus(state.cursor === endIndex() && state.outcome
    ? `Game over: ${state.outcome.result} (${state.outcome.reason})` : turnText());
  render();
  if (state.mode === 'analyze') scheduleAnalysis();
}

// ------------------------------------------------------------------ the engine

function setEngineState(name) {
  const element = $('engine-state');
  element.dataset.state = name;
  element.textContent = { idle: 'idle', thinking: 'thinking…', analysing: 'analysing…', reviewing: 'reviewing…' }[name];
}

function stopEngine() {
  clearTimeout(analysisTimer);
  if (engine) {
    engine.controller.abort();
    engine = null;
  }
  setEngineState('idle');
  $('review-stop').hidden = true;
}

function afterPositionChange() {
  if (state.setup) return;
  if (state.mode === 'play') maybeEngineMove();
  else if (state.mode === 'analyze') scheduleAnalysis();
}

function formatNodes(nodes) {
  if (nodes == null) return '–';
  if (nodes >= 1e9) return `${(nodes / 1e9).toFixed(1)}G`;
  if (nodes >= 1e6) return `${(nodes / 1e6).toFixed(1)}M`;
  if (nodes >= 1e3) return `${(nodes / 1e3).toFixed(1)}k`;
  return String(nodes);
}

function pvText(info) {
  const text = state.notation === 'numeric' ? info.pv_numeric : info.pv_algebraic;
  return text ?? (info.pv || []).join(' ');
}

function showInfo(info) {
  $('score').textContent = info.score?.text ?? '–';
  $('depth').textContent = info.seldepth ? `${info.depth}/${info.seldepth}` : String(info.depth ?? '–');
  $('depth').dataset.depth = String(info.depth ?? 0);
  $('nodes').textContent = formatNodes(info.nodes);
  $('pv').textContent = pvText(info);
}

function clearEngineOutput() {
  state.lines = [];
  for (const id of ['score', 'depth', 'nodes']) $(id).textContent = '–';
  $('depth').dataset.depth = '0';
  $('pv').textContent = '';
  $('lines').innerHTML = '';
}

function levelRequest() {
  const [kind, a, b] = $('level').value.split(':');
  if (kind === 'movetime') return { movetime_ms: Number(a) };
  const clocks = state.clocks;
  return {
    clock: {
      white_ms: Math.max(1, Math.round(clockLeft('white'))),
      black_ms: Math.max(1, Math.round(clockLeft('black'))),
      increment_ms: clocks ? clocks.increment : Number(b) * 1000,
    },
  };
}

function maybeEngineMove() {
  if (state.mode !== 'play' || state.outcome || state.flagged || state.pending) return;
  if (sideToMoveAtEnd() !== engineSide() || engine?.kind === 'review') return;
  const key = gameKey(state.game.fen, state.game.moves);
  if (engine && engine.kind === 'play' && engine.key === key) return;
  stopEngine();
  const controller = new AbortController();
  engine = { controller, kind: 'play', key };
  setEngineState('thinking');
  clearEngineOutput();
  const request = {
    fen: state.game.fen,
    moves: state.game.moves,
    variant: state.game.variant,
    mode: 'play',
    skill: Number($('skill').value),
    ...levelRequest(),
  };
  let best;
  api.search(request, controller.signal, {
    info: (info) => { if (engine?.controller === controller && (info.multipv ?? 1) === 1) showInfo(info); },
    done: (done) => { best = done; },
  }).then(() => {
    if (engine?.controller !== controller) return;
    engine = null;
    setEngineState('idle');
    if (key !== gameKey(state.game.fen, state.game.moves) || state.mode !== 'play') return;
    if (!best || !best.best) {
      setStatus('The engine has no move', 'error');
      return;
    }
    if (best.score) $('score').textContent = best.score.text;
    state.redo = [];
    return loadGame({ fen: state.game.fen, moves: [...state.game.moves, best.best] });
  }).catch((err) => {
    if (engine?.controller === controller) { engine = null; setEngineState('idle'); }
    showError(err);
  });
}

function analysisKey() {
  const moves = state.game.moves.slice(0, state.cursor);
  return `${gameKey(state.game.fen, moves)}#${$('multipv').value}`;
}

// Stepping through a game quickly must not start a search per step: the old search stops at
// once, the new one starts when the user pauses.
function scheduleAnalysis() {
  if (engine?.kind === 'review') return; // the review ends by restarting the analysis itself
  if (engine && !(engine.kind === 'analyze' && engine.key === analysisKey())) stopEngine();
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(guard(startAnalysis), ANALYSIS_DEBOUNCE_MS);
}

function startAnalysis() {
  if (state.mode !== 'analyze' || state.setup || !state.plies.length) return;
  const moves = state.game.moves.slice(0, state.cursor);
  const multipv = Number($('multipv').value);
  const key = analysisKey();
  if (engine && engine.kind === 'analyze' && engine.key === key) return;
  stopEngine();
  clearEngineOutput();
  board.setArrow(null);
  if (state.cursor === endIndex() && state.outcome) {
    $('pv').textContent = `Game over: ${state.outcome.result}`;
    return;
  }
  const controller = new AbortController();
  engine = { controller, kind: 'analyze', key };
  setEngineState('analysing');
  api.search({ fen: state.game.fen, moves, variant: state.game.variant, mode: 'analyze', multipv }, controller.signal, {
    info: (info) => {
      if (engine?.controller !== controller) return;
      const index = (info.multipv ?? 1) - 1;
      state.lines[index] = info;
      if (index === 0) {
        showInfo(info);
        showEval(info.score);
        board.setArrow(routeOf(info.pv?.[0]));
      }
      renderLines();
    },
    done: (done) => {
      if (engine?.controller !== controller) return;
      if (done.score) showEval(done.score);
      if (done.best) board.setArrow(routeOf(done.best));
    },
  }).then(() => {
    if (engine?.controller === controller) { engine = null; setEngineState('idle'); }
  }).catch((err) => {
    if (engine?.controller === controller) { engine = null; setEngineState('idle'); }
    showError(err);
  });
}

// The squares a Hub move visits, for the arrow: the legal move's route when known, else from-to.
function routeOf(hub) {
  if (!hub) return null;
  const numbers = hub.split(/[-x]/).map(Number);
  if (numbers.length < 2 || numbers.some(Number.isNaN)) return null;
  const [from, to, ...captured] = numbers;
  const key = [...captured].sort((a, b) => a - b).join(',');
  const legal = shownLegal().find((m) => m.hub === hub
    || (m.from === from && m.to === to && [...m.captured].sort((a, b) => a - b).join(',') === key));
  return legal?.routes?.[0] ?? [from, to];
}

function renderLines() {
  const list = $('lines');
  list.innerHTML = '';
  state.lines.forEach((info, index) => {
    if (!info) return;
    const item = document.createElement('li');
    item.dataset.multipv = String(index + 1);
    item.innerHTML = '<b class="line-score"></b> <span class="line-depth"></span> <span class="line-pv"></span>';
    item.querySelector('.line-score').textContent = info.score?.text ?? '';
    item.querySelector('.line-depth').textContent = `d${info.depth}`;
    item.querySelector('.line-pv').textContent = pvText(info);
    list.appendChild(item);
  });
}

function showEval(score) {
  if (!score) return;
  const bar = $('eval-bar');
  const white = Math.max(-10, Math.min(10, Number(score.white) || 0));
  // tanh keeps small advantages visible while a forced win still fills the bar.
  const share = 50 + 50 * Math.tanh(white / 2.5);
  $('eval-fill').style.height = `${share.toFixed(1)}%`;
  // The bar is narrow: it shows one decimal, the full text (e.g. "White wins in 7") is its tooltip.
  $('eval-text').textContent = Math.abs(white) >= 10 ? (white > 0 ? '1-0' : '0-1') : `${white > 0 ? '+' : ''}${white.toFixed(1)}`;
  bar.title = `${score.text} (White's point of view)`;
  bar.dataset.white = String(white);
  bar.classList.toggle('black-ahead', white < 0);
  bar.hidden = false;
}

// ------------------------------------------------------------------ clocks

function levelClock() {
  const [kind, minutes, increment] = $('level').value.split(':');
  return kind === 'clock' ? { base: Number(minutes) * 60000, increment: Number(increment) * 1000 } : null;
}

function resetClocks() {
  const level = levelClock();
  state.flagged = null;
  state.clocks = level && state.mode === 'play'
    ? { white: level.base, black: level.base, increment: level.increment, running: null, since: 0 }
    : null;
  syncClock(false);
}

function clockLeft(side) {
  const clocks = state.clocks;
  if (!clocks) return 0;
  const running = clocks.running === side ? performance.now() - clocks.since : 0;
  return clocks[side] - running;
}

// Charges the side whose clock ran and starts the clock of the side to move at the end of the
// game; a move just made earns its side the increment.
function syncClock(moveAdded) {
  const clocks = state.clocks;
  if (!clocks) { renderClocks(); return; }
  const now = performance.now();
  if (clocks.running) {
    clocks[clocks.running] -= now - clocks.since;
    if (moveAdded) clocks[clocks.running] += clocks.increment;
  }
  const over = state.outcome || state.flagged || state.mode !== 'play';
  clocks.running = over ? null : sideToMoveAtEnd() ?? null;
  clocks.since = now;
  renderClocks();
}

function formatClock(ms) {
  const total = Math.max(0, ms);
  const minutes = Math.floor(total / 60000);
  const seconds = Math.floor((total % 60000) / 1000);
  const tenths = Math.floor((total % 1000) / 100);
  return total < 10000 ? `${minutes}:${String(seconds).padStart(2, '0')}.${tenths}` : `${minutes}:${String(seconds).padStart(2, '0')}`;
}

function renderClocks() {
  const top = $('clock-top');
  const bottom = $('clock-bottom');
  if (!state.clocks) { top.innerHTML = ''; bottom.innerHTML = ''; return; }
  const [upper, lower] = state.flipped ? ['white', 'black'] : ['black', 'white'];
  for (const [slot, side] of [[top, upper], [bottom, lower]]) {
    let clock = slot.querySelector('.clock');
    if (!clock || clock.id !== `clock-${side}`) {
      slot.innerHTML = `<div class="clock" id="clock-${side}"><span class="clock-side"></span><span class="clock-time"></span></div>`;
      clock = slot.querySelector('.clock');
    }
    const who = side === humanSide() ? 'You' : 'Onça';
    clock.querySelector('.clock-side').textContent = `${side === 'white' ? 'White' : 'Black'} · ${who}`;
    clock.querySelector('.clock-time').textContent = formatClock(clockLeft(side));
    clock.classList.toggle('running', state.clocks.running === side);
    clock.classList.toggle('low', clockLeft(side) < 10000);
  }
}

function tickClocks() {
  const clocks = state.clocks;
  if (!clocks || !clocks.running) return;
  const side = clocks.running;
  if (clockLeft(side) <= 0) {
    clocks[side] = 0;
    state.flagged = side;
    clocks.running = null;
    stopEngine();
    setStatus(`${side === 'white' ? 'White' : 'Black'} lost on time`);
    render();
  }
  renderClocks();
}

// ------------------------------------------------------------------ modes

function setMode(mode) {
  if (mode === state.mode) return;
  if (state.setup) exitSetup();
  stopEngine();
  clearEngineOutput();
  board.setArrow(null);
  $('eval-bar').hidden = true;
  state.mode = mode;
  for (const button of document.querySelectorAll('.mode')) {
    button.classList.toggle('active', button.dataset.mode === mode);
  }
  $('play-options').classList.toggle('shown', mode === 'play');
  $('analyze-options').classList.toggle('shown', mode === 'analyze');
  if (mode === 'play') {
    state.cursor = endIndex();
    setFlipped(humanSide() === 'black');
  }
  resetClocks();
  render();
  afterPositionChange();
}

function setFlipped(flipped) {
  state.flipped = flipped;
  board.setFlipped(flipped);
  $('eval-bar').classList.toggle('flipped', flipped);
  renderClocks();
}

// ------------------------------------------------------------------ position set-up

function enterSetup() {
  stopEngine();
  const pieces = new Map((shownPly()?.pieces ?? []).map((p) => [p.square, { color: p.color, king: p.king }]));
  state.setup = { pieces, side: shownPly()?.side ?? 'white' };
  $('setup-panel').hidden = false;
  $('position-panel').open = true;
  board.setEditHandler((square) => editSquare(square));
  renderSetupSide();
  render();
  setStatus('Set up: click squares to place the selected piece, then Done');
}

function exitSetup() {
  state.setup = null;
  $('setup-panel').hidden = true;
  board.setEditHandler(null);
}

function selectedTool() {
  return document.querySelector('#palette .tool.active')?.dataset.tool ?? 'white-man';
}

function editSquare(square) {
  const setup = state.setup;
  const tool = selectedTool();
  if (tool === 'eraser') {
    setup.pieces.delete(square);
  } else {
    const [color, kind] = tool.split('-');
    const current = setup.pieces.get(square);
    // A second click with the same piece removes it again, which saves a trip to the eraser.
    if (current && current.color === color && current.king === (kind === 'king')) setup.pieces.delete(square);
    else setup.pieces.set(square, { color, king: kind === 'king' });
  }
  render();
}

function renderSetupSide() {
  const button = $('setup-side');
  button.dataset.side = state.setup.side;
  button.textContent = `${state.setup.side === 'white' ? 'White' : 'Black'} to move`;
}

function setupFen() {
  const { pieces, side } = state.setup;
  const list = (color) => [...pieces.entries()]
    .filter(([, p]) => p.color === color)
    .sort(([a], [b]) => a - b)
    .map(([square, p]) => `${p.king ? 'K' : ''}${square}`)
    .join(',');
  return `${side === 'white' ? 'W' : 'B'}:W${list('white')}:B${list('black')}`;
}

async function finishSetup() {
  const fen = setupFen();
  const saved = state.setup;
  state.setup = null; // lets loadGame start analysis/engine once the position is accepted
  const ok = await loadPosition(fen);
  if (ok) {
    exitSetup();
    render();
  } else {
    state.setup = saved;
    render();
  }
}

async function loadPosition(fen) {
  const previousMode = state.mode;
  if (previousMode === 'play') stopEngine();
  const previousTags = state.tags;
  state.tags = [];
  state.result = '*';
  const ok = await loadGame({ fen, moves: [] });
  if (ok) {
    state.redo = [];
    clearReview();
    setStatus(`Position loaded: ${turnText()}`);
  } else {
    state.tags = previousTags;
  }
  return ok;
}

// ------------------------------------------------------------------ PDN

async function importText() {
  const text = $('pdn-text').value;
  if (!text.trim()) {
    setStatus('Paste a PDN game or open a file first', 'error');
    return;
  }
  const answer = await api.importPdn(text);
  const games = answer.games ?? [];
  if (!games.length) {
    setStatus('No game found in the PDN text', 'error');
    return;
  }
  state.imported = games;
  const select = $('pdn-games');
  select.innerHTML = '';
  games.forEach((game, index) => {
    const tag = (name) => game.tags.find(([key]) => key === name)?.[1];
    const option = document.createElement('option');
    option.value = String(index);
    const players = tag('White') || tag('Black') ? `${tag('White') ?? '?'} – ${tag('Black') ?? '?'}` : `Game ${index + 1}`;
    option.textContent = `${index + 1}. ${players} ${game.result} (${game.moves.length} plies)`;
    select.appendChild(option);
  });
  $('pdn-games-label').hidden = games.length < 2;
  await loadImported(0);
  if (games.length > 1) setStatus(`${games.length} games in the file: choose one in the list`);
}

async function loadImported(index) {
  const game = state.imported?.[index];
  if (!game) return;
  if (state.mode === 'play') setMode('free');
  stopEngine();
  const ok = await loadGame({ fen: game.fen, moves: game.moves, variant: game.variant }, 'start');
  if (!ok) return;
  state.tags = game.tags;
  state.result = game.result ?? '*';
  state.redo = [];
  clearReview();
  setStatus(`Game imported: ${game.moves.length} plies, ${state.result}`);
  render();
}

function readFile(event) {
  const file = event.target.files?.[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    $('pdn-text').value = String(reader.result);
    guard(importText)();
  };
  reader.onerror = () => setStatus(`Cannot read ${file.name}`, 'error');
  reader.readAsText(file);
}

function exportTags() {
  if (state.tags.length) {
    return state.tags.filter(([key]) => !['Result', 'FEN', 'GameType', 'SetUp'].includes(key));
  }
  const today = new Date();
  const date = `${today.getFullYear()}.${String(today.getMonth() + 1).padStart(2, '0')}.${String(today.getDate()).padStart(2, '0')}`;
  const playing = state.mode === 'play';
  return [
    ['Event', playing ? 'Game against Onça' : 'Onça board'],
    ['Date', date],
    ['White', playing ? (humanSide() === 'white' ? 'Human' : 'Onça') : '?'],
    ['Black', playing ? (humanSide() === 'black' ? 'Human' : 'Onça') : '?'],
  ];
}

function currentResult() {
  if (state.outcome) return state.outcome.result;
  if (state.flagged) return state.flagged === 'white' ? '0-1' : '1-0';
  return state.result || '*';
}

async function exportText() {
  const answer = await api.exportPdn({
    fen: state.game.fen,
    moves: state.game.moves,
    variant: state.game.variant,
    tags: exportTags(),
    result: currentResult(),
    notation: state.notation,
  });
  $('pdn-text').value = answer.text;
  $('pdn-panel').open = true;
  const link = $('pdn-download');
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([answer.text], { type: 'application/x-pdn;charset=utf-8' }));
  link.hidden = false;
  setStatus('PDN exported: copy the text or use the download link');
}

// ------------------------------------------------------------------ game review

function clearReview() {
  state.review = null;
  $('graph-panel').hidden = true;
  $('graph').innerHTML = '';
  $('review-summary').textContent = '';
}

async function startReview() {
  if (!state.game.moves.length) {
    setStatus('There is no move to review', 'error');
    return;
  }
  if (state.setup) exitSetup();
  stopEngine();
  const controller = new AbortController();
  const key = gameKey(state.game.fen, state.game.moves);
  engine = { controller, kind: 'review', key };
  setEngineState('reviewing');
  const progress = $('review-progress');
  progress.hidden = false;
  progress.value = 0;
  progress.max = state.game.moves.length;
  $('review-stop').hidden = false;
  setStatus('Reviewing the game…');
  let review = null;
  try {
    await api.review({ fen: state.game.fen, moves: state.game.moves, variant: state.game.variant, depth: Number($('review-depth').value) },
      controller.signal, {
        progress: (p) => {
          if (engine?.controller !== controller) return;
          progress.max = Math.max(1, p.total);
          progress.value = p.done;
          setStatus(`Reviewing the game… ${p.done}/${p.total}`);
        },
        review: (data) => { review = data; },
      });
  } catch (err) {
    if (engine?.controller === controller) { engine = null; setEngineState('idle'); }
    progress.hidden = true;
    $('review-stop').hidden = true;
    if (err.name !== 'AbortError') throw err;
    setStatus('Review stopped');
    afterPositionChange();
    return;
  }
  if (engine?.controller !== controller) return;
  engine = null;
  setEngineState('idle');
  progress.hidden = true;
  $('review-stop').hidden = true;
  if (!review) {
    setStatus('The review ended without a result', 'error');
    return;
  }
  if (key !== gameKey(state.game.fen, state.game.moves)) return;
  state.review = { ...review, key };
  const summary = review.summary ?? {};
  const text = (side) => {
    const s = summary[side];
    return s ? `${side === 'white' ? 'White' : 'Black'}: ${s.inaccuracies} ?!, ${s.mistakes} ?, ${s.blunders} ??, average loss ${Number(s.average_loss).toFixed(2)}` : '';
  };
  $('review-summary').textContent = [text('white'), text('black')].filter(Boolean).join(' · ');
  setStatus('Review done: click the graph to jump to a position');
  render();
  afterPositionChange();
}

function reviewFor(ply) {
  return state.review?.plies?.find((p) => p.ply === ply);
}

// x = ply (0 = the start), y = White's score clamped to +-GRAPH_LIMIT men.
function renderGraph() {
  const panel = $('graph-panel');
  const container = $('graph');
  const review = state.review;
  if (!review) { panel.hidden = true; return; }
  panel.hidden = false;
  const width = 640;
  const height = 120;
  const pad = 10;
  const count = state.plies.length; // the start plus one per ply
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, count - 1);
  const y = (v) => {
    const clamped = Math.max(-GRAPH_LIMIT, Math.min(GRAPH_LIMIT, Number(v) || 0));
    return height / 2 - (clamped / GRAPH_LIMIT) * (height / 2 - pad);
  };
  const values = [review.start_white];
  for (let i = 1; i < count; i++) values.push(reviewFor(i)?.white ?? values[i - 1]);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  // White's share is the light area under the line, as on the eval bar.
  const area = `${x(0)},${height} ${points.join(' ')} ${x(count - 1)},${height}`;
  let marks = '';
  values.forEach((v, i) => {
    const cls = i === 0 ? 'start' : reviewFor(i)?.class ?? 'good';
    const r = cls === 'blunder' ? 5 : cls === 'mistake' ? 4.5 : cls === 'inaccuracy' ? 4 : 3;
    marks += `<circle class="point ${cls}" data-ply="${i}" data-class="${cls}" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="${r}"><title>${graphTitle(i, v)}</title></circle>`;
  });
  container.innerHTML = `<svg id="graph-svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="Evaluation graph">`
    + `<rect class="graph-bg" x="0" y="0" width="${width}" height="${height}"/>`
    + `<polygon class="graph-area" points="${area}"/>`
    + `<line class="graph-axis" x1="${pad}" y1="${height / 2}" x2="${width - pad}" y2="${height / 2}"/>`
    + `<line class="graph-cursor" x1="${x(state.cursor)}" y1="0" x2="${x(state.cursor)}" y2="${height}"/>`
    + `<polyline class="graph-line" points="${points.join(' ')}"/>`
    + marks
    + '</svg>';
}

function graphTitle(index, value) {
  if (index === 0) return `start: ${Number(value).toFixed(2)}`;
  const entry = reviewFor(index);
  const ply = state.plies[index];
  const move = ply?.move ? moveText(ply.move) : '';
  const best = entry && entry.best !== entry.move ? `, best ${entry[`best_${state.notation}`] ?? entry.best}` : '';
  return `${ply?.label ?? ''} ${move}: ${Number(value).toFixed(2)} (${entry?.class ?? ''}${best})`;
}

// A click anywhere on the graph picks the nearest ply, so small points are easy to hit.
function graphClick(event) {
  const svg = event.target.closest?.('svg');
  if (!svg || !state.review) return;
  const point = event.target.closest('[data-ply]');
  if (point) { goTo(Number(point.dataset.ply)); return; }
  const box = svg.getBoundingClientRect();
  const fraction = (event.clientX - box.left) / box.width;
  const pad = 10 / 640;
  const index = Math.round(((fraction - pad) / (1 - 2 * pad)) * (state.plies.length - 1));
  goTo(index);
}

// ------------------------------------------------------------------ rendering

function render() {
  if (!board || !state.plies.length) return;
  const ply = shownPly();
  if (state.setup) {
    board.setPieces([...state.setup.pieces.entries()].map(([square, p]) => ({ square, ...p })));
    board.setLastMove(null);
    board.setLegal([], false);
  } else {
    board.setPieces(ply.pieces);
    board.setLastMove(ply.move);
    board.setLegal(humanMayMove() ? shownLegal() : [], humanMayMove());
  }
  board.setNotation(state.notation);
  // The box follows the shown position, but text being typed there survives other redraws.
  const fen = state.setup ? setupFen() : ply.fen;
  if (fen !== renderedFen) {
    $('fen').value = fen;
    renderedFen = fen;
  }
  renderMoveList();
  renderGraph();
  renderResult();
  renderClocks();
  $('undo').disabled = !state.game.moves.length || !!state.setup;
  $('redo').disabled = !state.redo.length || !!state.setup;
  $('nav-first').disabled = $('nav-prev').disabled = state.cursor === 0;
  $('nav-next').disabled = $('nav-last').disabled = state.cursor === endIndex();
  document.body.dataset.ply = String(state.cursor);
  document.body.dataset.plies = String(endIndex());
}

function renderResult() {
  const element = $('result');
  let text = '';
  if (state.flagged) {
    const loser = state.flagged === 'white' ? 'White' : 'Black';
    text = `${state.flagged === 'white' ? '0-1' : '1-0'} · ${loser} lost on time`;
  } else if (state.outcome) {
    text = `${state.outcome.result} · ${state.outcome.reason}`;
  }
  element.textContent = text;
  element.hidden = !text;
}

function renderMoveList() {
  const list = $('move-list');
  const rows = [];
  let row = null;
  for (let i = 1; i < state.plies.length; i++) {
    const ply = state.plies[i];
    const label = ply.label ?? '';
    const black = label.endsWith('...');
    if (!black || !row) {
      row = { number: label.replace(/\.+$/, ''), cells: [] };
      rows.push(row);
      if (black) row.cells.push(null); // the game starts with Black: White's cell stays empty
    }
    row.cells.push(i);
    if (black) row = null;
  }
  const cell = (i) => {
    if (i === null) return '<span class="move empty">…</span>';
    const ply = state.plies[i];
    const entry = reviewFor(i);
    const glyph = entry && GLYPHS[entry.class] ? `<span class="glyph ${entry.class}">${GLYPHS[entry.class]}</span>` : '';
    const current = i === state.cursor ? ' current' : '';
    const cls = entry ? ` ${entry.class}` : '';
    return `<span class="move${current}${cls}" data-ply="${i}" title="${escapeHtml(entry ? graphTitle(i, entry.white) : '')}">${escapeHtml(moveText(ply.move))}${glyph}</span>`;
  };
  list.innerHTML = rows.length
    ? rows.map((r) => `<div class="move-row"><span class="move-number">${escapeHtml(r.number)}.</span>${r.cells.map(cell).join('')}</div>`).join('')
    : '<div class="move-empty">No moves yet</div>';
  const result = currentResult();
  if (rows.length && result !== '*') list.insertAdjacentHTML('beforeend', `<div class="move-result">${result}</div>`);
  list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

// ------------------------------------------------------------------ wiring

function wire() {
  const on = (id, type, fn) => $(id).addEventListener(type, guard(fn));
  on('flip', 'click', () => setFlipped(!state.flipped));
  on('notation', 'change', () => {
    state.notation = $('notation').value;
    render();
    renderLines();
    if (state.lines[0]) showInfo(state.lines[0]);
  });
  for (const button of document.querySelectorAll('.mode')) {
    button.addEventListener('click', guard(() => setMode(button.dataset.mode)));
  }
  on('play-side', 'change', () => {
    if (state.mode !== 'play') return;
    stopEngine();
    setFlipped(humanSide() === 'black');
    resetClocks();
    render();
    afterPositionChange();
  });
  on('level', 'change', () => {
    if (state.mode !== 'play') return;
    resetClocks();
    render();
  });
  on('skill', 'input', () => { $('skill-value').textContent = $('skill').value; });
  on('multipv', 'change', () => { if (state.mode === 'analyze') scheduleAnalysis(); });
  on('new-game', 'click', () => newGame());
  // Other rules make the moves played so far meaningless: a variant change starts a new game.
  on('variant', 'change', async () => {
    const wanted = $('variant').value;
    if (wanted === state.game.variant) return;
    if (!(await newGame(wanted))) $('variant').value = state.game.variant;
  });
  on('undo', 'click', undo);
  on('redo', 'click', redoMove);
  on('nav-first', 'click', () => goTo(0));
  on('nav-prev', 'click', () => goTo(state.cursor - 1));
  on('nav-next', 'click', () => goTo(state.cursor + 1));
  on('nav-last', 'click', () => goTo(endIndex()));
  on('move-list', 'click', (event) => {
    const move = event.target.closest('[data-ply]');
    if (move) goTo(Number(move.dataset.ply));
  });
  on('fen-load', 'click', () => loadPosition($('fen').value.trim()));
  on('fen', 'keydown', (event) => {
    if (event.key === 'Enter') { event.preventDefault(); return loadPosition($('fen').value.trim()); }
    return undefined;
  });
  on('setup', 'click', () => (state.setup ? undefined : enterSetup()));
  on('setup-done', 'click', finishSetup);
  on('setup-cancel', 'click', () => {
    exitSetup();
    setStatus(turnText());
    render();
    afterPositionChange();
  });
  on('setup-clear', 'click', () => { state.setup.pieces.clear(); render(); });
  on('setup-start', 'click', async () => {
    const answer = await api.postGame({ fen: null, moves: [] });
    if (!state.setup) return;
    state.setup.pieces = new Map(answer.plies[0].pieces.map((p) => [p.square, { color: p.color, king: p.king }]));
    state.setup.side = answer.plies[0].side;
    renderSetupSide();
    render();
  });
  on('setup-side', 'click', () => {
    state.setup.side = state.setup.side === 'white' ? 'black' : 'white';
    renderSetupSide();
    render();
  });
  for (const tool of document.querySelectorAll('#palette .tool')) {
    if (tool.dataset.tool !== 'eraser') {
      const [color, kind] = tool.dataset.tool.split('-');
      tool.innerHTML = pieceSvg(color, kind === 'king').replace('data-piece=', 'data-tool-piece=');
    }
    tool.addEventListener('click', () => {
      for (const other of document.querySelectorAll('#palette .tool')) other.classList.toggle('active', other === tool);
    });
  }
  on('pdn-import', 'click', importText);
  on('pdn-export', 'click', exportText);
  on('pdn-file', 'change', readFile);
  on('pdn-games', 'change', () => loadImported(Number($('pdn-games').value)));
  on('review', 'click', startReview);
  on('review-stop', 'click', () => stopEngine());
  on('graph', 'click', graphClick);

  document.addEventListener('keydown', guard((event) => {
    const tag = event.target?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || event.altKey || event.ctrlKey || event.metaKey) return;
    const actions = {
      ArrowLeft: () => goTo(state.cursor - 1),
      ArrowRight: () => goTo(state.cursor + 1),
      ArrowUp: () => goTo(0),
      ArrowDown: () => goTo(endIndex()),
      Home: () => goTo(0),
      End: () => goTo(endIndex()),
    };
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  }));
  setInterval(tickClocks, 100);
}

async function start() {
  wire();
  let info;
  try {
    info = await api.getBoard();
  } catch (err) {
    showError(err);
    return;
  }
  state.squares = info.squares;
  state.game.variant = info.variant ?? 'brazilian';
  board = new BoardView($('board'), info.squares, $('move-chooser'));
  board.onMove = guard(playMove);
  if (await loadGame({ fen: null, moves: [] })) setStatus('Ready: White to move');
  document.body.dataset.ready = 'true';
}

start().catch(showError);
