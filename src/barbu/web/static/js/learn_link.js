// "Learn to play" talks to the server over HTTP (POST /api/learn), not through a table's WebSocket: this module
// gives the table's frame (tablebase.js) that way to talk before the Barbu table's script (table.js) opens the
// table, so each lesson is drawn by the very table people play at (issue 43), as the daily deals are
// (daily_link.js).  The server keeps nothing: each time the page sends the lesson's key and the learner's
// accepted actions (and the one he tries); it answers with his seat's view, the lesson's text in the page's
// language, the refusal if the try was wrong, and the table after each move since ("frames").  Here each answer
// becomes the messages a table sends: the welcome and the whole view, then each frame as a new state with the
// move that led to it (so the cards fly and the screen reader hears them as at a table), a pause between them.
// The lesson's own panel (learn.html: its text, its refusal, the way on, the list of lessons) is drawn here too.
import { $, render, state, useTransport } from "./tablebase.js";
import { postJSON, saveCreator, saveSeat } from "./net.js";
import { el } from "./dom.js";
import { num, t } from "./i18n.js";
import { SUITS } from "./cards.js";
import { FLY_MS, GATHER_MS, HOLD_MS, motionOn } from "./motion.js";
import { who } from "./account-link.js";
import { focusOn } from "./a11y.js";

const ME = 0; // the learner's seat: West plays after him, then North, then East
const PAUSE_MS = 650; // a computer seat's move stays in view this long before the next one
const DONE_KEY = "barbu:lessons-done";
const main = document.querySelector("main");
let emit = () => {};
let reply = null; // the server's last accepted answer
let busy = false; // a request or the computer seats' moves under way: the table waits
let refusals = 0;
let tried = null; // the action the learner tried last (the card that shakes when refused)
let shake = false; // the next drawing shakes that card
let endFocused = false; // the way on was given the focus at the lesson's end
let stepShown = null; // the lesson's step whose text the panel shows
let myName = ""; // the learner as his seat is named: his account's name, the name he plays under, or "guest"

function lessonKey() {
  return (reply && reply.lesson) || $("lesson").dataset.lesson || "";
}

// The table's public facts as the frame reads them: the learner at seat 0, computer players in the others (named
// by their places, "West, computer"; they play the lesson's cards, of no strength).
function tableInfo(data) {
  const seats = Array.from({ length: data.table.players }, (_, s) => (s === ME
    ? { seat: s, kind: "human", name: myName, connected: true } : { seat: s, kind: "bot", name: "", connected: true }));
  return { id: "learn", rules: data.table.rules.split("(")[0], players: data.table.players, status: "playing",
    private: false, rated: false, turn_based: false, clock: null, rematch_id: null, contracts: data.table.contracts, seats };
}

// A lesson is one deal that ends before its scores: an empty sheet.
function scoresOf(view) {
  return { deals: [], totals: view.totals, over: false, total_deals: 1, highest_wins: false };
}

// A frame as the learner's seat sees it: his hand as it is after his move, nothing to decide while the others play.
// A lesson is about its one deal: no contracts "left to" choose after it.
function frameView(frame, data) {
  return { ...frame, hand: data.state.hand, legal: null, legal_count: 0, seat: ME, contracts_left: null };
}

// The lesson's last view: once the lesson is over (or the learner has nothing to do) nobody is shown to act.
function finalView(data) {
  const view = { ...data.state, contracts_left: null };
  if (!data.your_turn && view.to_act === ME) view.to_act = null;
  return view;
}

