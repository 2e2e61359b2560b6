// "Learn to play": the guided first deal (issue 30), on a table drawn like the real one (felt, seats, the
// trick in the middle, your hand at the bottom, the same card faces and the same moving cards).
// The server keeps nothing: each time the page sends the lesson's key and the learner's accepted actions
// (and the one he tries); it answers with his seat's view, the lesson's text in the page's language, the
// refusal if the try was wrong, and the table after each move since ("frames"), played here one by one.

import { cardElement, isCard, RANKS, sortHand, SUITS, SYMBOLS } from "./cards.js";
import { el } from "./dom.js";
import { contract, rankLetter, t, tn } from "./i18n.js";
import { postJSON, saveCreator, saveSeat } from "./net.js";
import { phasePrompt, placeName } from "./tablewords.js";
import { FLY_MS, GATHER_MS, HOLD_MS, motionOn, TrickMotion } from "./motion.js";
import { arrowKeys, keepFocus } from "./a11y.js";

const $ = (id) => document.getElementById(id);
const ME = 0; // the learner's seat: West plays after him, then North, then East
const PAUSE_MS = 650; // a computer seat's move stays in view this long before the next one
const DONE_KEY = "barbu:lessons-done";

let reply = null; // the server's last answer
let shown = null; // the table drawn now: the reply's state, or one of its frames while they play
let busy = false; // a request or the computer seats' moves under way: the hand waits
let refusals = 0;
let tried = null; // the action the learner tried last (the card that shakes when refused)

const PHONE = window.matchMedia("(max-width: 600px)");
PHONE.addEventListener("change", () => render());
const motion = new TrickMotion();

// ------------------------------------------------------------------ names
function shortName(s) {
  return s === ME ? t("You") : placeName(s, ME, players());
}

function players() {
  return reply ? reply.table.players : 4;
}

function contractOf(key) {
  return reply && reply.table.contracts.find((c) => c.key === key);
}

function contractLabel(st) {
  const c = contractOf(st.contract);
  if (!c) return "";
  let label = contract(c.name);
  if (st.trump !== null && st.trump !== undefined) label += ` ${SYMBOLS[SUITS[st.trump]]}`;
  if (st.rank) label += " " + t("from {rank}", { rank: rankLetter(st.rank) });
  return label;
}

// A legal action as the buttons of the real table word it ("redouble West", "♠ trumps", "start from 8").
function actionLabel(text) {
  const words = text.split(" ");
  if (words[0] === "contract") {
    const c = contractOf(words.slice(1).join(" "));
    return c ? contract(c.name) : text;
  }
  if (words[0] === "trump") {
    const s = (words[1] || "").toUpperCase();
    return SYMBOLS[s] ? t("{suit} trumps", { suit: SYMBOLS[s] }) : t("no trump");
  }
  if (words[0] === "rank") return t("start from {rank}", { rank: rankLetter(words[1]) });
  if (text === "pass") return t("Pass");
  if (words[0] === "double") {
    const targets = words.slice(1).map(Number);
    const doubles = shown ? shown.doubles : [];
    const redo = targets.filter((x) => doubles.some(([a, b]) => a === x && b === ME));
    const dbl = targets.filter((x) => !redo.includes(x));
    const names = (seats) => seats.map(shortName).join(", ");
    if (dbl.length && redo.length) {
      return t("double {doubled} and redouble {redoubled}", { doubled: names(dbl), redoubled: names(redo) });
    }
    if (redo.length) return t("redouble {names}", { names: names(redo) });
    return t("double {names}", { names: names(dbl) });
  }
  return text;
}

// ------------------------------------------------------------------ the server
async function ask(actions) {
  busy = true;
  render();
  $("learn-error").textContent = "";
  let refused = false;
  try {
    // Worded in the page's language: its cookie, set when the page was shown.
    const data = await postJSON("/api/learn", { lesson: lessonKey(), actions });
    refused = await take(data);
  } catch (e) {
    $("learn-error").textContent = e.message;
  } finally {
    busy = false;
    render();
    if (refused) shake(); // on the hand as drawn last
  }
}

function lessonKey() {
  return (reply && reply.lesson) || $("table").dataset.lesson || "";
}

