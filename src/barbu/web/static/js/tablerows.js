// A table as the lobby lists it (the open tables, "My tables"): a chip per seat and how far its match has got.
import { el } from "./dom.js";
import { num, strength, t, tn } from "./i18n.js";
import { ratingChip } from "./playerwords.js";

// One seat's chip: a free seat, a computer player and its strength, or a person's name ("(you)" for `mine`),
// with the seat's rating in the table's game beside it when it has one ("1 480", "1 000?" while provisional).
export function seatLine(s, mine = false) {
  if (s.kind === "open") return el("span", { class: "seat-open", textContent: t("free seat") });
  const chip = s.kind === "bot"
    ? el("span", { class: "seat-bot", textContent: t("computer · {strength}", { strength: strength(s.strength) }) })
    : el("span", { class: mine ? "seat-human seat-you" : "seat-human", textContent: mine ? t("{name} (you)", { name: s.name }) : s.name });
  const rating = ratingChip(s.rating);
  if (rating) chip.append(rating);
  return chip;
}

// The deal being played: "deal 3 of 28", or "deal 3" in a game played to a target (Bésigue).
export function dealProgress(tb) {
  return tb.total_deals ? t("deal {n} of {total}", { n: num(tb.deal_number), total: num(tb.total_deals) })
    : t("deal {n}", { n: num(tb.deal_number) });
}

// "· 4 players · 2 free seats": the line after a listed table's game.
export function playersLine(tb, status) {
  return "· " + tn("{n} player", "{n} players", tb.players) + ` · ${status}`;
}
