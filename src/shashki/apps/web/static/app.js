// The page of `shashki serve`: the game chosen, who plays whom, the board, the moves, the
// analysis, and a set-up mode to place the pieces by hand.  The server holds each game; this
// page shows its state and sends what the player does (a move, a take-back, a move of the
// list to go to), and asks the engine for its moves when it is the engine's turn.

import { ApiError, analyse, call } from "./api.js";
import { BoardView } from "./board.js";
import { MovePicker } from "./picker.js";

const $ = (id) => document.getElementById(id);
const ANALYSIS_SECONDS = 30;
const ENGINE_PAUSE_MS = 400; // between two engine moves, so a person can follow them

const page = {
  variants: new Map(),
  levels: [],
  game: null, // the game's state, as the server last sent it
  picker: new MovePicker([]),
  mode: "white", // white / black (the person's side against the engine), human, engines
  paused: false, // engine against engine, held
  thinking: false, // an engine move has been asked for
  stopAnalysis: null,
  analysisFor: null, // the position analysed (positionKey)
  best: null, // the analysis's best move (a legal move of the shown position)
  pressedSelected: false,
  editing: null, // in the set-up mode: the position being set up, as the server last sent it
  edits: Promise.resolve(), // the set-up's edits, sent one after the other
};

// --- messages ------------------------------------------------------------------------------

let messageTimer = null;
function say(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
  clearTimeout(messageTimer);
  if (text) messageTimer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 8000 : 4000);
}

function failed(error) {
  if (error instanceof ApiError) {
    say(error.expected ? `${error.message} (expected ${error.expected})` : error.message, "error");
  } else {
    say(String(error), "error");
    console.error(error);
  }
}

// --- who moves -----------------------------------------------------------------------------

const other = (color) => (color === "white" ? "black" : "white");

function engineSide(color) {
  if (page.mode === "engines") return true;
  if (page.mode === "human") return false;
  return color !== page.mode;
}

function levelLimit() {
  return page.levels[Number($("level").value)].limit;
}

function playerName(color) {
  if (page.mode === "human") return "player";
  const engine = `shashki (${page.levels[Number($("level").value)].name})`;
  return engineSide(color) ? engine : "you";
}

// whether the person may move now: the shown position is the end of the game line (or a
// position gone back to, where a move starts a new line), the game goes on, and it is not
// the engine's turn there
function personMayMove() {
  const game = page.game;
  if (!game || game.outcome || page.thinking) return false;
  if (game.ply === game.moves.length && engineSide(game.turn) && !page.paused) return false;
  return true;
}

// --- showing a state -----------------------------------------------------------------------

function show(game) {
  if (page.editing) {
    // (an engine's move that comes in during a set-up: the game is kept, shown on leaving)
    page.game = game;
    return;
  }
  const changedGame = !page.game || page.game.id !== game.id;
  const variant = page.variants.get(game.variant);
  if (changedGame || page.board.variant !== variant) {
    page.board.setVariant(variant);
    $("variant").value = game.variant;
  }
  page.game = game;
  page.picker = new MovePicker(game.legal);
  if (page.analysisFor !== positionKey(game)) page.best = null;
  drawBoard();
  showMoves();
  showStatus();
  $("fen").value = game.fen;
  // the players' names for the PDN, where a loaded game did not name them
  const names = ["white", "black"].filter((color) => !game.headers[color[0].toUpperCase() +
    color.slice(1)]).map((color) => `${color}=${encodeURIComponent(playerName(color))}`);
  $("download").href = `/api/games/${game.id}/pdn?${names.join("&")}`;
  document.body.dataset.ply = game.ply;
  document.body.dataset.version = game.version;
  updateAnalysis();
  nextTurn();
}

function drawBoard() {
  if (page.editing) {
    drawSetup();
    return;
  }
  const game = page.game;
  const picker = page.picker;
  const { steps, ends } = picker.targets();
  page.board.draw({
    pieces: game.pieces, last: game.last, selected: picker.selected, route: picker.route,
    steps, ends, best: $("analyse").checked ? page.best : null,
  });
}

