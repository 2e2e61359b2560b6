// Cards as the server sends them ("QH", "TS") and as people read them ("Q♥", "10♠"; "D♥" in French).

import { card as cardWords, namedSuit, rankLetter, t, tp } from "./i18n.js";

export const SUITS = "SHDC";
export const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const RANKS = "23456789TJQKA";
const CARD_RE = /^[2-9TJQKA][SHDC]$/;
const FACE_LETTERS = { J: 1, Q: 1, K: 1, A: 1 };

export function isCard(text) {
  return CARD_RE.test(text);
}

export function rankLabel(r) {
  return r === "T" ? "10" : r;
}

// A card as the page's language writes it: "Q♥" in English, "D♥" in French and Italian.
export function cardLabel(card) {
  return cardWords(card);
}

export function isRed(card) {
  return card[1] === "H" || card[1] === "D";
}

// Hand order for people: spades, hearts, clubs, diamonds (colours alternate), high cards first.
const DISPLAY_SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
export function sortHand(cards) {
  return [...cards].sort((a, b) =>
    DISPLAY_SUIT_ORDER[a[1]] - DISPLAY_SUIT_ORDER[b[1]] || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
}

// ------------------------------------------------------------------ card faces, drawn in SVG
// A face is a 64 x 90 card: white, rounded, the rank and suit in two opposite corners, and in
// the middle the pips (2 to 10), one large suit (ace) or a framed letter (jack, queen, king).
// The suit shapes are drawn here from curves, so every browser shows the same crisp card.

const NS = "http://www.w3.org/2000/svg";
const W = 64, H = 90;

// Each suit as a path in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 92C30 72 2 52 2 28 2 12 14 2 28 2c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 10 26 26 0 24-28 44-48 64Z",
  D: "M50 2C62 20 76 36 92 50 76 64 62 80 50 98 38 80 24 64 8 50 24 36 38 20 50 2Z",
  S: "M50 2C40 22 4 40 4 64c0 14 11 24 24 24 9 0 16-4 19-10-1 9-5 16-13 22h32c-8-6-12-13-13-22 3 6 10 10 19 10 13 0 24-10 24-24C96 40 60 22 50 2Z",
  C: "M50 4a21 21 0 0 0-19 30 21 21 0 1 0 15 33c-1 13-5 23-14 31h36c-9-8-13-18-14-31a21 21 0 1 0 15-33A21 21 0 0 0 50 4Z",
};

// Pip centres for 2 to 10 on a card: columns L, C, R and rows 0 (top) to 1 (bottom).
const L = 23.5, C = 32, R = 40.5;
const PIPS = {
  2: [[C, 0], [C, 1]],
  3: [[C, 0], [C, .5], [C, 1]],
  4: [[L, 0], [R, 0], [L, 1], [R, 1]],
  5: [[L, 0], [R, 0], [C, .5], [L, 1], [R, 1]],
  6: [[L, 0], [R, 0], [L, .5], [R, .5], [L, 1], [R, 1]],
  7: [[L, 0], [R, 0], [C, .25], [L, .5], [R, .5], [L, 1], [R, 1]],
  8: [[L, 0], [R, 0], [C, .25], [L, .5], [R, .5], [C, .75], [L, 1], [R, 1]],
  9: [[L, 0], [R, 0], [L, 1 / 3], [R, 1 / 3], [C, .5], [L, 2 / 3], [R, 2 / 3], [L, 1], [R, 1]],
  10: [[L, 0], [R, 0], [C, 1 / 6], [L, 1 / 3], [R, 1 / 3], [L, 2 / 3], [R, 2 / 3], [C, 5 / 6], [L, 1], [R, 1]],
};
const PIP_TOP = 15, PIP_BOTTOM = 75, PIP_SIZE = 11.5;
// The ranks' English names, the keys of their words in the catalog (context "rank").
const RANK_NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];

function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// One suit shape of `size` units centred on (x, y); upside down for the card's lower half.
function suitShape(suit, x, y, size, flip = false) {
  const k = size / 100;
  const turn = flip ? ` rotate(180 ${x} ${y})` : "";
  return svgEl("path", { d: SUIT_PATHS[suit], transform: `${turn} translate(${x - size / 2} ${y - size / 2}) scale(${k})`.trim() });
}

