// The Barbu family's table (classic, Italian, French, Salad, Scottish): the felt (who sits where, the trick
// or the rows), your hand, your decision, the last trick, the scoresheet with its chart, the deal's summary.
// The frame around it (connection, seats, notices, clock, end of the match) is tablebase.js, shared with
// Bésigue.  Everything shown comes from the server's messages, which hold only what this seat may see.
// Decisions are built from the legal actions' text forms, so a new kind of decision still gets
// a chooser: single cards are played from the hand, "word + cards" actions by selecting cards,
// anything else as a button, and a typed action when the list is too long to send.

import { cardElement, cardLabel, cardName, isCard, prettyCards, RANKS, sortHand, SYMBOLS, SUITS } from "./cards.js";
import { announce, arrowKeys, focusOn } from "./a11y.js";
import { el } from "./dom.js";
import { contract, namedSuit, num as numText, rankLetter, strength as strengthName, t, tn } from "./i18n.js";
import { categoryName, isFouled } from "./poker.js";
import { awayByClock, seatClock } from "./clock.js";
import { TrickMotion } from "./motion.js";
import { ratingChip } from "./playerwords.js";
import { phasePrompt } from "./tablewords.js";
import { compareResync, dealEndLine, renderCompareBox, renderShadow, renderShadowEnd, shadowMessage } from "./shadow.js";
import { $, act, bottomSeat, command, forcedByHand, hideError, info, mySeat, myTurn, openTable, render, renderTurnTools, scores,
  seatName, shortName, showError, state, tableId } from "./tablebase.js";

let selection = new Set(); // cards selected for a several-card action
let rows = { back: [], middle: [], front: [] }; // the Chinese poker arrangement being built
let log = []; // this deal's actions, as {seq, seat, action}
let dealEndShown = null; // the number of the deal whose summary was last laid on the felt
let lastResult = null; // that deal's summary, to show again from the side panel
let autoPlayed = null; // the version of the last decision made for the player (a forced one)
let tookBack = false; // after a take-back, a forced decision waits for the player (else it would replay at once)


// ------------------------------------------------------------------ names and labels
// Seats are named by the table's frame (tablebase.js: seatName, shortName); contracts and actions here.
function contractName(key) {
  const c = info && info.contracts.find((x) => x.key === key);
  return c ? contract(c.name) : key;
}

function contractLabel(key, trump, rank, played = true) {
  if (!key) return "";
  let label = contractName(key);
  const c = info && info.contracts.find((x) => x.key === key);
  if (trump !== null && trump !== undefined) label += ` ${SYMBOLS[SUITS[trump]]}`;
  else if (c && c.trump && !(state && state.phase === "trump" && state.contract === key)) label += " " + t("no-trump");
  if (rank) label += " " + t("from {rank}", { rank: rankLetter(rank) });
  if (!played) label += " " + t("(not played)");
  return label;
}

// Seats named briefly, by place ("West, North"): on buttons and in hints, where the full names made a
// doubling choice four lines tall on a phone.
function names(seats) {
  return seats.map((s) => shortName(Number(s))).join(", ");
}

// A legal action's text as a person reads it; a double as `actor` makes it (a redouble of one who doubled him).
function actionLabel(text, actor = mySeat) {
  const words = text.split(" ");
  if (isCard(text)) return cardLabel(text);
  if (words[0] === "contract") return contractName(words.slice(1).join(" "));
  if (words[0] === "trump") {
    const s = words[1].toUpperCase();
    return SYMBOLS[s] ? t("{suit} trumps", { suit: SYMBOLS[s] }) : t("no trump");
  }
  if (words[0] === "rank") return t("start from {rank}", { rank: rankLetter(words[1]) });
  if (text === "pass") return t("Pass");
  if (words[0] === "double" && state) {
    const targets = words.slice(1).map(Number);
    const redo = targets.filter((x) => state.doubles.some(([a, b]) => a === x && b === actor));
    const dbl = targets.filter((x) => !redo.includes(x));
    if (dbl.length && redo.length) return t("double {doubled} and redouble {redoubled}", { doubled: names(dbl), redoubled: names(redo) });
    if (redo.length) return t("redouble {names}", { names: names(redo) });
    return t("double {names}", { names: names(dbl) });
  }
  if (text === "hidden") return t("(hidden)");
  return prettyCards(text);
}

function logLabel(entry) {
  if (entry.seat === -1) return entry.action === "deal" ? t("The cards are dealt") : t("Chance");
  return t("{name}: {action}", { name: seatName(entry.seat), action: actionLabel(entry.action) });
}

// A score as the page's language writes it: "-1 250" in French, "-1.250" in Italian (a fraction "5/2" as it is).
function fmt(x) {
  if (typeof x === "number") return numText(x);
  return /^-?\d+(\.\d+)?$/.test(String(x)) ? numText(Number(x)) : String(x);
}

function num(x) {
  if (typeof x === "number") return x;
  const [a, b] = String(x).split("/").map(Number);
  return b ? a / b : a;
}

// ------------------------------------------------------------------ the table's messages
// The frame (tablebase.js) reads the messages; these are the Barbu table's own parts of them.

