// The lobby's "My tables": every table this browser holds a seat at or created (their credentials are in
// localStorage), with how far it has got, and Resume, Leave (a table with other people) or End (a table of
// computer players), each asked for once more before it is done. The server answers by the credentials
// (POST /api/tables/mine); a table they open no more is forgotten here.
import { keepFocus } from "./a11y.js";
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { forgetSeat, loadCreator, loadSeat, postJSON } from "./net.js";
import { rulesTitle } from "./tablewords.js";
import { dealProgress, playersLine, seatLine } from "./tablerows.js";
import { who } from "./account-link.js";

const $ = (id) => document.getElementById(id);
const MAX = 50; // tables one request asks about (barbu/web/mytables.py MINE_MAX)
let asking = null; // the table whose Leave or End waits for its confirmation: it is not redrawn meanwhile

// The ids of the tables this browser holds a credential for.
function heldIds() {
  const ids = new Set();
  for (let i = 0; i < localStorage.length; i++) {
    const m = /^barbu:(?:seat|creator):(.+)$/.exec(localStorage.key(i) || "");
    if (m) ids.add(m[1]);
  }
  return [...ids].slice(0, MAX);
}

function credentials(id) {
  const seat = loadSeat(id);
  return { token: seat && seat.token ? seat.token : null, creator: loadCreator(id) };
}

// This browser lets go of a table: its seat, its creator's credential and its invitation.
function forget(id) {
  forgetSeat(id);
  localStorage.removeItem(`barbu:creator:${id}`);
  localStorage.removeItem(`barbu:invite:${id}`);
}

function progress(tb) {
  if (tb.status === "open") return t("waiting for players");
  if (tb.status === "over") {
    return tb.ended ? tn("ended after {n} deal", "ended after {n} deals", tb.deals_done) : t("finished");
  }
  return dealProgress(tb);
}

// What Leave or End will do, said before it is done.
function question(tb, action) {
  if (action === "end") {
    if (tb.status === "open") return t("Close this table? Nobody will be able to take a seat at it.");
    if (tb.deals_done) {
      return tn("End this match? The computer players stop; its {n} finished deal stays in its replay.",
        "End this match? The computer players stop; its {n} finished deals stay in its replay.", tb.deals_done);
    }
    return t("End this match? No deal has been finished, so nothing of it is kept.");
  }
  if (tb.seat === null) return t("Stop following this table? It goes on without you and no longer counts as yours.");
  if (tb.status === "open") return t("Leave this table? Your seat becomes free for someone else.");
  return t("Leave this match? A computer player takes your seat and plays it to the end; you cannot come back to it.");
}

function button(text, cls, data, onClick) {
  const b = el("button", { type: "button", class: cls, textContent: text, [data]: "" });
  b.addEventListener("click", onClick);
  return b;
}

function actions(tb, row) {
  const box = el("div", { class: "row-actions" });
  const url = `/t/${encodeURIComponent(tb.id)}`;
  if (tb.status === "over") {
    if (tb.deals_done) box.append(el("a", { href: `${url}/replay`, class: "button", textContent: t("Replay"), "data-mine-replay": "" }));
    box.append(button(t("Forget"), "", "data-mine-forget", () => { forget(tb.id); row.remove(); showPanel(); }));
    return box;
  }
  box.append(el("a", { href: url, class: "button primary", "data-mine-resume": "",
    textContent: tb.seat === null ? t("Open") : t("Resume") }));
  const action = tb.people ? "leave" : "end";
  box.append(button(action === "end" ? t("End") : t("Leave"), "danger", `data-mine-${action}`, () => ask(tb, action, row)));
  return box;
}

// The confirmation, in the row itself: what will happen, then Yes or Cancel.
function ask(tb, action, row) {
  asking = tb.id;
  const yes = button(action === "end" ? t("Yes, end it") : t("Yes, leave"), "danger", "data-mine-yes", async () => {
    yes.disabled = true;
    await act(tb, action, row);
  });
  const no = button(t("Cancel"), "", "data-mine-cancel", () => { asking = null; loadMine(); });
  const box = el("div", { class: "mine-confirm", role: "alertdialog", "aria-live": "assertive" },
    el("p", { textContent: question(tb, action) }), el("div", { class: "row-actions" }, yes, no),
    el("p", { class: "error", role: "alert" }));
  row.querySelector(".row-actions").replaceWith(box);
  no.focus();
}

async function act(tb, action, row) {
  try {
    const data = await postJSON(`/api/tables/${encodeURIComponent(tb.id)}/${action}`, credentials(tb.id));
    if (action === "leave" || !data.kept) forget(tb.id);
    $("mine-note").textContent = action === "leave" ? t("You have left the table.")
      : data.kept ? t("The match is ended: its replay is kept.") : t("The table is closed.");
    asking = null;
    await loadMine();
  } catch (e) {
    row.querySelector(".mine-confirm .error").textContent = e.message;
    row.querySelector("[data-mine-yes]").disabled = false;
  }
}

function rowOf(tb) {
  const row = el("div", { class: "table-row", "data-mine": tb.id, "data-status": tb.status });
  const seats = el("div", { class: "seat-list" });
  tb.seats.forEach((s, i) => seats.append(seatLine(s, i === tb.seat, { seat: i, me: tb.seat, players: tb.players })));
  row.append(
    el("div", {}, el("strong", { textContent: rulesTitle(tb.rules), title: tb.rules }),
      tb.rated ? el("span", { class: "rated-mark", textContent: t("Rated") }) : null, " ",
      el("span", { class: "muted", textContent: playersLine(tb, progress(tb)) })),
    seats, actions(tb, row));
  return row;
}

function showPanel() {
  $("mine-panel").hidden = !$("mine").children.length;
}

// Ask the server about this browser's tables and show them (the panel is hidden when there is none).  Logged
// in, the server adds the unfinished tables the account holds a seat at, whichever browser took it.
export async function loadMine() {
  if (asking !== null) return;
  const ids = heldIds();
  if (!ids.length && !(await who)) {
    $("mine").replaceChildren();
    showPanel();
    return;
  }
  let tables;
  try {
    tables = (await postJSON("/api/tables/mine", { tables: ids.map((id) => ({ id, ...credentials(id) })) })).tables;
  } catch {
    return; // the next refresh tries again
  }
  if (asking !== null) return;
  const shown = [];
  for (const tb of tables) {
    if (tb.gone) {
      forget(tb.id);
      continue;
    }
    if (tb.seat === null && loadSeat(tb.id)) forgetSeat(tb.id); // that seat is no longer ours
    shown.push(tb);
  }
  // Unfinished first, then what is over.
  shown.sort((a, b) => (a.status === "over") - (b.status === "over"));
  keepFocus(() => $("mine").replaceChildren(...shown.map(rowOf)), () => null); // refreshed: the focus keeps its place
  showPanel();
}

// A per-address limit was reached: show "My tables", where one can be ended or left, and say so by the error.
export function pointToMine(errorBox) {
  const panel = $("mine-panel");
  if (panel.hidden) return;
  const link = el("a", { href: "#mine-panel", class: "mine-link", textContent: t("See My tables") });
  errorBox.append(" ", link);
  panel.classList.remove("pointed");
  void panel.offsetWidth; // the highlight starts again
  panel.classList.add("pointed");
  panel.scrollIntoView({ block: "start", behavior: "smooth" });
  panel.querySelector("h2").focus({ preventScroll: true });
}
