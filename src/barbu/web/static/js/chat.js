// The table's chat (templates/_chat.html; the server's side is barbu/web/tables/chat.py), for every game's table.
// Two rooms: the seated players' and the spectators' (each reads only his own until the match is over). Quick
// phrases travel as keys and each reader sees them in his own language; free text is for accounts that turn
// "Free chat" on (remembered), never for guests. Every message is drawn as text (textContent), never as markup;
// a link in it is made a link (an element of the page's own, "nofollow ugc") only when the server says its author
// has the history for it (`links`), else it stays plain text. The clubs' and events' rooms (roomchat.js) draw
// their messages with the same pieces. A reader mutes an author for himself (remembered for this table) and a
// logged-in reader reports a message to the moderators. On a phone the panel folds behind a "Chat" button that
// counts the messages not read; new messages are announced politely to screen readers.

import { who } from "./account-link.js";
import { announce } from "./a11y.js";
import { t, tp } from "./i18n.js";
import { postJSON } from "./net.js";

// The quick phrases, by the key the server carries, in the order of their buttons.
const PHRASES = {
  hello: () => t("Hello"),
  good_luck: () => t("Good luck"),
  gg: () => t("Well played"),
  thanks: () => t("Thanks"),
  sorry: () => t("Sorry"),
  oops: () => t("Oops"),
};
export const PHRASE_KEYS = Object.keys(PHRASES);
export const FREE_KEY = "barbu:chat-free";
const URL_RE = /\bhttps?:\/\/[^\s<>"']+/g;
const TRAILING = /[.,;:!?)\]}]+$/; // punctuation after a link is the sentence's
const FOLDED = matchMedia("(max-width: 760px)"); // a phone: the panel folds behind its button

const $ = (id) => document.getElementById(id);
let send = null; // (type, extra): the table's connection
let seat = () => null; // this page's seat (null: watching)
let over = () => false; // whether the match is over (both rooms are everyone's)
let tableId = "";
let user = null; // the logged-in player, or null: a guest
let messages = []; // in order, as the server sent them
const mine = new Set(); // ids of the messages this page sent and not yet answered
let unread = 0;
let muted = new Set(); // authors this reader muted at this table

function muteKey() {
  return `barbu:chat-mute:${tableId}`;
}

function freeOn() {
  return !!user && localStorage.getItem(FREE_KEY) === "1";
}

function myRoom() {
  return seat() === null ? "spectators" : "players";
}

function isMine(m) {
  return m.room === myRoom() && (m.room === "players" ? m.seat === seat() : !!user && m.from === user.name);
}

export function phraseWords(key) {
  return PHRASES[key] ? PHRASES[key]() : key;
}

// The quick phrases' buttons, in the reader's language; a click says the phrase through `say`.
export function phraseButtons(say) {
  return PHRASE_KEYS.map((key) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chat-phrase";
    b.dataset.phrase = key;
    b.textContent = phraseWords(key);
    b.addEventListener("click", () => say({ phrase: key }));
    return b;
  });
}

