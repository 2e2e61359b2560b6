// A Bésigue table: two seats (you at the bottom), the stock and its turned-up trump, the cards each
// player has declared (face up, playable from there), the trick, your hand, and the declaration
// after a trick won.  The server sends this seat's view (its `to_dict()`) with the legal action
// texts; a click sends one of those texts back.  The frame around it (connection, seats, notices, clock,
// end of the match) is tablebase.js, shared with the Barbu table.

import { cardBack, cardElement, cardName, SYMBOLS } from "./cards.js";
import { el } from "./dom.js";
import { card as cardLabel, num, strength as strengthName, t, tn, tp } from "./i18n.js";
import { chairName } from "./tablewords.js";
import { actionHint, meldName, parseDeclare, sortCards, toldAction, VALUES } from "./besigue_words.js";
import { awayByClock, seatClock } from "./clock.js";
import { TrickMotion } from "./motion.js";
import { announce, arrowKeys, focusOn } from "./a11y.js";
import { ratingChip } from "./playerwords.js";
import { compareResync, dealEndLine, renderCompareBox, renderShadow, renderShadowEnd, shadowMessage } from "./shadow.js";
import { $, act, bottomSeat, command, hideError, info, mySeat, myTurn, openTable, render, renderTurnTools, scores, seatName,
  shortName, showError, state, tableId } from "./tablebase.js";

let lastMove = null; // the last action, as the server told it
let shownDeal = null; // the deal whose summary is on the felt

// An action as told after it was made ("Anne played Q♠", "You played Q♠").
function actionLabel(seat, text) {
  return toldAction(shortName(seat), text, seat === mySeat);
}

// ------------------------------------------------------------------ the table's messages
// The frame (tablebase.js) reads the messages; these are Bésigue's own parts of them.

function takeState(next, { last, resync }) {
  if (last) lastMove = last;
  if (last && !resync) sayMove(state, next, last);
  if (resync) compareResync(); // a new connection: the person's "no comparison" is said again
  // The deal summary leaves the felt once the next deal's first trick is under way.
  if (shownDeal && next.deal > shownDeal.number && (next.tricks > 0 || next.trick.length > 1)) shownDeal = null;
}

// Said to screen readers as it happens, cards by their names ("Anne played queen of spades"), then the trick's
// winner; "your turn" with the turn line (renderTurn).
function sayMove(before, next, last) {
  if (last.seat < 0) return;
  announce(toldAction(shortName(last.seat), last.action, last.seat === mySeat, cardName) + ".");
  const won = next.last_trick;
  const known = before && before.last_trick;
  const key = (lt) => lt.cards.map((p) => p.card).join();
  if (won && (!known || key(known) !== key(won)) && !next.trick.length) {
    announce(won.winner === mySeat ? t("You win the trick.") : t("{name} wins the trick.", { name: shortName(won.winner) }));
  }
}
let turnSaid = null; // the version whose "your turn" was said

// ------------------------------------------------------------------ rendering
function renderTable() {
  if (!state) return;
  motion.measure("#bz-hand, #laid-bottom, #laid-top, #opp-hand"); // where a card played flies from
  renderPlayers();
  renderStock();
  renderTrick();
  renderLastTrick();
  renderTurn();
  renderDecision();
  renderHand();
  renderScores();
  renderReference();
  renderDealEnd();
  renderShadow(); // the expert on the same cards, under the scores' title
  renderCompareBox(info, mySeat, (on) => command("compare", { on })); // the top bar's "Expert" box
}

function playable(text) {
  return myTurn() && state.legal.includes(text);
}

