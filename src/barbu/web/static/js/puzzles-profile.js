// A player's page (templates/profile.html): his puzzle rating with its history, from GET /api/puzzles/players/<name>,
// drawn as the game ratings are (a card, a chart of the rating after each rated puzzle); on his own page the
// puzzles found in his finished matches too, each a link to play it.
import { el } from "./dom.js";
import { contract, num, t, tn } from "./i18n.js";
import { presetName } from "./tablewords.js";
import { longDate } from "./playerwords.js";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const wanted = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) e.append(c);
  return e;
}

// The rating after each rated puzzle, one point an answer (green when solved, red when missed).
function chart(points) {
  const W = 320, H = 110, left = 38, right = 10, top = 10, bottom = 18;
  const values = points.map((p) => p.rating);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 40) {
    const mid = (hi + lo) / 2;
    lo = mid - 20;
    hi = mid + 20;
  }
  const x = (i) => (points.length === 1 ? (left + W - right) / 2 : left + (i * (W - left - right)) / (points.length - 1));
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "data-chart": "puzzles",
    "aria-label": tn("the puzzle rating after each of {n} rated puzzle", "the puzzle rating after each of {n} rated puzzles", points.length) });
  for (const v of [hi, lo]) {
    box.append(svg("line", { class: "grid", x1: left, x2: W - right, y1: y(v), y2: y(v) }));
    box.append(svg("text", { class: "tick", x: left - 4, y: y(v) + 3.5, "text-anchor": "end" }, num(Math.round(v))));
  }
  if (points[0].at) box.append(svg("text", { class: "tick", x: left, y: H - 4, "text-anchor": "start" }, longDate(points[0].at.slice(0, 10))));
  if (points.length > 1) {
    box.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ") }));
  }
  points.forEach((p, i) => box.append(svg("circle", { class: "dot" + (p.solved ? " solved" : " missed"), cx: x(i).toFixed(1),
    cy: y(p.rating).toFixed(1), r: 3 }, svg("title", {}, p.solved ? t("solved: {rating}", { rating: num(p.rating) })
    : t("missed: {rating}", { rating: num(p.rating) })))));
  return box;
}

function ratingCard(player, history) {
  const figure = el("p", { class: "rating-figure" }, el("strong", { textContent: num(player.rating) + (player.provisional ? "?" : ""),
    "data-rating": player.rating }));
  return el("article", { class: "rating-card", "data-game": "puzzles" },
    el("h3", { textContent: t("Puzzle rating") }),
    figure,
    el("p", { class: "muted small", textContent: [tn("{n} puzzle answered", "{n} puzzles answered", player.answers),
      tn("{n} solved", "{n} solved", player.solved), t("best streak {n}", { n: num(player.best_streak) })].join(" · ") }),
    history.length ? chart(history) : null,
    el("p", {}, el("a", { href: "/puzzles", textContent: t("Solve puzzles") })));
}

async function show() {
  if (!wanted) return;
  let data;
  try {
    const r = await fetch(`/api/puzzles/players/${encodeURIComponent(wanted)}`);
    if (!r.ok) return;
    data = await r.json();
  } catch {
    return;
  }
  const own = data.own;
  if (!data.player && !(own && own.length)) return; // nothing to show: the panel stays hidden
  $("puzzles-panel").hidden = false;
  $("puzzle-rating").replaceChildren(data.player ? ratingCard(data.player, data.history)
    : el("p", { class: "empty", textContent: t("No puzzle answered yet.") }));
  $("own-puzzles").hidden = !own || !own.length;
  if (own && own.length) {
    $("own-puzzles-list").replaceChildren(...own.map((p) => el("li", { "data-puzzle": p.id },
      el("a", { href: `/puzzles/${p.id}`, textContent: `${presetName(p.family)} · ${contract(p.contract_name || p.contract)}` }),
      " ", el("span", { class: "muted small", textContent: p.solved === null ? t("to solve") : p.solved ? t("solved") : t("missed") }))));
  }
}

show();
