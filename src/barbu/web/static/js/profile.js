// A player's page (templates/profile.html), from GET /api/players/<name>: his rating in each game he was rated
// in, with its history drawn as a chart; his statistics per game; his latest matches, each with the other
// players, their places and points, and its replay.  An unknown name says so in words.  On his own page, the
// player finds "Your turn" too: the turn-based tables waiting for his move.
import { el } from "./dom.js";
import { contract, lang, num, t, tn } from "./i18n.js";
import { computerName, placeName, presetName, rulesTitle } from "./tablewords.js";
import { longDate, placeText, RATED_GAMES, ratingTitle, ratingText, shortMoment } from "./playerwords.js";
import { who } from "./account-link.js";
import { showTurns } from "./yourturn.js";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const wanted = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");

// An SVG element with its attributes (never a style: the page's CSS draws it by its classes).
function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) e.append(c);
  return e;
}

// ------------------------------------------------------------------ ratings
// The rating after each rated match, one point a match, the first and last figures and dates on the axes.
function historyChart(game, points) {
  const W = 320, H = 130, left = 38, right = 10, top = 10, bottom = 22;
  const values = points.map((p) => p.rating);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 40) {
    const mid = (hi + lo) / 2;
    lo = mid - 20;
    hi = mid + 20;
  }
  const x = (i) => (points.length === 1 ? (left + W - right) / 2 : left + (i * (W - left - right)) / (points.length - 1));
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "data-chart": game,
    "aria-label": tn("{game}: the rating after each of {n} rated match", "{game}: the rating after each of {n} rated matches",
      points.length, { game: presetName(game) }) });
  for (const v of [hi, lo]) {
    chart.append(svg("line", { class: "grid", x1: left, x2: W - right, y1: y(v), y2: y(v) }));
    chart.append(svg("text", { class: "tick", x: left - 4, y: y(v) + 3.5, "text-anchor": "end" }, num(Math.round(v))));
  }
  chart.append(svg("text", { class: "tick", x: left, y: H - 6, "text-anchor": "start" }, longDate(points[0].at.slice(0, 10))));
  if (points.length > 1) {
    chart.append(svg("text", { class: "tick", x: W - right, y: H - 6, "text-anchor": "end" },
      longDate(points[points.length - 1].at.slice(0, 10))));
    chart.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ") }));
  }
  points.forEach((p, i) => {
    chart.append(svg("circle", { class: i === points.length - 1 ? "dot last" : "dot", cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: i === points.length - 1 ? 4 : 2.6 },
      svg("title", {}, t("{date}: {rating}", { date: shortMoment(p.at), rating: num(p.rating) }))));
  });
  return chart;
}

function ratingCard(game, r, points) {
  const figure = el("p", { class: "rating-figure" },
    el("strong", { textContent: ratingText(r), title: ratingTitle(r), "data-rating": r.rating }));
  if (r.provisional) figure.append(" ", el("span", { class: "tag provisional", textContent: t("provisional") }));
  return el("article", { class: "rating-card", "data-game": game },
    el("h3", { textContent: presetName(game) }),
    figure,
    el("p", { class: "muted small" }, tn("{n} rated match", "{n} rated matches", r.matches), " · ",
      el("a", { href: `/leaderboard?game=${encodeURIComponent(game)}`, textContent: t("leaderboard") })),
    points && points.length ? historyChart(game, points) : null);
}

function showRatings(data) {
  const games = Object.keys(data.ratings).sort((a, b) => order(a) - order(b));
  $("ratings-help").textContent = tn("A cautious figure that rises as results make it surer; “?” marks a provisional rating, one that rests on fewer than {n} rated match.",
    "A cautious figure that rises as results make it surer; “?” marks a provisional rating, one that rests on fewer than {n} rated matches.", data.leaderboard_min);
  $("ratings").replaceChildren(...(games.length ? games.map((g) => ratingCard(g, data.ratings[g], data.rating_history[g]))
    : [el("p", { class: "empty", textContent: t("No rated match yet: play a rated match to get a rating.") })]));
  $("ratings-help").hidden = !games.length;
}