function renderPlayers() {
  const bottom = bottomSeat();
  const top = 1 - bottom;
  for (const [seat, where] of [[top, "top"], [bottom, "bottom"]]) {
    const s = info.seats[seat] || {};
    const box = $(`player-${where}`);
    box.classList.toggle("to-act", state.to_act === seat);
    box.dataset.seat = seat;
    const chips = el("span", { class: "badges" });
    if (state.dealer === seat && state.phase !== "first-dealer") chips.append(el("span", { class: "chip dealer", textContent: t("dealer") }));
    if (s.kind === "bot") chips.append(el("span", { class: "chip bot", textContent: t("computer · {strength}", { strength: strengthName(s.strength) }) }));
    if (s.away) chips.append(el("span", { class: "chip off", textContent: t("away") }));
    if (s.kind === "human" && !s.connected && !s.away) chips.append(el("span", { class: "chip off offline", textContent: t("offline") }));
    else if (s.kind === "human" && s.connected && awayByClock(seat)) chips.append(el("span", { class: "chip off", textContent: t("away"), title: t("time ran out: the computer plays until the player is back") }));
    const clock = info.status === "playing" ? seatClock(seat, s.kind) : null;
    if (clock) chips.append(clock);
    const rating = s.kind === "open" ? null : ratingChip(s.rating);
    box.replaceChildren(
      el("span", { class: "seat-name", textContent: seat === mySeat ? t("{name} (you)", { name: s.name || t("You") }) : s.kind === "bot" ? seatName(seat) : (s.name || chairName(seat, mySeat, 2)) }),
      ...(rating ? [rating] : []),
      chips,
      el("span", { class: "bz-points", title: t("this deal · total"), "data-points": seat },
        el("strong", { textContent: num(state.scores[seat]) }), " ", t("this deal · {total} in all", { total: num(state.totals[seat]) })),
      el("span", { class: "muted bz-tricks", textContent: tn("{n} trick", "{n} tricks", state.won[seat]) }));
    renderLaid(seat, $(`laid-${where}`), seat === mySeat);
  }
  // The opponent's hand: backs, and face up the cards he has had to show.
  const oppHand = $("opp-hand");
  // A spectator's state (kept until the seat's own arrives) has no opponent: count from the public sizes.
  const spectating = mySeat === null || state.seat === null;
  const count = spectating ? state.hand_sizes[top] : state.opponent_hand;
  const known = (spectating ? (state.known || [])[top] : state.opponent_known) || [];
  const cards = [];
  for (const c of known) cards.push(cardElement(c));
  for (let i = known.length; i < count; i++) cards.push(cardBack());
  oppHand.replaceChildren(...cards, el("span", { class: "bz-count", textContent: tn("{n} card", "{n} cards", count) }));
  if (spectating) {
    const me = $("bz-hand");
    const mine = [];
    const k = state.known ? state.known[bottom] : [];
    for (const c of k) mine.push(cardElement(c));
    for (let i = k.length; i < state.hand_sizes[bottom]; i++) mine.push(cardBack());
    me.replaceChildren(...mine);
  }
}

// The cards a player has declared, face up before him; his own are buttons when playable.
function renderLaid(seat, box, mine) {
  const laid = state.table[seat] || [];
  const melds = state.melds[seat] || [];
  const cards = sortCards(laid.map((x) => x.card));
  const row = el("div", { class: "bz-laid-cards" });
  for (const c of cards) {
    const text = `play ${c}*`;
    const canPlay = mine && playable(text);
    const card = cardElement(c, canPlay ? "button" : "span");
    if (canPlay) {
      card.classList.add("legal");
      card.title = t("Play {card} from the table", { card: cardLabel(c) });
      card.addEventListener("click", () => act(text));
    }
    row.append(card);
  }
  const list = el("div", { class: "bz-melds" });
  for (const m of melds) list.append(el("span", { class: "chip meld", textContent: `${meldName(m.kind)} ${num(m.points)}` }));
  box.replaceChildren(...(cards.length ? [row] : []), list);
  box.classList.toggle("empty", !cards.length && !melds.length);
}

