// Cards as the server sends them ("QH", "TS") and as people read them ("Q♥", "10♠").

export const SUITS = "SHDC";
export const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const RANKS = "23456789TJQKA";
const CARD_RE = /^[2-9TJQKA][SHDC]$/;

export function isCard(text) {
  return CARD_RE.test(text);
}

export function rankLabel(r) {
  return r === "T" ? "10" : r;
}

export function cardLabel(card) {
  return rankLabel(card[0]) + SYMBOLS[card[1]];
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

// A card face as an element; `tag` is "button" for cards one may click.
export function cardElement(card, tag = "span") {
  const el = document.createElement(tag);
  el.className = "card" + (isRed(card) ? " red" : " black");
  el.dataset.card = card;
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankLabel(card[0]);
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = SYMBOLS[card[1]];
  el.append(rank, suit);
  el.setAttribute("aria-label", `${rankLabel(card[0])} of ${SUIT_NAMES[card[1]]}`);
  if (tag === "button") el.type = "button";
  return el;
}

export function cardBack() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// Replace card tokens in an action text by their symbols: "pass 7H 8S" -> "pass 7♥ 8♠".
export function prettyCards(text) {
  return text.replace(/\b([2-9TJQKA])([SHDC])\b/g, (_, r, s) => rankLabel(r) + SYMBOLS[s]);
}
