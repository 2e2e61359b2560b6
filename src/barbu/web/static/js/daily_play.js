// One game's daily deals (templates/daily_play.html): the start, each board in turn at the player's own pace (moves
// over HTTP, POST /api/daily/{game}/move), then the results: percentage, rank, the line to share, each board's
// traveller and links to the replay and analysis of one's own boards.  ?day=YYYY-MM-DD shows a past day's results.
import { el } from "./dom.js";
import { t, tn, num, contract as contractWords, rankLetter } from "./i18n.js";
import { RANKS, SYMBOLS, SUITS, cardElement, cardLabel, isCard, prettyCards, sortHand } from "./cards.js";
import { postJSON } from "./net.js";
import { computerName, placeName, presetName } from "./tablewords.js";
import { percentText } from "./dailywords.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const pastDay = new URLSearchParams(location.search).get("day");
let current = null; // the last state answer
let busy = false;
// Bésigue's boards are played on the Bésigue table's own drawing (daily_besigue.html); its start and results are here.
const TABLE_PAGE = game === "besigue" ? "/daily/besigue/play" : null;

$("game-title").textContent = presetName(game);
if (game === "besigue") { // no contract to fix: each deal is a fresh game's first
  $("start-what").textContent = t("Each deal is the first of a fresh game of Bésigue, with the same cards for everyone: you lead first on half of them and deal on the others. The computer player answers the same moves the same way for everyone.");
}

function showError(text) {
  $("play-error").textContent = text || "";
}

function who(seat) {
  if (current && seat === current.seat) return t("You");
  return placeName(seat, current ? current.seat : null, current ? current.players : 4) || t("Seat {n}", { n: seat + 1 });
}

function contractName(key) {
  const c = ((current && current.contracts) || []).find((x) => x.key === key);
  return contractWords(c ? c.name : key);
}

function actionLabel(text) {
  const words = text.split(" ");
  if (isCard(text)) return cardLabel(text);
  if (words[0] === "trump") {
    const s = (words[1] || "").toUpperCase();
    return SYMBOLS[s] ? t("{suit} trumps", { suit: SYMBOLS[s] }) : t("no trump");
  }
  if (words[0] === "rank") return t("start from {rank}", { rank: rankLetter(words[1]) });
  if (text === "pass") return t("Pass");
  if (words[0] === "lay") return t("Lay {cards}", { cards: prettyCards(words.slice(1).join(" ")) }); // Scottish Patience
  if (words[0] === "double") {
    const st = current.state;
    const targets = words.slice(1).map(Number);
    const redo = targets.filter((x) => st.doubles.some(([a, b]) => a === x && b === current.seat));
    const dbl = targets.filter((x) => !redo.includes(x));
    const names = (xs) => xs.map(who).join(", ");
    if (dbl.length && redo.length) return t("double {doubled} and redouble {redoubled}", { doubled: names(dbl), redoubled: names(redo) });
    if (redo.length) return t("redouble {names}", { names: names(redo) });
    return t("double {names}", { names: names(dbl) });
  }
  return prettyCards(text);
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
  for (const p of ["start-panel", "board-panel", "results-panel"]) $(p).hidden = p !== name;
  $("daily-play").dataset.state = name.replace("-panel", "");
}

// ------------------------------------------------------------------ playing
// Domino and Patience: the four rows, each card at its rank's place as on the table (barbu.css .rows), and the
// last card or cards laid, with who laid them.
function rowsView(st) {
  const ranks = st.row_ranks || RANKS;
  const grid = el("div", { class: "rows daily-rows", "aria-label": t("The rows") });
  grid.style.setProperty("--row-slots", ranks.length);
  st.rows.forEach((row, i) => {
    const line = el("div", { class: "row-line", "data-suit": SUITS[i] },
      el("span", { class: "row-suit" + (i === 1 || i === 2 ? " red" : ""), textContent: SYMBOLS[SUITS[i]] }));
    if (!row.length) line.append(el("span", { class: "muted", textContent: "—" }));
    row.forEach((c, k) => {
      const card = cardElement(c, "span", { compact: true });
      if (k === 0) card.style.marginLeft = `calc(${Math.max(0, ranks.indexOf(c[0]))} * var(--row-step))`;
      line.append(card);
    });
    grid.append(line);
  });
  const out = [grid];
  if (st.plays && st.plays.length) {
    const [s, cards] = st.plays[st.plays.length - 1];
    out.push(el("p", { class: "small last-laid" }, t("Last card laid") + " · " + t("{name}:", { name: who(s) }) + " ",
      ...[].concat(cards).map((c) => cardElement(c, "span", { compact: true }))));
  }
  return out;
}

