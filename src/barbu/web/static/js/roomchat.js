// A club's or an event's chat room (templates/_room_chat.html; the server's side is barbu/web/clubs/chat.py and
// routes/rooms.py), on the club's and the event's page, for their members only: a page the server does not let in
// shows nothing. Messages are drawn with the table chat's pieces (chat.js): quick phrases in the reader's
// language, free text for those who turn "Free chat" on, words as text and links only from authors with history,
// a report to the moderators. An event's director posts notices, pinned above the messages and announced.

import { who } from "./account-link.js";
import { announce } from "./a11y.js";
import { FREE_KEY, phraseButtons, reportForm, wordsOf } from "./chat.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const panel = $("room-chat");
let ws = null;
let me = null; // the reader's name, from the log
let messages = [];
let notices = [];
let retry = 1000;
const mine = new Set();

function freeOn() {
  return localStorage.getItem(FREE_KEY) === "1";
}

function shown(m) {
  return typeof m.phrase === "string" || freeOn();
}

function line(m) {
  const li = document.createElement("li");
  li.className = m.notice ? "chat-line room-notice" : "chat-line";
  li.dataset.seq = m.seq;
  if (typeof m.phrase === "string") li.dataset.phrase = m.phrase;
  const name = Object.assign(document.createElement("span"), { className: "chat-name", textContent: m.from });
  li.append(name, ": ", wordsOf(m));
  if (m.from !== me) {
    const box = Object.assign(document.createElement("span"), { className: "chat-tools" });
    const report = Object.assign(document.createElement("button"), { type: "button", className: "link chat-report" });
    report.textContent = t("Report");
    report.title = t("Report this message to the moderators");
    report.addEventListener("click", () => reportForm(box, m, showError));
    box.append(report);
    li.append(box);
  }
  return li;
}

function draw() {
  const list = $("room-chat-list");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  const visible = messages.filter(shown);
  list.replaceChildren(...visible.map(line));
  $("room-chat-empty").hidden = visible.length > 0;
  if (atEnd) list.scrollTop = list.scrollHeight;
  $("room-notices").replaceChildren(...notices.map(line));
  $("room-notices-box").hidden = notices.length === 0;
  $("room-chat-free").checked = freeOn();
  $("room-chat-form").hidden = !freeOn();
}

function showError(text) {
  const e = $("room-chat-error");
  e.textContent = text;
  e.hidden = !text;
}

function add(m) {
  if (m.notice) {
    if (notices.some((n) => n.seq === m.seq)) return;
    notices = [...notices, m].sort((a, b) => a.seq - b.seq).slice(-3);
    announce(t("Notice from {name}: {words}", { name: m.from, words: m.text }), true);
  } else {
    if (messages.some((n) => n.seq === m.seq)) return;
    messages = [...messages, m].sort((a, b) => a.seq - b.seq).slice(-50);
    if (shown(m) && m.from !== me) announce(t("{name} says: {words}", { name: m.from, words: wordsOf(m).textContent }));
  }
  draw();
}

function say(what, form) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return showError(t("Not connected: trying again…"));
  const id = `r${Math.random().toString(36).slice(2, 10)}`;
  mine.add(id);
  showError("");
  ws.send(JSON.stringify({ type: "chat", id, ...what }));
  if (form) form.dataset.pending = id;
}

function answered(msg) {
  mine.delete(msg.id);
  if (msg.type === "error") return showError(msg.message);
  showError("");
  for (const form of [$("room-chat-form"), $("room-notice-form")]) {
    if (form.dataset.pending === msg.id) {
      form.querySelector("input").value = "";
      delete form.dataset.pending;
    }
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws/room/${panel.dataset.kind}/${encodeURIComponent(decodeURIComponent(location.pathname.split("/")[2] || ""))}`);
  ws.addEventListener("message", (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    if (msg.type === "room_log") {
      retry = 1000;
      me = msg.me || me;
      messages = msg.messages || [];
      notices = msg.notices || [];
      $("room-notice-form").hidden = !msg.may_notice;
      panel.hidden = false;
      draw();
    } else if (msg.type === "chat") add(msg);
    else if (typeof msg.id === "string" && mine.has(msg.id)) answered(msg);
    else if (msg.type === "error" && !msg.id) {
      panel.dataset.refused = msg.code || "";
      ws.close();
      ws = null;
    }
  });
  ws.addEventListener("close", () => {
    if (ws === null || panel.dataset.refused) return; // not this reader's room: the panel stays hidden
    ws = null;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

function open() {
  if (!panel) return;
  $("room-chat-phrases").replaceChildren(...phraseButtons((what) => say(what)));
  $("room-chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("room-chat-text").value.trim();
    if (text) say({ text }, e.target);
  });
  $("room-notice-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("room-notice-text").value.trim();
    if (text) say({ text, notice: true }, e.target);
  });
  $("room-chat-free").addEventListener("change", (e) => {
    localStorage.setItem(FREE_KEY, e.target.checked ? "1" : "0");
    draw();
  });
  who.then((user) => {
    if (user) connect(); // a guest is never let in: the panel stays hidden without asking
  });
}

open();
