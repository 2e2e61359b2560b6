// A table as the lobby lists it (the open tables, "My tables"): a chip per seat and how far its match has got.
import { el } from "./dom.js";
import { num, strength, t, tn } from "./i18n.js";
import { ratingChip } from "./playerwords.js";
import { computerName } from "./tablewords.js";

// One seat's chip: a free seat, a computer player and its strength, or a person's name ("(you)" for `mine`),
// with the seat's rating in the table's game beside it when it has one ("1 480", "1 000?" while provisional).
// Given `at` ({ seat, me, players }: the reader's own seat at that table), a computer player is named as the
// table names it, by its place from the reader's chair ("West, good player").
export function seatLine(s, mine = false, at = null) {
  if (s.kind === "open") return el("span", { class: "seat-open", textContent: t("free seat") });
  const botName = () => at && Number.isInteger(at.me) ? computerName(at.seat, at.me, at.players, s.strength)
    : t("computer · {strength}", { strength: strength(s.strength) });
  const chip = s.kind === "bot"
    ? el("span", { class: "seat-bot", textContent: botName() })
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