function trickCards(st) {
  if (st.rows) return rowsView(st);
  const box = [];
  if (st.trick && st.trick.length) {
    st.trick.forEach((c, i) => box.push(el("figure", { class: "played" }, cardElement(c),
      el("figcaption", { textContent: who((st.leader + i) % current.players) }))));
    return box;
  }
  if (st.plays && st.plays.length) {
    for (const [s, cards] of st.plays) for (const c of cards) box.push(el("figure", { class: "played faded" }, cardElement(c), el("figcaption", { textContent: who(s) })));
    return box;
  }
  if (st.last_trick) {
    st.last_trick.cards.forEach((c, i) => box.push(el("figure", { class: "played faded" }, cardElement(c),
      el("figcaption", { textContent: who((st.last_trick.leader + i) % current.players) }))));
  }
  return box;
}

function render(body) {
  if (TABLE_PAGE) {
    location.href = TABLE_PAGE;
    return;
  }
  current = body;
  const st = body.state;
  show("board-panel");
  $("daily-play").dataset.version = `${body.board}.${st.version}`;
  $("board-title").textContent = t("Deal {n} of {total}", { n: num(body.board + 1), total: num(body.boards) });
  let line = t("Contract: {contract}", { contract: contractName(body.contract) });
  if (st.trump !== null && st.trump !== undefined) line += ` ${SYMBOLS[SUITS[st.trump]]}`;
  if (st.rank) line += " " + t("from {rank}", { rank: rankLetter(st.rank) });
  if (body.family === "scottish") { // the Scottish game's declarer is its Caller
    line += " · " + (st.declarer === body.seat ? t("you are the caller") : t("called by {name}", { name: who(st.declarer) }));
  } else {
    line += " · " + (st.declarer === body.seat ? t("you are the declarer") : t("declared by {name}", { name: who(st.declarer) }));
  }
  $("board-contract").textContent = line;
  $("board-scores").textContent = body.done.length
    ? t("Your scores so far: {scores}", { scores: body.done.map((d) => num(d.score)).join(", ") }) : "";
  const seats = [];
  for (let i = 1; i <= body.players; i++) { // from the player's left round to himself
    const s = (body.seat + i) % body.players;
    const me = body.seat;
    const doubled = st.doubles.filter(([a, b]) => a === s || b === s).map(([a, b, r]) => {
      let text;
      if (a === s) text = b === me ? t("doubled you") : t("doubled {name}", { name: who(b) });
      else text = a === me ? t("doubled by you") : t("doubled by {name}", { name: who(a) });
      return text + (r ? " ×2" : "");
    });
    seats.push(el("div", { class: "daily-seat" + (s === body.seat ? " me" : "") + (st.to_act === s ? " to-act" : ""), "data-seat": s },
      el("strong", { textContent: s === body.seat ? t("You") : computerName(s, body.seat, body.players, body.strength) }),
      el("span", { class: "muted small", textContent: " " + t("{n} cards", { n: num(st.hand_sizes[s]) })
        + (st.rows ? "" : " · " + t("tricks: {n}", { n: num(st.tricks_won[s]) })) }),
      doubled.length ? el("span", { class: "small doubles", textContent: " · " + doubled.join(", ") }) : null));
  }
  $("seats").replaceChildren(...seats);
  $("trick").classList.toggle("with-rows", Boolean(st.rows));
  $("trick").replaceChildren(...trickCards(st));
  const legal = st.legal || [];
  const cards = new Set(legal.filter(isCard));
  const mine = st.to_act === body.seat && legal.length;
  $("turn").textContent = mine ? t("Your turn") : "";
  $("actions").replaceChildren(...legal.filter((a) => !isCard(a)).map((a) =>
    el("button", { type: "button", "data-action": a, textContent: actionLabel(a), onclick: () => move(a) })));
  // the hand: buttons when a card may be played now (the others dimmed), plain cards otherwise
  $("hand").replaceChildren(...sortHand(st.hand || []).map((c) => {
    if (!cards.size) return cardElement(c);
    const b = cardElement(c, "button");
    if (cards.has(c)) {
      b.classList.add("legal");
      b.addEventListener("click", () => move(c));
    } else {
      b.disabled = true;
      b.classList.add("dim");
    }
    return b;
  }));
}

async function move(action) {
  if (busy || !current) return;
  busy = true;
  showError("");
  try {
    const body = await postJSON(`/api/daily/${game}/move`, { board: current.board, move: action });
    if (body.last_board) {
      $("last-board").hidden = false;
      $("last-board").textContent = t("Deal {n} is over: you scored {score}.", { n: num(body.last_board.board + 1), score: num(body.last_board.score) });
    } else if (current && body.board === current.board) {
      $("last-board").hidden = true;
    }
    if (body.finished) await loadResults();
    else render(body);
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false;
  }
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
    $("share").textContent = res.share;
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
      ? el("button", { type: "button", class: "small", textContent: t("Replay and analysis"), onclick: () => openReplay(b.board, res.day) }) : null),
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
    else render(body);
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
    else render(body);
  } catch (e) {
    if (e.status === 404) show("start-panel");
    else showError(e.message);
  }
}

load();
