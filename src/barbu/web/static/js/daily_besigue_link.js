// Bésigue's daily deals talk to the server over HTTP (/api/daily/besigue/…), not through a table's WebSocket: this
// module gives the table's frame (tablebase.js) that way to talk, before besigue.js opens the table, so the board is
// drawn by the Bésigue table's own script.  It turns each answer into the messages a table would send (welcome,
// sync, state, scores, error), shows which deal of the set is played and the person's part in it, and after the
// last deal sends him to his results (/daily/besigue).  No hint, no take-back: the server has none for these deals.
import { $, useTransport } from "./tablebase.js";
import { postJSON } from "./net.js";
import { num, t } from "./i18n.js";

const GAME = "besigue";
const RESULTS = `/daily/${GAME}`;
let emit = () => {};
let current = null; // the answer for the board being played
let pending = null; // the next answer, while a finished deal's end is shown
let busy = false;

// The table's public facts as the frame reads them: two seats, the person's and the computer's.
function tableInfo(body) {
  const seats = [0, 1].map((s) => (s === body.seat
    ? { seat: s, kind: "human", name: body.name === "guest" || !body.name ? t("guest") : body.name, connected: true }
    : { seat: s, kind: "bot", name: "", strength: body.strength, connected: true }));
  return { id: "daily", rules: GAME, players: 2, status: "playing", private: false, rated: false, turn_based: false,
    clock: null, rematch_id: null, options: body.options, seats };
}

function scoresOf(deals, totals) {
  return { deals, totals, over: false, total_deals: null, highest_wins: true };
}

function drawBar(body, over = null) {
  $("daily-board").textContent = t("Deal {n} of {total}", { n: num(body.board + 1), total: num(body.boards) });
  $("daily-role").textContent = body.role === "dealer" ? t("You deal: the computer leads first.")
    : t("You are the elder hand: you lead first.");
  $("daily-done").textContent = body.done.length
    ? t("Your scores so far: {scores}", { scores: body.done.map((d) => num(d.score)).join(", ") }) : "";
  $("daily-over").hidden = !over;
  $("daily-next").hidden = !over;
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
  emit({ type: "sync", table: info, scores: scoresOf([], body.state.totals), state: body.state });
  if (body.last) emit({ type: "catch_up", state: body.state, last: body.last });
  drawBar(body);
}

function next() {
  if (!pending) return;
  if (pending.finished) location.href = RESULTS;
  else begin(pending);
}

async function load() {
  const r = await fetch(`/api/daily/${GAME}/state`, { cache: "no-store" });
  const body = await r.json().catch(() => ({}));
  if (!r.ok || body.finished) {
    location.href = RESULTS; // not started (the start is there), or finished (the results are there)
    return;
  }
  begin(body);
}

async function act(action) {
  if (busy || !current || pending) return;
  busy = true;
  try {
    const body = await postJSON(`/api/daily/${GAME}/move`, { board: current.board, move: action });
    if (body.last_board) { // the deal is over: its last position and its end, then the next board on request
      const end = body.last_board;
      pending = body;
      emit({ type: "state", state: end.state, last: end.last || null });
      emit({ type: "scores", scores: scoresOf([end.summary], end.summary.totals) });
      drawBar(current, end);
      // the table would say it is shuffling for the next deal: here the next deal waits for the person
      $("bz-turn").textContent = t("Deal {n} is over: you scored {score}.", { n: num(end.board + 1), score: num(end.score) });
    } else {
      current = body;
      emit({ type: "state", state: body.state, last: body.last || null });
      drawBar(body);
    }
  } catch (e) {
    emit({ type: "error", message: e.message });
  } finally {
    busy = false;
  }
}

useTransport((onMessage, onStatus) => {
  emit = onMessage;
  onStatus("connected");
  $("daily-next").addEventListener("click", next);
  // The Bésigue table's own "Continue" under a deal's end goes on to the next board too.
  $("deal-end").addEventListener("click", (e) => { if (e.target.closest("button")) next(); }, true);
  setTimeout(load);
  return {
    act,
    send: (type) => emit({ type: "error", message: type === "hint" ? t("No hints in the daily deals: everyone plays them on his own.")
      : type === "take_back" ? t("The daily deals take nothing back: everyone is compared on his first decisions.")
        : t("Not in the daily deals.") }),
    reconnect: load,
  };
});