function order(game) {
  const i = RATED_GAMES.indexOf(game);
  return i < 0 ? RATED_GAMES.length : i;
}

// ------------------------------------------------------------------ statistics
function showStats(stats) {
  if (!stats.length) {
    $("stats").replaceChildren(el("p", { class: "empty", textContent: t("No finished match yet.") }));
    return;
  }
  const labels = [t("Game"), t("Matches"), t("Won"), t("Rated matches"), t("Mean place"), t("Mean points")];
  const head = el("tr", {}, ...labels.map((h, i) => el("th", { scope: "col", class: i ? "num" : "", textContent: h })));
  // Each figure carries its heading too: a phone shows a game's figures as a list under its name.
  const rows = stats.sort((a, b) => order(a.game) - order(b.game)).map((s) => el("tr", { "data-stats": s.game },
    el("th", { scope: "row", textContent: presetName(s.game) }),
    ...[s.matches, s.wins, s.rated, s.mean_place, s.mean_points].map((v, i) => el("td", { class: "num", "data-label": labels[i + 1],
      textContent: num(v) }))));
  $("stats").replaceChildren(el("div", { class: "table-wrap" },
    el("table", { class: "stats-table game-stats" }, el("thead", {}, head), el("tbody", {}, ...rows))),
    ...stats.map(gameDetails).filter(Boolean));
}

// "+52", "-12", "0": what doubles won or lost.
function signed(n) {
  return (n > 0 ? "+" : "") + num(n);
}

// A game's closer study, folded: each contract's mean points per deal as its declarer and otherwise, the
// doubles made and received with what they won or lost, and the mean place month by month.
function gameDetails(s) {
  const parts = [];
  if (s.contracts && s.contracts.length) {
    const cell = (r) => el("td", { class: "num" }, r.deals ? num(r.mean) : "—",
      r.deals ? el("small", { class: "muted", textContent: " " + tn("({n} deal)", "({n} deals)", r.deals) }) : null);
    parts.push(el("div", { class: "table-wrap" }, el("table", { class: "stats-table contracts-table" },
      el("caption", { textContent: t("Mean points per deal, by contract") }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", textContent: t("Contract") }),
        el("th", { scope: "col", class: "num", textContent: t("as declarer") }),
        el("th", { scope: "col", class: "num", textContent: t("when another declares") }))),
      el("tbody", {}, ...s.contracts.map((c) => el("tr", { "data-contract": c.contract },
        el("th", { scope: "row", textContent: contract(c.name) }), cell(c.declarer), cell(c.other)))))));
  }
  const d = s.doubles;
  if (d && (d.made || d.received)) {
    parts.push(el("p", { class: "doubles-line" },
      tn("Doubled the others {n} time: {net} points in all.", "Doubled the others {n} times: {net} points in all.", d.made,
        { net: signed(d.made_net) }), " ",
      tn("Doubled by the others {n} time: {net} points in all.", "Doubled by the others {n} times: {net} points in all.",
        d.received, { net: signed(d.received_net) })));
  }
  if (s.months && s.months.length > 1) {
    parts.push(el("p", { class: "months-line" }, t("Mean place by month:"), " ",
      s.months.map((m) => t("{month}: {place} ({matches})", { month: monthName(m.month), place: num(m.mean_place),
        matches: tn("{n} match", "{n} matches", m.matches) })).join(" · ")));
  }
  if (!parts.length) return null;
  return el("details", { class: "game-details", "data-details": s.game },
    el("summary", { textContent: t("{game}: by contract and doubles", { game: presetName(s.game) }) }), ...parts);
}

// "November 2026" from "2026-11".
function monthName(ym) {
  const [y, m] = ym.split("-").map(Number);
  return new Intl.DateTimeFormat(lang, { month: "long", year: "numeric" }).format(new Date(y, m - 1, 1));
}

