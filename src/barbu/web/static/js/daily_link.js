// The daily deals talk to the server over HTTP (/api/daily/{game}/…), not through a table's WebSocket: this module
// gives the table's frame (tablebase.js) that way to talk, before the game's own table script (table.js for the
// Barbu family, besigue.js for Bésigue) opens the table, so each board is drawn by the very table people play at
// everywhere else.  It turns each answer into the messages a table would send (welcome, sync, state, scores,
// error), shows in the set's bar which deal of the set is played and the person's part in it, and after the last
// deal sends him to his results (/daily/{game}).  No hint, no take-back: the server has none for these deals.
import { $, useTransport } from "./tablebase.js";
import { postJSON } from "./net.js";
import { contract as contractWords, num, rankLetter, t } from "./i18n.js";
import { placeName } from "./tablewords.js";
import { SUITS, SYMBOLS } from "./cards.js";

const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");
const BESIGUE = GAME === "besigue";
const RESULTS = `/daily/${encodeURIComponent(GAME)}`;
let emit = () => {};
let current = null; // the answer for the board being played
let pending = null; // the next answer, while a finished deal's end is shown
let busy = false;
let queued = null; // a move made while the last one was on its way (a forced one, made as the table drew)

// The table's public facts as the frame reads them: the person's seat, the computer players in the others.
function tableInfo(body) {
  const seats = Array.from({ length: body.players }, (_, s) => (s === body.seat
    ? { seat: s, kind: "human", name: body.name === "guest" || !body.name ? t("guest") : body.name, connected: true }
    : { seat: s, kind: "bot", name: "", strength: body.strength, connected: true }));
  return { id: "daily", rules: body.rules || GAME, players: body.players, status: "playing", private: false,
    rated: false, turn_based: false, clock: null, rematch_id: null, contracts: body.contracts || [],
    options: body.options, seats };
}

// The scoresheet of a board: its one deal (each board is a fresh match), once it is over.
function scoresOf(deals, totals) {
  return { deals, totals, over: false, total_deals: 1, highest_wins: current ? current.highest_wins !== false : true };
}

// A board's view as the table reads it: numbered as the set's deal ("deal 2 of 7"), not as its match's first, with
// no contracts "left to" choose and no doubles "owed" over a series (each board is a fresh match, its contract
// fixed; the rules' own refusal still says so if a double is ever owed on the board itself).
function viewOf(body, state) {
  if (BESIGUE) return state;
  Object.assign(state, { deal_number: body.board + 1, total_deals: body.boards, contracts_left: null });
  if (!state.must_double_dealer) delete state.owed;
  if (state.last_deal) state.last_deal.number = body.board + 1; // "Last trick of deal 2", not of its match's first
  return state;
}

// The person's part in the board: for the Barbu family its fixed contract and who declared it, for Bésigue who
// leads first.
function roleLine(body) {
  if (BESIGUE) return body.role === "dealer" ? t("You deal: the computer leads first.") : t("You are the elder hand: you lead first.");
  const st = body.state;
  const c = (body.contracts || []).find((x) => x.key === body.contract);
  let line = t("Contract: {contract}", { contract: contractWords(c ? c.name : body.contract) });
  if (st.trump !== null && st.trump !== undefined) line += ` ${SYMBOLS[SUITS[st.trump]]}`;
  if (st.rank) line += " " + t("from {rank}", { rank: rankLetter(st.rank) });
  const who = placeName(st.declarer, body.seat, body.players);
  if (body.family === "scottish") return line + " · " + (st.declarer === body.seat ? t("you are the caller") : t("called by {name}", { name: who }));
  return line + " · " + (st.declarer === body.seat ? t("you are the declarer") : t("declared by {name}", { name: who }));
}

function drawBar(body, over = null) {
  $("daily-board").textContent = t("Deal {n} of {total}", { n: num(body.board + 1), total: num(body.boards) });
  $("daily-role").textContent = roleLine(body);
  $("daily-done").textContent = body.done.length
    ? t("Your scores so far: {scores}", { scores: body.done.map((d) => num(d.score)).join(", ") }) : "";
  $("daily-over").hidden = !over;
  $("daily-next").hidden = !over;
  document.querySelector("main").dataset.board = over ? "over" : String(body.board);
  if (over) {
    $("daily-over").textContent = t("Deal {n} is over: you scored {score}.", { n: num(over.board + 1), score: num(over.score) });
    $("daily-next").textContent = pending && pending.finished ? t("See your result") : t("Next deal");
  }
}

// A board begins (or is taken up again): the seat, then the whole view, then the last move told.
function begin(body) {
  current = body;
  pending = null;
  const info = tableInfo(body);
  emit({ type: "welcome", seat: body.seat, table: info });
  emit({ type: "sync", table: info, scores: scoresOf([], body.state.totals), state: viewOf(body, body.state) });
  if (body.last) emit({ type: "catch_up", state: body.state, last: body.last });
  drawBar(body);
}

function next() {
  if (!pending) return;
  if (pending.finished) location.href = RESULTS;
  else begin(pending);
}

async function load() {
  const r = await fetch(`/api/daily/${encodeURIComponent(GAME)}/state`, { cache: "no-store" });
  const body = await r.json().catch(() => ({}));
  if (!r.ok || body.finished) {
    location.href = RESULTS; // not started (the start is there), or finished (the results are there)
    return;
  }
  begin(body);
}

async function act(action) {
  if (!current || pending) return;
  if (busy) {
    queued = action;
    return;
  }
  busy = true;
  try {
    const body = await postJSON(`/api/daily/${encodeURIComponent(GAME)}/move`, { board: current.board, move: action });
    if (body.last_board) { // the deal is over: its last position and its end, then the next board on request
      const end = body.last_board;
      pending = body;
      queued = null;
      // nobody is to play and no contract is to be chosen: the next deal waits for the person, where a table
      // would be shuffling, and the board keeps its own dealer
      const last = viewOf(current, end.state);
      if (!BESIGUE) Object.assign(last, { to_act: null, declarer: -1, dealer: end.summary.dealer });
      emit({ type: "state", state: last, last: end.last || null });
      emit({ type: "scores", scores: scoresOf([end.summary], end.summary.totals) });
      drawBar(current, end);
      $(BESIGUE ? "bz-turn" : "turn").textContent = t("Deal {n} is over: you scored {score}.", { n: num(end.board + 1), score: num(end.score) });
    } else {
      current = body;
      emit({ type: "state", state: viewOf(body, body.state), last: body.last || null });
      drawBar(body);
    }
  } catch (e) {
    queued = null;
    emit({ type: "error", message: e.message });
  } finally {
    busy = false;
  }
  if (queued) {
    const again = queued;
    queued = null;
    await act(again);
  }
}

useTransport((onMessage, onStatus) => {
  emit = onMessage;
  onStatus("connected");
  $("daily-next").addEventListener("click", next);
  // Bésigue's own "Continue" under a deal's end goes on to the next board too (the Barbu table's summary
  // closes with a click, and the set's bar has the way on).
  if (BESIGUE) $("deal-end").addEventListener("click", (e) => { if (e.target.closest("button")) next(); }, true);
  setTimeout(load);
  return {
    act,
    send: (type) => emit({ type: "error", message: type === "hint" ? t("No hints in the daily deals: everyone plays them on his own.")
      : type === "take_back" ? t("The daily deals take nothing back: everyone is compared on his first decisions.")
        : t("Not in the daily deals.") }),
    reconnect: load,
  };
});