function cornerIndex(card, compact) {
  const g = svgEl("g", { class: "index" });
  const rank = svgEl("text", compact
    ? { x: 20, y: 38, "font-size": 42, "text-anchor": "middle" }
    : { x: 8.5, y: 18, "font-size": 17, "text-anchor": "middle" });
  rank.textContent = rankLetter(card[0]);
  if (card[0] === "T") { // "10" is two figures: squeezed to the width of one
    rank.setAttribute("letter-spacing", compact ? "-6" : "-2.5");
    if (!compact) rank.setAttribute("textLength", "13");
    if (!compact) rank.setAttribute("lengthAdjust", "spacingAndGlyphs");
    rank.setAttribute("x", compact ? 19 : 7.5);
  }
  g.append(rank, compact ? suitShape(card[1], 20, 62, 30) : suitShape(card[1], 8.5, 27, 11.5));
  return g;
}

function centre(card) {
  const [r, s] = card;
  const g = svgEl("g", { class: "centre" });
  if (r === "A") {
    g.append(suitShape(s, W / 2, H / 2, 34));
  } else if ("JQK".includes(r)) {
    // A framed panel with the letter large and the suit above and below it.
    g.append(svgEl("rect", { x: 15, y: 13, width: 34, height: 64, rx: 3, class: "frame" }));
    g.append(svgEl("rect", { x: 18, y: 16, width: 28, height: 58, rx: 2, class: "frame-inner" }));
    g.append(suitShape(s, W / 2, 26, 12), suitShape(s, W / 2, 64, 12, true));
    const letter = svgEl("text", { x: W / 2, y: 54, "font-size": 27, "text-anchor": "middle", class: "letter" });
    letter.textContent = rankLetter(r);
    g.append(letter);
  } else {
    const n = r === "T" ? 10 : Number(r);
    for (const [x, f] of PIPS[n]) {
      const y = PIP_TOP + (PIP_BOTTOM - PIP_TOP) * f;
      g.append(suitShape(s, x, y, PIP_SIZE, f > .5));
    }
  }
  return g;
}

// The card's face as an <svg>; `compact` keeps only a large index, for small overlapping cards.
export function cardFace(card, compact = false) {
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "face", "data-rank": card[0], "data-suit": card[1],
    "aria-hidden": "true", focusable: "false" });
  svg.append(svgEl("rect", { x: .75, y: .75, width: W - 1.5, height: H - 1.5, rx: 5.5, class: "paper" }));
  const ink = svgEl("g", { class: isRed(card) ? "ink red" : "ink black" });
  ink.append(cornerIndex(card, compact));
  if (!compact) {
    const low = cornerIndex(card, false);
    low.setAttribute("transform", `rotate(180 ${W / 2} ${H / 2})`);
    ink.append(low, centre(card));
  }
  svg.append(ink);
  return svg;
}

// A card in words, as a screen reader says it: "queen of hearts", "dame de cœur", "donna di cuori".
export function cardName(card) {
  const rank = card[0] in FACE_LETTERS ? tp("rank", RANK_NAMES[RANKS.indexOf(card[0])]) : rankLabel(card[0]);
  return t("{rank} of {suit}", { rank, suit: namedSuit(card[1]) }); // "dame de cœur": the suit as a card names it
}

// A card as an element holding its SVG face; `tag` is "button" for cards one may click.
export function cardElement(card, tag = "span", { compact = false } = {}) {
  const el = document.createElement(tag);
  el.className = "card" + (isRed(card) ? " red" : " black") + (compact ? " compact" : "");
  el.dataset.card = card;
  el.append(cardFace(card, compact));
  el.setAttribute("aria-label", cardName(card));
  if (tag === "button") el.type = "button";
  else el.setAttribute("role", "img"); // a picture of a card, named by its words
  return el;
}

// A face-down card (an opponent's hand, the stock), drawn by CSS like the back of a real card.
export function cardBack() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// Replace card tokens in an action text by their symbols: "pass 7H 8S" -> "pass 7♥ 8♠".
export function prettyCards(text) {
  return text.replace(/\b([2-9TJQKA])([SHDC])\b/g, (c) => cardWords(c));
}
