// The replay page: a finished match (or a record file a player uploads) deal by deal and move by move,
// every hand face up, and beside the table what each decision cost against the strongest computer player.
// The server sends a deal as frames (one per move, the table's public state and the hands) and weighs a
// deal's decisions on demand; this page asks again every second while it is being weighed. A deal's
// double-dummy table (every contract, every seat, with every hand shown) is worked out when asked for.

import { cardElement, cardLabel, isCard, prettyCards, RANKS, sortHand, SUITS, SYMBOLS } from "./cards.js";
import { el } from "./dom.js";
import { contract, lang, num as numText, rankLetter, strength as strengthName, t, tn } from "./i18n.js";
import { meldName, sortCards as besigueOrder, toldAction } from "./besigue_words.js";
import { drawReplayChat } from "./chat.js";
import { loadSeat } from "./net.js";
import { chairName, computerName, placeName, rulesTitle } from "./tablewords.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
// /t/{id}/replay (a finished table), /replay/{id} (an uploaded record), /replay (the upload form alone)
const replayId = parts[0] === "t" ? parts[1] : parts[1] || null;
const POINTS = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const PHONE = window.matchMedia("(max-width: 600px)");

let match = null; // the overview: players, names, contracts, every deal's result
let me = null; // the seat whose replay it is (a daily deal's player, this browser's seat at the table), or null
let dealNo = 1;
let frames = [];
let index = 0; // the frame shown: 0 as dealt, k after the deal's k-th move
const analyses = new Map(); // deal -> the server's answer (done, running, queued, refused)
let pollTimer = null;
const tables = new Map(); // deal -> the server's double-dummy table, or its progress (or a refusal)
let ddTimer = null;

// ------------------------------------------------------------------ words
const besigue = () => match && match.game === "besigue";

// A person by the record's name; a computer player by its place and strength, seen from the bottom seat
// ("West, good player"), as the table names it.
function seatName(s) {
  const kind = match && match.computers ? match.computers[s] : null;
  if (kind !== null && kind !== undefined) {
    if (s !== bottom() || match.players === 2) return computerName(s, bottom(), match.players, kind);
    return t("{place}, {strength}", { place: t("South"), strength: kind ? strengthName(kind) : t("computer") });
  }
  const name = match && match.names[s];
  return name || chairName(s, bottom(), match.players);
}

// A player in a list of those doubled: a computer player by its place alone ("double North, East", never "double
// North, good player, East, good player", whose commas hid who was doubled), a person by his name.
function doubledName(s) {
  const kind = match && match.computers ? match.computers[s] : null;
  return kind !== null && kind !== undefined && match.players > 2 ? seatShort(s) : seatName(s);
}

// The seat drawn at the bottom of the table: the replay's own player, else the first seat.
function bottom() {
  return me === null ? 0 : me;
}

// A column's short head: the seat's place from the bottom ("West"; "South" for the bottom seat), its name
// when the table has no places (two players).
function seatShort(s) {
  if (s === bottom() && match.players > 2) return t("South");
  return placeName(s, bottom(), match.players) || seatName(s);
}

function contractName(key) {
  const c = match && match.contracts.find((x) => x.key === key);
  return c ? contract(c.name) : key;
}

function contractLabel(key, trump, rank) {
  if (!key) return "";
  let label = contractName(key);
  if (trump !== null && trump !== undefined) label += ` ${SYMBOLS[SUITS[trump]]}`;
  if (rank) label += " " + t("from {rank}", { rank: rankLetter(rank) });
  return label;
}

function actionLabel(text) {
  if (text === null || text === undefined) return "·";
  const words = text.split(" ");
  if (isCard(text)) return cardLabel(text);
  if (words[0] === "contract") return contractName(words.slice(1).join(" "));
  if (words[0] === "trump") {
    const s = (words[1] || "").toUpperCase();
    return SYMBOLS[s] ? t("{suit} trumps", { suit: SYMBOLS[s] }) : t("no trump");
  }
  if (words[0] === "rank") return t("start from {rank}", { rank: rankLetter(words[1]) });
  if (text === "pass") return t("Pass");
  if (words[0] === "double") return t("double {names}", { names: words.slice(1).map((s) => doubledName(Number(s))).join(", ") });
  return prettyCards(text);
}

