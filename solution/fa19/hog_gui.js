// The Hog page's script (hog_gui.html): it asks hog_gui.py's JSON API for each move and shows the answer.
"use strict";
const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
let config = null, game = null, busy = false, shown = 0;
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }

async function api(method, path, body) {
  const options = {method, headers: {"Content-Type": "application/json"}};
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(base + "api/" + path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || ("error " + response.status));
  return data;
}
function name(player) {
  if (config && config.opponent === "computer") return player === 0 ? "You" : "The computer (" + config.computer + ")";
  return "Player " + player;
}
function summary(rule) {
  const found = (config.rules || []).find((r) => r.name === rule);
  return found ? found.summary : "";
}
function turnItem(turn, number) {
  const li = el("li", "turn");
  li.dataset.player = turn.player;
  const head = el("div", "head", "Turn " + number + ": " + name(turn.player) + " rolled " + turn.dice +
    (turn.dice === 1 ? " die" : " dice") + " → " + (turn.points >= 0 ? "+" : "") + turn.points +
    " (now " + turn.score[0] + " to " + turn.score[1] + ")");
  li.append(head);
  if (turn.faces.length) {
    const faces = el("div", "faces");
    for (const face of turn.faces) {
      const die = el("span", face === 1 ? "die one" : "die", String(face));
      die.setAttribute("aria-label", "die showing " + face);
      faces.append(die);
    }
    li.append(faces);
  }
  for (const [rule, why] of turn.rules || []) {
    const p = el("p", "rule");
    p.append(el("b", "", rule + ": "), document.createTextNode(why));
    const words = summary(rule);
    if (words) p.append(el("span", "words", "Handout: " + words));
    li.append(p);
  }
  for (const line of turn.yours || []) li.append(el("p", "yours", line));
  for (const line of turn.warnings || []) li.append(el("p", "warn", "⚠ " + line));
  return li;
}
function render() {
  if (!game) return;
  for (const p of [0, 1]) {
    $("score" + p).textContent = game.score[p];
    $("name" + p).textContent = name(p);
    $("p" + p).classList.toggle("now", game.next === p);
  }
  const humanTurn = !game.over && !(game.opponent === "computer" && game.next === 1);
  $("status").textContent = game.over ? "Game over." : (busy ? "Rolling…" : (game.opponent === "computer" ? "Your turn" : name(game.next) + "'s turn") + ". How many dice?");
  const winner = $("winner");
  winner.hidden = !game.over;
  winner.textContent = game.over ? (game.winner === null ? "A tie, " : name(game.winner) + " won, ") + game.score[0] + " to " + game.score[1] + "." : "";
  for (const button of $("buttons").children) button.disabled = busy || !humanTurn;
  const notes = $("notes");
  notes.replaceChildren(...(game.notes || []).map((n) => el("p", "", n)));
  const turns = game.turns;
  $("history").replaceChildren(...turns.map((t, i) => turnItem(t, i + 1)).reverse());
  const fresh = turns.slice(Math.min(shown, Math.max(turns.length - 1, 0)));
  $("last").replaceChildren(...(fresh.length ? fresh.map((t) => turnItem(t, turns.indexOf(t) + 1)) : [el("li", "turn", "No turn yet.")]));
  shown = turns.length;
  document.body.dataset.state = game.over ? "over" : (busy ? "busy" : "ready");
  document.body.dataset.game = game.id;
}
function showProblem(text) {
  const box = $("problem");
  box.hidden = !text;
  box.textContent = text || "";
}
async function newGame() {
  try {
    game = (await api("POST", "new", {})).game;
    shown = 0;
    showProblem(null);
  } catch (error) { showProblem(error.message); }
  render();
}
async function roll(dice) {
  if (!game || game.over || busy) return;
  if (game.opponent === "computer" && game.next === 1) return;
  busy = true; render();
  try {
    const answer = await api("POST", "move", {game: game.id, player: game.next, dice});
    game = answer.game;
    showProblem(answer.problem || null);
  } catch (error) { showProblem(error.message); }
  busy = false; render();
}
async function start() {
  for (let n = 0; n <= 10; n++) {
    const button = el("button", "", String(n));
    button.type = "button";
    button.dataset.dice = n;
    button.setAttribute("aria-label", "roll " + n + (n === 1 ? " die" : " dice"));
    button.addEventListener("click", () => roll(n));
    $("buttons").append(button);
  }
  $("new").addEventListener("click", newGame);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[0-9]$/.test(event.key)) roll(Number(event.key));
    else if (event.key === "t" || event.key === "T") roll(10);
    else if (event.key === "n" || event.key === "N") newGame();
    else return;
    event.preventDefault();
  });
  try {
    config = (await api("GET", "config")).config;
  } catch (error) { showProblem(error.message); return; }
  $("title").textContent = config.title;
  document.title = config.title;
  $("sub").textContent = "First to " + config.goal + " wins. " + (config.opponent === "computer" ?
    "You play first, against " + config.computer + "." : "Two players take turns at this keyboard.") +
    " Rules from " + config.source + ".";
  await newGame();
}
start();