// ------------------------------------------------------------------ matches
// A seat of a match as the list shows it: "1. Anna 42", a computer player by its place from the profile's
// player and its strength ("West, good player", as the table named it), a deleted account
// in words; another account's name links to its page.
function seatChip(s, own, m) {
  let name;
  if (s.deleted) name = el("em", { textContent: t("a deleted player") });
  else if (s.computer) name = computerName(s.seat, m.seat, m.players, s.strength);
  else if (s.account && !own) name = el("a", { href: `/u/${encodeURIComponent(s.account)}`, textContent: s.account });
  else name = s.name || placeName(s.seat, m.seat, m.players) || t("South");
  const chip = el("span", { class: own ? "seat-chip own" : "seat-chip", "data-seat": s.seat },
    el("span", { class: "place", textContent: `${num(s.place)}.` }), " ", name, " ",
    el("span", { class: "points", textContent: num(s.points) }));
  if (s.left) chip.append(" ", el("span", { class: "muted", textContent: t("(left early)") }));
  return chip;
}

function matchRow(m) {
  const head = el("div", { class: "match-head" },
    el("strong", { textContent: rulesTitle(m.rules), title: m.rules }), " ",
    el("span", { class: "muted", textContent: shortMoment(m.finished) }));
  head.append(" ", m.rated ? el("span", { class: "tag rated", textContent: t("rated") })
    : el("span", { class: "tag unrated", textContent: t("not rated") }));
  if (m.left) head.append(" ", el("span", { class: "tag left", textContent: t("left early") }));
  const result = el("p", { class: "match-result" }, el("strong", { textContent: placeText(m.place, m.players) }), " · ",
    tn("{n} point", "{n} points", m.points));
  const seats = el("div", { class: "seat-list" },
    ...[...m.seats].sort((a, b) => a.place - b.place || a.seat - b.seat).map((s) => seatChip(s, s.seat === m.seat, m)));
  return el("article", { class: "match-row", "data-match": m.table },
    el("div", { class: "match-main" }, head, result, seats),
    el("div", { class: "row-actions" }, el("a", { class: "button", href: m.replay, "data-replay": m.table,
      textContent: t("Replay"), title: t("Every deal card by card, all hands shown, with what each decision cost") })));
}

function showMatches(matches) {
  $("matches").replaceChildren(...(matches.length ? matches.map(matchRow)
    : [el("p", { class: "empty", textContent: t("No finished match yet: the matches played with this account show here.") })]));
}

// ------------------------------------------------------------------ the page
function notFound() {
  $("not-found-text").textContent = t("There is no player named {name} here. The name may be mistyped, or the account was deleted.", { name: wanted });
  $("not-found").hidden = false;
  document.title = t("barbu — no such player");
}

async function load() {
  let r;
  try {
    r = await fetch(`/api/players/${encodeURIComponent(wanted)}`);
  } catch {
    $("profile-loading").hidden = true;
    $("profile-error").textContent = t("The server cannot be reached; try again in a moment.");
    return;
  }
  $("profile-loading").hidden = true;
  if (r.status === 404) {
    notFound();
    $("profile").dataset.loaded = "missing";
    return;
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    $("profile-error").textContent = data.error || t("request failed ({status})", { status: r.status });
    return;
  }
  document.title = t("barbu — {name}", { name: data.name });
  $("player-name").textContent = data.name;
  $("player-since").textContent = t("Member since {date}", { date: longDate(data.since) });
  showRatings(data);
  showStats(data.stats || []);
  showMatches(data.matches || []);
  for (const id of ["profile-head", "ratings-panel", "stats-panel", "matches-panel"]) $(id).hidden = false;
  $("profile").dataset.loaded = "1";
  const me = await who;
  const own = !!(me && me.name === data.name);
  $("own-links").hidden = !own;
  if (me && !own) { // challenge him to a table (templates/challenge.html)
    $("challenge-link").href = `/challenges/new?to=${encodeURIComponent(data.name)}`;
    $("challenge-links").hidden = false;
  }
  if (own) {
    await showTurns($("turns-panel"), $("turns"));
    $("profile").dataset.turns = "1";
  }
}

load();