function points(x) {
  return x === null || x === undefined ? "·" : POINTS.format(x);
}

function signed(x) {
  const n = typeof x === "number" ? x : Number(String(x).split("/")[0]) / (Number(String(x).split("/")[1]) || 1);
  return `${n > 0 ? "+" : ""}${typeof x === "number" ? numText(x) : x}`;
}

// ------------------------------------------------------------------ the server
async function getJson(url, options = {}) {
  const r = await fetch(url, { headers: { "content-type": "application/json" }, ...options });
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    const err = new Error((body && body.error) || t("the server could not answer ({status})", { status: r.status }));
    err.status = r.status;
    throw err;
  }
  return body;
}

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

async function openDeal(n, at = 0) {
  if (!match || n < 1 || n > match.deals.length) return;
  try {
    const data = await getJson(`/api/replays/${encodeURIComponent(replayId)}/deals/${n}`);
    dealNo = n;
    frames = data.frames;
    index = at === "last" ? frames.length - 1 : Math.max(0, Math.min(at, frames.length - 1));
    showError("");
    render();
    askAnalysis();
    const dd = tables.get(n);
    if (dd && (dd.state === "queued" || dd.state === "running")) askTable(); // back to a deal being solved
  } catch (e) {
    showError(e.message);
  }
}

// The deal's analysis: asked for when the deal opens, and again every second until it is done.
async function askAnalysis() {
  clearTimeout(pollTimer);
  const n = dealNo;
  const known = analyses.get(n);
  if (besigue() || (known && known.state === "done")) return;
  try {
    analyses.set(n, await getJson(`/api/replays/${encodeURIComponent(replayId)}/deals/${n}/analysis`, { method: "POST", body: "{}" }));
  } catch (e) {
    analyses.set(n, { state: "refused", message: e.message });
  }
  if (n !== dealNo) return;
  renderAnalysis();
  if (analyses.get(n).state !== "done") pollTimer = setTimeout(askAnalysis, analyses.get(n).state === "refused" ? 3000 : 1000);
}

// The deal's double-dummy table: asked for with its button, then again every second until it is solved.
async function askTable() {
  clearTimeout(ddTimer);
  const n = dealNo;
  try {
    tables.set(n, await getJson(`/api/replays/${encodeURIComponent(replayId)}/deals/${n}/dd`, { method: "POST", body: "{}" }));
  } catch (e) {
    tables.set(n, { state: "refused", message: e.message });
  }
  if (n !== dealNo) return;
  renderTable();
  const state = tables.get(n).state;
  if (state === "queued" || state === "running") ddTimer = setTimeout(askTable, 1000);
}

// ------------------------------------------------------------------ drawing
// Seat k around the table: the replay's own seat at the bottom, then clockwise in playing order (as at the table).
function position(seat, n, radiusX, radiusY) {
  const angle = Math.PI / 2 + (2 * Math.PI * ((seat - bottom() + n) % n)) / n;
  return { left: 50 + radiusX * Math.cos(angle), top: 50 + radiusY * Math.sin(angle) };
}

function render() {
  const f = frames[index];
  if (!f) return;
  const main = $("replay");
  main.dataset.deal = dealNo;
  main.dataset.step = f.step;
  location.replace(`#deal=${dealNo}&move=${f.step}`);
  renderFelt(f);
  renderControls();
  renderMoveTitle(f);
  renderAnalysis();
  renderTable();
  renderDeals();
}

