// Bésigue's words shared by the table (besigue.js) and the replay (replay.js): the combinations' names and
// values, the cards in Bésigue's order, and an action as advice or as told after it was made.

import { prettyCards } from "./cards.js";
import { card as cardLabel, num, t, tp } from "./i18n.js";

// TRANSLATORS: Bésigue's combinations, as a name on a button or a chip (capitalised).
export const MELDS = {
  "marriage": tp("meld", "Marriage"), "trump-marriage": tp("meld", "Trump marriage"), "bezique": tp("meld", "Bésigue"),
  "double-bezique": tp("meld", "Double bésigue"), "four-jacks": tp("meld", "Four jacks"),
  "four-queens": tp("meld", "Four queens"), "four-kings": tp("meld", "Four kings"), "four-aces": tp("meld", "Four aces"),
  "quint": tp("meld", "Quint major"),
};
export const VALUES = {
  "marriage": 20, "trump-marriage": 40, "bezique": 40, "four-jacks": 40, "four-queens": 60,
  "four-kings": 80, "four-aces": 100, "quint": 250, "double-bezique": 500,
};
const RANK_ORDER = "ATKQJ987";
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };


// Bésigue's order: A 10 K Q J 9 8 7 (the 10 above the king), suits alternating in colour.
export function sortCards(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]));
}

// "declare bezique QS JD" -> {kind, cards: [{card, table}]}
export function parseDeclare(text) {
  const [, kind, ...cards] = text.split(" ");
  return { kind, cards: cards.map((c) => ({ card: c.replace("*", ""), table: c.endsWith("*") })) };
}

export const meldName = (kind) => MELDS[kind] || kind;

// An action as advice to the player about to act ("Play Q♠", "Declare Bésigue (40)").
export function actionHint(text) {
  if (text === "no-declaration") return t("Declare nothing");
  const [verb, ...rest] = text.split(" ");
  if (verb === "play") {
    const c = cardLabel(rest[0].replace("*", ""));
    return rest[0].endsWith("*") ? t("Play {card} from the table", { card: c }) : t("Play {card}", { card: c });
  }
  if (verb === "declare") {
    const d = parseDeclare(text);
    return t("Declare {meld} ({points})", { meld: meldName(d.kind), points: num(VALUES[d.kind] || 0) });
  }
  if (verb === "exchange") return t("Exchange {card} for the turn-up (10)", { card: cardLabel(rest[0]) });
  if (verb === "show") return t("Show {card} (10)", { card: cardLabel(rest[0]) });
  return prettyCards(text);
}

// An action as told after it was made, by the player named (`me`: the reader himself) ("Anne played Q♠", "You played Q♠": each its own sentence,
// since "you" takes its own verb form in French and Italian).
export function toldAction(name, text, me = false, cardWords = cardLabel) {
  if (text === "no-declaration") return me ? t("You declared nothing") : t("{name} declared nothing", { name });
  const [verb, ...rest] = text.split(" ");
  if (verb === "play") {
    const card = cardWords(rest[0].replace("*", ""));
    if (rest[0].endsWith("*")) {
      return me ? t("You played {card} from the table", { card }) : t("{name} played {card} from the table", { name, card });
    }
    return me ? t("You played {card}", { card }) : t("{name} played {card}", { name, card });
  }
  if (verb === "declare") {
    const d = parseDeclare(text);
    const said = { name, meld: meldName(d.kind), points: num(VALUES[d.kind] || 0) };
    return me ? t("You declared {meld} ({points})", said) : t("{name} declared {meld} ({points})", said);
  }
  if (verb === "exchange") {
    const card = cardWords(rest[0]);
    return me ? t("You exchanged {card} for the turn-up (10)", { card }) : t("{name} exchanged {card} for the turn-up (10)", { name, card });
  }
  if (verb === "show") {
    const card = cardWords(rest[0]);
    return me ? t("You showed {card} (10)", { card }) : t("{name} showed {card} (10)", { name, card });
  }
  return `${name} ${prettyCards(text)}`;
}
