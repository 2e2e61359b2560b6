// The bell in every page's header (templates/base.html) and the /notifications page (templates/notifications.html).
//
// For a logged-in player: the unread count, asked once when the page loads (GET /api/notices/unread) and then
// kept by what the account channel says ({"type": "notice"} when one arrives, {"type": "notices-read"} when his
// other page marked them read); the bell opens a short list (the newest), the page the whole list.  A notice is
// its kind, params and link: the words are said here, in the page's language, never stored.  Opening one marks
// it read; "Mark all as read" marks them all.
import { el } from "./dom.js";
import { lang, num, t } from "./i18n.js";
import { who } from "./account-link.js";
import { rulesTitle } from "./tablewords.js";

const SHORT_LIST = 6;

// A notice's title and line in the page's language (the server's notices/words.py says the same for a push).
export function noticeTitle(n) {
  switch (n.kind) {
    case "turn": return t("Your turn");
    case "challenge": return t("A challenge");
    case "event-soon": return t("An event starts soon");
    case "event-table": return t("Your table is ready");
    case "club-invite": return t("A club's invitation");
    case "moderator-reply": return t("A word from a moderator");
    default: return t("A test notification");
  }
}

export function noticeLine(n) {
  const p = n.params || {};
  const text = (v) => String(v == null ? "" : v);
  switch (n.kind) {
    case "turn": {
      const game = rulesTitle(text(p.game));
      return p.timeout ? t("{game}: your time ran out and the computer played for you", { game })
        : t("{game}: the table waits for your move", { game });
    }
    case "challenge": {
      const name = text(p.name);
      switch (p.state) {
        case "table": return t("{name}'s challenge: everyone accepted, your table is ready", { name });
        case "declined": return t("{name} declined the challenge", { name });
        case "cancelled": return t("{name} cancelled the challenge", { name });
        case "expired": return t("{name}'s challenge expired: not everyone answered in time", { name });
        default: return t("{name} challenges you to a table", { name });
      }
    }
    case "event-soon": return t("{event} starts in {minutes} minutes", { event: text(p.event), minutes: num(Number(p.minutes) || 15) });
    case "event-table": return t("{event}: your table is ready, the clock is running", { event: text(p.event) });
    case "club-invite": return t("{name} invites you to the club {club}", { name: text(p.name), club: text(p.club) });
    case "moderator-reply": return t("A moderator wrote to you: read it on barbu");
    default: return t("Notifications reach this device");
  }
}

// "5 min ago", "yesterday": how long ago, in the page's language.
function ago(iso) {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return "";
  const seconds = Math.round((then - Date.now()) / 1000);
  const words = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(seconds) >= size) return words.format(Math.round(seconds / size), unit);
  }
  return words.format(0, "second");
}

// Only this site's own pages: a link is followed only if it stays here.
function ownLink(link) {
  const s = String(link || "/");
  return s.startsWith("/") && !s.startsWith("//") ? s : "/";
}

async function call(path, body) {
  const r = await fetch(path, body === undefined ? { credentials: "same-origin", cache: "no-store" }
    : { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(String(r.status));
  return r.json();
}

export function markRead(id) {
  return call("/api/notices/read", { id: id == null ? null : id }).then((d) => setUnread(d.unread)).catch(() => {});
}

// One notice as a list's item: a link (marked read as it is followed), its title, its line, when.
export function noticeItem(n) {
  const link = el("a", { class: "notice-link", href: ownLink(n.link) },
    el("strong", { class: "notice-title", textContent: noticeTitle(n) }),
    el("span", { class: "notice-line", textContent: noticeLine(n) }),
    el("time", { class: "notice-when muted", datetime: n.at, textContent: ago(n.at) }));
  link.addEventListener("click", () => { if (!n.read) markRead(n.id); });
  return el("li", { class: "notice-item" + (n.read ? "" : " unread"), "data-kind": n.kind, "data-id": n.id }, link);
}

// -- the bell --
let unread = 0;
const listeners = new Set();

export function onNotices(fn) {
  listeners.add(fn);
}

function setUnread(n) {
  unread = Math.max(0, Number(n) || 0);
  const count = document.getElementById("notice-count");
  const bell = document.getElementById("notice-bell");
  if (count) {
    count.textContent = unread > 99 ? "99+" : num(unread);
    count.hidden = unread === 0;
  }
  if (bell) {
    bell.setAttribute("aria-label", unread ? t("Notifications: {n} unread", { n: num(unread) }) : t("Notifications"));
    bell.dataset.unread = String(unread);
  }
}

async function fillMenu() {
  const list = document.getElementById("notice-menu-list");
  if (!list) return;
  let data;
  try {
    data = await call("/api/notices");
  } catch {
    list.replaceChildren(el("li", { class: "muted notice-empty", textContent: t("The notifications could not be read; try again.") }));
    return;
  }
  setUnread(data.unread);
  const shown = (data.notices || []).slice(0, SHORT_LIST);
  list.replaceChildren(...(shown.length ? shown.map(noticeItem)
    : [el("li", { class: "muted notice-empty", textContent: t("No notifications yet.") })]));
}

function openMenu(open) {
  const bell = document.getElementById("notice-bell");
  const menu = document.getElementById("notice-menu");
  if (!bell || !menu) return;
  menu.hidden = !open;
  bell.setAttribute("aria-expanded", String(open));
  // on a phone the list spans the screen's width (css/notices.css), just under the bell's line
  menu.style.top = window.matchMedia("(max-width: 600px)").matches ? `${bell.getBoundingClientRect().bottom + 6}px` : "";
  if (open) fillMenu();
}

// What the account channel says (static/js/live.js hands each message to the page as a "barbu:live" event).
function heard(message) {
  if (!message || typeof message !== "object") return;
  if (message.type === "notice") {
    setUnread(message.unread);
    for (const fn of listeners) fn(message.notice);
    const menu = document.getElementById("notice-menu");
    if (menu && !menu.hidden) fillMenu();
  } else if (message.type === "notices-read") {
    setUnread(message.unread);
  }
}

function start(user) {
  const box = document.getElementById("notice-box");
  if (!box || !user) return;
  box.hidden = false;
  const bell = document.getElementById("notice-bell");
  bell.addEventListener("click", (e) => {
    e.preventDefault();
    openMenu(document.getElementById("notice-menu").hidden);
  });
  document.getElementById("notice-all-read").addEventListener("click", () => markRead(null).then(fillMenu));
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") openMenu(false); });
  document.addEventListener("click", (e) => { if (!box.contains(e.target)) openMenu(false); });
  window.addEventListener("barbu:live", (e) => heard(e.detail));
  call("/api/notices/unread").then((d) => setUnread(d.unread)).catch(() => {});
}

who.then(start);