function renderFelt(f) {
  const n = match.players;
  const st = f.state;
  const boxes = $("seat-boxes");
  boxes.replaceChildren();
  $("replay").classList.toggle("two-seats", n === 2); // Bésigue: one seat above, one below, the trick between
  for (let s = 0; s < n; s++) {
    const p = position(s, n, 37, 39);
    const side = Math.abs(p.left - 50) > 1;
    // On a phone the trick lies below the seats at the sides, which sit higher up, half the width each.
    if (PHONE.matches && p.top < 51) p.top = side ? Math.min(36, p.top * .75 + 12) : p.top * .75;
    const box = el("div", { class: "seat-box replay-seat" + (side ? " side" : ""), "data-seat-box": s });
    box.style.left = `${p.left}%`;
    box.style.top = `${p.top}%`;
    box.style.transform = `translate(-${p.left}%, -${p.top}%)`;
    if (st.to_act === s && st.phase !== "deal" && st.phase !== "over") box.classList.add("to-act");
    if (f.seat === s) box.classList.add("moved");
    const badges = el("div", { class: "badges" });
    if (st.dealer === s) badges.append(el("span", { class: "chip dealer", textContent: t("D"), title: t("dealer") }));
    if (st.declarer === s && st.contract) badges.append(el("span", { class: "chip", textContent: "★", title: t("declarer") }));
    if (st.last_trick !== undefined && st.contract) badges.append(el("span", { class: "chip", textContent: tn("{n} trick", "{n} tricks", st.tricks_won[s]), title: t("tricks won") }));
    if (besigue()) {
      badges.append(el("span", { class: "chip", textContent: tn("{n} trick", "{n} tricks", st.won[s]), title: t("tricks won") }));
      badges.append(el("span", { class: "chip", textContent: signed(st.scores[s]), title: t("this deal") }));
    }
    badges.append(el("span", { class: "chip total", textContent: numText(Number(st.totals[s]) || 0), title: t("total") }));
    const hand = el("div", { class: "replay-hand", "data-hand": s, "aria-label": t("{name}'s hand", { name: seatName(s) }) });
    for (const c of (besigue() ? besigueOrder : sortHand)(f.hands[s])) hand.append(cardElement(c, "span", { compact: true }));
    if (!f.hands[s].length) hand.append(el("span", { class: "muted empty-hand", textContent: "—" }));
    box.append(el("div", { class: "seat-name", textContent: seatName(s) }), badges, hand);
    if (besigue() && (st.table[s].length || st.melds[s].length)) { // the cards declared, face up before the player
      const laid = el("div", { class: "replay-laid", "data-laid": s, title: t("declared, on the table") });
      for (const c of besigueOrder(st.table[s].map((x) => x.card))) laid.append(cardElement(c, "span", { compact: true }));
      for (const m of st.melds[s]) laid.append(el("span", { class: "chip meld", textContent: `${meldName(m.kind)} ${numText(m.points)}` }));
      box.append(laid);
    }
    const d = (st.doubles || []).filter(([a]) => a === s);
    if (d.length) box.append(el("div", { class: "doubles", textContent: d.map(([, b, rr]) => `×${rr ? "×" : ""} ${seatName(b)}`).join(" · ") }));
    boxes.append(box);
  }
  renderCenter(f);
}

