// The leaderboards (templates/leaderboard.html): a tab per rated game, named as the lobby names its games, and
// the ranked players of the chosen one (GET /api/leaderboards/<game>), each linking to his page.  The game
// chosen is kept in the address (?game=salad), so a link can open one.
import { el } from "./dom.js";
import { num, t, tn } from "./i18n.js";
import { presetName } from "./tablewords.js";
import { ratingTitle, ratingText } from "./playerwords.js";
import { who } from "./account-link.js";

const $ = (id) => document.getElementById(id);
const games = ($("game-tabs").dataset.games || "").split(",").filter(Boolean);
let me = null;
let asked = 0; // the latest question: an older answer arriving late is dropped

function choose(game) {
  $("board").dataset.game = game;
  for (const b of $("game-tabs").children) b.setAttribute("aria-pressed", String(b.dataset.game === game));
  const url = new URL(location.href);
  url.searchParams.set("game", game);
  history.replaceState(null, "", url.toString());
  document.title = t("barbu — leaderboard: {game}", { game: presetName(game) });
  load(game);
}

function row(p) {
  const mine = me && me.name === p.name;
  const tr = el("tr", { class: mine ? "mine" : "", "data-player": p.name },
    el("td", { class: "num rank", textContent: num(p.rank) }),
    el("td", { class: "who" }, el("a", { href: p.profile, textContent: p.name }),
      mine ? el("span", { class: "muted", textContent: " " + t("(you)") })
        : me ? el("a", { class: "challenge-row-link small", href: `/challenges/new?to=${encodeURIComponent(p.name)}`, textContent: " " + t("Challenge") }) : null),
    el("td", { class: "num" }, el("strong", { textContent: ratingText(p), title: ratingTitle(p) }),
      p.provisional ? el("span", { class: "tag provisional", textContent: t("provisional"), title: ratingTitle(p) }) : null),
    el("td", { class: "num", textContent: num(p.matches) }));
  return tr;
}

async function load(game) {
  const mine = ++asked;
  $("board-error").textContent = "";
  $("board").dataset.loaded = "";
  let data;
  try {
    const r = await fetch(`/api/leaderboards/${encodeURIComponent(game)}`);
    data = await r.json();
    if (!r.ok) throw new Error(data.error || t("request failed ({status})", { status: r.status }));
  } catch (e) {
    if (mine === asked) $("board-error").textContent = e.message;
    return;
  }
  if (mine !== asked) return;
  $("board-help").textContent = tn("Players appear from their first rated match. A rating stays provisional (“?”) until it rests on {n} rated match: until then it is a first guess that can still move a lot. The rating is a cautious figure that rises as results make it surer.",
    "Players appear from their first rated match. A rating stays provisional (“?”) until it rests on {n} rated matches: until then it is a first guess that can still move a lot. The rating is a cautious figure that rises as results make it surer.", data.established);
  if (!data.players.length) {
    $("board-rows").replaceChildren(el("p", { class: "empty", textContent: t("Nobody on this leaderboard yet: players appear with their first rated match of {game}.",
      { game: presetName(game) }) }));
  } else {
    const head = el("tr", {}, ...[t("Rank"), t("Player"), t("Rating"), t("Rated matches")]
      .map((h, i) => el("th", { scope: "col", class: i === 1 ? "" : "num", textContent: h })));
    $("board-rows").replaceChildren(el("div", { class: "table-wrap" }, el("table", { class: "board-table" },
      el("caption", { class: "sr-only", textContent: presetName(game) }),
      el("thead", {}, head), el("tbody", {}, ...data.players.map(row)))));
  }
  $("board").dataset.loaded = game;
}

$("game-tabs").replaceChildren(...games.map((g) => {
  const b = el("button", { type: "button", class: "tab", textContent: presetName(g), "data-game": g, "aria-pressed": "false" });
  b.addEventListener("click", () => choose(g));
  return b;
}));
const asked0 = new URL(location.href).searchParams.get("game");
who.then((user) => {
  me = user;
  choose(games.includes(asked0) ? asked0 : games[0]);
});
