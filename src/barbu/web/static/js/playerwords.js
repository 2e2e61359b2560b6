// Words about players that several pages share: a rating as it is shown beside a name ("1 482?" while it is
// provisional), a date in the page's language, a placing ("2nd of 4"), and the games that have a rating.
import { el } from "./dom.js";
import { lang, num, t, tn } from "./i18n.js";

// The games a player is rated in, in the order the leaderboards list them (barbu/ratings GAMES).
export const RATED_GAMES = ["classic", "italian", "italian-six", "french", "salad", "scottish", "besigue"];

// A rating's figure, "?" after it while it is provisional.
export function ratingText(r) {
  return num(r.rating) + (r.provisional ? "?" : "");
}

// Its title: what the figure means ("provisional: 3 rated matches").
export function ratingTitle(r) {
  const matches = tn("{n} rated match", "{n} rated matches", r.matches);
  return r.provisional ? t("rating {rating}, provisional: {matches}", { rating: num(r.rating), matches })
    : t("rating {rating}: {matches}", { rating: num(r.rating), matches });
}

// The small figure beside a seat's name (null when the seat has none).
export function ratingChip(r, cls = "rating") {
  if (!r || typeof r.rating !== "number") return null;
  return el("span", { class: cls + (r.provisional ? " provisional" : ""), title: ratingTitle(r), "data-rating": r.rating,
    textContent: ratingText(r) });
}

// "3 March 2026" from "2026-03-03" (a day, read in the reader's time zone as that day).
export function longDate(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(iso || ""));
  const d = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso || "");
  return new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(d);
}

// "3 Mar 2026, 21:40" from a moment ("2026-03-03T21:40:00+00:00"), in the reader's time zone.
export function shortMoment(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso || "");
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(d);
}

// A placing among `n` players: "1st of 4" … "6th of 6".
const PLACES = {
  1: () => t("1st of {n}"),
  2: () => t("2nd of {n}"),
  3: () => t("3rd of {n}"),
  4: () => t("4th of {n}"),
  5: () => t("5th of {n}"),
  6: () => t("6th of {n}"),
};

export function placeText(place, n) {
  const words = PLACES[place];
  return words ? words().replace("{n}", num(n)) : t("place {place} of {n}", { place: num(place), n: num(n) });
}