function renderCenter(f) {
  const center = $("center");
  center.replaceChildren();
  const st = f.state;
  if (st.rows && st.rows.some((r) => r.length)) {
    const grid = el("div", { class: "rows" });
    grid.style.setProperty("--row-slots", (st.row_ranks || RANKS).length);
    st.rows.forEach((row, i) => {
      const line = el("div", { class: "row-line" }, el("span", { class: "row-suit" + (i === 1 || i === 2 ? " red" : ""), textContent: SYMBOLS[SUITS[i]] }));
      row.forEach((c, k) => {
        const card = cardElement(c, "span", { compact: true });
        if (c === f.action) card.classList.add("just-played");
        if (k === 0) card.style.marginLeft = `calc(${Math.max(0, (st.row_ranks || RANKS).indexOf(row[0][0]))} * var(--row-step))`;
        line.append(card);
      });
      grid.append(line);
    });
    center.append(grid);
  } else {
    const trick = f.trick;
    const spot = el("div", { class: "trick", "data-trick": trick.cards.join(" ") });
    trick.cards.forEach((c, i) => {
      const seat = trick.seats ? trick.seats[i] : (trick.leader + i) % match.players;
      const p = position(seat, match.players, PHONE.matches ? 26 : 20, PHONE.matches ? 28 : 22);
      const card = cardElement(c);
      if (c === f.action) card.classList.add("just-played");
      const by = el("span", { class: "by", textContent: seatShort(seat), title: seatName(seat) });
      const played = el("div", { class: "trick-card" + (trick.complete && trick.winner === seat ? " winner" : ""), "data-by": seat }, card, by);
      played.style.left = `${p.left}%`;
      played.style.top = `${p.top}%`;
      played.style.zIndex = i + 1;
      spot.append(played);
    });
    center.append(spot);
    if (trick.complete && trick.winner !== undefined && trick.winner !== null) {
      center.append(el("div", { class: "trick-winner", textContent: t("{name} wins the trick", { name: seatName(trick.winner) }) }));
    }
  }
  if (besigue()) {
    renderStock(st);
    return;
  }
  const deal = match.deals[dealNo - 1];
  const key = st.contract || (index === frames.length - 1 ? deal.contract : null);
  if (key) {
    const label = contractLabel(key, st.contract ? st.trump : deal.trump, st.contract ? st.rank : deal.rank);
    const by = st.contract ? st.declarer : deal.declarer;
    $("seat-boxes").append(el("div", { class: "center-label", textContent: t("{contract}, declared by {name}", { contract: label, name: seatName(by) }) }));
  }
}

// Bésigue: the stock with its turned-up card, and the trump suit.
function renderStock(st) {
  const stock = el("div", { class: "replay-stock", title: tn("the stock: {n} card", "the stock: {n} cards", st.stock) });
  if (st.turn_up && st.stock) stock.append(cardElement(st.turn_up, "span", { compact: true }));
  stock.append(el("span", { textContent: st.stock ? t("stock {n}", { n: numText(st.stock) }) : t("stock empty") }));
  $("center").append(stock);
  $("seat-boxes").append(el("div", { class: "center-label", textContent: `${t("Trumps")} ${SYMBOLS[st.trump] || ""}` }));
}

function renderControls() {
  $("where").textContent = t("Deal {deal} of {deals} · move {move} of {moves}", {
    deal: numText(dealNo), deals: numText(match.deals.length), move: numText(frames[index].step), moves: numText(frames.length - 1) });
  $("first").disabled = index === 0;
  $("last").disabled = index === frames.length - 1;
  // The arrows go on into the next deal (or back into the previous one) at a deal's ends.
  $("prev").disabled = index === 0 && dealNo === 1;
  $("next").disabled = index === frames.length - 1 && dealNo === match.deals.length;
  $("prev-deal").disabled = dealNo === 1;
  $("next-deal").disabled = dealNo === match.deals.length;
}

function renderMoveTitle(f) {
  let title = t("Deal {n}: the cards are dealt", { n: numText(dealNo) });
  if (f.step && besigue()) title = t("Move {n}: {what}", { n: numText(f.step), what: toldAction(seatName(f.seat), f.action) });
  else if (f.step) title = t("Move {n}: {name} — {action}", { n: numText(f.step), name: seatName(f.seat), action: actionLabel(f.action) });
  $("move-title").textContent = title;
}

function decisionAt(step) {
  const a = analyses.get(dealNo);
  return a && a.state === "done" ? a.decisions.find((d) => d.step === step) : undefined;
}

