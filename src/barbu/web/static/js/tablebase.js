// The frame every table page shares, so that a fix made here reaches every game (issue 30): the WebSocket
// and its messages (welcome, resyncs, what was missed, scores, rematch, removal, errors, the server's notices,
// its busy word, the clock), the seat and its credential, the top bar (rules, deal counter, connection), the
// seats panel and the invitation, the help tools (hint, take-back), the player's own clock line, the
// notices, and the end of the match.  A game's script (table.js for the Barbu family, besigue.js for
// Bésigue) calls openTable() with hooks that draw its own table and word its own moves; the page's template
// extends templates/_table_frame.html, which holds the same frame in HTML.
//
// The table as this page knows it (info, state, scores, mySeat) is exported as live bindings: a game's script
// reads them and always sees the latest value; only this module assigns them, from the server's messages.

import { showBusy } from "./dom.js";
import { t } from "./i18n.js";
import { forgetSeat, loadSeat, saveSeat, TableSocket } from "./net.js";
import { addBot, carryInvitation, inviteFollows, removePlayer, seatingOpen, seatRows, takeSeat, wireInvite } from "./seating.js";
import { chairName, computerName, rulesTitle } from "./tablewords.js";
import { clockVersion, clockWords, renderMyClock, setClock, startTicking } from "./clock.js";
import { who } from "./account-link.js";
import { followEvent, roundWords, showEventEnd, showPaused } from "./eventend.js";
import { focusOn, keepFocus } from "./a11y.js";
import { chatMessage, chatRender, openChat } from "./chat.js";
import { keepAwake } from "./wakelock.js";

export const $ = (id) => document.getElementById(id);
export const tableId = decodeURIComponent(location.pathname.split("/").pop());

export let info = null; // public facts about the table
export let state = null; // this seat's view
export let scores = null; // the finished deals and the totals
export let mySeat = null; // null: watching

const NOTICE_MS = 7000; // how long an error or a notice stays over the table
let game = null; // the hooks of this page's game (see openTable)
let socket = null;
let transport = null; // a page that is no table's (the daily deals) gives its own way to talk to the server

// Before a game's script opens the table: `make(onMessage, onStatus)` returns an object with act(action, typed),
// send(type, extra) and reconnect(), used instead of the table's WebSocket (static/js/daily_link.js: the daily deals,
// learn_link.js: the lessons).  Optionally drawn(), called each time the table has been drawn (a lesson marks the
// cards it asks for), and forcedByHand: true, when a decision with one choice waits for the player (a lesson
// explains each one).
export function useTransport(make) {
  transport = make;
}

// Whether a decision with only one possible choice waits for the player instead of being made for him.
export function forcedByHand() {
  return !!(socket && socket.forcedByHand);
}
let dealsSeen = null; // deals in the scores last received: one more means a deal just ended
let endDismissed = false;

// ------------------------------------------------------------------ names
// Seats are counted from 1 where a person reads them; a computer player is named by where it sits from this
// browser's chair ("West, computer (good player)"), as the terminal names it; the shuffle is seat -1.
export function seatName(s) {
  if (s === -1) return game.shuffleName();
  const seat = info && info.seats[s];
  if (seat && seat.kind === "bot") return computerName(s, mySeat, info.players, seat.strength);
  const name = seat && seat.name ? seat.name : chairName(s, bottomSeat(), info ? info.players : 4);
  return s === mySeat ? t("{name} (you)", { name }) : name;
}

// A seat's name alone, short enough for a label on the felt: "You" for this seat, a computer player by its
// place ("West"; to a spectator, from the bottom seat's chair, South), or, two at a table, "computer".
export function shortName(s) {
  if (s === mySeat) return t("You");
  const seat = info && info.seats[s];
  if (seat && seat.kind === "bot") {
    if (info.players === 2) return t("computer");
    return chairName(s, bottomSeat(), info.players);
  }
  return seat && seat.name ? seat.name : chairName(s, bottomSeat(), info ? info.players : 4);
}

