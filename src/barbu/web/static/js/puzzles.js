// The puzzles (templates/puzzles.html): a position from a real deal on a table drawn like the real one (felt,
// seats, the trick in the middle, your hand at the bottom, the same card faces), one card to find.
// POST /api/puzzles/offer gives the position as your seat sees it (every hand for an "open" puzzle, only yours
// for a "single" one) and nothing of the answer; POST /api/puzzles/answer checks your card, rates it, and only
// then sends the solution, what each other card costs, the theme, the share of sampled deals and the replay.

import { cardElement, isCard, sortHand, SUITS, SYMBOLS } from "./cards.js";
import { el } from "./dom.js";
import { contract, num, rankLetter, t, tn } from "./i18n.js";
import { postJSON } from "./net.js";
import { placeName, presetName } from "./tablewords.js";
import { announce, arrowKeys, keepFocus } from "./a11y.js";

const $ = (id) => document.getElementById(id);
const PHONE = window.matchMedia("(max-width: 600px)");
PHONE.addEventListener("change", () => render());

let data = null; // the server's last answer: {mode, rated, day, puzzle, difficulty, player, result}
let busy = false;

// What each theme means, in a line (docs/puzzles.md defines them).
const THEMES = {
  duck: () => t("Duck: follow under the card that wins the trick, keeping the higher one"),
  unblock: () => t("Unblock: be rid of a suit's high card while the trick is lost anyway"),
  take: () => t("Take: win the trick now, while a losing card was there"),
  "lead-away": () => t("Lead away: lead a card another hand will beat, and give the lead away"),
  cash: () => t("Cash: lead the best card left in its suit"),
  guard: () => t("Guard: discard so as to keep a small card guarding a high one"),
  shed: () => t("Shed: void in the suit led, choose the card to be rid of"),
  ruff: () => t("Ruff: void in the suit led, trump in"),
  block: () => t("Block: the Domino move that leaves the others without a card to play"),
  lay: () => t("Lay: the Domino card to lay now, of several that fit"),
};
const THEME_NAMES = {
  duck: () => t("duck"), unblock: () => t("unblock"), take: () => t("take"), "lead-away": () => t("lead away"),
  cash: () => t("cash"), guard: () => t("guard"), shed: () => t("shed"), ruff: () => t("ruff"), block: () => t("block"),
  lay: () => t("lay"),
};
const KIND_NAMES = { open: () => t("every hand shown"), single: () => t("only your hand shown") };

function mode() {
  return $("table").dataset.mode || "rated";
}

function puzzle() {
  return data && data.puzzle;
}

function me() {
  return puzzle() ? puzzle().seat : 0;
}

function players() {
  return puzzle() ? puzzle().players : 4;
}

function shortName(s) {
  return s === me() ? t("You") : placeName(s, me(), players());
}

function cardText(c) {
  return `${rankLetter(c[0])}${SYMBOLS[c[1]] || ""}`;
}

function contractLabel(st) {
  const c = puzzle().contracts.find((x) => x.key === st.contract);
  if (!c) return "";
  let label = contract(c.name);
  if (st.trump !== null && st.trump !== undefined) label += ` ${SYMBOLS[SUITS[st.trump]]}`;
  return label;
}

// ------------------------------------------------------------------ the server
async function offer(body) {
  busy = true;
  $("puzzle-error").textContent = "";
  try {
    data = await postJSON("/api/puzzles/offer", body);
    history.replaceState(null, "", data.mode === "daily" ? "/puzzles/daily" : data.mode === "streak" ? "/puzzles/streak"
      : data.mode === "mine" && !$("table").dataset.id ? "/puzzles/mine" : `/puzzles/${data.puzzle.id}`);
    $("table").dataset.id = data.mode === "rated" || data.mode === "mine" ? data.puzzle.id : "";
  } catch (e) {
    data = null;
    $("puzzle-error").textContent = e.message;
    $("table").dataset.empty = "1";
    // Where to go from a refusal: log in for one's own puzzles, other choices when none is left.
    const next = e.code === "puzzle-not-yours" ? ["/account", t("Log in")]
      : e.code === "puzzle-none-left" && mode() !== "rated" ? ["/puzzles", t("Near your level")] : null;
    if (next) $("puzzle-error").append(" ", el("a", { class: "button", href: next[0], textContent: next[1] }));
  } finally {
    busy = false;
    render();
  }
}