function renderAnalysis() {
  const box = $("move-analysis");
  const a = analyses.get(dealNo);
  const f = frames[index];
  box.replaceChildren();
  $("costliest-box").hidden = $("explain").hidden = besigue();
  if (besigue()) {
    $("move").dataset.state = "none";
    box.append(el("p", { class: "muted", textContent: t("The analysis is for the Barbu games: this Bésigue match is replayed without it.") }));
    return;
  }
  $("move").dataset.state = a ? a.state : "asking";
  if (!a || a.state === "queued" || a.state === "running") {
    const of = a && a.steps ? a.steps : 0;
    box.append(el("p", { class: "weighing", textContent: a && a.state === "running" && of
      ? t("Weighing this deal's decisions… move {n} of {total}", { n: numText(a.step), total: numText(of) })
      : t("Weighing this deal's decisions…") }));
    const bar = el("progress", { max: of || 1, value: a && a.step ? a.step : 0 });
    if (!of) bar.removeAttribute("value");
    box.append(bar);
    renderCostliest();
    return;
  }
  if (a.state === "refused") {
    box.append(el("p", { class: "notice", textContent: a.message }));
    renderCostliest();
    return;
  }
  if (f.step === 0) {
    box.append(el("p", { class: "muted", textContent: t("Step through the deal with the arrows: each decision is weighed here.") }));
  } else {
    const d = decisionAt(f.step);
    if (!d) box.append(el("p", { class: "muted", textContent: t("Only one possible move: nothing to weigh.") }));
    else box.append(...decisionView(d));
  }
  renderCostliest();
}

function decisionView(d) {
  const out = [];
  const name = seatName(d.seat);
  if (d.cost === null) {
    out.push(el("p", { class: "muted", textContent: t("The strongest computer player did not weigh this choice.") }));
  } else if (d.cost > 0) {
    out.push(el("p", { class: "verdict costly", "data-cost": d.cost },
      t("From {name}'s view, the strongest computer player would have chosen {best}: this choice cost {cost} points.",
        { name, best: actionLabel(d.best), cost: points(d.cost) })));
  } else {
    out.push(el("p", { class: "verdict good", "data-cost": 0 }, t("From {name}'s view, as good as the strongest computer player's choice.", { name })));
  }
  if (d.values.length) {
    const rows = d.values.map(([action, v]) => el("tr", { class: action === d.chosen ? "chosen" : "" },
      el("td", { textContent: actionLabel(action) }), el("td", { class: "num", textContent: points(v) })));
    out.push(el("table", { class: "values" },
      el("tr", {}, el("th", { textContent: t("choice") }), el("th", { class: "num", textContent: t("expected points") })), ...rows));
  }
  if (d.exact_best !== null) {
    out.push(el("p", { class: "exact", "data-exact-cost": d.exact_cost }, d.exact_cost > 0
      ? t("With every hand shown, {best} was best: exact cost {cost} points.", { best: actionLabel(d.exact_best), cost: numText(d.exact_cost) })
      : d.phase === "domino"
        ? t("With every hand shown, this move was one of the best: exact cost 0.")
        : t("With every hand shown, this card was one of the best: exact cost 0.")));
    // The two costs disagree: say why rather than leave "cost 15" beside "exact cost 0" unexplained.
    if (d.cost > 0 && d.exact_cost === 0) {
      out.push(el("p", { class: "muted exact-why" }, t("A risk that did not cost this time: from what could be seen it lost points on average, but the cards lay so that it lost nothing.")));
    } else if (!d.cost && d.exact_cost > 0) {
      out.push(el("p", { class: "muted exact-why" }, t("A sound choice that the cards punished: from what could be seen nothing was better, but as the cards lay another choice did better.")));
    }
  } else if (d.phase === "play" || d.phase === "domino") {
    out.push(el("p", { class: "muted exact", textContent: t("The exact cost is worked out once the hands are small.") }));
  }
  return out;
}

