// "Your turn" (issue 32): the turn-based tables waiting for the logged-in player's move, as GET
// /api/account/turns lists them (the longest waiting first), in the lobby and on his own profile.  Each row
// says the game in words, how long the table has waited for him and how much of the move's time is left,
// and links to the table.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { rulesTitle } from "./tablewords.js";
import { clockWords, longTime } from "./clock.js";

// The tables waiting for him, or null when the server does not say (a guest, a failure): the page then keeps
// what it shows.
export async function fetchTurns() {
  try {
    const r = await fetch("/api/account/turns", { credentials: "same-origin", cache: "no-store" });
    if (!r.ok) return null;
    const data = await r.json();
    return data && Array.isArray(data.tables) ? data.tables : null;
  } catch {
    return null;
  }
}

// Seconds since the decision has been awaited (0 when the server did not say).
function waited(tb) {
  const since = Date.parse(tb.since || "");
  return Number.isNaN(since) ? 0 : Math.max(0, (Date.now() - since) / 1000);
}

function waitedWords(seconds) {
  return seconds < 60 ? t("waiting for less than a minute") : t("waiting for {time}", { time: longTime(seconds, false) });
}

// What is left of the move's own time, before the reserve runs ("" when the clock does not read).
function leftWords(tb, seconds) {
  const m = /^(\d+(?:\.\d+)?)\+/.exec(String(tb.clock || ""));
  if (!m) return "";
  const left = Number(m[1]) - seconds;
  return left > 0 ? t("{time} left for this move", { time: longTime(left) }) : t("the move's time is spent: your reserve runs");
}

// One row per waiting table: its game, how long it has waited, the time left, and "Play".
export function turnRows(tables) {
  return tables.map((tb) => {
    const seconds = waited(tb);
    const left = leftWords(tb, seconds);
    const clock = clockWords(tb.clock);
    return el("div", { class: "table-row turn-row", "data-turn": tb.id },
      el("div", { class: "turn-what" },
        el("strong", { textContent: rulesTitle(tb.rules), title: tb.rules }),
        el("span", { class: "turn-waited", textContent: waitedWords(seconds) }),
        left || clock ? el("span", { class: "muted turn-left", textContent: [left, clock].filter(Boolean).join(" · ") }) : null),
      el("div", { class: "row-actions" },
        el("a", { href: tb.url || `/t/${encodeURIComponent(tb.id)}`, class: "button primary", textContent: t("Play"),
          title: t("Open the table and make your move") })));
  });
}

// Fill `panel` (its list in `box`) with the waiting tables, hidden when there is none; a failure leaves it as it
// was.  Returns the tables, or null.
export async function showTurns(panel, box) {
  const tables = await fetchTurns();
  if (tables === null) return null;
  box.replaceChildren(...turnRows(tables));
  panel.hidden = !tables.length;
  panel.dataset.count = String(tables.length);
  return tables;
}
