// One game's daily deals (templates/daily_play.html): the start, then the results: percentage, rank, the line to
// share, each board's traveller and links to the replay and analysis of one's own boards.  The boards themselves
// are played on the game's own table (/daily/{game}/play, daily_link.js).  ?day=YYYY-MM-DD shows a past day's results.
import { el } from "./dom.js";
import { t, tn, num } from "./i18n.js";
import { postJSON } from "./net.js";
import { presetName } from "./tablewords.js";
import { percentText } from "./dailywords.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const pastDay = new URLSearchParams(location.search).get("day");
// The boards are played on the game's own table (daily_table.html, daily_besigue.html); the start and results are here.
const TABLE_PAGE = `/daily/${encodeURIComponent(game)}/play`;

$("game-title").textContent = presetName(game);
if (game === "besigue") { // no contract to fix: each deal is a fresh game's first
  $("start-what").textContent = t("Each deal is the first of a fresh game of Bésigue, with the same cards for everyone: you lead first on half of them and deal on the others. The computer player answers the same moves the same way for everyone.");
}

function showError(text) {
  $("play-error").textContent = text || "";
}

async function getJSON(url) {
  const r = await fetch(url, { cache: "no-store" });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const e = new Error(data.error || t("request failed ({status})", { status: r.status }));
    e.status = r.status;
    throw e;
  }
  return data;
}

function show(name) {
  for (const p of ["start-panel", "results-panel"]) $(p).hidden = p !== name;
  $("daily-play").dataset.state = name.replace("-panel", "");
}

// A set begun: its boards are played on the game's own table.
function toTable() {
  location.href = TABLE_PAGE;
}

// ------------------------------------------------------------------ results
function ordinal(rank) {
  return String(rank);
}

// A result's player as the lists show him: his account's name, "guest", or "a deleted player" (name "").
function playerName(name) {
  if (!name) return t("a deleted player");
  return name === "guest" ? t("guest") : name;
}

// A board's replay: a link of its own, which opens to this player alone until the day is over.
async function openReplay(board, day) {
  try {
    const made = await getJSON(`/api/daily/${game}/boards/${board}/replay?day=${day}`);
    location.href = made.url;
  } catch (e) {
    showError(e.message);
  }
}

// A board's record, to keep or to read with `barbu replay`: one's own, once one's set is finished (the server
// refuses it otherwise), never another player's.
function recordLink(board, day) {
  return el("a", { class: "button small", "data-record": board, textContent: t("Download the record"),
    href: `/api/daily/${encodeURIComponent(game)}/boards/${board}/record?day=${encodeURIComponent(day)}`,
    download: `barbu-daily-${game}-${day}-deal-${board + 1}.jsonl` });
}

async function loadResults() {
  let res;
  try {
    res = await getJSON(`/api/daily/${game}/results` + (pastDay ? `?day=${encodeURIComponent(pastDay)}` : ""));
  } catch (e) {
    showError(e.message);
    return;
  }
  show("results-panel");
  $("results-title").textContent = t("{game}, {day}", { game: presetName(game), day: res.day });
  const finished = res.rank !== undefined;
  if (finished) {
    $("result-line").textContent = res.percent === null
      ? t("Nobody else has played these deals yet: come back later to see how you compare.")
      : t("Your score: {percent} of the matchpoints", { percent: percentText(res.percent) });
    $("result-rank").textContent = t("Rank {rank} of {n}", { rank: ordinal(res.rank), n: num(res.players) })
      + " · " + (res.pool === "guest" ? t("among the guests") : res.pool === "new" ? t("among the new accounts") : t("among the players with an account"));
    $("share-box").hidden = false;
    // The server's line ends with one square per board (it shows nothing of the cards); the words around them
    // in the reader's language.
    $("share").textContent = t("Barbu daily {day}: {game} {percent} {squares}", { day: res.day, game: presetName(game),
      percent: res.percent === null ? "–" : percentText(res.percent), squares: res.share.split(" ").pop() });
  } else {
    $("result-line").textContent = tn("{n} player finished these deals.", "{n} players finished these deals.", res.players, { n: num(res.players) });
    $("result-rank").textContent = "";
  }
  $("result-key").textContent = res.key ? t("The day's key: {key}", { key: res.key }) : t("The day's key is published when the day is over (midnight UTC).");
  const rank = el("table", { class: "board-table" }, el("thead", {}, el("tr", {},
    el("th", { textContent: t("Rank") }), el("th", { textContent: t("Player") }), el("th", { class: "num", textContent: "%" }), el("th", { class: "num", textContent: t("Points") }))),
    el("tbody", {}, ...res.ranking.slice(0, 100).map((r) => el("tr", { class: r.you ? "you" : "" },
      el("td", { textContent: r.rank }), el("td", { textContent: r.you ? t("{name} (you)", { name: playerName(r.name) }) : playerName(r.name) }),
      el("td", { class: "num", textContent: percentText(r.percent) }), el("td", { class: "num", textContent: num(r.points) })))));
  $("ranking").replaceChildren(el("div", { class: "table-wrap" }, rank));
  // the traveller's middle column: Bésigue's points on both sides, the doubles where the game has them (not the
  // Scottish game, which has none)
  const middle = game === "besigue" ? "points" : game === "scottish" ? null : "doubles";
  $("travellers").replaceChildren(...res.travellers.map((b) => el("div", { class: "traveller", "data-board": b.board },
    el("h4", {}, t("Deal {n}", { n: num(b.board + 1) }), " ", finished
      ? el("button", { type: "button", class: "small", textContent: t("Replay and analysis"), onclick: () => openReplay(b.board, res.day) }) : null,
    " ", finished ? recordLink(b.board, res.day) : null),
    el("div", { class: "table-wrap" }, el("table", { class: "board-table" },
      el("thead", {}, el("tr", {}, el("th", { textContent: t("Player") }), middle ? el("th", { textContent: middle === "points" ? t("Points") : t("Doubles") }) : null,
        el("th", { class: "num", textContent: t("Score") }), el("th", { class: "num", textContent: t("Matchpoints") }))),
      el("tbody", {}, ...b.rows.slice(0, 200).map((r) => el("tr", { class: r.you ? "you" : "" },
        el("td", { textContent: r.you ? t("You") : playerName(r.name) }),
        middle ? el("td", { textContent: middle === "points" ? r.doubles || "–" : r.doubles ? r.doubles.split(" ").length : "–" }) : null,
        el("td", { class: "num", textContent: num(r.score) }), el("td", { class: "num", textContent: r.matchpoints === null ? "–" : num(r.matchpoints) })))))))));
}

$("copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("share").textContent);
    $("copied").textContent = t("Copied");
  } catch {
    $("copied").textContent = t("Select the line and copy it");
  }
});

$("start").addEventListener("click", async () => {
  showError("");
  try {
    const body = await postJSON(`/api/daily/${game}/start`, {});
    if (body.finished) await loadResults();
    else toTable();
  } catch (e) {
    showError(e.message);
  }
});

async function load() {
  if (pastDay) {
    await loadResults();
    return;
  }
  try {
    const body = await getJSON(`/api/daily/${game}/state`);
    if (body.finished) await loadResults();
    else toTable();
  } catch (e) {
    if (e.status === 404) show("start-panel");
    else showError(e.message);
  }
}

load();