// A new view: selections and the rows being built belong to their deal and phase, the log to its deal.
function takeState(next, { last, resync, moved }) {
  if (resync) compareResync(); // a new connection: the person's "no comparison" is said again
  else if (last) sayMove(state, next, last);
  if (!state || next.deal_number !== state.deal_number || next.phase !== state.phase) {
    selection = new Set();
    rows = { back: [], middle: [], front: [] };
  }
  // what was played for the player belongs to its deal: a new deal's decisions start without it
  if (state && next.deal_number !== state.deal_number) $("forced-note").hidden = true;
  const fullLog = resync ? next.log || [] : next.log;
  if (fullLog) log = fullLog.slice();
  else if (last) {
    if (last.action === "deal" && last.seat === -1) log = [];
    if (!log.length || log[log.length - 1].seq < last.seq) log.push(last);
  }
  if (moved) {
    $("hint-box").hidden = true;
    hinted = null;
  }
  // Keep selections only while they are still in hand.
  if (next.hand) {
    selection = new Set([...selection].filter((c) => next.hand.includes(c)));
    for (const k of Object.keys(rows)) rows[k] = rows[k].filter((c) => next.hand.includes(c));
  }
}

// ------------------------------------------------------------------ said to screen readers
// Each move as it happens, in the page's language: the card by its name ("West: queen of hearts"), a contract,
// a double, then the trick's winner; the deal's score comes with its summary (showDealEnd), "your turn" with
// the turn line (renderTurn).  Only what changed is said, never the whole table again.
function sayMove(before, next, last) {
  if (last.seat < 0) {
    if (last.action === "deal") announce(t("Deal {n}: the cards are dealt.", { n: numText(next.deal_number) }));
    return;
  }
  const [verb, suit] = last.action.split(" ");
  const trump = verb === "trump" && SYMBOLS[(suit || "").toUpperCase()] ? t("{suit} trumps", { suit: namedSuit(suit.toUpperCase()) }) : null;
  const what = isCard(last.action) ? cardName(last.action) : trump || actionLabel(last.action, last.seat); // words, not ♥
  announce(last.seat === mySeat ? t("You: {action}", { action: what }) : t("{name}: {action}", { name: seatName(last.seat), action: what }));
  const won = next.last_trick;
  const known = before && before.last_trick;
  if (won && won.winner !== undefined && (!known || known.cards.join() !== won.cards.join()) && !(next.trick || []).length) {
    announce(won.winner === mySeat ? t("You win the trick.") : t("{name} wins the trick.", { name: seatName(won.winner) }));
  }
}

// The player's next decision, where the focus goes when the control it was on is gone: the first card he may
// play (or select), else the first choice offered.
function nextDecision() {
  return document.querySelector("#hand .card.legal, #decision button:not([disabled]), #free-action");
}

let turnSaid = null; // the version whose "your turn" was said

function showHint(msg) {
  // the action in the words of the buttons ("redouble West"), not the engine's ("double 2")
  $("hint-box").textContent = t("Hint: {action}. {reason}", { action: actionLabel(msg.text), reason: msg.reason });
  $("hint-box").hidden = false;
  hinted = msg.text;
}

function hintAsked() {
  $("hint-box").textContent = t("Thinking about your hand…");
  $("hint-box").hidden = false;
}

function takenBack() {
  $("hint-box").hidden = true;
  tookBack = true;
}

// ------------------------------------------------------------------ rendering
function renderTable() {
  renderFelt();
  renderTurn();
  renderDecision();
  renderHand();
  renderSide();
  renderShadow();
  renderCompareBox(info, mySeat, (on) => command("compare", { on })); // the top bar's "Expert" box
}

