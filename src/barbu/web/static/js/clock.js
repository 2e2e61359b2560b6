// The table's clock (barbu/web/clock.py) as every table page shows it: a chip on each person's seat (his
// bank, or the countdown while his clock runs) and the player's own line above his hand, quiet while time
// is ample and clear when it runs low; "I'm back" when the computer plays for him because his time ran out.
// The server sends the seconds left when it sent the message; the page counts down from the moment it got it,
// so the two machines' clocks never need to agree.

import { el } from "./dom.js";
import { t } from "./i18n.js";

let clock = null; // the table's clock as last sent (info.clock), null: no clock
let receivedAt = 0; // performance.now() when it came
let version = null; // the table's version on screen: a turn of another version is over

export function setClock(next) {
  clock = next || null;
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

// Low: the last seconds before the computer plays (a third of a move, between 3 and 10 seconds).
function isLow(turn) {
  return turn.running && turn.move + turn.bank <= Math.min(10, Math.max(3, clock.per_move / 3));
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
    chip.textContent = "◷ " + (turn.move > 0 ? clockTime(turn.move) : t("bank {time}", { time: clockTime(turn.bank) }));
    chip.title = turn.move > 0 ? t("time left for this move, then {bank} in the bank", { bank: clockTime(turn.bank) })
      : t("the move's time is spent: the bank runs");
  } else {
    const bank = clock.banks[seat] === null || clock.banks[seat] === undefined ? clock.bank : clock.banks[seat];
    chip.textContent = "◷ " + clockTime(bank);
    chip.title = t("time bank: {time} for slow decisions, after {move} a move", { time: clockTime(bank), move: clockTime(clock.per_move) });
  }
  chip.classList.toggle("running", !!(mine && turn.running));
  chip.classList.toggle("banking", !!(mine && turn.move <= 0));
  chip.classList.toggle("low", !!(mine && isLow(turn)));
}

// The player's own line, kept in ``parent``: his time while his clock runs, or "I'm back" while the computer
// plays for him.  The element is updated in place, so that the button stays put while the table moves on.
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
  box.hidden = !mine;
  if (!mine) return;
  box.textContent = turn.move > 0 ? t("Your time: {move}, then {bank} in the bank", { move: clockTime(turn.move), bank: clockTime(turn.bank) })
    : t("Your time: {bank} left in the bank", { bank: clockTime(turn.bank) });
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