// What a message says, as nodes: its words as text, and its author's links as links when he has the history
// for it (the server's `links`); never markup.
export function wordsOf(m) {
  const words = document.createElement("span");
  words.className = "chat-words";
  const text = said(m);
  if (!m.links || typeof m.text !== "string") {
    words.textContent = text;
    return words;
  }
  let at = 0;
  for (const found of text.matchAll(URL_RE)) {
    const url = found[0].replace(TRAILING, "");
    let href = null;
    try {
      const u = new URL(url);
      if (u.protocol === "http:" || u.protocol === "https:") href = u.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    words.append(text.slice(at, found.index));
    const a = document.createElement("a");
    a.href = href;
    a.rel = "nofollow ugc noopener";
    a.target = "_blank";
    a.textContent = url;
    words.append(a);
    at = found.index + url.length;
  }
  words.append(text.slice(at));
  return words;
}

// What a message says, in this reader's language.
function said(m) {
  return typeof m.phrase === "string" ? phraseWords(m.phrase) : String(m.text || "");
}

function shown(m) {
  if (muted.has(m.from) && !isMine(m)) return false;
  return typeof m.phrase === "string" || freeOn();
}

// ------------------------------------------------------------------ drawing
function line(m) {
  const li = document.createElement("li");
  li.className = "chat-line";
  li.dataset.seq = m.seq;
  li.dataset.room = m.room;
  if (typeof m.phrase === "string") li.dataset.phrase = m.phrase;
  const name = document.createElement("span");
  name.className = "chat-name";
  name.textContent = m.from;
  if (m.room === "spectators" && myRoom() === "players") name.title = t("a spectator");
  li.append(name, ": ", wordsOf(m)); // text, never markup; links only from authors with history
  if (m.room !== myRoom()) {
    const tag = document.createElement("span");
    tag.className = "chat-tag muted";
    tag.textContent = m.room === "spectators" ? t("spectator") : t("player");
    li.append(" ", tag);
  }
  if (!isMine(m)) li.append(tools(m));
  return li;
}

function tools(m) {
  const box = document.createElement("span");
  box.className = "chat-tools";
  const mute = document.createElement("button");
  mute.type = "button";
  mute.className = "link chat-mute";
  mute.textContent = tp("chat", "Mute");
  mute.title = t("Hide {name}'s messages at this table (only for you)", { name: m.from });
  mute.addEventListener("click", () => setMuted(m.from, true));
  box.append(mute);
  if (user) {
    const report = document.createElement("button");
    report.type = "button";
    report.className = "link chat-report";
    report.textContent = t("Report");
    report.title = t("Report this message to the moderators");
    report.addEventListener("click", () => reportForm(box, m));
    box.append(" ", report);
  }
  return box;
}

// A report: its reason chosen, sent to the moderators' queue with the message's number; `failed` shows a refusal.
export function reportForm(box, m, failed = showError) {
  const select = document.createElement("select");
  select.setAttribute("aria-label", t("Why do you report this?"));
  for (const [value, words] of [
    ["abuse", t("Abusive or offensive behaviour")],
    ["spam", t("Spam or advertising")],
    ["cheating", t("Cheating or collusion")],
    ["other", t("Something else")],
  ]) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = words;
    select.append(o);
  }
  const go = document.createElement("button");
  go.type = "button";
  go.textContent = t("Send the report");
  go.addEventListener("click", async () => {
    go.disabled = true;
    try {
      await postJSON("/api/reports", { kind: "message", target: String(m.seq), reason: select.value, text: "" });
      box.replaceChildren(Object.assign(document.createElement("span"), { className: "muted", textContent: t("Reported: thank you.") }));
    } catch (e) {
      go.disabled = false;
      failed(e.message || String(e));
    }
  });
  box.replaceChildren(select, " ", go);
  select.focus();
}

function setMuted(name, on) {
  if (on) muted.add(name);
  else muted.delete(name);
  localStorage.setItem(muteKey(), JSON.stringify([...muted]));
  draw();
}

function drawMuted() {
  const box = $("chat-muted");
  box.replaceChildren();
  box.hidden = muted.size === 0;
  if (!muted.size) return;
  box.append(t("Muted:") + " ");
  for (const name of muted) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = t("unmute {name}", { name });
    b.addEventListener("click", () => setMuted(name, false));
    box.append(b, " ");
  }
}

function draw() {
  const list = $("chat-list");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  const visible = messages.filter(shown);
  list.replaceChildren(...visible.map(line));
  $("chat-empty").hidden = visible.length > 0;
  if (atEnd) list.scrollTop = list.scrollHeight;
  const room = over() ? t("everyone") : myRoom() === "players" ? t("players") : t("spectators");
  $("chat-room").textContent = `· ${room}`;
  const mayChat = seat() !== null || !!user;
  $("chat-phrases").hidden = !mayChat;
  $("chat-free-label").hidden = !user;
  $("chat-free").checked = freeOn();
  $("chat-form").hidden = !freeOn() || !mayChat;
  const note = $("chat-note");
  note.hidden = mayChat && !!user;
  note.textContent = !mayChat ? t("Log in to chat with the others watching.")
    : t("Guests send quick phrases: log in to write your own words.");
  drawMuted();
  drawUnread();
}

function drawUnread() {
  const badge = $("chat-unread");
  badge.hidden = unread === 0;
  badge.textContent = String(unread);
  $("chat-toggle").setAttribute("aria-label", unread ? t("Chat, {n} unread", { n: unread }) : t("Chat"));
}

