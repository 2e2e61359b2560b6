// What the moderation tells a logged-in player on every page (templates/_account.html): a moderator's warnings he
// has not yet said he read (each until he does: "I have read it"), his mute while it lasts (not on a table's page,
// where play comes first), and, to a moderator, the link to his desk in the top bar.  A guest asks nothing.
import { who } from "./account-link.js";
import { el } from "./dom.js";
import { lang, t } from "./i18n.js";
import { postJSON } from "./net.js";

function when(iso) {
  try {
    return new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return iso;
  }
}

function place(box) {
  const bar = document.querySelector("header.topbar");
  if (bar) bar.after(box);
  else document.body.prepend(box);
}

function showWarning(w) {
  const read = el("button", { type: "button", class: "primary" }, t("I have read it"));
  const error = el("p", { class: "error", role: "alert" });
  const box = el(
    "section",
    { class: "mod-banner mod-warning", role: "alert", "data-warning": w.id },
    el("h2", {}, t("A moderator has warned you")),
    el("p", { class: "mod-reason" }, w.reason),
    el("p", { class: "muted small" }, when(w.at) + " · " + t("Please keep to the rules of the room: a moderator may mute or ban an account that does not.")),
    el("p", {}, read),
    error,
  );
  read.addEventListener("click", async () => {
    read.disabled = true;
    try {
      await postJSON("/api/moderation/me/read", { warning: w.id });
      box.remove();
    } catch (e) {
      error.textContent = e.message;
      read.disabled = false;
    }
  });
  place(box);
}

function showMute(data) {
  if (document.body.classList.contains("table-page")) return;
  const words = data.muted_until
    ? t("A moderator has muted you until {when}: you may play, but not write for others.", { when: when(data.muted_until) })
    : t("A moderator has muted you until further notice: you may play, but not write for others.");
  place(el("p", { class: "mod-banner mod-muted notice", role: "status" }, words));
}

function showDeskLink() {
  const account = document.getElementById("account-link");
  if (!account || document.getElementById("desk-link")) return;
  account.before(el("a", { class: "button desk-link", id: "desk-link", href: "/moderation" }, t("Moderation")));
}

async function notices() {
  const user = await who;
  if (!user) return;
  let data;
  try {
    const r = await fetch("/api/moderation/me", { cache: "no-store" });
    if (!r.ok) return;
    data = await r.json();
  } catch {
    return; // the server is unreachable: nothing to tell now
  }
  if (data.moderator) showDeskLink();
  if (data.muted) showMute(data);
  for (const w of [...(data.warnings || [])].reverse()) showWarning(w); // the oldest on top
}

notices();