// Seat k places around the table: you at the bottom, then clockwise on screen in playing order.
function position(seat, n, radiusX, radiusY) {
  const k = (seat - bottomSeat() + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { left: 50 + radiusX * Math.cos(angle), top: 50 + radiusY * Math.sin(angle) };
}

function renderFelt() {
  const n = info.players;
  const boxes = $("seat-boxes");
  boxes.replaceChildren();
  for (const s of info.seats) {
    const p = position(s.seat, n, PHONE.matches ? 46 : 44, 40);
    const box = el("div", { class: "seat-box", "data-seat-box": s.seat });
    box.style.left = `${p.left}%`;
    box.style.top = `${p.top}%`;
    // Anchored in proportion to its place, so a box near an edge stays inside the felt (a tall box at the
    // top of a phone's felt is not clipped).
    box.style.transform = `translate(-${p.left}%, -${p.top}%)`;
    // The seats above and below the trick may spread sideways (their counts on one line), not towards it.
    if (Math.abs(p.left - 50) < 12) box.classList.add("across");
    if (state && state.to_act === s.seat) box.classList.add("to-act");
    if (s.seat === mySeat) box.classList.add("me");
    const title = el("div", { class: "seat-name" });
    // A computer's box: its place as title ("West"), its chip says "computer · good player".
    title.append(s.kind === "open" ? t("free seat") : s.kind === "bot" ? shortName(s.seat) : seatName(s.seat));
    if (s.kind === "bot") title.title = seatName(s.seat);
    // The seat's rating in this game beside the name ("1 482", "1 000?" while provisional), on the name's line.
    const rating = s.kind === "open" ? null : ratingChip(s.rating);
    box.append(rating ? el("div", { class: "seat-line" }, title, rating) : title);
    const badges = el("div", { class: "badges" });
    if (state && state.dealer === s.seat) badges.append(el("span", { class: "chip dealer", textContent: t("D"), title: t("dealer") }));
    if (state && state.declarer === s.seat && state.declarer !== state.dealer) badges.append(el("span", { class: "chip", textContent: "★", title: t("declarer") }));
    // a computer of no strength (a lesson's, which plays the lesson's cards): "computer" alone
    if (s.kind === "bot" && !s.strength) badges.append(el("span", { class: "chip bot", textContent: t("computer") }));
    else if (s.kind === "bot") badges.append(el("span", { class: "chip bot", title: t("computer player ({strength})", { strength: strengthName(s.strength) }) }, t("computer"), el("span", { class: "strength", textContent: ` · ${strengthName(s.strength)}` })));
    if (s.kind === "human" && !s.connected) badges.append(el("span", { class: s.away ? "chip off" : "chip off offline", textContent: s.away ? t("computer plays") : t("offline") }));
    else if (s.kind === "human" && awayByClock(s.seat)) badges.append(el("span", { class: "chip off", textContent: t("computer plays"), title: t("time ran out: the computer plays until the player is back") }));
    const clock = info.status === "playing" ? seatClock(s.seat, s.kind) : null;
    if (clock) badges.append(clock);
    if (state && state.hand_sizes && state.hand_sizes.some((x) => x > 0)) {
      badges.append(el("span", { class: "chip", textContent: tn("{n} card", "{n} cards", state.hand_sizes[s.seat]), title: t("cards in hand") }));
      if (state.last_trick !== undefined) badges.append(el("span", { class: "chip", textContent: tn("{n} trick", "{n} tricks", state.tricks_won[s.seat]), title: t("tricks won") }));
      if (state.owed && state.owed[s.seat] && state.phase === "doubling") badges.append(el("span", { class: "chip owe", textContent: tn("owes {n} double", "owes {n} doubles", state.owed[s.seat]), title: t("doubles still owed to the dealer") }));
    }
    if (state && state.finished && state.finished.includes(s.seat)) badges.append(el("span", { class: "chip", textContent: t("out #{n}", { n: state.finished.indexOf(s.seat) + 1 }) }));
    if (state && state.totals && info.status !== "open") badges.append(el("span", { class: "chip total", textContent: fmt(state.totals[s.seat]), title: t("total") }));
    box.append(badges);
    if (state && state.doubles) {
      const d = state.doubles.filter(([a, b]) => a === s.seat);
      if (d.length) {
        // In words: "doubled West · doubled you, redoubled" (a phone shows the count: "2 doubles"); the person
        // doubled has words of his own: "vous a contré", "ti ha contrato", never "a contré Vous", "ha contrato Tu".
        const said = d.map(([a, b, rr]) => (b === mySeat ? (rr ? t("doubled you, redoubled") : t("doubled you"))
          : rr ? t("doubled {target}, redoubled", { target: shortName(b) })
          : t("doubled {target}", { target: shortName(b) }))).join(" · ");
        box.append(el("div", { class: "doubles", textContent: said }));
        badges.append(el("span", { class: "chip dbl-count", title: said, textContent: tn("{n} double", "{n} doubles", d.length) })); // on a phone
      }
    }
    boxes.append(box);
  }
  renderCenter();
}

// A Domino row's first card's place among the ranks a row may hold (the server's row_ranks, low end first).
function rankSlot(row) {
  return Math.max(0, (state.row_ranks || RANKS).indexOf(row[0][0]));
}

function renderCenter() {
  const center = $("center");
  motion.measure("#hand"); // the hand as it was: a card you played flies from its place there
  center.replaceChildren();
  if (!state) return;
  if (state.rows && state.rows.some((r) => r.length)) {
    const grid = el("div", { class: "rows" });
    grid.style.setProperty("--row-slots", (state.row_ranks || RANKS).length);
    state.rows.forEach((row, i) => {
      const line = el("div", { class: "row-line" }, el("span", { class: "row-suit" + (i === 1 || i === 2 ? " red" : ""), textContent: SYMBOLS[SUITS[i]] }));
      if (!row.length) line.append(el("span", { class: "muted", textContent: "—" }));
      row.forEach((c, k) => {
        const card = cardElement(c, "span", { compact: true });
        // Each card at its rank's place, so the rows line up like a real Domino layout.
        if (k === 0) card.style.marginLeft = `calc(${rankSlot(row)} * var(--row-step))`;
        line.append(card);
      });
      grid.append(line);
    });
    center.append(grid);
    return;
  }
  let cards = state.trick || [];
  let leader = state.leader;
  let faded = false;
  let won = null; // the finished trick shown: {cards, leader, winner}
  if (!cards.length && state.last_trick) {
    cards = state.last_trick.cards;
    leader = state.last_trick.leader;
    faded = true;
    won = state.last_trick;
  }
  // The last deal's last trick is not laid on the felt once the next deal has begun: it waits in its panel.
  const spot = el("div", { class: "trick" + (faded ? " faded" : ""), "data-trick": cards.join(" ") });
  cards.forEach((c, i) => {
    // Each card lies in front of the seat that played it, with that player's name under it.
    const seat = (leader + i) % info.players;
    const p = position(seat, info.players, PHONE.matches ? (info.players > 4 ? 16 : 12) : 24, PHONE.matches ? 17 : 22);
    const played = el("div", { class: "trick-card" + (seat === mySeat ? " mine" : ""), "data-by": seat },
      cardElement(c), el("span", { class: "by", textContent: shortName(seat) }));
    played.style.left = `${p.left}%`;
    played.style.top = `${p.top}%`;
    played.style.zIndex = i + 1;
    spot.append(played);
  });
  center.append(spot);
  const seatBox = (s) => $("seat-boxes").querySelector(`[data-seat-box="${s}"]`);
  motion.show({ cards, pieces: [...spot.children], done: faded, spot, from: (i) => seatBox((leader + i) % info.players),
    winner: won && won.winner !== undefined ? seatBox(won.winner) : null });
  if (state.contract) $("seat-boxes").append(el("div", { class: "center-label", textContent: contractLabel(state.contract, state.trump, state.rank) }));
}

const PHONE = window.matchMedia("(max-width: 600px)");
PHONE.addEventListener("change", () => render());
const motion = new TrickMotion(); // cards that move from hand or seat to the trick, and the trick to its winner

let hinted = null; // the action text of the hint shown, highlighted in the hand until the state moves on

function renderTurn() {
  renderTurnTools();
  // The last deal's summary leaves the felt once the next deal's choices begin: your decision, or the contract
  // named (the "Result of deal n" button in the last trick's panel shows it again).
  if (state && dealEndShown !== null && state.deal_number > dealEndShown && (myTurn() || state.contract)) $("deal-end").hidden = true;
  autoPlayForced();
  const turn = $("turn");
  // A decision made for the player (forced) is not his to take: the page does not wait for him.
  turn.dataset.mine = myTurn() && !madeForYou() ? "1" : "0";
  if (!state || info.status === "open") {
    turn.textContent = info.status === "open" ? t("Waiting for every seat to be taken.") : "";
    return;
  }
  const prompt = phasePrompt(state.phase);
  if (state.phase === "over") {
    turn.textContent = t("The match is over.");
  } else if (myTurn()) {
    turn.textContent = t("Your turn: {what}.", { what: prompt || t("your decision") });
    if (turn.dataset.mine === "1" && turnSaid !== state.version) {
      turnSaid = state.version;
      announce(turn.textContent, true);
    }
  } else if (state.to_act === -1) {
    turn.textContent = t("Shuffling…");
  } else if (state.to_act !== null) {
    turn.textContent = prompt ? t("Waiting for {name} to {what}.", { name: seatName(state.to_act), what: prompt })
      : t("Waiting for {name}.", { name: seatName(state.to_act) });
  }
  if (mySeat === null) turn.textContent = t("You are watching. {text}", { text: turn.textContent });
}

// Sort the legal texts into single cards, "word + cards" groups, and the rest.
function classify(legal) {
  const single = [];
  const groups = {};
  const other = [];
  for (const a of legal) {
    const words = a.split(" ");
    if (isCard(a)) single.push(a);
    else if (words.length >= 2 && words.slice(1).every(isCard)) (groups[words[0]] ||= []).push(a);
    else other.push(a);
  }
  return { single, groups, other };
}

function send(action, typed = false) {
  hideError();
  $("forced-note").hidden = true;
  act(action, typed);
}

function renderDecision() {
  const box = $("decision");
  box.replaceChildren();
  if (!myTurn() || madeForYou()) return;
  if (state.legal === null) {
    if (state.phase === "arrange") return renderArrange(box);
    return renderFreeText(box);
  }
  const { groups, other } = classify(state.legal);
  if (state.must_double_dealer) {
    const owed = state.owed ? state.owed[mySeat] : 0;
    box.append(el("p", { class: "notice", textContent: tn("You must double the dealer ({name}) now: you still owe {n} double in this series.",
      "You must double the dealer ({name}) now: you still owe {n} doubles in this series.", owed, { name: seatName(state.dealer) }) }));
  }
  for (const [verb, actions] of Object.entries(groups)) {
    const sizes = [...new Set(actions.map((a) => a.split(" ").length - 1))].sort();
    const chosen = [...selection].sort();
    const match = actions.find((a) => {
      const cs = a.split(" ").slice(1).sort();
      return cs.length === chosen.length && cs.every((c, i) => c === chosen[i]);
    });
    const button = el("button", { type: "button", class: "primary", disabled: !match, "data-action": match || "" },
      match ? actionLabel(match) : tn("{verb}: select {sizes} card in your hand", "{verb}: select {sizes} cards in your hand",
        Math.max(...sizes), { verb, sizes: sizes.join(" / ") }));
    if (match) button.addEventListener("click", () => { selection = new Set(); send(match); });
    box.append(el("div", { class: "group" }, button));
  }
  if (other.length) {
    const wrap = el("div", { class: "choices", "data-phase": state.phase });
    const contracts = other.filter((a) => a.startsWith("contract ")).map((a) => info.contracts.find((x) => x.key === a.slice(9))).filter(Boolean);
    const desc = el("p", { id: "contract-desc", class: "contract-desc", role: "status" });
    // A contract's description: shown under the list for the contract tapped on its ⓘ (a phone has
    // no hover) or pointed at with the mouse or the keyboard.
    const describe = (c) => {
      desc.replaceChildren();
      desc.dataset.contract = c ? c.key : "";
      if (c) desc.append(el("strong", { textContent: t("{name}:", { name: contract(c.name) }) }), " ", t(c.help));
      else desc.append(el("span", { class: "muted" }, ...withInfoIcon(t("Tap or click ⓘ beside a contract to read what it asks."))));
    };
    const pinned = () => contracts.find((c) => c.key === helpShown) || null;
    for (const a of other) {
      const b = el("button", { type: "button", "data-action": a }, actionLabel(a));
      b.addEventListener("click", () => send(a));
      const c = a.startsWith("contract ") ? info.contracts.find((x) => x.key === a.slice(9)) : null;
      if (!c) {
        wrap.append(b);
        continue;
      }
      b.classList.add(c.positive ? "positive" : "negative");
      // Pointing with a mouse previews; a finger's tap does not (it chooses the contract).
      b.addEventListener("pointerenter", (e) => e.pointerType === "mouse" && describe(c));
      b.addEventListener("pointerleave", (e) => e.pointerType === "mouse" && describe(pinned()));
      b.addEventListener("focus", () => b.matches(":focus-visible") && describe(c));
      const what = t("What is {name}?", { name: contract(c.name) });
      const i = el("button", { type: "button", class: "info", "data-info": c.key, title: what,
        "aria-label": what, "aria-expanded": String(c.key === helpShown), textContent: "i" });
      i.addEventListener("click", () => {
        helpShown = c.key;
        for (const x of wrap.querySelectorAll(".info")) x.setAttribute("aria-expanded", String(x === i));
        describe(c);
      });
      wrap.append(el("span", { class: "contract-choice" + (c.positive ? " positive" : " negative") }, b, i));
    }
    box.append(wrap);
    if (contracts.length) {
      describe(pinned());
      box.append(desc);
    }
  }
}

let helpShown = null; // the contract whose description the player asked for

// ------------------------------------------------------------------ forced decisions
// As at the terminal, a decision with only one possible choice (a pass when no card fits, the only card you
// may play, no double possible) makes itself, with a note saying what was done; a player who would rather
// confirm them ticks "Confirm forced moves", remembered in this browser.
const FORCED_KEY = "barbu:confirm-forced";

function confirmForced() {
  return localStorage.getItem(FORCED_KEY) === "1";
}

// What was done for the player, in words ("You pass: no card can be played.").
function forcedNote(action) {
  const words = action.split(" ");
  if (action === "pass") return state.phase === "doubling" ? t("No double possible: you pass.") : t("You pass: no card can be played.");
  if (isCard(action)) return t("You play {card}: your only legal card.", { card: cardLabel(action) });
  if (words[0] === "double") return words.length > 1 ? t("You double {whom}: your only possible choice.", { whom: names(words.slice(1)) })
    : t("No double possible: you pass.");
  if (words[0] === "contract") return t("You declare {contract}: the only choice left.", { contract: contractName(words.slice(1).join(" ")) });
  return t("Your only choice, made for you: {choice}.", { choice: actionLabel(action) });
}

// Whether the decision now asked of this seat was made for the player (a forced one, already sent).
function madeForYou() {
  return state !== null && autoPlayed === state.version;
}

function autoPlayForced() {
  const note = $("forced-note");
  if (!myTurn()) return;
  const forced = state.legal && state.legal.length === 1 && state.legal_count === 1 && state.phase !== "arrange";
  if (!forced) {
    tookBack = false;
    return;
  }
  if (confirmForced() || forcedByHand() || tookBack || autoPlayed === state.version) return;
  autoPlayed = state.version;
  send(state.legal[0]);
  note.textContent = forcedNote(state.legal[0]); // kept until the player's own next move
  note.hidden = false;
}

// A text naming the ⓘ button, with the sign drawn as the button is (a letter in a CSS circle): some
// phones' fonts have no "ⓘ" and show an empty box in its place.
function withInfoIcon(text) {
  const parts = text.split("ⓘ");
  const out = [parts[0]];
  for (const rest of parts.slice(1)) out.push(el("span", { class: "info-icon", "aria-hidden": "true", textContent: "i" }), rest);
  return out;
}

function renderFreeText(box) {
  const input = el("input", { id: "free-action", placeholder: t("type your action"), autocomplete: "off" });
  const go = el("button", { type: "button", class: "primary", textContent: t("Send") });
  const submit = () => input.value.trim() && send(input.value.trim(), true);
  go.addEventListener("click", submit);
  input.addEventListener("keydown", (e) => e.key === "Enter" && submit());
  box.append(el("p", { class: "muted", textContent: tn("{n} possible action: type yours.", "{n} possible actions: type yours.", state.legal_count) }), el("div", { class: "group" }, input, go));
}

const ROW_SIZES = { back: 5, middle: 5, front: 3 };

function renderArrange(box) {
  const placed = new Set([...rows.back, ...rows.middle, ...rows.front]);
  box.append(el("p", { class: "muted", textContent: t("Select cards in your hand, then put them in a row: back (5 cards) ≥ middle (5) ≥ front (3) by poker rank. Click a card in a row to take it back.") }));
  const tools = el("div", { class: "group" });
  if (state.suggested) {
    const suggest = el("button", { type: "button", "data-suggest": "1", textContent: t("Suggested rows") });
    suggest.addEventListener("click", () => {
      rows = { back: [...state.suggested.back], middle: [...state.suggested.middle], front: [...state.suggested.front] };
      selection = new Set();
      render();
    });
    tools.append(suggest);
  }
  const clear = el("button", { type: "button", "data-clear": "1", textContent: t("Clear rows"), disabled: !placed.size });
  clear.addEventListener("click", () => { rows = { back: [], middle: [], front: [] }; render(); });
  tools.append(clear);
  box.append(tools);
  const ROW_LABELS = { back: t("back"), middle: t("middle"), front: t("front") };
  for (const name of ["back", "middle", "front"]) {
    const full = rows[name].length === ROW_SIZES[name];
    const line = el("div", { class: "arrange-row", "data-row": name },
      el("strong", { textContent: `${ROW_LABELS[name]} (${rows[name].length}/${ROW_SIZES[name]})` }));
    for (const c of rows[name]) {
      const card = cardElement(c, "button");
      card.addEventListener("click", () => { rows[name] = rows[name].filter((x) => x !== c); render(); });
      line.append(card);
    }
    if (full) line.append(el("span", { class: "category", "data-category": name, textContent: categoryName(rows[name]) }));
    const put = el("button", { type: "button", textContent: t("Put in {row}", { row: ROW_LABELS[name] }), "data-put": name,
      disabled: !selection.size || rows[name].length + selection.size > ROW_SIZES[name] });
    put.addEventListener("click", () => {
      rows[name].push(...[...selection].filter((c) => !placed.has(c)));
      selection = new Set();
      render();
    });
    line.append(put);
    box.append(line);
  }
  const done = rows.back.length === 5 && rows.middle.length === 5 && rows.front.length === 3;
  const fouled = done && isFouled(rows.back, rows.middle, rows.front);
  if (fouled) {
    box.append(el("p", { class: "warning", id: "foul-warning", textContent: t("These rows are fouled: the back must be at least as strong as the middle, and the middle as the front. A fouled hand loses every row.") }));
  }
  const text = `arrange ${rows.back.join(",")} ${rows.middle.join(",")} ${rows.front.join(",")}`;
  const go = el("button", { type: "button", class: "primary", disabled: !done, "data-action": done ? text : "" },
    fouled ? t("Lay out these rows anyway") : t("Lay out these rows"));
  go.addEventListener("click", () => send(text));
  box.append(go);
}

function renderHand() {
  const box = $("hand");
  box.replaceChildren();
  if (!state || !state.hand) return;
  const mine = myTurn() && !madeForYou();
  const legal = mine && state.legal ? classify(state.legal) : { single: [], groups: {}, other: [] };
  const selecting = mine && (Object.keys(legal.groups).length > 0 || state.phase === "arrange");
  const placed = new Set([...rows.back, ...rows.middle, ...rows.front]);
  for (const c of sortHand(state.hand)) {
    if (state.phase === "arrange" && placed.has(c)) continue;
    const card = cardElement(c, "button");
    const playable = legal.single.includes(c);
    if (mine && (playable || selecting)) card.classList.add("legal");
    else if (mine && state.legal && (state.phase === "play" || state.phase === "domino")) card.classList.add("dim");
    card.dataset.legal = playable ? "1" : "0";
    if (selection.has(c)) card.classList.add("selected");
    if (hinted === c) card.classList.add("hinted");
    card.addEventListener("click", () => {
      if (selecting) {
        if (selection.has(c)) selection.delete(c);
        else selection.add(c);
        render();
      } else if (playable) {
        send(c);
      } else if (mine && (state.phase === "play" || state.phase === "domino")) {
        send(c); // refused by the server with the engine's reason, which is shown
      } else if (!mine && state.phase !== "over" && state.to_act !== null) { // nobody to wait for: a lesson or a daily deal over
        showError(state.to_act === mySeat ? t("Wait a moment.") : t("It is not your turn: waiting for {name}.", { name: seatName(state.to_act) }));
      }
    });
    box.append(card);
  }
  if (selecting && legal.single.length && selection.size === 1) {
    const [c] = selection;
    if (legal.single.includes(c)) {
      const b = el("button", { type: "button", class: "primary", "data-action": c }, t("Play {card}", { card: cardLabel(c) }));
      b.addEventListener("click", () => { selection = new Set(); send(c); });
      box.append(b);
    }
  }
}

function renderSide() {
  const ci = $("contract-info");
  ci.replaceChildren();
  if (state && state.contract) {
    ci.append(el("h2", { textContent: contractLabel(state.contract, state.trump, state.rank) }));
    const c = info.contracts.find((x) => x.key === state.contract);
    if (c) ci.append(el("p", { class: "muted", textContent: t(c.help) }));
  } else if (state && state.declarer >= 0 && state.phase !== "over") {
    ci.append(el("h2", { textContent: t("{name} chooses the contract", { name: seatName(state.declarer) }) }));
  }
  if (state && state.declarer >= 0 && state.contracts_left && state.phase !== "over") {
    const left = state.contracts_left.map(contractName).join(", ");
    const some = state.series_left && state.series_left < state.contracts_left.length; // a short match
    ci.append(el("p", { class: "muted", textContent: some
      ? tn("{name} declares {n} more, from: {contracts}", "{name} declares {n} more, from: {contracts}", state.series_left, { name: seatName(state.declarer), contracts: left })
      : t("Left to {name}: {contracts}", { name: seatName(state.declarer), contracts: left || t("none") }) }));
  }
  if (state && state.doubles && state.doubles.length) {
    const said = ([a, b, rr]) => (rr ? t("{name} doubled {target}; {target} redoubled", { name: seatName(a), target: seatName(b) })
      : t("{name} doubled {target}", { name: seatName(a), target: seatName(b) }));
    ci.append(el("p", { textContent: t("Doubles: {list}.", { list: state.doubles.map(said).join(". ") }) }));
  }
  if (state && state.set_aside && state.set_aside.length) {
    const p = el("p", {}, t("Set aside:") + " ");
    state.set_aside.forEach((c) => p.append(cardElement(c)));
    ci.append(p);
  }
  renderLastTrick();
  const ol = $("log");
  ol.replaceChildren(...log.slice(-40).map((e) => el("li", { textContent: logLabel(e) })));
  renderScores();
}

function renderLastTrick() {
  const box = $("last-trick");
  box.replaceChildren();
  if (!state) return;
  if (lastResult && $("deal-end").hidden) {
    const again = el("button", { type: "button", id: "show-result", "data-deal": lastResult.number,
      textContent: t("Result of deal {n}", { n: numText(lastResult.number) }) });
    again.addEventListener("click", () => showDealEnd(lastResult));
    box.append(again);
  }
  let trick = null;
  let title = t("Last trick");
  if (state.last_trick) trick = state.last_trick;
  else if (state.last_deal && state.last_deal.last_trick) {
    trick = state.last_deal.last_trick;
    title = t("Last trick of deal {n}", { n: state.last_deal.number });
  }
  if (state.plays && state.plays.length) {
    const [s, cards] = state.plays[state.plays.length - 1];
    box.append(el("h2", { textContent: t("Last card laid") }), el("p", {}, t("{name}:", { name: seatName(s) }) + " ", ...[].concat(cards).map((c) => cardElement(c))));
  } else if (trick) {
    const p = el("div", { class: "last-cards", "data-last-trick": trick.cards.join(" ") });
    trick.cards.forEach((c, i) => {
      const wrap = el("span", { class: "played-by" }, cardElement(c), el("small", { textContent: seatName((trick.leader + i) % info.players) }));
      p.append(wrap);
    });
    box.append(el("h2", { textContent: title }), p);
    if (trick.winner !== undefined) box.append(el("p", { class: "muted", textContent: t("won by {name}", { name: seatName(trick.winner) }) }));
  }
  if (state.last_deal && state.last_deal.arrangements) {
    box.append(el("h2", { textContent: t("Rows of deal {n}", { n: state.last_deal.number }) }));
    state.last_deal.arrangements.forEach((a, s) => {
      const line = el("div", { class: "arrange-reveal" }, el("strong", { textContent: seatName(s) }));
      a.forEach((row) => {
        const r = el("span", { class: "reveal-row" });
        row.forEach((c) => r.append(cardElement(c)));
        line.append(r);
      });
      box.append(line);
    });
  }
}

const COLORS = ["#d1495b", "#00798c", "#edae49", "#66a182", "#8d6cab", "#30638e"];

// The scoresheet as players keep it on paper: a column per player; the rows go dealer by dealer,
// each dealer's series listing the contracts in the order they were declared, every deal's points
// with the running total under them; the totals at the foot.
function renderScores() {
  const sheet = $("sheet");
  sheet.replaceChildren();
  const chart = $("chart");
  chart.replaceChildren();
  if (!scores || !info) return;
  const n = info.players;
  const head = el("tr", {}, el("th", { class: "what", textContent: t("Dealer · contract") }),
    ...Array.from({ length: n }, (_, s) => el("th", { class: "num player" + (s === mySeat ? " me" : ""), "data-player": s,
      title: seatName(s), style: `border-top: 3px solid ${COLORS[s % COLORS.length]}` }, shortName(s))));
  sheet.append(el("thead", {}, head));
  const body = el("tbody");
  let dealer = null;
  for (const d of scores.deals) {
    if (d.dealer !== dealer) { // a new series: the dealer's name across the sheet
      dealer = d.dealer;
      body.append(el("tr", { class: "dealer-row", "data-dealer": dealer },
        el("th", { colSpan: n + 1, textContent: dealer === mySeat ? t("You deal") : t("{name} deals", { name: shortName(dealer) }) })));
    }
    const label = el("th", { class: "what", title: t("deal {n}, declared by {name}", { n: d.number, name: seatName(d.declarer) }) },
      el("small", { class: "deal-no", textContent: `${d.number}` }), contractLabel(d.contract, d.trump, d.rank, d.played));
    if (d.declarer !== d.dealer) label.append(el("small", { textContent: ` (${shortName(d.declarer)})` }));
    if (d.doubles.length) label.append(el("small", { class: "dbl", textContent: ` ×${d.doubles.length}`, title: tn("{n} double", "{n} doubles", d.doubles.length) }));
    body.append(el("tr", { class: "deal-row", "data-deal": d.number, "data-dealer": d.dealer, "data-contract": d.contract },
      label, ...d.scores.map((x, s) => el("td", { class: "num" + signClass(x) },
        el("span", { class: "pts", textContent: signed(x) }),
        el("span", { class: "running", textContent: d.series ? "" : fmt(d.totals[s]) })))));
    if (d.series) {
      body.append(el("tr", { class: "series-row" }, el("th", { class: "what", textContent: t("series points") }),
        ...d.series.map((x, s) => el("td", { class: "num" + signClass(x) }, el("span", { class: "pts", textContent: signed(x) }),
          el("span", { class: "running", textContent: fmt(d.totals[s]) })))));
    }
  }
  sheet.append(body);
  sheet.append(el("tfoot", {}, el("tr", {}, el("th", { class: "what", textContent: t("Total") }),
    ...scores.totals.map((x) => el("th", { class: "num", textContent: fmt(x) })))));
  if (scores.deals.length) chart.append(scoreChart(scores, n), chartKey(n));
  else chart.append(el("p", { class: "muted", textContent: t("The chart of the scores starts after the first deal.") }));
}

function signed(x) {
  return num(x) > 0 ? `+${fmt(x)}` : fmt(x);
}

function signClass(x) {
  const v = num(x);
  return v > 0 ? " plus" : v < 0 ? " minus" : "";
}

// The chart's key, in HTML under the chart so that long names wrap instead of overlapping.
function chartKey(n) {
  return el("ul", { class: "chart-key" }, ...Array.from({ length: n }, (_, s) =>
    el("li", { class: s === mySeat ? "me" : "" }, el("span", { class: "swatch", style: `background:${COLORS[s % COLORS.length]}` }), shortName(s))));
}

// The running totals over the match as an SVG line chart, one line per seat.
function scoreChart(sc, n) {
  const NS = "http://www.w3.org/2000/svg";
  const W = 320, H = 120, P = 24;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("running totals over the match"));
  const series = Array.from({ length: n }, () => [0]);
  for (const d of sc.deals) d.totals.forEach((x, s) => series[s].push(num(x)));
  const all = series.flat();
  const lo = Math.min(0, ...all), hi = Math.max(0, ...all);
  const span = hi - lo || 1;
  const steps = Math.max(sc.total_deals, 1);
  const X = (i) => P + ((W - 2 * P) * i) / steps;
  const Y = (v) => P / 2 + ((H - P) * (hi - v)) / span;
  const axis = document.createElementNS(NS, "line");
  axis.setAttribute("x1", P); axis.setAttribute("x2", W - P);
  axis.setAttribute("y1", Y(0)); axis.setAttribute("y2", Y(0));
  axis.setAttribute("class", "axis");
  svg.append(axis);
  for (const [label, v] of [[numText(Math.round(hi)), hi], [numText(Math.round(lo)), lo]]) {
    const tick = document.createElementNS(NS, "text");
    tick.setAttribute("x", 2); tick.setAttribute("y", Y(v) + 4);
    tick.setAttribute("class", "tick");
    tick.textContent = label;
    svg.append(tick);
  }
  series.forEach((pts, s) => {
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("points", pts.map((v, i) => `${X(i).toFixed(1)},${Y(v).toFixed(1)}`).join(" "));
    line.setAttribute("stroke", COLORS[s % COLORS.length]);
    line.setAttribute("fill", "none");
    line.setAttribute("stroke-width", s === mySeat ? 3 : 1.8);
    svg.append(line);
  });
  return svg;
}