function renderStock() {
  const box = $("stock");
  const parts = [];
  if (!state.deal) { // nothing dealt yet: no stock, no trumps
    box.replaceChildren();
    return;
  }
  if (state.stock > 0) {
    const pile = el("div", { class: "bz-pile", title: tn("the stock: {n} card", "the stock: {n} cards", state.stock) });
    if (state.turn_up) {
      const up = cardElement(state.turn_up);
      up.classList.add("turn-up");
      up.title = t("the turned-up card, drawn last: its suit is trumps");
      up.setAttribute("aria-label", t("turn-up {card}", { card: up.getAttribute("aria-label") }));
      pile.append(up);
    }
    if (!(state.turn_up && state.stock === 1)) { // the last card of the stock is the turn-up itself
      const back = cardBack();
      back.classList.add("stock-back");
      pile.append(back, el("span", { class: "bz-stock-count", textContent: num(state.stock) }));
    } else {
      pile.classList.add("last");
    }
    parts.push(pile);
  }
  parts.push(el("span", { class: "bz-trump", title: t("trumps") }, t("Trumps"), " ",
    el("span", { class: `bz-suit ${"HD".includes(state.trump) ? "red" : ""}`, textContent: SYMBOLS[state.trump] || "?" })));
  parts.push(el("span", { class: "muted bz-stock-line", textContent: state.stock ? t("stock {n}", { n: num(state.stock) }) : t("stock empty") }));
  box.replaceChildren(...parts);
}

function renderTrick() {
  const box = $("trick");
  const bottom = bottomSeat();
  // A trick just won stays in the middle while it is gathered to its winner (when cards move).
  const lt = state.last_trick;
  const won = !state.trick.length && lt && motion.gathering(lt.cards.map((p) => p.card)) ? lt : null;
  const plays = won ? won.cards : state.trick;
  const cards = plays.map((p) => {
    const c = cardElement(p.card);
    c.classList.add(p.seat === bottom ? "from-bottom" : "from-top");
    return c;
  });
  box.replaceChildren(...cards);
  const place = (seat) => $(seat === bottom ? "player-bottom" : "opp-hand");
  motion.show({ cards: plays.map((p) => p.card), pieces: cards, done: !!won, spot: box, from: (i) => place(plays[i].seat),
    winner: won ? $(won.winner === bottom ? "player-bottom" : "player-top") : null });
}
const motion = new TrickMotion(); // cards that move from hand to trick, and the trick to its winner

function renderLastTrick() {
  const box = $("last-trick");
  const lt = state.last_trick;
  if (!lt) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(el("span", { class: "bz-label", textContent: t("Last trick") }),
    el("div", { class: "bz-last-cards" }, ...lt.cards.map((p) => cardElement(p.card))),
    el("span", { class: "bz-label", textContent: lt.winner === mySeat ? t("won by you") : t("won by {name}", { name: shortName(lt.winner) }) }));
}

// What is happening, in one line: the last move (another player's, or your own while you wait) and whose turn.
function turnText(mine) {
  if (info.status === "open") return t("Waiting for both seats to be taken.");
  if (state.phase === "over") return t("The match is over.");
  if (state.to_act === -1 || state.to_act === null) return t("Shuffling and dealing…");
  if (mine && state.phase === "play") {
    if (state.stock) {
      return state.trick.length ? t("Play a card to {card}: there is no duty to follow while the stock lasts.", { card: cardLabel(state.trick[0].card) })
        : t("Your lead: play a card (from your hand or your declared cards).");
    }
    if (!state.trick.length) return t("Last tricks: lead a card.");
    const mustWin = info.options && info.options.endgame === "must_win";
    return mustWin ? t("Last tricks: follow suit and win the trick if you can, else trump.")
      : t("Last tricks: follow suit if you can, else trump.");
  }
  if (mine) {
    return state.phase === "last-declaration" ? t("The stock is empty: one last combination, or nothing.")
      : t("You won the trick: declare one combination, or nothing.");
  }
  const who = shortName(state.to_act);
  return state.phase === "play" ? t("{name} to play…", { name: who }) : t("{name} won the trick and may declare…", { name: who });
}

function renderTurn() {
  const box = $("bz-turn");
  const mine = myTurn();
  let text = turnText(mine);
  if (lastMove && lastMove.seat >= 0 && (!mine || lastMove.seat !== mySeat)) {
    text = `${actionLabel(lastMove.seat, lastMove.action)}. ${text}`;
  }
  box.textContent = text;
  box.dataset.mine = mine ? "1" : "0";
  if (mine && turnSaid !== state.version) {
    turnSaid = state.version;
    announce(turnText(mine), true);
  }
  renderTurnTools();
}