function showError(text) {
  const e = $("chat-error");
  e.textContent = text;
  e.hidden = !text;
}

function isOpen() {
  return !FOLDED.matches || document.body.classList.contains("chat-open");
}

function fold(open) {
  document.body.classList.toggle("chat-open", open);
  $("chat-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  if (open) {
    unread = 0;
    drawUnread();
    const list = $("chat-list");
    list.scrollTop = list.scrollHeight;
    const first = $("chat-phrases").querySelector("button");
    if (first) first.focus();
  } else $("chat-toggle").focus();
}

// ------------------------------------------------------------------ the server's messages
// A message for the chat: true when it was one (the table's frame then leaves it alone).
export function chatMessage(msg) {
  if (!send) return false;
  if (msg.type === "chat") {
    if (messages.some((m) => m.seq === msg.seq)) return true;
    messages.push(msg);
    if (shown(msg) && !isMine(msg)) {
      announce(t("{name} says: {words}", { name: msg.from, words: said(msg) }));
      if (!isOpen()) unread += 1;
    }
    draw();
    return true;
  }
  if (msg.type === "chat_log") {
    messages = Array.isArray(msg.messages) ? msg.messages : [];
    draw();
    return true;
  }
  if (typeof msg.id === "string" && mine.has(msg.id)) {
    mine.delete(msg.id);
    if (msg.type === "ack") {
      showError("");
      $("chat-text").value = "";
    } else if (msg.type === "error") showError(msg.message);
    return true;
  }
  return false;
}

function say(what) {
  const id = `c${Math.random().toString(36).slice(2, 10)}`;
  mine.add(id);
  showError("");
  send("chat", { id, ...what });
}

// ------------------------------------------------------------------ opening
// `hooks`: send(type, extra) to the table, seat() this page's seat, over() whether the match is over, and the
// id of the game's side column the panel goes into on a laptop (before its `before` element, if any).
export function openChat(hooks) {
  send = hooks.send;
  seat = hooks.seat;
  over = hooks.over;
  tableId = hooks.tableId;
  try {
    muted = new Set(JSON.parse(localStorage.getItem(muteKey()) || "[]"));
  } catch {
    muted = new Set();
  }
  const panel = $("chat");
  const home = $(hooks.home);
  if (home) home.insertBefore(panel, hooks.before ? home.querySelector(hooks.before) : null);
  $("chat-phrases").replaceChildren(...phraseButtons(say));
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-text").value.trim();
    if (text) say({ text });
  });
  $("chat-free").addEventListener("change", (e) => {
    localStorage.setItem(FREE_KEY, e.target.checked ? "1" : "0");
    draw();
  });
  $("chat-toggle").addEventListener("click", () => fold(!document.body.classList.contains("chat-open")));
  $("chat-close").addEventListener("click", () => fold(false));
  addEventListener("keydown", (e) => {
    if (e.key === "Escape" && FOLDED.matches && document.body.classList.contains("chat-open")) fold(false);
  });
  // On a phone the folded chat's button sits at the end of the turn line, just above the hand: floating over the
  // page's corner it covered the hand's last card and made the page scroll.
  const bar = document.getElementById("turn-bar") || document.getElementById("bz-turn-bar");
  if (bar) {
    bar.append($("chat-toggle"));
    document.body.classList.add("chat-in-bar");
  }
  panel.hidden = false;
  $("chat-toggle").hidden = false;
  who.then((u) => {
    user = u;
    draw();
  });
  draw();
}

// The frame drew the table anew (a seat taken, the match over): the rooms' words may change with it.
export function chatRender() {
  if (send) draw();
}

// The replay's chat, for those who were there: the table's messages read back, in order, drawn into `list`.
export function drawReplayChat(list, said) {
  list.replaceChildren(...said.map((m) => {
    const li = document.createElement("li");
    li.className = "chat-line";
    const name = document.createElement("span");
    name.className = "chat-name";
    name.textContent = m.from;
    li.append(name, ": ", wordsOf(m));
    if (m.room === "spectators") li.append(" ", Object.assign(document.createElement("span"), { className: "chat-tag muted", textContent: t("spectator") }));
    return li;
  }));
}
