// The /notifications page (templates/notifications.html): every notice of the logged-in player, newest first, in
// the page's language (js/notices.js says them); a new one arriving on the account channel is put on top.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { who } from "./account-link.js";
import { markRead, noticeItem, onNotices } from "./notices.js";

const list = document.getElementById("notices-list");
const allRead = document.getElementById("notices-all-read");

function draw(notices) {
  list.replaceChildren(...(notices.length ? notices.map(noticeItem)
    : [el("li", { class: "muted notice-empty", textContent: t("No notifications yet.") })]));
  allRead.hidden = !notices.some((n) => !n.read);
}

async function load() {
  const r = await fetch("/api/notices", { credentials: "same-origin", cache: "no-store" });
  if (!r.ok) throw new Error(String(r.status));
  return r.json();
}

who.then(async (user) => {
  document.getElementById("notices-loading").hidden = true;
  if (!user) {
    document.getElementById("notices-guest").hidden = false;
    return;
  }
  let notices = [];
  try {
    notices = (await load()).notices || [];
  } catch {
    document.getElementById("notices-error").textContent = t("The notifications could not be read; try again.");
    return;
  }
  draw(notices);
  allRead.addEventListener("click", async () => {
    await markRead(null);
    notices = notices.map((n) => ({ ...n, read: true }));
    draw(notices);
  });
  onNotices((n) => {
    notices = [n, ...notices.filter((m) => m.id !== n.id)];
    draw(notices);
  });
});
