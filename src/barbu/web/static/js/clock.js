// The table's clock (barbu/web/clock.py) as every table page shows it: a chip on each person's seat (his
// bank, or the countdown while his clock runs) and the player's own line above his hand, quiet while time
// is ample and clear when it runs low; "I'm back" when the computer plays for him because his time ran out.
// The server sends the seconds left when it sent the message; the page counts down from the moment it got it,
// so the two machines' clocks never need to agree.  A turn-based table's clock (hours or days a move) is shown
// in days, hours and minutes ("2 d 5 h", "3 h 12 min") rather than minutes and seconds.

import { el } from "./dom.js";
import { num, t, tn } from "./i18n.js";

let clock = null; // the table's clock as last sent (info.clock), null: no clock
let receivedAt = 0; // performance.now() when it came
let version = null; // the table's version on screen: a turn of another version is over
let long = false; // a turn-based table's clock: days and hours, not seconds

// `turnBased`: the table is played over days (info.turn_based); its clock reads in days, hours and minutes.
export function setClock(next, turnBased = false) {
  clock = next || null;
  long = !!turnBased || !!(clock && clock.per_move >= HOUR);
  receivedAt = performance.now();
}

export function clockVersion(v) {
  version = v;
}

export function hasClock() {
  return clock !== null;
}

// The running turn now: its seat, and the seconds left of the move and in the bank.
function turnNow() {
  const turn = clock && clock.turn;
  if (!turn || turn.version !== version) return null;
  let gone = turn.running ? (performance.now() - receivedAt) / 1000 : 0;
  const move = Math.max(0, turn.move_left - gone);
  gone = Math.max(0, gone - turn.move_left);
  return { seat: turn.seat, running: turn.running, move, bank: Math.max(0, turn.bank_left - gone) };
}

// 83 seconds as 1:23.
export function clockTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const MINUTE = 60, HOUR = 3600, DAY = 86400;

// A long time as a person reads it, to the nearest unit but one: "2 d 5 h", "3 h 12 min", "8 h", "45 min",
// "30 s".  `up`: rounded up, as a countdown is (the time left never reads less than there is); else down, as
// a time already gone is.
export function longTime(seconds, up = true) {
  const round = up ? Math.ceil : Math.floor;
  const s = Math.max(0, seconds);
  if (s < MINUTE) return t("{s} s", { s: num(round(s)) });
  if (s < HOUR) {
    const m = round(s / MINUTE);
    if (m < 60) return t("{m} min", { m: num(m) });
  }
  if (s < DAY) {
    const minutes = round(s / MINUTE);
    const h = Math.floor(minutes / 60), m = minutes % 60;
    if (h < 24) return m ? t("{h} h {m} min", { h: num(h), m: num(m) }) : t("{h} h", { h: num(h) });
  }
  const hours = round(s / HOUR);
  const d = Math.floor(hours / 24), h = hours % 24;
  return h ? t("{d} d {h} h", { d: num(d), h: num(h) }) : t("{d} d", { d: num(d) });
}

// A clock's length in whole words where it is whole: "1 day", "8 hours", else "1 d 12 h".
function span(seconds) {
  if (seconds >= DAY && seconds % DAY === 0) return tn("{n} day", "{n} days", seconds / DAY);
  if (seconds >= HOUR && seconds % HOUR === 0) return tn("{n} hour", "{n} hours", seconds / HOUR);
  return longTime(seconds);
}

// "1 day a move, 3 days in reserve" from the stored clock ("86400+259200"); "" when it does not read.
export function clockWords(text) {
  const m = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(String(text || ""));
  if (!m) return "";
  const move = Number(m[1]), bank = Number(m[2]);
  return bank > 0 ? t("{move} a move, {bank} in reserve", { move: span(move), bank: span(bank) })
    : t("{move} a move", { move: span(move) });
}

// The time on a clock of this table: "1:23", or "2 d 5 h" at a turn-based table.
function shown(seconds) {
  return long ? longTime(seconds) : clockTime(seconds);
}