// A reply: refused, the table stays as it was and says why (true); else the moves since are played one by one.
async function take(data) {
  if (data.refused && reply) {
    reply = { ...reply, refused: data.refused };
    refusals += 1;
    $("table").dataset.refused = refusals;
    return true;
  }
  reply = { ...data, refused: null };
  for (const frame of data.frames) {
    const done = !frame.trick.length && frame.last_trick && (!shown || shown.trick.length);
    shown = { ...frame, hand: data.state.hand, legal: null };
    render();
    await pause(done && motionOn() ? FLY_MS + HOLD_MS + GATHER_MS : motionOn() ? FLY_MS + PAUSE_MS : PAUSE_MS);
  }
  shown = data.state;
  keepActions(data.lesson, data.actions);
  if (data.finished) remember(data.lesson);
  return false;
}

// The lesson's actions so far, kept for this tab: a reload goes on where the learner was.
function keptActions(key) {
  try {
    const v = JSON.parse(sessionStorage.getItem(`barbu:learn:${key}`) || "[]");
    return Array.isArray(v) ? v.filter((a) => typeof a === "string") : [];
  } catch {
    return [];
  }
}

function keepActions(key, actions) {
  try {
    sessionStorage.setItem(`barbu:learn:${key}`, JSON.stringify(actions));
  } catch { /* no storage: a reload starts the lesson again */ }
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function tryAction(action) {
  if (busy || !reply || !reply.your_turn) return;
  tried = action;
  ask([...reply.actions, action]);
}

// The refused card shakes its head where it lies in the hand (not when the reader asked for less motion).
function shake() {
  const card = tried && document.querySelector(`#hand [data-card="${tried}"]`);
  if (!card || !motionOn()) return;
  card.classList.remove("refused");
  void card.offsetWidth; // restart the animation
  card.classList.add("refused");
}

function remember(key) {
  const done = learned();
  if (!done.includes(key)) done.push(key);
  try {
    localStorage.setItem(DONE_KEY, JSON.stringify(done));
  } catch { /* a private window: the ticks last for this page */ }
}

function learned() {
  try {
    const v = JSON.parse(localStorage.getItem(DONE_KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

// ------------------------------------------------------------------ drawing
function render() {
  const tbl = $("table");
  tbl.dataset.busy = busy ? "1" : "0";
  if (!reply || !shown) return;
  tbl.dataset.lesson = reply.lesson;
  tbl.dataset.phase = shown.phase;
  tbl.dataset.step = reply.actions.length;
  tbl.dataset.finished = reply.finished && shown === reply.state ? "1" : "0";
  tbl.dataset.toAct = shown.to_act === null ? "" : shown.to_act;
  $("lesson-counter").textContent = t("Lesson {n} of {total}", { n: reply.number, total: reply.total });
  document.title = `barbu — ${reply.title}`;
  // The focus stays on the same card or choice when they are drawn anew, or moves on to the next decision.
  keepFocus(() => {
    renderSeats();
    renderCenter();
    renderTurn();
    renderDecision();
    renderHand();
    renderLesson();
  }, () => (mine() ? document.querySelector("#hand .card.legal, #decision button") : null));
}

// Arrow keys among the cards one may play (all of the hand when none is), and among the choices.
arrowKeys($("hand"), () => {
  const cards = [...$("hand").querySelectorAll(".card")];
  const legal = cards.filter((c) => c.classList.contains("legal"));
  return legal.length ? legal : cards;
});
arrowKeys($("decision"), () => [...$("decision").querySelectorAll("button")]);

function mine() {
  return !busy && reply.your_turn && shown === reply.state;
}

// Seat k around the table: you at the bottom, then clockwise on screen in playing order (as the table does).
function position(seat, radiusX, radiusY) {
  const n = players();
  const k = (seat - ME + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { left: 50 + radiusX * Math.cos(angle), top: 50 + radiusY * Math.sin(angle) };
}

function renderSeats() {
  const boxes = $("seat-boxes");
  boxes.replaceChildren();
  for (let s = 0; s < players(); s++) {
    const p = position(s, PHONE.matches ? 46 : 44, 40);
    const acts = shown.to_act === s && !(s === ME && !mine() && shown === reply.state); // not a learner who is done
    const box = el("div", { class: "seat-box" + (s === ME ? " me" : "") + (acts ? " to-act" : ""), "data-seat-box": s });
    Object.assign(box.style, { left: `${p.left}%`, top: `${p.top}%`, transform: `translate(-${p.left}%, -${p.top}%)` });
    if (Math.abs(p.left - 50) < 12) box.classList.add("across");
    const badges = el("div", { class: "badges" });
    if (shown.dealer === s) badges.append(el("span", { class: "chip dealer", textContent: t("D"), title: t("dealer") }));
    if (s !== ME) badges.append(el("span", { class: "chip bot", textContent: t("computer") }));
    if (shown.hand_sizes.some((x) => x > 0)) {
      const cards = tn("{n} card", "{n} cards", shown.hand_sizes[s]);
      badges.append(el("span", { class: "chip", textContent: cards, title: t("cards in hand") }));
      if (shown.last_trick !== undefined) { // a trick contract (Domino has rows, not tricks)
        const tricks = tn("{n} trick", "{n} tricks", shown.tricks_won[s]);
        badges.append(el("span", { class: "chip", textContent: tricks, title: t("tricks won") }));
      }
    }
    box.append(el("div", { class: "seat-name", textContent: shortName(s) }), badges);
    const d = shown.doubles.filter(([a]) => a === s);
    if (d.length) {
      const said = d.map(([, b, rr]) => (rr ? t("doubled {target}, redoubled", { target: shortName(b) })
        : t("doubled {target}", { target: shortName(b) }))).join(" · ");
      box.append(el("div", { class: "doubles", textContent: said }));
      const count = tn("{n} double", "{n} doubles", d.length); // on a phone, in place of the words
      badges.append(el("span", { class: "chip dbl-count", title: said, textContent: count }));
    }
    boxes.append(box);
  }
  if (shown.contract) boxes.append(el("div", { class: "center-label", textContent: contractLabel(shown) }));
}

function renderCenter() {
  const center = $("center");
  motion.measure("#hand"); // the hand as it was: the card you played flies from its place there
  center.replaceChildren();
  if (shown.rows && shown.rows.some((r) => r.length)) return renderRows(center);
  let cards = shown.trick || [];
  let leader = shown.leader;
  let won = null;
  if (!cards.length && shown.last_trick) {
    won = shown.last_trick;
    cards = won.cards;
    leader = won.leader;
  }
  const spot = el("div", { class: "trick" + (won ? " faded" : ""), "data-trick": cards.join(" ") });
  cards.forEach((c, i) => {
    const seat = (leader + i) % players();
    const p = position(seat, PHONE.matches ? 12 : 24, PHONE.matches ? 17 : 22);
    const played = el("div", { class: "trick-card" + (seat === ME ? " mine" : ""), "data-by": seat },
      cardElement(c), el("span", { class: "by", textContent: shortName(seat) }));
    Object.assign(played.style, { left: `${p.left}%`, top: `${p.top}%`, zIndex: i + 1 });
    spot.append(played);
  });
  center.append(spot);
  const seatBox = (s) => $("seat-boxes").querySelector(`[data-seat-box="${s}"]`);
  motion.show({ cards, pieces: [...spot.children], done: !!won, spot, from: (i) => seatBox((leader + i) % players()),
    winner: won && won.winner !== undefined ? seatBox(won.winner) : null });
}

// Domino: a row per suit, each card at its rank's place, as on the real table.
function renderRows(center) {
  const ranks = shown.row_ranks || RANKS;
  const grid = el("div", { class: "rows" });
  grid.style.setProperty("--row-slots", ranks.length);
  shown.rows.forEach((row, i) => {
    const suit = el("span", { class: "row-suit" + (i === 1 || i === 2 ? " red" : ""), textContent: SYMBOLS[SUITS[i]] });
    const line = el("div", { class: "row-line" }, suit);
    if (!row.length) line.append(el("span", { class: "muted", textContent: "—" }));
    row.forEach((c, k) => {
      const card = cardElement(c, "span", { compact: true });
      if (k === 0) card.style.marginLeft = `calc(${Math.max(0, ranks.indexOf(row[0][0]))} * var(--row-step))`;
      line.append(card);
    });
    grid.append(line);
  });
  center.append(grid);
}

function renderTurn() {
  const turn = $("turn");
  turn.dataset.mine = mine() ? "1" : "0";
  const prompt = phasePrompt(shown.phase);
  if (reply.finished && shown === reply.state) turn.textContent = t("The lesson is over.");
  else if (mine()) turn.textContent = t("Your turn: {what}.", { what: prompt || t("your decision") });
  else if (shown.to_act !== null && shown.to_act !== ME && shown.to_act >= 0) {
    turn.textContent = t("Waiting for {name}.", { name: shortName(shown.to_act) });
  } else turn.textContent = "";
}

// The decisions that are not a card: each legal action a button, worded as at the real table.
function renderDecision() {
  const box = $("decision");
  box.replaceChildren();
  if (!mine() || !shown.legal) return;
  const other = shown.legal.filter((a) => !isCard(a));
  if (!other.length) return;
  const hinted = reply.refused ? shown.expected : [];
  const wrap = el("div", { class: "choices", "data-phase": shown.phase });
  for (const a of other) {
    const c = a.startsWith("contract ") ? contractOf(a.slice(9)) : null;
    const kind = c ? (c.positive ? " positive" : " negative") : "";
    const b = el("button", { type: "button", class: (hinted.includes(a) ? "primary" : "") + kind, "data-action": a,
      title: c ? t(c.help) : null }, actionLabel(a));
    b.addEventListener("click", () => tryAction(a));
    wrap.append(b);
  }
  box.append(wrap);
}

function renderHand() {
  const box = $("hand");
  box.replaceChildren();
  const legal = mine() && shown.legal ? shown.legal.filter(isCard) : [];
  const cardTurn = mine() && (shown.phase === "play" || shown.phase === "domino");
  for (const c of sortHand(shown.hand || [])) {
    const card = cardElement(c, "button");
    const playable = legal.includes(c);
    if (playable) card.classList.add("legal");
    else if (cardTurn) card.classList.add("dim");
    if (reply.refused && shown.expected.includes(c)) card.classList.add("expected");
    card.dataset.legal = playable ? "1" : "0";
    // A card that may not be played is sent too: the lesson refuses it with the engine's reason and its own.
    card.addEventListener("click", () => { if (cardTurn) tryAction(c); });
    box.append(card);
  }
}

function renderLesson() {
  $("lesson-title").textContent = reply.title;
  const text = $("lesson-text");
  text.textContent = reply.text;
  const refused = $("lesson-refusal");
  refused.replaceChildren();
  refused.hidden = !reply.refused;
  if (reply.refused) {
    // The engine's reason for a card that may not be played; a legal one that is not the lesson's is "not the best".
    const why = reply.refused.message ? t("Not allowed ({reason}).", { reason: reply.refused.message }) : t("Not the best choice.");
    refused.append(el("strong", { textContent: why }), " ", reply.refused.lesson);
  }
  const over = reply.finished && shown === reply.state;
  $("lesson-next").hidden = !(over && reply.next);
  $("play-real").hidden = !(over && !reply.next);
  const done = learned();
  $("lesson-list").replaceChildren(...reply.lessons.map((x) => {
    const cls = (x.key === reply.lesson ? "current" : "") + (done.includes(x.key) ? " done" : "");
    return el("li", {}, el("a", { href: `/learn/${x.key}`, class: cls.trim(), "data-lesson": x.key,
      "aria-current": x.key === reply.lesson ? "step" : null, textContent: x.title }));
  }));
}

// ------------------------------------------------------------------ the buttons
$("lesson-again").addEventListener("click", () => {
  if (busy) return;
  shown = null;
  reply = { ...reply, actions: [], refused: null };
  ask([]);
});
$("lesson-next").addEventListener("click", () => {
  if (reply && reply.next) location.href = `/learn/${reply.next}`;
});
// The lobby's one-click game: a classic match against computer players, you in the first seat.
$("play-real").addEventListener("click", async () => {
  $("play-real").disabled = true;
  $("learn-error").textContent = "";
  try {
    const name = localStorage.getItem("barbu:name") || t("Player");
    const data = await postJSON("/api/play", { rules: "classic", name });
    saveCreator(data.id, data.creator);
    saveSeat(data.id, { token: data.token, seat: data.seat, name });
    location.href = data.url;
  } catch (e) {
    $("learn-error").textContent = e.message;
    $("play-real").disabled = false;
  }
});

ask(keptActions(lessonKey()));