// A decision outside trick play, by its phase: where in the deal it was taken (as `barbu analyze` says it).
const MOMENTS = {
  declare: () => t("the contract"),
  trump: () => t("the trumps"),
  rank: () => t("the starting rank"),
  doubling: () => t("the doubles"),
  "pass-on": () => t("the cards passed on"),
  arrange: () => t("the rows"),
};

function renderCostliest() {
  const box = $("costliest");
  const a = analyses.get(dealNo);
  box.replaceChildren();
  if (!a || a.state !== "done") {
    box.append(el("p", { class: "muted", textContent: a && a.state === "refused" ? "" : t("They appear here once the deal is weighed.") }));
    return;
  }
  const list = el("ul", { class: "costliest" });
  for (let s = 0; s < match.players; s++) {
    const steps = a.costliest[s];
    const item = el("li", {}, el("strong", { textContent: seatName(s) }),
      el("span", { class: "muted", textContent: " " + t("{cost} points lost in all", { cost: points(a.totals[s]) }) }));
    const jumps = el("div", { class: "jumps" });
    for (const step of steps) {
      const d = a.decisions.find((x) => x.step === step);
      jumps.append(el("button", { type: "button", class: "jump", "data-step": step, onclick: () => go(step) },
        // a card of trick play by its trick, a lay by the player's turn at the rows, as a player remembers them
        d.trick ? t("trick {n}: {played} → {better} ({cost})", { n: numText(d.trick), played: actionLabel(d.chosen), better: actionLabel(d.best), cost: points(d.cost) })
          : d.turn ? t("the layout, turn {n}: {played} → {better} ({cost})", { n: numText(d.turn), played: actionLabel(d.chosen), better: actionLabel(d.best), cost: points(d.cost) })
            : MOMENTS[d.phase] ? t("{moment}: {played} → {better} ({cost})", { moment: MOMENTS[d.phase](), played: actionLabel(d.chosen), better: actionLabel(d.best), cost: points(d.cost) })
              : t("move {n}: {played} → {better} ({cost})", { n: numText(step), played: actionLabel(d.chosen), better: actionLabel(d.best), cost: points(d.cost) })));
    }
    if (!steps.length) jumps.append(el("span", { class: "muted", textContent: t("no costly decision") }));
    item.append(jumps);
    list.append(item);
  }
  box.append(list);
}

// A cell: its value when the solver finished, else in words what it proved in its time ("at least -8, no more
// than -4", "at least -8", "no more than -4", or "not proved", its title saying "between -26 and 0", the points
// still to take).  A number keeps to the word before it.
function cellText(c) {
  const keep = (text) => text.replace(/ (?=[-−+]?\d)/g, "\u00a0");
  if (c.exact) return numText(c.least);
  if (c.least !== null && c.most !== null) return keep(t("at least {least}, no more than {most}", { least: numText(c.least), most: numText(c.most) }));
  if (c.least !== null) return keep(t("at least {least}", { least: numText(c.least) }));
  if (c.most !== null) return keep(t("no more than {most}", { most: numText(c.most) }));
  return t("not proved");
}

function cellTitle(c, bounds) {
  if (c.exact || c.least !== null || c.most !== null || !bounds || bounds[0] === null || bounds[1] === null) return "";
  return t("not proved: between {low} and {high}", { low: numText(bounds[0]), high: numText(bounds[1]) });
}

function ddContractLabel(key, trump) {
  const c = match.contracts.find((x) => x.key === key);
  return contractLabel(key, trump, null) + (c && c.trump && (trump === null || trump === undefined) ? " " + t("no trump") : "");
}