// The deal's summary, laid on the felt between deals: contract points, the doubles' settlement
// (as the server computed it), the deal's result and the running totals.  A click closes it.
function showDealEnd(d) {
  const box = $("deal-end");
  const signedText = (x) => `${num(x) > 0 ? "+" : ""}${fmt(x)}`;
  const short = shortName;
  const head = el("tr", {}, el("th", { textContent: "" }), ...d.scores.map((_, s) => el("th", { textContent: short(s) })));
  const row = (label, values, cls = "") => el("tr", { class: cls }, el("th", { textContent: label }),
    ...values.map((x) => el("td", { textContent: x })));
  const rows = [row(t("contract points"), d.base.map(signedText))];
  if (d.doubles.length) {
    rows.push(row(t("doubles"), d.scores.map((x, s) => signedText(num(x) - num(d.base[s])))));
    rows.push(row(t("this deal"), d.scores.map(signedText), "strong"));
  }
  if (d.series) rows.push(row(t("series points"), d.series.map(signedText)));
  if (d.totals) rows.push(row(t("total"), d.totals.map(fmt), "strong"));
  const lines = (d.settlements || []).map(([payer, receiver, amount, redoubled], i) => {
    const [doubler, doubled] = d.doubles[i];
    const who = { name: seatName(doubler), target: seatName(doubled) };
    const what = redoubled ? t("{name} doubled {target}, redoubled", who) : t("{name} doubled {target}", who);
    return el("li", { textContent: num(amount) === 0 ? t("{what}: level", { what })
      : t("{what}: {payer} pays {amount} to {receiver}", { what, payer: seatName(payer), amount: fmt(amount), receiver: seatName(receiver) }) });
  });
  box.replaceChildren(
    el("strong", { textContent: t("Deal {n}: {contract}", { n: d.number, contract: contractLabel(d.contract, d.trump, d.rank, d.played) }) }),
    d.played ? "" : el("p", { textContent: t("Not played: nobody doubled, so the points were shared.") }),
    el("table", {}, head, ...rows),
    lines.length ? el("ul", { class: "settle" }, ...lines) : "",
    dealEndLine(d.number) || "", // the expert's score on the same cards, when its replay is already back
    el("button", { type: "button", id: "deal-end-close", class: "close-summary", textContent: t("Close") }));
  const inTable = !document.activeElement || document.activeElement === document.body
    || !!document.activeElement.closest("#hand, #decision, #felt, #last-trick");
  box.hidden = false;
  dealEndShown = d.number;
  lastResult = d;
  announce(t("Deal {n}: {scores}.", { n: numText(d.number), scores: d.scores.map((x, s) => `${shortName(s)} ${signedText(x)}`).join(", ") }));
  if (inTable) focusOn($("deal-end-close")); // Enter or Escape closes it; it never chooses the next contract
  clearTimeout(showDealEnd.timer);
  showDealEnd.timer = setTimeout(closeDealEnd, 12000);
}