// The seat drawn at the bottom of the table: yours, or the first to a spectator.
export function bottomSeat() {
  return mySeat === null ? 0 : mySeat;
}

// Whether this seat has a decision to make now (a Barbu view counts its legal actions, a Bésigue one lists them).
export function myTurn() {
  if (!state || mySeat === null || state.to_act !== mySeat) return false;
  const count = typeof state.legal_count === "number" ? state.legal_count : (state.legal || []).length;
  return count > 0;
}

// ------------------------------------------------------------------ commands
// An action for the table, with the version it was chosen at (`typed`: the player typed it in his language).
export function act(action, typed = false) {
  socket.act(action, typed);
}

// Any other message to the table ("leave", "hint", "take_back", "back", "rematch"; "compare" with {on}).
export function command(type, extra = {}) {
  socket.send(type, extra);
}

// ------------------------------------------------------------------ notices
// An error or the server's notice over the table for a while; `kind` "hint" draws it as advice.
export function showError(text, kind = "error") {
  const e = $("error");
  e.textContent = text;
  e.dataset.kind = kind;
  e.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(hideError, NOTICE_MS);
}

export function hideError() {
  $("error").hidden = true;
}

// ------------------------------------------------------------------ messages
function onMessage(msg) {
  if (chatMessage(msg)) return; // the chat's messages and the answers to what it sent (chat.js)
  switch (msg.type) {
    case "welcome":
      mySeat = msg.seat;
      if (mySeat === null && loadSeat(tableId)) forgetSeat(tableId); // the credential was refused
      info = msg.table;
      break;
    case "table":
      info = msg.table;
      break;
    case "sync":
      info = msg.table;
      scores = msg.scores;
      dealsSeen = scores.deals.length;
      takeState(msg.state, null, true);
      break;
    case "catch_up":
      takeState(msg.state, msg.last || null, true);
      break;
    case "state":
      takeState(msg.state, msg.last || null, false);
      break;
    case "scores":
      scores = msg.scores;
      if (dealsSeen !== null && scores.deals.length > dealsSeen) game.dealEnded(scores.deals[scores.deals.length - 1]);
      dealsSeen = scores.deals.length;
      break;
    case "rematch":
      goToRematch(msg.table);
      return;
    case "removed": // the table's creator freed our seat: we watch from now on
      forgetSeat(tableId);
      mySeat = null;
      showError(msg.message);
      break;
    case "error":
      showError(msg.message);
      $("hint-button").disabled = false;
      break;
    case "hint":
      $("hint-button").disabled = false;
      if (state && msg.version === state.version) game.showHint(msg);
      break;
    case "taken_back":
      game.takenBack();
      break;
    case "busy":
      showBusy(msg);
      break;
    case "clock":
      if (info) info.clock = msg.clock;
      break;
    case "notice": // the clock ran out on someone: the computer plays for him
      showError(msg.message);
      break;
    default:
      if (game.message) game.message(msg); // a game's own messages (the Barbu table's comparison, shadow.js)
      break;
  }
  if (info && (msg.type === "clock" || (msg.table && typeof msg.table === "object"))) setClock(info.clock, info.turn_based);
  clockVersion(state ? state.version : null);
  render();
}

// A new view of the table: `last` the action that led to it (if told), `resync` a whole view after a
// (re)connection.  The game keeps what it needs of it before it becomes the state; when the table has moved on
// (another version, another seat to act), what was said about the previous position goes.
function takeState(next, last, resync) {
  const moved = !state || next.version !== state.version || next.to_act !== state.to_act;
  if (moved) hideError();
  game.takeState(next, { last, resync, moved });
  state = next;
}

function goToRematch(newId) {
  const seat = loadSeat(tableId);
  if (seat && seat.token) saveSeat(newId, seat); // the same credential holds the same seat there
  carryInvitation(tableId, newId); // a private table's rematch keeps its invitation
  location.href = `/t/${newId}`;
}