function renderTable() {
  const panel = $("dd-box");
  panel.hidden = besigue();
  if (besigue()) return;
  const box = $("dd");
  const ask = $("dd-ask");
  box.replaceChildren();
  $("dd-explain").hidden = !match.dd;
  if (!match.dd) {
    ask.hidden = true;
    box.append(el("p", { class: "notice", textContent: t("The double-dummy table is not available for the Scottish game.") }));
    return;
  }
  const a = tables.get(dealNo);
  panel.dataset.state = a ? a.state : "none";
  ask.hidden = Boolean(a) && a.state !== "refused";
  ask.textContent = a && a.state === "refused" ? t("Try again") : t("Work out the table of this deal");
  if (!a) return;
  if (a.state === "refused") {
    box.append(el("p", { class: "notice", textContent: a.message }));
    return;
  }
  if (a.state !== "done") {
    box.append(el("p", { class: "weighing", textContent: a.state === "running" && a.total
      ? t("Solving the table… cell {n} of {total}", { n: numText(Math.min(a.done + 1, a.total)), total: numText(a.total) })
      : t("Waiting for the server…") }));
    const bar = el("progress", { max: a.total || 1, value: a.done || 0 });
    if (!a.total) bar.removeAttribute("value");
    box.append(bar);
    return;
  }
  const head = el("tr", {}, el("th", { scope: "col", textContent: t("contract") }),
    ...Array.from({ length: match.players }, (_, s) => el("th", { scope: "col", class: "num", title: seatName(s), "data-seat": s },
      el("span", { textContent: seatShort(s) + (s === a.declarer ? "\u00a0★" : "") }))));
  const rows = a.rows.map((r) => el("tr", { class: r.chosen ? "chosen" : "", "data-contract": r.contract, "data-trump": r.trump === null ? "" : r.trump },
    el("th", { scope: "row", textContent: (r.chosen ? "▶ " : "") + ddContractLabel(r.contract, r.trump) }),
    ...r.cells.map((c, s) => el("td", { class: "num" + (c.exact ? " exact" : c.least === null && c.most === null ? " unknown" : " range"),
      textContent: cellText(c), title: cellTitle(c, r.bounds && r.bounds[s]) }))));
  box.append(el("div", { class: "dd-wrap" }, el("table", { class: "dd" }, el("thead", {}, head), el("tbody", {}, ...rows))));
  const notes = [t("Each cell: what that seat scores at that contract (doubles left out) when it plays its best and all the others play against it, with every hand shown.")];
  if (!a.rows.length) notes.unshift(t("No contract with trick play was left to the declarer at this deal.")); // a layout game was his last choice
  if (!a.rows.every((r) => r.cells.every((c) => c.exact))) {
    notes.push(t("Where the solver ran out of its time for a cell ({time} each), the cell says what it proved: at least so much, no more than so much, or nothing beyond the points still to take.",
      { time: `${numText(a.seconds)}\u00a0s` }));
  }
  if (a.stored) notes.push(t("Solved in advance on the server, as soon as the deal was dealt."));
  const marks = [];
  const played = match.deals[dealNo - 1].contract; // a layout game chosen is marked among those left out
  if (a.rows.some((r) => r.chosen) || a.left_out.includes(played)) marks.push(t("▶ the contract chosen in the game"));
  if (a.declarer !== null && a.declarer !== undefined) marks.push(t("★ the declarer"));
  if (marks.length) notes.push(marks.join(" · "));
  if (a.left_out.length) notes.push(t("Not in the table, having no trick play: {contracts}.", { contracts: a.left_out.map((k) => (k === played ? "▶ " : "") + contractName(k)).join(", ") }));
  for (const text of notes) box.append(el("p", { class: "muted small", textContent: text }));
}