// A card of a declaration, and where it comes from.
function declaredCard(c) {
  return c.table ? t("{card} (on the table)", { card: cardLabel(c.card) }) : cardLabel(c.card);
}

// While the pointer is on a declaration, its cards are marked in the hand and on the table.
function markCards(cards) {
  for (const e of document.querySelectorAll(".card.meld-pick")) e.classList.remove("meld-pick");
  for (const c of cards) {
    const where = c.table ? "#laid-bottom" : "#bz-hand";
    const e = [...document.querySelectorAll(`${where} .card[data-card='${c.card}']`)].find((x) => !x.classList.contains("meld-pick"));
    if (e) e.classList.add("meld-pick");
  }
}

function renderDecision() {
  const box = $("bz-decision");
  if (!myTurn() || state.phase === "play") {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const buttons = [];
  for (const a of state.legal) {
    if (a.startsWith("declare ")) {
      const d = parseDeclare(a);
      const b = el("button", { type: "button", class: "bz-declare primary", "data-action": a,
        title: meldName(d.kind) + ": " + d.cards.map(declaredCard).join(", ") },
        el("span", { class: "bz-declare-name", textContent: `${meldName(d.kind)} · ${VALUES[d.kind] ? num(VALUES[d.kind]) : ""}` }),
        el("span", { class: "bz-mini" }, ...d.cards.map((c) => {
          const e = cardElement(c.card);
          if (c.table) e.classList.add("on-table");
          return e;
        })));
      b.addEventListener("click", () => act(a));
      b.addEventListener("mouseenter", () => markCards(d.cards));
      b.addEventListener("focus", () => markCards(d.cards));
      b.addEventListener("mouseleave", () => markCards([]));
      buttons.push(b);
    } else if (a.startsWith("exchange ") || a.startsWith("show ")) {
      const card = a.split(" ")[1];
      const label = a.startsWith("exchange ") ? t("Exchange {card} for the turn-up · 10", { card: cardLabel(card) }) : t("Show {card} · 10", { card: cardLabel(card) });
      const b = el("button", { type: "button", class: "bz-seven", "data-action": a, textContent: label });
      b.addEventListener("click", () => act(a));
      buttons.push(b);
    }
  }
  const none = el("button", { type: "button", class: "bz-none", "data-action": "no-declaration", textContent: t("Declare nothing") });
  none.addEventListener("click", () => act("no-declaration"));
  buttons.push(none);
  box.replaceChildren(...buttons);
}

function renderHand() {
  if (mySeat === null || state.seat === null) return;
  const box = $("bz-hand");
  const mine = myTurn() && state.phase === "play";
  const cards = sortCards(state.hand || []).map((c) => {
    const text = `play ${c}`;
    const ok = mine && state.legal.includes(text);
    const e = cardElement(c, ok ? "button" : "span");
    if (ok) {
      e.classList.add("legal");
      e.addEventListener("click", () => act(text));
    } else if (mine) {
      e.classList.add("dim");
      e.title = t("not playable now");
    }
    return e;
  });
  box.replaceChildren(...cards);
  box.classList.toggle("many", cards.length > 9);
}

function renderScores() {
  const target = state.target || 1000;
  $("target").textContent = t("to {target}", { target: num(target) });
  const bars = [0, 1].map((s) => {
    const total = state.totals[s];
    const pct = Math.max(0, Math.min(100, (100 * total) / target));
    return el("div", { class: "bz-bar-row", "data-total": s },
      el("span", { class: "bz-bar-name", textContent: shortName(s) }),
      el("span", { class: "bz-bar" }, el("span", { class: `bz-fill s${s}`, style: `width:${pct}%` })),
      el("strong", { textContent: num(total) }));
  });
  $("score-bars").replaceChildren(...bars);
  const results = state.results || [];
  const head = el("tr", {}, el("th", { textContent: t("Deal") }), el("th", { class: "num", textContent: shortName(0) }),
    el("th", { class: "num", textContent: shortName(1) }));
  const rows = results.map((r) => el("tr", {}, el("td", { textContent: num(r.number) }),
    el("td", { class: "num", textContent: `${num(r.scores[0])} → ${num(r.totals[0])}` }),
    el("td", { class: "num", textContent: `${num(r.scores[1])} → ${num(r.totals[1])}` })));
  if (state.phase !== "over" && state.deal) {
    rows.push(el("tr", { class: "current" }, el("td", { textContent: t("{n} (now)", { n: num(state.deal) }) }),
      el("td", { class: "num", textContent: num(state.scores[0]) }), el("td", { class: "num", textContent: num(state.scores[1]) })));
  }
  $("sheet").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  const over = info.status === "over";
  $("record-line").hidden = !over;
  if (over) $("record-link").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
}

// What each combination is worth, and what else scores under this table's options.
function renderReference() {
  const [A, K, Q, J] = ["A", "K", "Q", "J"].map((r) => tp("rank letter", r));
  const anyFour = t("any four");
  const rows = [
    ["double-bezique", `${cardLabel("QS")} ${cardLabel("QS")} ${cardLabel("JD")} ${cardLabel("JD")}`],
    ["quint", t("{ace} 10 {king} {queen} {jack} of trumps", { ace: A, king: K, queen: Q, jack: J })],
    ["four-aces", anyFour], ["four-kings", anyFour], ["four-queens", anyFour], ["four-jacks", anyFour],
    ["bezique", `${cardLabel("QS")} ${cardLabel("JD")}`],
    ["trump-marriage", t("{king} {queen} of trumps", { king: K, queen: Q })],
    ["marriage", t("{king} {queen} of a suit", { king: K, queen: Q })],
  ];
  $("reference").replaceChildren(...rows.map(([kind, cards]) => el("tr", {},
    el("td", { textContent: meldName(kind) }), el("td", { class: "muted", textContent: cards }),
    el("td", { class: "num", textContent: num(VALUES[kind]) }))));
  const o = info.options || {};
  const aceAndTen = o.brisques === "aces_and_tens";
  const exchange = o.seven === "exchange";
  $("reference-note").textContent = aceAndTen ?
    (exchange ? t("Also 10 for each ace and 10 won, for the 7 of trumps exchanged for the turn-up or shown, and for the last trick.")
      : t("Also 10 for each ace and 10 won, for the 7 of trumps when drawn, and for the last trick."))
    : (exchange ? t("Also 10 for each ace won, for the 7 of trumps exchanged for the turn-up or shown, and for the last trick.")
      : t("Also 10 for each ace won, for the 7 of trumps when drawn, and for the last trick."));
}

function renderDealEnd() {
  const box = $("deal-end");
  const d = shownDeal;
  if (!d || state.phase === "over") {
    box.hidden = true;
    return;
  }
  const opening = box.hidden;
  box.hidden = false;
  const meldText = (s) => d.melds[s].length ? d.melds[s].map(([k, v]) => `${meldName(k)} ${num(v)}`).join(", ") : t("none");
  const cell = (x, cls) => el("td", { class: cls, textContent: num(x) });
  const meldSum = (s) => d.melds[s].reduce((a, [, v]) => a + v, 0);
  const sevens = (s) => d.scores[s] - meldSum(s) - d.brisques[s] - (d.last_trick === s ? 10 : 0);
  const rows = [
    [t("Combinations"), (s) => meldSum(s)],
    [t("Sevens of trumps"), (s) => sevens(s)],
    [t("Brisques"), (s) => d.brisques[s]],
    [t("Last trick"), (s) => (d.last_trick === s ? 10 : 0)],
  ].map(([label, f]) => el("tr", {}, el("th", { textContent: label }), cell(f(0)), cell(f(1))));
  const table = el("table", {},
    el("thead", {}, el("tr", {}, el("th", { textContent: t("Deal {n}", { n: num(d.number) }) }), el("th", { textContent: shortName(0) }), el("th", { textContent: shortName(1) }))),
    el("tbody", {}, ...rows,
      el("tr", { class: "strong" }, el("th", { textContent: t("This deal") }), cell(d.scores[0]), cell(d.scores[1])),
      el("tr", { class: "strong" }, el("th", { textContent: t("Total") }), cell(d.totals[0]), cell(d.totals[1]))));
  const close = el("button", { type: "button", id: "deal-end-close", textContent: t("Continue") });
  close.addEventListener("click", (e) => {
    e.stopPropagation();
    shownDeal = null;
    render();
    focusOn(nextDecision() || $("bz-hand"));
  });
  box.replaceChildren(el("strong", { textContent: t("End of deal {n}", { n: num(d.number) }) }), table,
    el("p", { class: "muted", textContent: `${shortName(0)}: ${meldText(0)}` }),
    el("p", { class: "muted", textContent: `${shortName(1)}: ${meldText(1)}` }),
    dealEndLine(d.number) || "", close); // the expert's points on the same cards, once its replay is back
  // The summary takes the focus from the table (Enter or Escape closes it), once the redrawing is done.
  const from = document.activeElement;
  if (opening && (!from || from === document.body || from.closest("#bz-hand, #bz-decision, #bz-felt"))) setTimeout(() => focusOn($("deal-end-close")), 0);
}

// The end-of-match box: the winner and the score, and each deal's points.
function standings() {
  const order = scores.standings || [0, 1];
  $("winner-line").textContent = t("{name} wins, {points} to {other}.", { name: seatName(order[0]),
    points: num(scores.totals[order[0]]), other: num(scores.totals[order[1]]) });
  $("standings").replaceChildren(...scores.deals.map((d) => el("li", {
    textContent: t("Deal {n}: {a} – {b} (totals {ta} – {tb})", { n: num(d.number), a: num(d.scores[0]), b: num(d.scores[1]),
      ta: num(d.totals[0]), tb: num(d.totals[1]) }) })));
  renderShadowEnd(tableId, () => ""); // one person against a computer player: his play against the expert's
}

// The player's next decision, where the focus goes when the control it was on is gone: the first card he may
// play (from his hand or his declared cards), else the first declaration offered.
function nextDecision() {
  return document.querySelector("#bz-hand .card.legal, #laid-bottom button.card, #bz-decision button");
}

// Arrow keys among the cards one may play, the hand and the declared cards as one row; and among the declarations.
const playableCards = () => [...document.querySelectorAll("#bz-hand .card.legal, #laid-bottom button.card")];
arrowKeys($("bz-hand"), playableCards);
arrowKeys($("laid-bottom"), playableCards);
arrowKeys($("bz-decision"), () => [...$("bz-decision").querySelectorAll("button")]);
// Escape closes a deal's summary, as its button does.
addEventListener("keydown", (e) => {
  if (e.key === "Escape" && shownDeal && $("deal-end-close")) $("deal-end-close").click();
});

// ------------------------------------------------------------------ wiring
openTable({
  render: renderTable,
  takeState,
  dealEnded: (d) => {
    shownDeal = d;
    announce(t("Deal {n}: {scores}.", { n: num(d.number), scores: d.scores.map((x, s) => `${shortName(s)} ${num(x)}`).join(", ") }));
  },
  showHint: (msg) => showError(t("Hint: {action} — {reason}.", { action: actionHint(msg.action), reason: msg.reason }), "hint"),
  takenBack: hideError,
  standings,
  message: shadowMessage, // the comparison with the expert (shadow.js), for the person's seat alone
  dealNumber: (s) => s.deal,
  dealText: (s) => (s.deal ? t("deal {n}", { n: num(s.deal) }) : ""),
  shuffleName: () => t("the shuffle"),
  turnBar: "bz-turn-bar",
  chatHome: "bz-score",
  chatBefore: ".bz-ref-title",
  hintWaits: "disabled",
  nextDecision,
});