// ------------------------------------------------------------------ rendering
// The whole page from what the server said: the frame here, the game's own table through its hook.
export function render() {
  if (!info) return;
  $("rules").textContent = rulesTitle(info.rules);
  $("rules").title = info.rules; // the engine's text, as typed on the command line
  $("rated-mark").hidden = !info.rated;
  renderTurnBased();
  $("rules-link").href = `/rules/${encodeURIComponent(info.rules)}`;
  document.title = `barbu — ${rulesTitle(info.rules)}`;
  const main = document.querySelector("main");
  if (state) {
    main.dataset.phase = state.phase;
    main.dataset.version = state.version;
    main.dataset.toAct = state.to_act === null ? "" : state.to_act;
    main.dataset.deal = game.dealNumber(state);
  }
  main.dataset.seat = mySeat === null ? "" : mySeat;
  main.dataset.status = info.status;
  main.dataset.turnBased = info.turn_based ? "1" : "0";
  keepAwake(info.status === "playing" && myTurn()); // the screen stays on while the player has to move
  inviteFollows(info);
  const inEvent = followEvent(info, tableId, render); // an event's table: its round's deals, then the event
  showPaused(info); // its director paused the event: said above the table
  const round = inEvent && roundWords() ? " · " + roundWords() : "";
  $("deal-counter").textContent = info.status === "open" ? t("waiting for players")
    : state && state.phase === "over" ? (inEvent ? t("round over") + round : t("match over"))
    : state ? game.dealText(state) + round : "";
  // Every control may be drawn anew: the focus stays on the same one, or moves on to the player's next decision.
  keepFocus(() => {
    renderSeatsPanel(main);
    game.render();
    renderEnd();
    chatRender();
    if (socket && socket.drawn) socket.drawn(); // the transport's own marks on the table (learn_link.js)
  }, () => (myTurn() && game.nextDecision ? game.nextDecision() : null));
}

// A turn-based table says so in its header: played over days, nobody needs to stay connected; its title gives
// the clock in words.
function renderTurnBased() {
  const mark = $("turn-mark");
  mark.hidden = !info.turn_based;
  if (!info.turn_based) return;
  const clock = info.clock ? clockWords(info.clock.text) : "";
  mark.title = clock ? t("Turn-based: nobody needs to stay connected. {clock}; when a player's time runs out, the computer plays that move.", { clock })
    : t("Turn-based: nobody needs to stay connected.");
}

function renderSeatsPanel(main) {
  const show = seatingOpen(info, mySeat);
  $("seats-panel").hidden = !show;
  main.classList.toggle("seating", show);
  if (!show) return;
  $("seat-rows").replaceChildren(...seatRows(info, mySeat, {
    take: async (seat) => {
      const table = await takeSeat(tableId, seat, $("name"), $("seat-error"));
      if (table) {
        info = table;
        socket.reconnect();
      }
    },
    bot: async (seat, strength) => {
      const table = await addBot(tableId, seat, strength, $("seat-error"));
      if (table) {
        info = table;
        render();
      }
    },
    leave: () => command("leave"),
    remove: async (seat) => {
      const table = await removePlayer(tableId, seat, $("seat-error"));
      if (table) {
        info = table;
        render();
      }
    },
  }));
}

// The turn bar's tools, drawn by the game with its turn line: the player's own clock line ("I'm back" when the
// computer plays for him) and the help tools.  A game draws its trick first: the clock line showing or going may
// move the hand, and a card played flies from where it lay (motion.js measures the hand before this).
export function renderTurnTools() {
  renderMyClock($(game.turnBar), info.status === "playing" ? mySeat : null, () => command("back"));
  renderHelpTools();
}

// Hint and take-back, for a seated player while the match is played; take-back only against computer players.
// Off his turn the hint button is hidden, or greyed where the game keeps it in place (`hintWaits: "disabled"`).
// A rated match is played without either.
function renderHelpTools() {
  const seated = mySeat !== null && info.status === "playing";
  const rated = !!info.rated;
  $("help-tools").hidden = !seated;
  if (game.hintWaits === "disabled") {
    $("hint-button").disabled = !myTurn();
    $("hint-button").hidden = rated;
  } else $("hint-button").hidden = rated || !myTurn();
  const againstComputers = info.seats.every((s) => s.seat === mySeat || s.kind === "bot");
  $("take-back").hidden = rated || !(seated && againstComputers);
}