function renderDeals() {
  const table = $("deals");
  const n = match.players;
  const head = el("tr", {}, el("th", { textContent: "#" }), el("th", { textContent: besigue() ? t("dealer") : t("contract") }),
    ...Array.from({ length: n }, (_, s) => el("th", { class: "num", title: seatName(s), textContent: seatShort(s) })));
  const rows = match.deals.map((d) => {
    const row = el("tr", { class: d.number === dealNo ? "current" : "", "data-deal": d.number, tabIndex: 0, onclick: () => openDeal(d.number) },
      el("td", { textContent: numText(d.number) }),
      el("td", { textContent: besigue() ? seatName(d.dealer) : `${contractLabel(d.contract, d.trump, d.rank)} · ${seatShort(d.declarer)}` }),
      ...d.scores.map((x, s) => el("td", { class: "num", title: t("total") + " " + d.totals[s], textContent: signed(x) })));
    row.addEventListener("keydown", (e) => { if (e.key === "Enter") openDeal(d.number); });
    return row;
  });
  const total = el("tr", { class: "strong" }, el("td", {}), el("td", { textContent: t("total") }),
    ...match.totals.map((x) => el("td", { class: "num", textContent: numText(Number(x)) })));
  table.replaceChildren(head, ...rows, total);
}

// ------------------------------------------------------------------ moving
function go(step) {
  index = Math.max(0, Math.min(step, frames.length - 1));
  render();
}

function stepBy(k) {
  const next = index + k;
  if (next < 0 && dealNo > 1) openDeal(dealNo - 1, "last");
  else if (next >= frames.length && dealNo < match.deals.length) openDeal(dealNo + 1, 0);
  else go(next);
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => stepBy(-1));
$("next").addEventListener("click", () => stepBy(1));
$("last").addEventListener("click", () => go(frames.length - 1));
$("dd-ask").addEventListener("click", () => askTable());
$("prev-deal").addEventListener("click", () => openDeal(dealNo - 1));
$("next-deal").addEventListener("click", () => openDeal(dealNo + 1));
document.addEventListener("keydown", (e) => {
  if (!match || e.altKey || e.ctrlKey || e.metaKey || ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
  const keys = { ArrowRight: () => stepBy(1), ArrowLeft: () => stepBy(-1), Home: () => go(0), End: () => go(frames.length - 1),
    PageDown: () => openDeal(dealNo + 1), PageUp: () => openDeal(dealNo - 1) };
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
});

// ------------------------------------------------------------------ upload and start
$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (!file) return;
  $("upload-error").textContent = "";
  try {
    const record = await file.text();
    const made = await getJson("/api/replays", { method: "POST", body: JSON.stringify({ record }) });
    location.assign(made.url);
  } catch (e) {
    $("upload-error").textContent = e.message;
  }
});

async function start() {
  if (!replayId) {
    $("upload").hidden = false;
    return;
  }
  try {
    match = await getJson(`/api/replays/${encodeURIComponent(replayId)}`);
  } catch (e) {
    $("upload").hidden = false;
    $("upload-error").textContent = e.message;
    return;
  }
  $("rules").textContent = rulesTitle(match.rules); // "Classique", never the engine's "classic"
  me = match.me ?? (match.table && loadSeat(match.table) ? loadSeat(match.table).seat : null);
  if (!Number.isInteger(me) || me < 0 || me >= match.players) me = null;
  $("replay").dataset.me = me === null ? "" : me;
  if (match.table) {
    $("back-to-table").href = `/t/${encodeURIComponent(match.table)}`;
    $("back-to-table").hidden = false;
  }
  $("replay").hidden = false;
  if (match.table) showChat(match.table); // its chat, for those who were there (chat.js)
  const m = location.hash.match(/deal=(\d+)&move=(\d+)/);
  await openDeal(m ? Number(m[1]) : 1, m ? Number(m[2]) : 0);
}

// The table's chat, for those who were there (a seat's credential here, or the account seated or watching);
// anyone else is refused, and sees nothing of it.
async function showChat(table) {
  const seat = loadSeat(table);
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(table)}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(seat && seat.token ? { token: seat.token } : {}),
    });
    if (!r.ok) return;
    const said = (await r.json()).messages || [];
    if (!said.length) return;
    drawReplayChat($("replay-chat"), said);
    $("chat-box").hidden = false;
  } catch {
    // the chat is a part of the replay one may miss: the deals are shown all the same
  }
}

start();
