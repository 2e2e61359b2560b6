// The moderators' desk (templates/moderation.html): the open reports grouped by what they are about, each group
// with the actions that apply to it now; the log, where an action is undone; the day's several finishers of a
// daily from one address.  Every action asks for its reason first (POST /api/moderation/act or …/undo), then the
// desk is read again (GET /api/moderation).
import { phraseWords } from "./chat.js";
import { el } from "./dom.js";
import { lang, t, tn } from "./i18n.js";
import { postJSON } from "./net.js";

const ACTIONS = {
  warn: () => t("Warn"),
  mute: () => t("Mute"),
  unmute: () => t("Lift the mute"),
  ban: () => t("Ban"),
  unban: () => t("Lift the ban"),
  remove: () => t("Remove"),
  restore: () => t("Restore"),
  dismiss: () => t("Dismiss the reports"),
};
const DONE = {
  warn: () => t("warned"),
  mute: () => t("muted"),
  unmute: () => t("mute lifted"),
  ban: () => t("banned"),
  unban: () => t("ban lifted"),
  remove: () => t("removed"),
  restore: () => t("restored"),
  dismiss: () => t("reports dismissed"),
  withdraw: () => t("warning withdrawn"),
  reopen: () => t("reports reopened"),
  delete: () => t("account deleted"),
  "role:moderator": () => t("made a moderator"),
  "role:player": () => t("made a player"),
};
const KINDS = { player: () => t("player"), club: () => t("club"), event: () => t("event"), message: () => t("chat message") };

const error = document.getElementById("desk-error");
const note = document.getElementById("desk-note");
let reasons = {};

function when(iso) {
  try {
    return new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return iso || "";
  }
}

function kindWord(kind) {
  return (KINDS[kind] || (() => kind))();
}

// An action's form, opened under `host`: its reason (and a mute's length), then `send(reason, hours)`.
function ask(host, title, confirm, withHours, send) {
  host.querySelector(".desk-act")?.remove();
  const form = document.getElementById("action-form").content.firstElementChild.cloneNode(true);
  form.querySelector(".desk-act-title").textContent = title;
  form.querySelector(".desk-confirm").textContent = confirm;
  form.querySelector(".desk-hours").hidden = !withHours;
  const reason = form.querySelector(".desk-reason");
  const fail = form.querySelector(".desk-act-error");
  form.querySelector(".desk-cancel").addEventListener("click", () => form.remove());
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector(".desk-confirm");
    button.disabled = true;
    fail.textContent = "";
    const hours = form.querySelector(".desk-hours-select").value;
    try {
      await send(reason.value, withHours && hours ? Number(hours) : null);
      note.textContent = t("Done: {title}. The log keeps it, and it can be undone there.", { title });
      note.hidden = false;
      await load();
      note.focus();
    } catch (e) {
      fail.textContent = e.message;
      button.disabled = false;
    }
  });
  host.append(form);
  reason.focus();
}

function stateTags(target) {
  const s = target.state || {};
  const tags = [el("span", { class: "tag kind" }, kindWord(target.kind))];
  if (target.moderator) tags.push(el("span", { class: "tag role" }, t("moderator")));
  if (s.banned) tags.push(el("span", { class: "tag left" }, t("banned")));
  if (s.muted_until) tags.push(el("span", { class: "tag provisional" }, t("muted until {when}", { when: when(s.muted_until) })));
  if (s.removed) tags.push(el("span", { class: "tag left" }, t("removed")));
  if (target.gone) tags.push(el("span", { class: "tag left" }, t("no longer exists")));
  return tags;
}

function available(target) {
  const s = target.state || {};
  if (target.gone) return ["dismiss"];
  const out = [];
  for (const a of target.actions || []) {
    if ((a === "mute" && s.muted_until) || (a === "unmute" && !s.muted_until)) continue;
    if ((a === "ban" && s.banned) || (a === "unban" && !s.banned)) continue;
    if ((a === "remove" && s.removed) || (a === "restore" && !s.removed)) continue;
    if (target.moderator && a !== "dismiss") continue; // the operator's, at the shell
    out.push(a);
  }
  out.push("dismiss");
  return out;
}

// A reported chat message among those said around it in its room (the reported one marked), its author's page
// linked when he has an account: the moderator warns or mutes him there.
function chatContext(target) {
  const s = target.state || {};
  const author = s.account
    ? el("a", { href: `/u/${encodeURIComponent(s.author)}` }, s.author)
    : el("span", {}, t("{name} (a guest)", { name: s.author || "" }));
  const lines = (s.context || []).map((m) =>
    el(
      "li",
      { class: String(m.seq) === String(target.id) ? "desk-context-reported" : null },
      el("strong", {}, m.from),
      ": ",
      m.text !== null && m.text !== undefined ? m.text : phraseWords(m.phrase),
      m.removed ? el("span", { class: "tag left" }, t("removed")) : null,
    ));
  const room = s.room === "spectators" ? t("the spectators' room") : t("the players' room");
  return el(
    "div",
    { class: "desk-about desk-context" },
    el("p", { class: "muted small" }, t("Said by"), " ", author, " ", t("in {room}, with what was said around it:", { room })),
    el("ol", { class: "desk-context-list" }, ...lines),
  );
}