function renderEnd() {
  const over = state && state.phase === "over" && scores && scores.over;
  const box = $("match-end");
  const opening = box.hidden && over && !endDismissed;
  box.hidden = !over || endDismissed;
  if (!over) return;
  if (opening) setTimeout(() => focusOn($("match-end-title")), 0); // its title is read first; Escape closes it
  game.standings();
  if (info.deal_limit) showEventEnd(tableId); // an event's table: no rematch, the way back to the event
  $("rematch").hidden = mySeat === null || !!info.rematch_id || !!info.deal_limit;
  const link = $("rematch-link");
  link.hidden = !info.rematch_id;
  if (info.rematch_id) link.href = `/t/${info.rematch_id}`;
  $("replay-link").href = `/t/${encodeURIComponent(tableId)}/replay`;
}

// ------------------------------------------------------------------ opening the table
// Wires the frame's controls and connects.  `hooks` is the game:
//   render()                   draws its table (felt, turn line, decision, hand, side panels), calling
//                              renderTurnTools() with its turn line
//   takeState(next, {last, resync, moved})  keeps what it needs of a new view, before it becomes `state`
//   dealEnded(deal)            a deal just ended (its line of the scores)
//   showHint(msg), takenBack(), hintAsked()   the hint's answer, a move taken back, a hint asked for
//   standings()                fills #standings (and whatever else) in the end-of-match box
//   message(msg)               (optional) a message the frame does not know, for the game's own parts
//   dealNumber(state), dealText(state)        the deal's number (data-deal), and the deal counter's words
//   shuffleName()              the shuffle's name, where a seat's name is asked for seat -1
//   turnBar                    the id of the element that holds the player's own clock line
//   hintWaits                  "hidden" or "disabled": the hint button off the player's turn
//   nextDecision()             (optional) the control of the player's next decision, which the focus moves to
//                              when the one it was on goes (a card played) or it waited in the hand
//   chatHome, chatBefore       (optional) the id of the side column the chat goes into on a laptop, and the
//                              selector of the element it goes before there (chat.js)
export function openTable(hooks) {
  game = hooks;
  $("name").value = localStorage.getItem("barbu:name") || "";
  // Logged in, a seat taken here is the account's and bears its name: no display name to choose.
  who.then((user) => {
    if (!user) return;
    $("name").value = user.name;
    $("name-label").hidden = true;
    $("name-account").textContent = t("You sit down as {name}, with your account.", { name: user.name });
    $("name-account").hidden = false;
  });
  wireInvite(tableId);
  $("rematch").addEventListener("click", () => command("rematch"));
  $("hint-button").addEventListener("click", () => {
    $("hint-button").disabled = true;
    if (game.hintAsked) game.hintAsked();
    command("hint");
  });
  $("take-back").addEventListener("click", () => command("take_back"));
  $("rematch-link").addEventListener("click", (e) => {
    e.preventDefault();
    goToRematch(info.rematch_id);
  });
  $("close-end").addEventListener("click", () => {
    endDismissed = true;
    render();
    if (game.nextDecision) focusOn(document.querySelector("main"));
  });
  // Escape closes the end-of-match box, as its "See the table" button does.
  addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("match-end").hidden) $("close-end").click();
  });
  startTicking();
  const onStatus = (status) => {
    const c = $("conn");
    c.dataset.status = status;
    const words = { connecting: t("connecting…"), reconnecting: t("reconnecting…"), connected: t("connected") };
    c.textContent = { ...words, disconnected: t("disconnected") }[status] || status;
  };
  socket = transport ? transport(onMessage, onStatus) : new TableSocket(tableId, onMessage, onStatus);
  if (!transport && game.chatHome) { // a table's chat, in the game's side column on a laptop (the daily deals have none)
    const over = () => !!info && info.status !== "open" && info.status !== "playing";
    openChat({ send: command, seat: () => mySeat, over, tableId, home: game.chatHome, before: game.chatBefore });
  }
}