function showMoves() {
  const game = page.game;
  const list = $("moves");
  list.replaceChildren();
  let row = null;
  game.moves.forEach((move, i) => {
    if (!row || move.color === page.variants.get(game.variant).first) {
      row = document.createElement("li");
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${move.number}.`;
      row.appendChild(number);
      if (move.color !== page.variants.get(game.variant).first) {
        const gap = document.createElement("span");
        gap.className = "move gap";
        gap.textContent = "…";
        row.appendChild(gap);
      }
      list.appendChild(row);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move" + (i + 1 === game.ply ? " current" : "");
    button.textContent = move.text;
    button.dataset.ply = i + 1;
    button.addEventListener("click", () => goTo(i + 1));
    row.appendChild(button);
  });
  const result = game.outcome ? game.outcome.result : null;
  if (result && game.ply === game.moves.length) {
    const item = document.createElement("li");
    item.className = "result";
    item.textContent = result;
    list.appendChild(item);
  }
  // the current move kept in sight, by scrolling the list alone (scrollIntoView would scroll
  // the page too, moving the board away on a phone)
  const current = list.querySelector(".current");
  if (!current) list.scrollTop = 0;
  else if (current.offsetTop < list.scrollTop ||
      current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = current.offsetTop - list.clientHeight + current.offsetHeight + 8;
  }
  $("first").disabled = $("back").disabled = game.ply === 0;
  $("forward").disabled = $("last").disabled = game.ply === game.moves.length;
  $("undo").disabled = game.ply === 0;
  $("claim").hidden = !game.can_claim_draw;
}

function showStatus() {
  if (page.editing) return; // (the set-up's own status line is up)
  const game = page.game;
  const status = $("status");
  const turn = game.turn[0].toUpperCase() + game.turn.slice(1);
  let text;
  if (game.outcome) {
    text = `${game.outcome.result}: ${game.outcome.reason}`;
  } else if (page.thinking) {
    text = `${turn} to move: the engine is thinking…`;
  } else if (game.ply < game.moves.length) {
    text = `${turn} to move (move ${game.ply} of ${game.moves.length} shown; a move here ` +
      `starts a new line)`;
  } else if (page.mode === "engines") {
    text = page.paused ? `${turn} to move (paused)` : `${turn} to move`;
  } else if (page.mode === "human") {
    text = `${turn} to move`;
  } else {
    text = engineSide(game.turn) ? `${turn} to move (the engine)` : `${turn} to move (you)`;
  }
  status.textContent = text;
  status.classList.toggle("over", !!game.outcome);
  document.body.dataset.thinking = page.thinking ? "1" : "";
  $("pause").hidden = page.mode !== "engines";
  $("pause").textContent = page.paused ? "Resume" : "Pause";
}

// --- the engine's turn -----------------------------------------------------------------------

let engineTimer = null;
function nextTurn() {
  clearTimeout(engineTimer);
  const game = page.game;
  if (!game || game.outcome || page.thinking || page.paused || page.editing) return;
  if (game.ply !== game.moves.length || !engineSide(game.turn)) return;
  const delay = page.mode === "engines" && game.ply ? ENGINE_PAUSE_MS : 0;
  engineTimer = setTimeout(engineMove, delay);
}

async function engineMove() {
  const game = page.game;
  page.thinking = true;
  showStatus();
  try {
    const state = await call("POST", `/api/games/${game.id}/engine`,
      { limit: levelLimit(), version: game.version });
    page.thinking = false;
    if (page.game.id === state.id) show(state);
  } catch (error) {
    page.thinking = false;
    // 409: the game changed meanwhile (a take-back, a move of the list): nothing to do
    if (!(error instanceof ApiError && error.status === 409)) failed(error);
    if (page.game === game) showStatus();
  }
}

// --- the person's moves ----------------------------------------------------------------------

function describeIllegal(square) {
  const game = page.game;
  const variant = page.variants.get(game.variant);
  const piece = game.pieces.find((p) => p.square === square);
  const name = variant.names[square];
  if (!piece) return `${name} is empty: choose one of ${game.turn}'s pieces`;
  if (piece.color !== game.turn) return `the piece on ${name} is ${piece.color}; it is ${game.turn}'s move`;
  if (game.legal.length && game.legal[0].captured.length) {
    const from = [...new Set(game.legal.map((m) => variant.names[m.from]))].join(", ");
    return `a capture is compulsory: the piece on ${name} cannot capture (${from} can)`;
  }
  return `the piece on ${name} cannot move`;
}

async function press(square) {
  const game = page.game;
  if (!game) return;
  if (!personMayMove()) {
    if (game.outcome) say(`the game is over: ${game.outcome.result}`);
    else if (page.thinking || engineSide(game.turn)) say("it is the engine's move");
    return;
  }
  const picker = page.picker;
  const before = picker.selected;
  const result = picker.click(square);
  switch (result.kind) {
    case "move":
      drawBoard();
      await play(result.move);
      return;
    case "ambiguous": {
      const variant = page.variants.get(game.variant);
      say(`${result.moves.length} routes lead to ${variant.names[square]}: ` +
        `${result.moves.map((m) => m.text).join(", ")}; tap the squares along the way`);
      break;
    }
    case "illegal":
      if (before === null) say(describeIllegal(square), "error");
      else {
        const variant = page.variants.get(game.variant);
        say(`the piece on ${variant.names[before]} cannot go to ${variant.names[square]}`, "error");
      }
      break;
    default:
      say("");
  }
  drawBoard();
}

async function play(move) {
  const game = page.game;
  try {
    show(await call("POST", `/api/games/${game.id}/move`, { move: move.text, version: game.version }));
  } catch (error) {
    failed(error);
    if (page.game === game) drawBoard();
  }
}

function onPress(square) {
  if (page.editing) {
    if (square !== null) edit({ square, cycle: true });
    return;
  }
  const picker = page.picker;
  if (square === null) {
    picker.reset();
    page.pressedSelected = false;
    drawBoard();
    return;
  }
  // a press on the selected piece starts a drag, or (let go there) clears the selection
  page.pressedSelected = picker.route.length === 1 && picker.selected === square;
  if (!page.pressedSelected) press(square);
}

function onRelease(pressed, square, moved) {
  if (page.editing) return;
  if (moved && square !== null && square !== pressed) press(square);
  else if (!moved && page.pressedSelected && square === pressed) {
    page.picker.reset();
    drawBoard();
  }
  page.pressedSelected = false;
}

// --- the game's line: going to a move, taking back, claiming ---------------------------------

async function send(action, body = {}) {
  const game = page.game;
  if (!game) return;
  try {
    show(await call("POST", `/api/games/${game.id}/${action}`, { ...body, version: game.version }));
  } catch (error) {
    failed(error);
  }
}

function goTo(ply) {
  if (page.game && ply >= 0 && ply <= page.game.moves.length && ply !== page.game.ply) {
    send("goto", { ply });
  }
}

function takeBack() {
  const game = page.game;
  if (!game || !game.ply) return;
  // against the engine, back to the person's own turn: the engine's reply with the move
  // before it when the person is to move, else the person's last move
  const againstEngine = page.mode === "white" || page.mode === "black";
  const plies = againstEngine && game.turn === page.mode ? 2 : 1;
  if (page.mode === "engines") page.paused = true;
  send("undo", { plies: Math.min(plies, game.ply) });
}

// --- new games, FEN and PDN ------------------------------------------------------------------

async function newGame(body) {
  try {
    const state = await call("POST", "/api/games", body);
    leaveSetup();
    page.paused = false;
    page.thinking = false;
    page.board.setFlipped(page.mode === "black");
    show(state);
    return true;
  } catch (error) {
    failed(error);
    return false;
  }
}

async function load() {
  const text = $("load-text").value.trim();
  if (!text) {
    say("paste a FEN (W:W21-32:B1-12) or a PDN game first", "error");
    return;
  }
  // a PDN starts with a tag or a move number; anything else is read as a FEN
  const isPdn = /^\[/.test(text) || /^\d+\s*\./.test(text);
  const body = { variant: $("variant").value, [isPdn ? "pdn" : "fen"]: text };
  if (await newGame(body)) {
    say(isPdn ? `game loaded: ${page.game.moves.length} moves` : "position set up");
    $("load-text").value = "";
  }
}

async function copyFen() {
  const fen = $("fen").value;
  try {
    await navigator.clipboard.writeText(fen);
  } catch (error) {
    $("fen").select(); // without the clipboard API (an insecure origin), the text is selected
    document.execCommand("copy");
  }
  say("FEN copied");
}

// --- the set-up mode -------------------------------------------------------------------------
// The position is edited by the server's board editor (POST /api/setup), which keeps nothing:
// each edit sends the position's FEN as the server last sent it, and the answer is the
// position after the edit with the reasons it is not one to play from.  Edits go one after
// the other, so that quick clicks each change the position the one before made.

function edit(change) {
  page.edits = page.edits.then(async () => {
    const setup = page.editing;
    if (!setup) return;
    try {
      const state = await call("POST", "/api/setup",
        { variant: setup.variant, fen: setup.fen, ...change });
      if (page.editing === setup) showSetup(state);
    } catch (error) {
      failed(error);
    }
  });
  return page.edits;
}

function startSetup() {
  const game = page.game;
  if (!game || page.editing) return;
  stopAnalysis();
  clearTimeout(engineTimer);
  page.picker.reset();
  // the position shown is where the set-up starts
  page.editing = { variant: game.variant, fen: game.fen, pieces: game.pieces, turn: game.turn,
    reasons: [], valid: true };
  document.body.classList.add("editing");
  $("editor").hidden = false;
  $("analyse").disabled = true;
  $("analysis").hidden = true;
  document.body.classList.remove("analysing");
  drawBoard();
  edit({});
}

function showSetup(state) {
  page.editing = state;
  drawSetup();
  $("fen").value = state.fen;
  $("setup-turn").value = state.turn;
  $("setup-play").disabled = !state.valid;
  $("setup-reasons").replaceChildren(...state.reasons.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
  document.body.dataset.setup = state.fen;
}

function drawSetup() {
  const setup = page.editing;
  page.board.draw({ pieces: setup.pieces, last: null, selected: null, route: [] });
  const turn = setup.turn[0].toUpperCase() + setup.turn.slice(1);
  $("status").textContent = setup.valid ? `Setting up: ${turn} to move` :
    `Setting up: not a position to play from`;
  $("status").classList.remove("over");
}

// out of the set-up mode, showing nothing yet (the caller shows the game)
function leaveSetup() {
  if (!page.editing) return;
  page.editing = null;
  document.body.classList.remove("editing");
  delete document.body.dataset.setup;
  $("editor").hidden = true;
  $("analyse").disabled = false;
}

function cancelSetup() {
  leaveSetup();
  if (page.game) show(page.game);
}

async function playFromHere() {
  await page.edits; // (the last edit's answer first)
  const setup = page.editing;
  if (!setup || !setup.valid) return;
  if (await newGame({ variant: setup.variant, fen: setup.fen })) say("position set up");
}

// --- the analysis ----------------------------------------------------------------------------

function stopAnalysis() {
  if (page.stopAnalysis) page.stopAnalysis();
  page.stopAnalysis = null;
  page.analysisFor = null;
}

// a position shown: the game and its version (a new game starts at version 0 again)
function positionKey(game) {
  return `${game.id}/${game.version}`;
}

function updateAnalysis() {
  const on = $("analyse").checked;
  $("analysis").hidden = !on;
  document.body.classList.toggle("analysing", on);
  if (!on) {
    stopAnalysis();
    return;
  }
  const game = page.game;
  const key = positionKey(game);
  if (page.analysisFor === key && page.stopAnalysis) return;
  stopAnalysis();
  page.analysisFor = key;
  page.best = null;
  $("eval").textContent = "…";
  $("eval-depth").textContent = "";
  $("pv").textContent = "";
  $("egdb").hidden = true;
  setBar(0);
  const turn = game.turn;
  page.stopAnalysis = analyse(game.id, ANALYSIS_SECONDS, {
    egdb: (verdict) => {
      $("egdb").hidden = false;
      $("egdb").textContent = `Endgame databases: ${verdict.text}`;
    },
    info: (info) => {
      if (page.analysisFor !== key) return;
      $("eval").textContent = scoreText(info, turn);
      $("eval-depth").textContent = `depth ${info.depth} · ${nodes(info.nodes)} nodes · ` +
        `${info.time.toFixed(1)} s`;
      $("pv").textContent = info.pv.join(" ");
      setBar(info.win_in !== null ? (info.white > 0 ? 1e6 : -1e6) : info.white);
      page.best = page.game.legal.find((m) => m.text === info.pv[0]) || null;
      drawBoard();
    },
    done: (end) => {
      if (page.analysisFor !== key) return;
      page.stopAnalysis = null;
      if (end.reason === "over") $("eval").textContent = page.game.outcome ? page.game.outcome.result : "–";
      if (end.reason === "error" && $("eval").textContent === "…") $("eval").textContent = "–";
    },
  });
}

function scoreText(info, turn) {
  if (info.win_in !== null) {
    const winner = info.win_in > 0 ? turn : other(turn);
    return `${winner[0].toUpperCase()}${winner.slice(1)} wins in ${Math.abs(info.win_in)}`;
  }
  const value = info.white / 100;
  if (/egdb/.test(info.score)) return `${value > 0 ? "White" : "Black"} wins (databases)`;
  return (value > 0 ? "+" : "") + value.toFixed(2);
}

function nodes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} k` : `${n}`;
}

// White's share of the bar: an even game in the middle, two men up about nine tenths
function setBar(white) {
  const share = 1 / (1 + Math.exp(-white / 120));
  $("bar-white").style.height = `${(share * 100).toFixed(1)}%`;
}

// --- starting --------------------------------------------------------------------------------

function fillSelect(select, items) {
  select.replaceChildren(...items.map(([value, text]) => {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    return option;
  }));
}

async function start() {
  page.board = new BoardView($("board"), {}, { onPress, onRelease,
    canDrag: (square) => !page.editing && page.picker.selected === square });
  let info;
  try {
    info = await call("GET", "/api/variants");
  } catch (error) {
    failed(error);
    return;
  }
  page.board.colors = info.colors;
  page.levels = info.levels;
  for (const variant of info.games) page.variants.set(variant.name, variant);
  fillSelect($("variant"), info.games.map((v) => [v.name, v.title]));
  fillSelect($("level"), info.levels.map((level, i) => [i, level.name]));
  $("level").value = info.default_level;
  const wanted = new URLSearchParams(location.search).get("variant");
  if (wanted && page.variants.has(wanted)) $("variant").value = wanted;

  $("variant").addEventListener("change", () => newGame({ variant: $("variant").value }));
  $("new-game").addEventListener("click", () => newGame({ variant: $("variant").value }));
  $("mode").addEventListener("change", () => {
    page.mode = $("mode").value;
    page.paused = false;
    // the person's side at the bottom
    if (page.mode === "white" || page.mode === "black") page.board.setFlipped(page.mode === "black");
    if (page.game) show(page.game);
  });
  $("level").addEventListener("change", () => page.game && show(page.game));
  $("flip").addEventListener("click", () => page.board.setFlipped(!page.board.flipped));
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => page.game && goTo(page.game.ply - 1));
  $("forward").addEventListener("click", () => page.game && goTo(page.game.ply + 1));
  $("last").addEventListener("click", () => page.game && goTo(page.game.moves.length));
  $("undo").addEventListener("click", takeBack);
  $("claim").addEventListener("click", () => send("claim"));
  $("pause").addEventListener("click", () => {
    page.paused = !page.paused;
    showStatus();
    nextTurn();
  });
  $("copy-fen").addEventListener("click", copyFen);
  $("load").addEventListener("click", load);
  $("edit").addEventListener("click", startSetup);
  $("setup-turn").addEventListener("change", () => edit({ turn: $("setup-turn").value }));
  $("setup-clear").addEventListener("click", () => edit({ clear: true }));
  $("setup-start").addEventListener("click", () => {
    if (page.editing) edit({ fen: page.variants.get(page.editing.variant).start_fen });
  });
  $("setup-play").addEventListener("click", playFromHere);
  $("setup-cancel").addEventListener("click", cancelSetup);
  $("analyse").addEventListener("change", () => {
    updateAnalysis();
    drawBoard();
  });
  document.addEventListener("keydown", (event) => {
    if (!page.game || page.editing || event.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: page.game.ply - 1, ArrowRight: page.game.ply + 1, Home: 0,
      End: page.game.moves.length };
    if (event.key in keys) {
      event.preventDefault();
      goTo(keys[event.key]);
    } else if (event.key === "f") page.board.setFlipped(!page.board.flipped);
  });
  await newGame({ variant: $("variant").value });
  document.body.dataset.ready = "1";
}

start();