async function play(card) {
  if (busy || !data || data.result) return;
  busy = true;
  render();
  $("puzzle-error").textContent = "";
  try {
    const done = await postJSON("/api/puzzles/answer", { id: puzzle().id, card });
    data = { ...data, result: done.result, player: done.player };
    announce(done.result.solved ? t("Solved.") : t("Not the best card."));
  } catch (e) {
    $("puzzle-error").textContent = e.message;
  } finally {
    busy = false;
    render();
  }
}

function firstOffer() {
  const id = $("table").dataset.id;
  if (id) return offer({ mode: mode() === "mine" ? "mine" : "rated", id });
  return offer({ mode: mode(), ...chosen() });
}

function chosen() {
  const out = {};
  for (const key of ["family", "contract", "theme", "kind"]) {
    const v = $(`choose-${key}`).value;
    if (v) out[key] = v;
  }
  return out;
}

// ------------------------------------------------------------------ drawing
function render() {
  const tbl = $("table");
  tbl.dataset.busy = busy ? "1" : "0";
  renderModes();
  renderPlayer();
  if (!data) return;
  const p = puzzle();
  const st = p.state;
  tbl.dataset.puzzle = p.id;
  tbl.dataset.kind = p.kind;
  tbl.dataset.phase = st.phase;
  tbl.dataset.answered = data.result ? "1" : "0";
  tbl.dataset.solved = data.result ? (data.result.solved ? "1" : "0") : "";
  tbl.dataset.empty = "0";
  keepFocus(() => {
    renderSeats();
    renderCenter();
    renderTurn();
    renderHand();
    renderPanel();
  }, () => (!data.result ? document.querySelector("#hand .card.legal") : $("puzzle-next").hidden ? null : $("puzzle-next")));
}

arrowKeys($("hand"), () => [...$("hand").querySelectorAll(".card.legal")]);