// Low: the last seconds before the computer plays (a third of a move, between 3 and 10 seconds); at a
// turn-based table, the last hours (an eighth of a move, between 1 and 6 hours).
function isLow(turn) {
  const low = long ? Math.min(6 * HOUR, Math.max(HOUR, clock.per_move / 8)) : Math.min(10, Math.max(3, clock.per_move / 3));
  return turn.running && turn.move + turn.bank <= low;
}

export function awayByClock(seat) {
  return !!clock && clock.away.includes(seat);
}

// A person's chip on his seat's box (null at a table without a clock, or for a computer player).
export function seatClock(seat, kind) {
  if (!clock || kind !== "human") return null;
  const chip = el("span", { class: "chip clock", "data-clock-seat": seat });
  paintSeat(chip);
  return chip;
}

function paintSeat(chip) {
  const seat = Number(chip.dataset.clockSeat);
  const turn = turnNow();
  const mine = turn && turn.seat === seat;
  if (mine) {
    chip.textContent = "◷ " + (turn.move > 0 ? shown(turn.move) : t("bank {time}", { time: shown(turn.bank) }));
    chip.title = turn.move > 0 ? t("time left for this move, then {bank} in the bank", { bank: shown(turn.bank) })
      : t("the move's time is spent: the bank runs");
  } else {
    const bank = clock.banks[seat] === null || clock.banks[seat] === undefined ? clock.bank : clock.banks[seat];
    chip.textContent = "◷ " + shown(bank);
    chip.title = t("time bank: {time} for slow decisions, after {move} a move", { time: shown(bank), move: shown(clock.per_move) });
  }
  chip.classList.toggle("running", !!(mine && turn.running));
  chip.classList.toggle("banking", !!(mine && turn.move <= 0));
  chip.classList.toggle("low", !!(mine && isLow(turn)));
}

// The player's own line, kept in ``parent``: his time while his clock runs, or "I'm back" while the computer
// plays for him; at a turn-based table, off his move, that nobody needs to stay connected.  The element is
// updated in place, so that the button stays put while the table moves on.
export function renderMyClock(parent, mySeat, onBack) {
  let box = document.getElementById("my-clock");
  if (!box) {
    box = el("span", { id: "my-clock", class: "my-clock" });
    parent.append(box);
  }
  box.dataset.myClock = mySeat === null ? "" : mySeat;
  if (clock && mySeat !== null && awayByClock(mySeat)) {
    if (box.dataset.away !== "1") {
      box.dataset.away = "1";
      box.className = "my-clock";
      box.hidden = false;
      const back = el("button", { type: "button", class: "primary", id: "clock-back" }, t("I'm back"));
      back.addEventListener("click", onBack);
      box.replaceChildren(el("span", { class: "clock-away", textContent: t("Your time ran out: the computer plays for you.") }), " ", back);
    }
    return;
  }
  if (box.dataset.away === "1") {
    delete box.dataset.away;
    box.replaceChildren();
  }
  if (!clock || mySeat === null) box.hidden = true;
  else paintMine(box);
}

function paintMine(box) {
  if (box.dataset.away === "1") return;
  const seat = box.dataset.myClock === "" ? null : Number(box.dataset.myClock);
  const turn = turnNow();
  const mine = turn && turn.seat === seat && turn.running;
  // At a turn-based table, while it is not his move, the line says that nobody needs to stay connected.
  box.classList.toggle("turn-based-note", !mine && long && seat !== null);
  box.hidden = !mine && !(long && seat !== null);
  if (!mine) {
    box.classList.remove("banking", "low");
    if (long && seat !== null) box.textContent = t("Turn-based: nobody needs to stay connected.");
    return;
  }
  box.textContent = turn.move > 0 ? t("Your time: {move}, then {bank} in the bank", { move: shown(turn.move), bank: shown(turn.bank) })
    : t("Your time: {bank} left in the bank", { bank: shown(turn.bank) });
  box.classList.toggle("banking", turn.move <= 0);
  box.classList.toggle("low", isLow(turn));
}

// Repaint every clock on the page a few times a second (only their text: nothing else is drawn again).
export function startTicking() {
  setInterval(() => {
    if (!clock) return;
    document.querySelectorAll("[data-clock-seat]").forEach(paintSeat);
    document.querySelectorAll("[data-my-clock]").forEach(paintMine);
  }, 250);
}
