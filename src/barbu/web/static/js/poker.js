// Poker ranks of Chinese poker rows, to advise while the rows are built: the row's category and a
// warning when the rows break back ≥ middle ≥ front. The same order as the engine's
// barbu.chinese.rank_of (a browser test compares the two); the server alone decides the scores.

import { RANKS } from "./cards.js";
import { t } from "./i18n.js";

export const CATEGORY_NAMES = ["high card", "pair", "two pair", "three of a kind", "straight", "flush",
  "full house", "four of a kind", "straight flush"];

// A 5- or 3-card row's rank as an array that compares (compareRanks) the way hands do.
export function rowRank(cards) {
  const ranks = cards.map((c) => RANKS.indexOf(c[0])).sort((a, b) => b - a);
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) || 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const pattern = groups.map((g) => g[1]).join("");
  const ordered = groups.map((g) => g[0]);
  if (cards.length === 3) {
    if (pattern === "3") return [3, ordered[0]];
    if (pattern === "21") return [1, ...ordered];
    return [0, ...ranks];
  }
  const flush = new Set(cards.map((c) => c[1])).size === 1;
  let high = null;
  if (counts.size === 5) {
    if (ranks[0] - ranks[4] === 4) high = ranks[0];
    else if (ranks.join() === "12,3,2,1,0") high = 3; // the wheel, A-2-3-4-5
  }
  if (high !== null && flush) return [8, high];
  if (pattern === "41") return [7, ...ordered];
  if (pattern === "32") return [6, ...ordered];
  if (flush) return [5, ...ranks];
  if (high !== null) return [4, high];
  if (pattern === "311") return [3, ...ordered];
  if (pattern === "221") return [2, ...ordered];
  if (pattern === "2111") return [1, ...ordered];
  return [0, ...ranks];
}

// Negative, zero or positive, like a comparison of the engine's rank tuples.
export function compareRanks(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

// A row's category in the page's language ("two pair"; "double paire"; "doppia coppia").
export function categoryName(cards) {
  return [t("high card"), t("pair"), t("two pair"), t("three of a kind"), t("straight"), t("flush"),
    t("full house"), t("four of a kind"), t("straight flush")][rowRank(cards)[0]];
}

// True when complete rows break back ≥ middle ≥ front (a fouled hand loses all its rows).
export function isFouled(back, middle, front) {
  const b = rowRank(back), m = rowRank(middle), f = rowRank(front);
  return compareRanks(b, m) < 0 || compareRanks(m, f) < 0;
}