function position(seat, radiusX, radiusY) {
  const n = players();
  const k = (seat - me() + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { left: 50 + radiusX * Math.cos(angle), top: 50 + radiusY * Math.sin(angle) };
}

function renderSeats() {
  const st = puzzle().state;
  const hands = puzzle().hands; // every hand for an "open" puzzle; none but yours for a "single" one
  const boxes = $("seat-boxes");
  boxes.replaceChildren();
  for (let s = 0; s < players(); s++) {
    const p = position(s, PHONE.matches ? 46 : 44, 40);
    const side = Math.abs(p.left - 50) >= 12;
    const box = el("div", { class: "seat-box replay-seat" + (s === me() ? " me" : "") + (side ? " side" : " across")
      + (st.to_act === s ? " to-act" : ""), "data-seat-box": s });
    Object.assign(box.style, { left: `${p.left}%`, top: `${p.top}%`, transform: `translate(-${p.left}%, -${p.top}%)` });
    const badges = el("div", { class: "badges" });
    if (st.dealer === s) badges.append(el("span", { class: "chip dealer", textContent: t("D"), title: t("dealer") }));
    badges.append(el("span", { class: "chip", textContent: tn("{n} card", "{n} cards", st.hand_sizes[s]), title: t("cards in hand") }));
    if (st.last_trick !== undefined) {
      badges.append(el("span", { class: "chip", textContent: tn("{n} trick", "{n} tricks", st.tricks_won[s]), title: t("tricks won") }));
    }
    box.append(el("div", { class: "seat-name", textContent: shortName(s) }), badges);
    if (hands && s !== me()) {
      const hand = el("div", { class: "replay-hand", "data-hand": s });
      for (const c of sortHand(hands[s])) hand.append(cardElement(c, "span", { compact: true }));
      box.append(hand);
    }
    boxes.append(box);
  }
  if (st.contract) boxes.append(el("div", { class: "center-label", textContent: contractLabel(st) }));
}

function renderCenter() {
  const st = puzzle().state;
  const center = $("center");
  center.replaceChildren();
  if (st.rows && st.rows.some((r) => r.length)) return renderRows(center, st);
  const cards = st.trick || [];
  const spot = el("div", { class: "trick", "data-trick": cards.join(" ") });
  cards.forEach((c, i) => {
    const seat = (st.leader + i) % players();
    const p = position(seat, PHONE.matches ? 12 : 24, PHONE.matches ? 17 : 22);
    const played = el("div", { class: "trick-card" + (seat === me() ? " mine" : ""), "data-by": seat },
      cardElement(c), el("span", { class: "by", textContent: shortName(seat) }));
    Object.assign(played.style, { left: `${p.left}%`, top: `${p.top}%`, zIndex: i + 1 });
    spot.append(played);
  });
  if (!cards.length) spot.append(el("div", { class: "trick-winner", textContent: t("Your lead") }));
  center.append(spot);
}

function renderRows(center, st) {
  const ranks = st.row_ranks;
  const grid = el("div", { class: "rows" });
  grid.style.setProperty("--row-slots", ranks.length);
  st.rows.forEach((row, i) => {
    const line = el("div", { class: "row-line" },
      el("span", { class: "row-suit" + (i === 1 || i === 2 ? " red" : ""), textContent: SYMBOLS[SUITS[i]] }));
    if (!row.length) line.append(el("span", { class: "muted", textContent: "—" }));
    row.forEach((c, k) => {
      const card = cardElement(c, "span", { compact: true });
      if (k === 0) card.style.marginLeft = `calc(${Math.max(0, ranks.indexOf(row[0][0]))} * var(--row-step))`;
      line.append(card);
    });
    grid.append(line);
  });
  center.append(grid);
}

function renderTurn() {
  const turn = $("turn");
  const mine = !data.result && !busy;
  turn.dataset.mine = mine ? "1" : "0";
  turn.textContent = !data.result ? t("Your turn: find the best card.") : data.result.solved ? t("Solved.") : t("Not the best card.");
}

function renderHand() {
  const st = puzzle().state;
  const box = $("hand");
  box.replaceChildren();
  const legal = (st.legal || []).filter(isCard);
  const r = data.result;
  for (const c of sortHand(st.hand || [])) {
    const card = cardElement(c, "button");
    const playable = legal.includes(c) && !r;
    if (playable) card.classList.add("legal");
    else if (!r) card.classList.add("dim");
    if (r && r.solution.includes(c)) card.classList.add("expected");
    if (r && !r.solved && r.answer === c) card.classList.add("refused");
    const cost = r && r.costs.find(([a]) => a === c);
    if (cost) card.append(el("span", { class: "cost-tag", textContent: `−${num(cost[1])}` }));
    card.dataset.legal = playable ? "1" : "0";
    if (!playable) card.setAttribute("aria-disabled", "true");
    card.addEventListener("click", () => { if (playable) play(c); });
    box.append(card);
  }
}

function renderPanel() {
  const p = puzzle();
  const r = data.result;
  const family = presetName(p.family);
  const title = data.mode === "daily" ? t("Puzzle of the day") : data.mode === "streak" ? t("Streak")
    : data.mode === "mine" ? t("From your matches") : t("Puzzle");
  $("puzzle-title").textContent = `${title} · ${family} · ${contractLabel(p.state) || p.contract}`;
  document.title = `barbu — ${title}`;
  const kind = $("puzzle-kind");
  kind.replaceChildren(
    el("span", { class: `tag kind-tag ${p.kind}`, textContent: KIND_NAMES[p.kind] ? KIND_NAMES[p.kind]() : p.kind }), " ",
    el("span", { class: "muted", textContent: p.kind === "open"
      ? t("Every hand is face up: the best card is proved with all of them in view.")
      : t("Only your hand and the cards played: the best card is best in nearly every deal that fits what you see.") }));
  kind.append(" ", el("span", { class: "muted small difficulty", textContent: t("Difficulty {n}", { n: num(data.difficulty) }) }));
  $("puzzle-task").textContent = r ? "" : t("One card is best here: every other one costs you points, with the best play after.");
  $("puzzle-task").hidden = !!r;
  renderResult();
  renderPlayed();
  const more = r && data.mode !== "daily" && !(data.mode === "streak" && !r.solved);
  $("puzzle-next").hidden = !more;
  $("streak-again").hidden = !(r && data.mode === "streak" && !r.solved);
}

function renderResult() {
  const box = $("puzzle-result");
  const r = data.result;
  box.hidden = !r;
  box.replaceChildren();
  if (!r) return;
  box.className = "puzzle-result " + (r.solved ? "solved" : "failed");
  box.append(el("p", { class: "verdict", textContent: r.solved ? t("Solved: that is the best card.") : t("Not the best card.") }));
  const best = el("p", { class: "solution" }, r.solution.length > 1 ? t("Best (any of them): ") : t("Best: "));
  for (const c of r.solution) best.append(cardElement(c, "span", { compact: true }), " ");
  box.append(best);
  if (r.costs.length) {
    const list = el("ul", { class: "costs", "aria-label": t("What each other card costs") });
    for (const [c, cost] of r.costs) {
      list.append(el("li", { class: c === r.answer ? "yours" : "", "data-card": c },
        el("strong", { textContent: cardText(c) }), " ", tn("costs {n} point", "costs {n} points", cost)));
    }
    box.append(el("p", { class: "muted small", textContent: t("What each other card costs you, with best play after:") }), list);
  }
  for (const step of r.line || []) { // a line: the others' best replies, then the best card again
    box.append(el("p", { class: "line-step" }, t("Then, after {replies}: ", { replies: step.replies.filter(isCard).map(cardText).join(" ") }),
      el("strong", { textContent: step.solution.map(cardText).join(t(" or ")) })));
  }
  if (THEMES[r.theme]) box.append(el("p", { class: "theme", "data-theme": r.theme }, THEMES[r.theme]()));
  if (puzzle().kind === "single" && r.share !== null && r.samples) {
    box.append(el("p", { class: "share", textContent: t("Best in {k} of {n} deals consistent with what you saw.",
      { k: num(Math.round(r.share * r.samples)), n: num(r.samples) }) }));
  }
  if (r.before !== null && r.after !== null) {
    const change = r.after - r.before;
    box.append(el("p", { class: "rating-change " + (change >= 0 ? "up" : "down"), "data-before": r.before, "data-after": r.after,
      textContent: t("Your puzzle rating: {before} → {after} ({change})",
        { before: num(r.before), after: num(r.after), change: (change >= 0 ? "+" : "−") + num(Math.abs(change)) }) }));
  } else if (data.mode === "streak") {
    box.append(el("p", { class: "streak-line", textContent: r.solved
      ? t("Streak: {n} in a row (best {best}).", { n: num(data.player.streak), best: num(data.player.best_streak) })
      : t("The streak is over. Your best: {best}.", { best: num(data.player.best_streak) }) }));
  }
  box.append(el("p", { class: "muted small", textContent: tn("Solved by {k} of {n} solver", "Solved by {k} of {n} solvers", r.plays,
    { k: num(r.solved_by) }) }));
  if (r.replay) box.append(el("p", {}, el("a", { class: "button", href: r.replay, id: "puzzle-replay" }, t("See the whole deal (replay)"))));
}

function renderPlayed() {
  const st = puzzle().state;
  const tricks = (st.tricks || []).filter((x) => x.cards.length === players());
  const box = $("played");
  box.hidden = !tricks.length;
  if (box.dataset.puzzle !== puzzle().id) { // a new puzzle: a single one's tricks open, they are all you can go by
    box.dataset.puzzle = puzzle().id;
    box.open = puzzle().kind === "single";
  }
  $("played-title").textContent = tn("{n} trick played", "{n} tricks played", tricks.length);
  // Each trick from its leader, the winning card in bold, the red suits red; who played a card in its title.
  $("played-tricks").replaceChildren(...tricks.map((x) => el("li", {},
    el("span", { class: "played-by muted", textContent: shortName(x.leader) }),
    ...x.cards.map((c, i) => el("span", { class: "played-card" + ((x.leader + i) % players() === x.winner ? " won" : "")
      + (c[1] === "H" || c[1] === "D" ? " red" : ""), title: shortName((x.leader + i) % players()), textContent: cardText(c) })))));
}

function renderModes() {
  for (const a of document.querySelectorAll(".puzzle-modes a")) {
    const on = a.dataset.mode === (data ? data.mode : mode());
    a.classList.toggle("current", on);
    if (on) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  $("puzzle-choice").hidden = mode() !== "rated";
}

function renderPlayer() {
  const box = $("player-rating");
  if (!data || !data.player) return;
  const pl = data.player;
  box.dataset.rating = pl.rating;
  let text = t("Puzzle rating {n}", { n: num(pl.rating) + (pl.provisional ? "?" : "") });
  if (pl.best_streak) text += " · " + t("best streak {n}", { n: num(pl.best_streak) });
  box.textContent = text;
}

// ------------------------------------------------------------------ the choices
let choices = null; // GET /api/puzzles/choices: each field's values with their counts, the contracts by game

async function loadChoices() {
  try {
    const r = await fetch("/api/puzzles/choices");
    if (!r.ok) return;
    choices = await r.json();
    fill("family", choices.family, presetName);
    fillContracts();
    fill("theme", choices.theme, (x) => (THEME_NAMES[x] ? THEME_NAMES[x]() : x));
    fill("kind", choices.kind, (x) => (KIND_NAMES[x] ? KIND_NAMES[x]() : x));
  } catch { /* the choices stay "any" */ }
}

// The contracts of the game chosen (of every game when none is), the one chosen kept where it is still there.
function fillContracts() {
  const family = $("choose-family").value;
  const pairs = family ? Object.entries((choices.by_family || {})[family] || {}).sort() : choices.contract;
  const select = $("choose-contract");
  const was = select.value;
  select.replaceChildren(select.options[0]);
  fill("contract", pairs, (x) => contract((choices.names || {})[x] || x));
  select.value = pairs.some(([x]) => x === was) ? was : "";
}

function fill(key, pairs, word) {
  const select = $(`choose-${key}`);
  for (const [value, n] of pairs || []) select.append(el("option", { value, textContent: `${word(value)} (${num(n)})` }));
}

$("choose-family").addEventListener("change", () => { if (choices) fillContracts(); });

// ------------------------------------------------------------------ the buttons
$("puzzle-choice").addEventListener("submit", (e) => {
  e.preventDefault();
  $("table").dataset.id = "";
  offer({ mode: "rated", ...chosen() });
});
$("puzzle-next").addEventListener("click", () => {
  $("table").dataset.id = "";
  offer({ mode: data ? data.mode : mode(), ...(mode() === "rated" ? chosen() : {}) });
});
$("streak-again").addEventListener("click", async () => {
  try {
    await postJSON("/api/puzzles/streak", {});
    offer({ mode: "streak" });
  } catch (e) {
    $("puzzle-error").textContent = e.message;
  }
});

loadChoices();
firstOffer();
