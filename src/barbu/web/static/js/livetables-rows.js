// One live table as the live tables page and a profile's "Playing now" show it: its game, its players, their
// average rating, its spectators and its "Watch" link.
import { el } from "./dom.js";
import { num, t, tn } from "./i18n.js";
import { presetName } from "./tablewords.js";

export function tableRow(x) {
  const players = x.players.map((p) => p.name).filter(Boolean).join(" · "); // a computer player's name has a comma of its own ("North, random")
  return el("li", { class: "live-table", "data-table": x.id },
    el("span", { class: "live-game", textContent: presetName(x.rules) }),
    el("span", { class: "live-players", textContent: players }),
    el("span", { class: "muted small live-rating", textContent: x.rating === null ? t("unrated players") : t("rating {n}", { n: num(x.rating) }) }),
    x.spectators ? el("span", { class: "muted small", textContent: tn("{n} watching", "{n} watching", x.spectators, { n: x.spectators }) }) : "",
    el("a", { class: "button small", href: x.watch, textContent: t("Watch") }),
  );
}