function groupCard(g) {
  const target = g.target;
  const name = target.url
    ? el("a", { href: target.url, class: "desk-target" }, target.label)
    : el("span", { class: "desk-target" }, target.label);
  const reports = el(
    "ul",
    { class: "desk-reports-list" },
    ...g.reports.map((r) =>
      el(
        "li",
        {},
        el("span", { class: "desk-reason-tag" }, reasons[r.reason] || r.reason),
        " ",
        r.reporter ? el("a", { href: `/u/${encodeURIComponent(r.reporter)}` }, r.reporter) : el("em", {}, t("a deleted player")),
        el("span", { class: "muted small" }, " · " + when(r.at)),
        r.text ? el("blockquote", { class: "desk-words" }, r.text) : null,
      ),
    ),
  );
  const card = el(
    "article",
    { class: "desk-group", "data-kind": target.kind, "data-target": target.id },
    el("header", {}, el("h3", {}, name), el("p", { class: "desk-tags" }, ...stateTags(target))),
    target.kind === "message" ? chatContext(target) : target.about ? el("p", { class: "desk-about" }, target.about) : null,
    el("p", { class: "muted small" }, tn("{n} open report", "{n} open reports", g.reports.length, { n: g.reports.length })),
    reports,
  );
  const buttons = el("p", { class: "desk-actions" });
  for (const a of available(target)) {
    const b = el("button", { type: "button", class: a === "ban" || a === "remove" ? "danger" : null, "data-action": a }, ACTIONS[a]());
    b.addEventListener("click", () =>
      ask(card, `${ACTIONS[a]()} · ${target.label}`, ACTIONS[a](), a === "mute", (reason, hours) =>
        postJSON("/api/moderation/act", { action: a, kind: target.kind, target: target.id, reason, hours }),
      ),
    );
    buttons.append(b);
  }
  const author = target.kind === "message" && !target.gone ? target.state || {} : {};
  if (author.account && !author.author_muted) {
    // the reported message's author muted for everyone, from the card that shows what he said
    const words = t("Mute {name} everywhere", { name: author.author });
    const b = el("button", { type: "button", "data-action": "mute-author" }, words);
    b.addEventListener("click", () =>
      ask(card, words, ACTIONS.mute(), true, (reason, hours) =>
        postJSON("/api/moderation/act", { action: "mute", kind: "player", target: String(author.account), reason, hours }),
      ),
    );
    buttons.append(b);
  }
  card.append(buttons);
  return card;
}

function logRow(e) {
  const what = (DONE[e.action] || (() => e.action))();
  const row = el(
    "li",
    { class: "desk-entry" + (e.undone_by ? " undone" : ""), "data-entry": e.id },
    el("span", { class: "muted small" }, when(e.at)),
    " ",
    el("strong", {}, e.moderator || t("the operator")),
    " · ",
    el("span", { class: "desk-what" }, what),
    e.until ? el("span", { class: "muted" }, " " + t("until {when}", { when: when(e.until) })) : null,
    " · ",
    el("span", {}, `${kindWord(e.kind)} ${e.label}`),
    el("div", { class: "desk-why" }, e.reason),
  );
  if (e.undone_by) row.append(el("span", { class: "tag" }, t("undone")));
  if (e.undoable) {
    const b = el("button", { type: "button", class: "desk-undo" }, t("Undo"));
    b.addEventListener("click", () =>
      ask(row, t("Undo: {what} · {target}", { what, target: e.label }), t("Undo"), false, (reason) =>
        postJSON("/api/moderation/undo", { entry: e.id, reason }),
      ),
    );
    row.append(b);
  }
  return row;
}

function dailyMarks(marks) {
  const panel = document.getElementById("daily-panel");
  const box = document.getElementById("daily-marks");
  box.replaceChildren();
  panel.hidden = !marks || marks.length === 0;
  for (const m of marks || []) {
    box.append(
      el(
        "p",
        { class: "desk-daily-mark" },
        el("strong", {}, m.game),
        " · ",
        el("code", {}, m.address),
        " · ",
        ...m.finishers.flatMap((f, i) => [
          i ? ", " : "",
          f.user_id ? el("a", { href: `/u/${encodeURIComponent(f.name)}` }, f.name) : el("span", {}, f.name || t("a guest")),
          f.after_guest ? el("span", { class: "tag provisional" }, t("after a guest")) : "",
        ]),
      ),
    );
  }
}

async function load() {
  let data;
  try {
    const r = await fetch("/api/moderation", { cache: "no-store" });
    data = await r.json();
    if (!r.ok) throw new Error(data.error || t("request failed ({status})", { status: r.status }));
  } catch (e) {
    error.textContent = e.message;
    return;
  }
  error.textContent = "";
  reasons = data.reasons || {};
  document.getElementById("desk-loading").hidden = true;
  document.getElementById("reports-count").textContent = String(data.groups.reduce((n, g) => n + g.reports.length, 0));
  const groups = document.getElementById("groups");
  groups.replaceChildren(...data.groups.map(groupCard));
  if (!data.groups.length) groups.append(el("p", { class: "muted empty" }, t("No open reports.")));
  const log = document.getElementById("desk-log");
  log.replaceChildren(el("ol", { class: "desk-log-entries" }, ...data.log.map(logRow)));
  if (!data.log.length) log.append(el("p", { class: "muted empty" }, t("Nothing in the log yet.")));
  dailyMarks(data.daily);
  document.getElementById("desk").dataset.loaded = "1";
}

load();