// The summary leaves the felt (a click, Enter on its button, Escape, or after a while); the focus goes on to the
// player's decision, or waits in his hand.
function closeDealEnd() {
  const box = $("deal-end");
  const hadFocus = box.contains(document.activeElement);
  box.hidden = true;
  renderLastTrick();
  if (hadFocus) focusOn(myTurn() && nextDecision() ? nextDecision() : $("hand"));
}
$("deal-end").addEventListener("click", closeDealEnd);
addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !$("deal-end").hidden) closeDealEnd();
});
// Arrow keys among the cards one may play (all of the hand when none is playable), and among the choices.
arrowKeys($("hand"), () => {
  const cards = [...$("hand").querySelectorAll(".card")];
  const legal = cards.filter((c) => c.classList.contains("legal"));
  return legal.length ? legal : cards;
});
arrowKeys($("decision"), () => [...$("decision").querySelectorAll(".choices button[data-action]")]);

// The expert's replay of a deal came back: its line joins that deal's summary if it is still on the felt.
function shadowCame(msg) {
  if (!shadowMessage(msg) || $("deal-end").hidden || dealEndShown !== msg.deal) return;
  const line = dealEndLine(msg.deal);
  const old = $("deal-end").querySelector(".shadow-deal-end");
  if (old) old.replaceWith(line);
  else $("deal-end").lastElementChild.before(line);
}

// The end-of-match box's standings: each player and his total, the winner first.
function standings() {
  const order = scores.standings || [];
  $("standings").replaceChildren(...order.map((s) => el("li", { textContent: `${seatName(s)} — ${fmt(scores.totals[s])}` })));
  renderShadowEnd(tableId, contractName); // one person against computer players: his play against the expert's
}

// ------------------------------------------------------------------ wiring
$("confirm-forced").checked = confirmForced();
$("confirm-forced").addEventListener("change", () => {
  localStorage.setItem(FORCED_KEY, $("confirm-forced").checked ? "1" : "0");
  render();
});

openTable({
  render: renderTable,
  takeState,
  dealEnded: showDealEnd,
  showHint,
  hintAsked,
  takenBack,
  standings,
  message: shadowCame, // the comparison with the expert (shadow.js), for the person's seat alone
  dealNumber: (s) => s.deal_number,
  dealText: (s) => t("deal {n} of {total}", { n: numText(s.deal_number), total: numText(s.total_deals) }),
  shuffleName: () => t("the dealer's shuffle"),
  turnBar: "turn-bar",
  chatHome: "side",
  chatBefore: "#scoresheet",
  hintWaits: "hidden",
  nextDecision,
});
