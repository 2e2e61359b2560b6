// Duplicate against the computer (barbu/web/shadow.py): at a table of one person and computer players, the
// server replays each finished deal with the expert in the person's seat and tells that seat alone
// {type: "shadow", deal, you, expert, diff, advantage, deals, worst, pending, over}.  Shown under the
// scoresheet's title (the last deal beside the expert's score, the running difference) and, at the match's
// end, in its box: "You against the expert on your own cards: +14 over 28 deals" and the deals where the
// person lost most, each a link to that deal's analysis in the replay.

import { el } from "./dom.js";
import { num as numText, t, tn } from "./i18n.js";

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

// A message of the table's socket: true when it was the comparison (and kept).
export function shadowMessage(msg) {
  if (msg.type !== "shadow") return false;
  last = msg;
  if (msg.deal) byDeal.set(msg.deal, msg);
  return true;
}

// The line for a deal's summary on the felt (null until the expert's replay of that deal came back).
export function dealEndLine(deal) {
  const r = byDeal.get(deal);
  if (!r) return null;
  return el("p", { class: "shadow-deal-end " + signClass(r.diff),
    textContent: t("Expert in your seat: {expert} (you: {you}, {diff})", { expert: fmt(r.expert), you: fmt(r.you), diff: signed(r.diff) }) });
}

// The lines under the scoresheet's title.
export function renderShadow() {
  const box = document.getElementById("shadow-line");
  if (!box) return;
  box.hidden = !last;
  if (!last) return;
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
  if (!last) {
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
        title: t("Open this deal's analysis in the replay"),
        textContent: t("Deal {n}, {contract}: you {you}, expert {expert} ({diff})", {
          n: numText(w.deal), contract: contractName(w.contract), you: fmt(w.you), expert: fmt(w.expert),
          diff: signed(w.advantage) }) })))));
  }
  box.replaceChildren(...parts);
}
