// Duplicate against the computer (barbu/web/shadow.py): at a table of one person and computer players, the
// server replays each finished deal with the expert in the person's seat and tells that seat alone
// {type: "shadow", deal, you, expert, diff, advantage, deals, worst, pending, over}.  Shown under the
// scoresheet's title (the last deal beside the expert's score, the running difference) and, at the match's
// end, in its box: "You against the expert on your own cards: +14 over 28 deals" and the deals where the
// person lost most, each a link to that deal's analysis in the replay.  The same on the Bésigue table.
//
// The person may turn it off with the "Expert" box in the top bar, next to Rules (kept in localStorage like
// the Animations box): the page then says {type: "compare", on: false} at each connection, and the server
// replays nothing more for the table; ticked again, the deals finished meanwhile are replayed.

import { el } from "./dom.js";
import { num as numText, t, tn } from "./i18n.js";

const KEY = "barbu:compare";
let last = null; // the server's latest comparison
const byDeal = new Map(); // deal number -> its comparison, for the deal's summary on the felt

function fmt(x) {
  if (typeof x === "number") return numText(x);
  return /^-?\d+(\.\d+)?$/.test(String(x)) ? numText(Number(x)) : String(x);
}

function value(x) {
  if (typeof x === "number") return x;
  const [a, b] = String(x).split("/").map(Number);
  return b ? a / b : a;
}

// A difference with its sign ("+14", "-3", "0").
function signed(x) {
  return value(x) > 0 ? `+${fmt(x)}` : fmt(x);
}

function signClass(x) {
  const v = value(x);
  return v > 0 ? "plus" : v < 0 ? "minus" : "";
}

// Whether the person wants the comparison: his choice kept in this browser, on unless he unticked it.
export function compareOn() {
  if (override !== null) return override;
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

let override = null; // the choice made on this page, should storage refuse to keep it
let told = false; // the server heard this page's "off" on the present connection

function keep(on) {
  override = on;
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch { /* a private window may refuse: the choice lasts for this page */ }
}

// A new connection (a resync): the server is told the person's "off" again at the next render.
export function compareResync() {
  told = false;
}

// The top bar's "Expert" box, next to Rules and Animations, for the one person at a table of computer players
// (``info.compare``); `send(on)` tells the server.  Called at every render.
export function renderCompareBox(info, mySeat, send) {
  const offered = !!(info && info.compare && mySeat !== null && info.status !== "open");
  let label = document.getElementById("compare-label");
  if (!label && offered) {
    const anchor = document.getElementById("motion-toggle")?.closest("label") || document.getElementById("rules-link");
    if (!anchor) return;
    const box = el("input", { type: "checkbox", id: "compare-toggle", checked: compareOn(),
      "aria-label": t("Compare with the expert after each deal") });
    label = el("label", { id: "compare-label", class: "compare-toggle",
      title: t("Compare with the expert after each deal: the strongest computer player replays it in your seat on the same cards, in the background") },
      box, " ", el("span", { class: "compare-word", textContent: t("Expert") }));
    box.addEventListener("change", () => {
      keep(box.checked);
      told = !box.checked;
      send(box.checked);
      renderShadow();
      const end = document.getElementById("shadow-end");
      if (end) end.hidden = !box.checked;
      for (const line of document.querySelectorAll(".shadow-deal-end")) line.hidden = !box.checked;
    });
    anchor.after(label);
  }
  if (label) label.hidden = !offered;
  if (offered && !compareOn() && !told) {
    told = true;
    send(false);
  }
}

// A message of the table's socket: true when it was the comparison (and kept).
export function shadowMessage(msg) {
  if (msg.type !== "shadow") return false;
  if (!compareOn()) { // a server that forgot the person's choice (restarted): told again, and nothing shown
    told = false;
    return true;
  }
  last = msg;
  if (msg.deal) byDeal.set(msg.deal, msg);
  return true;
}

// The line for a deal's summary on the felt (null until the expert's replay of that deal came back).
export function dealEndLine(deal) {
  const r = byDeal.get(deal);
  if (!r || !compareOn()) return null;
  return el("p", { class: "shadow-deal-end " + signClass(r.diff),
    textContent: t("Expert in your seat: {expert} (you: {you}, {diff})", { expert: fmt(r.expert), you: fmt(r.you), diff: signed(r.diff) }) });
}

// The lines under the scoresheet's title.
export function renderShadow() {
  const box = document.getElementById("shadow-line");
  if (!box) return;
  box.hidden = !last || !compareOn();
  if (box.hidden) return;
  const lines = [];
  if (last.deal) {
    lines.push(el("span", { class: "shadow-deal" },
      t("Expert in your seat, deal {n}: {expert} (you: {you}, {diff})", {
        n: numText(last.deal), expert: fmt(last.expert), you: fmt(last.you), diff: signed(last.diff) })));
  }
  lines.push(el("strong", { class: "shadow-sum " + signClass(last.advantage) },
    tn("Against the expert: {diff} over {n} deal", "Against the expert: {diff} over {n} deals", last.deals,
      { diff: signed(last.advantage) })));
  box.replaceChildren(...lines.flatMap((x, i) => (i ? [el("br"), x] : [x])));
  box.title = t("The strongest computer player replayed each deal on your cards, the other seats played as here: the difference is your play's, not the cards'.");
}

// The end-of-match box's part: the sum and the deals where the person lost most, linked to their analysis.
export function renderShadowEnd(tableId, contractName) {
  const standings = document.getElementById("standings");
  if (!standings) return;
  let box = document.getElementById("shadow-end");
  if (!last || !compareOn()) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = el("div", { id: "shadow-end", class: "shadow-end" });
    standings.after(box);
  }
  const parts = [el("p", { class: "shadow-total" }, el("strong", { class: signClass(last.advantage),
    textContent: tn("You against the expert on your own cards: {diff} over {n} deal",
      "You against the expert on your own cards: {diff} over {n} deals", last.deals, { diff: signed(last.advantage) }) }))];
  if (last.pending) {
    parts.push(el("p", { class: "muted", textContent: tn("Still replaying {n} deal with the expert…",
      "Still replaying {n} deals with the expert…", last.pending) }));
  }
  if (last.worst && last.worst.length) {
    parts.push(el("p", { textContent: t("The deals where you lost most to the expert:") }));
    parts.push(el("ul", { class: "shadow-worst" }, ...last.worst.map((w) => el("li", {},
      el("a", { href: `/t/${encodeURIComponent(tableId)}/replay#deal=${w.deal}&move=0`,
        title: w.contract ? t("Open this deal's analysis in the replay") : t("Open this deal in the replay"),
        textContent: w.contract // Bésigue's deals have no contract
          ? t("Deal {n}, {contract}: you {you}, expert {expert} ({diff})", {
            n: numText(w.deal), contract: contractName(w.contract), you: fmt(w.you), expert: fmt(w.expert),
            diff: signed(w.advantage) })
          : t("Deal {n}: you {you}, expert {expert} ({diff})", {
            n: numText(w.deal), you: fmt(w.you), expert: fmt(w.expert), diff: signed(w.advantage) }) })))));
  }
  box.replaceChildren(...parts);
}