// The move that led from one view to the next, as a table tells it ({seq, seat, action}): the learner's own,
// else read from what changed (a card in the trick or the rows, a double, a contract, a trump, a rank, a pass).
function moveBetween(before, after, mine) {
  const seat = before.to_act;
  if (seat === null || seat === undefined || seat < 0) return null;
  const said = (action) => ({ seq: after.version, seat, action });
  if (mine) return said(mine);
  const trick = after.trick || [];
  if (trick.length > (before.trick || []).length) return said(trick[trick.length - 1]);
  if (!trick.length && (before.trick || []).length && after.last_trick) return said(after.last_trick.cards.at(-1));
  const plays = after.plays || [];
  const was = before.plays || [];
  if (plays.length && (plays.length !== was.length || JSON.stringify(plays.at(-1)) !== JSON.stringify(was.at(-1)))) {
    return said([].concat(plays.at(-1)[1]).join(" "));
  }
  const doubles = (after.doubles || []).filter(([a, b]) => a === seat && !(before.doubles || []).some(([x, y]) => x === a && y === b));
  if (doubles.length) return said(["double", ...doubles.map(([, b]) => b)].join(" "));
  if (after.contract && after.contract !== before.contract) return said(`contract ${after.contract}`);
  if (after.trump !== before.trump && after.trump !== null && after.trump !== undefined) return said(`trump ${SUITS[after.trump]}`);
  if (after.rank && after.rank !== before.rank) return said(`rank ${after.rank}`);
  if (before.phase === "doubling" || before.phase === "domino") return said("pass");
  return null;
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function setBusy(on) {
  busy = on;
  main.dataset.busy = on ? "1" : "0";
}

// ------------------------------------------------------------------ the server
// `fresh`: the lesson begins again, the whole table is drawn anew.
async function ask(actions, fresh = false) {
  setBusy(true);
  render();
  try {
    await take(await postJSON("/api/learn", { lesson: lessonKey(), actions }), actions.at(-1), fresh || !reply);
  } catch (e) {
    if (!reply && actions.length) { // the tab's kept actions are no longer this lesson's: it starts again
      keepActions(lessonKey(), []);
      setBusy(false);
      return ask([], true);
    }
    emit({ type: "error", message: e.message });
  }
  setBusy(false);
  render();
}

// An answer: a refusal leaves the table as it was and says why; else the moves since are played one by one.
async function take(data, action, fresh) {
  if (data.refused && !fresh) {
    reply = { ...reply, refused: data.refused };
    refusals += 1;
    main.dataset.refused = refusals;
    shake = true;
    return;
  }
  // the panel keeps the step the learner answered while the others' moves play, then says the next one
  reply = fresh ? { ...data, refused: null } : { ...reply, refused: null };
  main.dataset.lesson = data.lesson;
  main.dataset.step = data.actions.length;
  main.dataset.finished = "0";
  let before = fresh ? null : state;
  for (const [i, frame] of data.frames.entries()) {
    const view = frameView(frame, data);
    if (!before) begin(data, view);
    else emit({ type: "state", state: view, last: moveBetween(before, view, i === 0 && !fresh ? action : null) });
    const won = !(frame.trick || []).length && frame.last_trick && (!before || (before.trick || []).length);
    before = view;
    await pause(won && motionOn() ? FLY_MS + HOLD_MS + GATHER_MS : motionOn() ? FLY_MS + PAUSE_MS : PAUSE_MS);
  }
  reply = { ...data, refused: null };
  const view = finalView(data);
  if (!before) begin(data, view);
  else emit({ type: "state", state: view, last: data.frames.length ? null : moveBetween(before, view, action) });
  keepActions(data.lesson, data.actions);
  if (data.finished) remember(data.lesson);
  main.dataset.finished = data.finished ? "1" : "0";
}

// The table drawn anew, as a table's page is when it connects: the learner's seat, then the whole view.
function begin(data, view) {
  const info = tableInfo(data);
  emit({ type: "welcome", seat: ME, table: info });
  emit({ type: "sync", table: info, scores: scoresOf(view), state: view });
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

// The lessons done in this browser, ticked in the list.
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

// The learner's try: a card (even one he may not play: the lesson refuses it with the engine's reason and its
// own) or a decision, sent with his accepted actions.
function act(action) {
  if (busy || !reply || !reply.your_turn) return;
  tried = action;
  ask([...reply.actions, action]);
}

// ------------------------------------------------------------------ the lesson's panel and marks
// Drawn after the table each time: the cards the lesson accepts once the learner has been told (a golden edge),
// the refused card shaking its head, the turn line at the lesson's end, and the panel.
function drawn() {
  if (!reply) return;
  const over = reply.finished && !busy;
  const expected = reply.refused && state ? state.expected || [] : [];
  for (const a of expected) {
    const node = document.querySelector(`#hand [data-card="${a}"], #decision [data-action="${a}"]`);
    if (node) node.classList.add(node.matches(".card") ? "expected" : "primary");
  }
  const refusedNow = shake;
  shake = false;
  const card = refusedNow && tried && document.querySelector(`#hand [data-card="${tried}"]`);
  if (card && motionOn()) card.classList.add("refused");
  if (over) $("turn").textContent = t("The lesson is over.");
  $("lesson-counter").textContent = t("Lesson {n} of {total}", { n: num(reply.number), total: num(reply.total) });
  document.title = `barbu — ${reply.title}`;
  $("lesson-title").textContent = reply.title;
  $("lesson-text").textContent = reply.text;
  const refused = $("lesson-refusal");
  refused.replaceChildren();
  refused.hidden = !reply.refused;
  if (reply.refused) {
    // The engine's reason for a card that may not be played; a legal one that is not the lesson's is "not the best".
    const why = reply.refused.message ? t("Not allowed ({reason}).", { reason: reply.refused.message }) : t("Not the best choice.");
    refused.append(el("strong", { textContent: why }), " ", reply.refused.lesson);
  }
  // A long step scrolls in its panel on a laptop: a new step is read from its top, a refusal is brought into view.
  const step = `${reply.lesson} ${reply.actions.length}`;
  if (refusedNow) $("lesson").scrollTop = $("lesson").scrollHeight;
  else if (step !== stepShown) $("lesson").scrollTop = 0;
  stepShown = step;
  $("lesson-next").hidden = !(over && reply.next);
  $("play-real").hidden = !(over && !reply.next);
  if (over && !endFocused) setTimeout(focusWayOn); // after the table has placed the focus
  endFocused = over;
  const done = learned();
  $("lesson-list").replaceChildren(...reply.lessons.map((x) => {
    const cls = (x.key === reply.lesson ? "current" : "") + (done.includes(x.key) ? " done" : "");
    return el("li", {}, el("a", { href: `/learn/${x.key}`, class: cls.trim(), "data-lesson": x.key,
      "aria-current": x.key === reply.lesson ? "step" : null, textContent: x.title }));
  }));
}

// At the lesson's end the way on (the next lesson, or a real match) takes the focus from the table, where the
// learner's last card or choice was: Enter goes on.
function focusWayOn() {
  const at = document.activeElement;
  const inTable = !at || at === document.body || (at.closest("main") && !at.closest("#lesson, #lesson-nav"));
  const way = $(reply.next ? "lesson-next" : "play-real");
  if (inTable && !way.hidden) focusOn(way);
}

// ------------------------------------------------------------------ the buttons
$("lesson-again").addEventListener("click", () => {
  if (busy || !reply) return;
  reply = { ...reply, refused: null };
  ask([], true);
});
$("lesson-next").addEventListener("click", () => {
  if (reply && reply.next) location.href = `/learn/${reply.next}`;
});
// The lobby's one-click game: a classic match against computer players, you in the first seat.
$("play-real").addEventListener("click", async () => {
  $("play-real").disabled = true;
  try {
    const name = localStorage.getItem("barbu:name") || t("Player");
    const data = await postJSON("/api/play", { rules: "classic", name });
    saveCreator(data.id, data.creator);
    saveSeat(data.id, { token: data.token, seat: data.seat, name });
    location.href = data.url;
  } catch (e) {
    emit({ type: "error", message: e.message });
    $("play-real").disabled = false;
  }
});

useTransport((onMessage, onStatus) => {
  emit = onMessage;
  onStatus("connected");
  main.dataset.busy = "0";
  who.then((user) => {
    myName = user ? user.name : localStorage.getItem("barbu:name") || t("guest");
    ask(keptActions(lessonKey()));
  });
  return {
    act,
    send: () => emit({ type: "error", message: t("Not in a lesson: it shows you the way itself.") }),
    reconnect: () => ask(reply ? reply.actions : keptActions(lessonKey())),
    drawn,
    forcedByHand: true,
  };
});
