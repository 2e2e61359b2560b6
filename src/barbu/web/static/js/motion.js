// Cards that move: a card played travels from the hand (yours) or from its player's place (another's) to
// the trick, and a finished trick gathers and slides to its winner.  The tables redraw themselves on every
// message, so the moves are played by copies ("ghosts") in a layer of their own above the page, measured
// first and last (FLIP) and driven by the Web Animations API; the real cards stay where they lie (hidden
// while their ghost flies), so nothing else on the page ever sees a card out of place.  A new trick shown
// ends the moves under way at once: the page never waits for an animation.  A setting in the top bar turns
// it off (kept in localStorage); the browser's reduced-motion preference turns it off by default.

import { el } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "barbu:motion";
const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
export const FLY_MS = 230; // a card from the hand or the seat to the trick
export const HOLD_MS = 260; // the whole trick in view before it is gathered
export const GATHER_MS = 300; // the trick gathered and slid to its winner
const FROM_SEAT_SCALE = 0.5; // a card from a seat's box starts small, as if from a hand held there
const GATHERED_SCALE = 0.4;

// Whether cards move: the player's own choice if he made one, else not when the browser asks for less motion.
export function motionOn() {
  let kept = null;
  try {
    kept = localStorage.getItem(KEY);
  } catch { /* no storage: the browser's preference decides */ }
  if (kept === "on") return true;
  if (kept === "off") return false;
  return !REDUCED.matches;
}

function keep(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch { /* a private window may refuse: the choice lasts for this page */ }
  override = on;
}

let override = null; // the choice made on this page, should storage refuse to keep it

function isOn() {
  return override === null ? motionOn() : override;
}

function layer() {
  let box = document.getElementById("motion-layer");
  if (!box) {
    box = el("div", { id: "motion-layer", class: "motion-layer", "aria-hidden": "true", "data-flights": 0, "data-gathers": 0 });
    document.body.append(box);
  }
  return box;
}

function count(name) {
  const box = layer();
  box.dataset[name] = Number(box.dataset[name] || 0) + 1;
}

function centre(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// The angle an element is drawn at (the Bésigue trick's cards lie askew), in degrees.
function angleOf(node) {
  const m = getComputedStyle(node).transform.match(/^matrix\(([^,]+),\s*([^,]+)/);
  return m ? (Math.atan2(Number(m[2]), Number(m[1])) * 180) / Math.PI : 0;
}

// A copy of `node` laid exactly over it in the motion layer, upright, its card size carried over.
function ghostOf(node) {
  const style = getComputedStyle(node);
  const r = node.getBoundingClientRect();
  const c = centre(r);
  const w = node.offsetWidth, h = node.offsetHeight;
  const g = node.cloneNode(true);
  g.removeAttribute("id");
  g.classList.add("motion-ghost");
  g.setAttribute("aria-hidden", "true");
  for (const v of ["--card-w", "--card-h"]) {
    const x = style.getPropertyValue(v);
    if (x) g.style.setProperty(v, x);
  }
  Object.assign(g.style, { left: `${c.x - w / 2}px`, top: `${c.y - h / 2}px`, width: `${w}px`, height: `${h}px`, fontSize: style.fontSize });
  layer().append(g);
  return { g, c, w, angle: angleOf(node) };
}

// Which copy of its card a card element is: the box it lies in (the nearest element with an id) and its rank
// among the same cards there.
function copyOf(node) {
  const box = node.parentElement.closest("[id]");
  const twins = box ? [...box.querySelectorAll("[data-card]")].filter((c) => c.dataset.card === node.dataset.card) : [node];
  return { card: node.dataset.card, box, nth: twins.indexOf(node) };
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

// The moves of one table's trick.  A table calls measure() before it redraws the places cards are played
// from, and show() once the trick is drawn; the trick's cards are its text forms ("QH"), in playing order.
export class TrickMotion {
  constructor() {
    this.hand = new Map(); // card -> where its copies lay before this redraw: [{rect, clicked}]
    this.shown = null; // the trick drawn last: {cards, done}
    this.plan = null; // the moves under way, or played, for the trick drawn last
    // The playable card clicked last, as its place among its twins (Bésigue's two packs): of two identical
    // cards, the one played.  Not the element: the page may be redrawn between the click and the move.
    this.sent = null;
    document.addEventListener("click", (e) => {
      const card = e.target.closest && e.target.closest("[data-card]");
      if (card && card.classList.contains("legal")) this.sent = copyOf(card);
    }, true);
    wireToggle(() => this.stop());
  }

  // Where the cards under `selector` lie now: a card played from there flies from its place.
  measure(selector) {
    this.hand = new Map();
    const sent = this.sent;
    for (const node of document.querySelectorAll(selector)) {
      for (const c of node.querySelectorAll("[data-card]")) {
        const rect = c.getBoundingClientRect();
        if (!rect.width) continue;
        const copy = sent && sent.card === c.dataset.card ? copyOf(c) : null;
        const clicked = !!copy && copy.box === sent.box && copy.nth === sent.nth;
        if (!this.hand.has(c.dataset.card)) this.hand.set(c.dataset.card, []);
        this.hand.get(c.dataset.card).push({ rect, clicked });
      }
    }
  }

  // Where a card played comes from among its measured copies: the one clicked, else the one nearest its
  // player's place (`seat`, an element); null when none was measured.
  startOf(card, seat) {
    const copies = this.hand.get(card) || [];
    const clicked = copies.find((c) => c.clicked);
    if (clicked || copies.length < 2 || !seat) return (clicked || copies[0] || { rect: null }).rect;
    const s = centre(seat.getBoundingClientRect());
    const far = ({ rect }) => Math.hypot(centre(rect).x - s.x, centre(rect).y - s.y);
    return copies.reduce((a, b) => (far(b) < far(a) ? b : a)).rect;
  }

  // Whether the trick `cards` just completed is to stay drawn while it is gathered (Bésigue draws an
  // empty trick once it is won): so while its gathering runs, or when it completes the trick drawn last.
  gathering(cards) {
    if (!isOn()) return false;
    if (this.plan && same(this.plan.cards, cards) && this.plan.done) return this.plan.running();
    const s = this.shown;
    return !!s && !s.done && s.cards.length < cards.length && same(s.cards, cards.slice(0, s.cards.length));
  }

  // The trick is drawn: `cards` its cards, `pieces` their elements in the same order, `done` whether it is
  // complete (won by `winner`, an element to gather to), `from(i)` the element the i-th card comes from
  // unless it was measured in a hand.  New cards fly in; a trick just completed gathers to its winner.
  show({ cards, pieces, done = false, spot = null, from = () => null, winner = null }) {
    const id = cards.join(" ") + (done ? " done" : "");
    if (this.plan && this.plan.id === id) {
      this.plan.attach(pieces); // drawn again unchanged (a clock, a hint): the moves go on
      return;
    }
    this.stop();
    const before = this.shown;
    // A new trick drawn: the click told its card (measured already), not a later one's.
    if (!before || before.done !== done || !same(before.cards, cards)) this.sent = null;
    this.shown = { cards: [...cards], done };
    if (!isOn() || !before || !pieces.length || !pieces[pieces.length - 1].getClientRects().length) return; // or not shown
    const prior = before.done ? [] : before.cards;
    if (cards.length <= prior.length || !same(prior, cards.slice(0, prior.length))) {
      if (!(done && same(prior, cards))) return; // another trick, or nothing new: drawn as it is
    }
    const fresh = [];
    for (let i = prior.length; i < cards.length; i++) fresh.push(i);
    this.plan = new Plan(id, cards, done);
    for (const i of fresh) {
      const measured = this.startOf(cards[i], from(i));
      const start = measured || (from(i) && from(i).getBoundingClientRect());
      if (start && start.width) this.plan.fly(i, pieces[i], start, !measured);
    }
    if (done && winner) this.plan.gather(pieces, spot, winner.getBoundingClientRect());
    this.plan.attach(pieces);
  }

  // Ends the moves under way at once: the cards are where the table drew them.
  stop() {
    if (this.plan) this.plan.stop();
    this.plan = null;
  }
}

// One trick's moves: the ghosts' animations, all started together, and what hides the real cards meanwhile.
class Plan {
  constructor(id, cards, done) {
    this.id = id;
    this.cards = cards;
    this.done = done;
    this.ghosts = []; // [ghost element, its animation]
    this.flights = new Set(); // the indices of the cards flying in
    this.gatherAt = null; // when the gathering starts (ms), if it does
    this.total = 0;
    this.real = []; // animations on the table's own elements
  }

  running() {
    return this.ghosts.some(([, a]) => a.playState === "running");
  }

  elapsed() {
    const live = this.ghosts.find(([, a]) => a.playState === "running");
    return live ? live[1].currentTime : this.total;
  }

  // The i-th card flies from `start` (a rect) to where it lies; from a seat's box it grows and appears.
  fly(i, piece, start, fromSeat) {
    const { g, c, w, angle } = ghostOf(piece);
    const s = centre(start);
    const scale = fromSeat ? FROM_SEAT_SCALE : Math.max(0.3, Math.min(2.5, start.width / (w || start.width)));
    const anim = g.animate([
      { transform: `translate(${s.x - c.x}px, ${s.y - c.y}px) scale(${scale})`, opacity: fromSeat ? 0.3 : 1 },
      { transform: `translate(0, 0) scale(1) rotate(${angle}deg)`, opacity: 1 },
    ], { duration: FLY_MS, easing: "cubic-bezier(.2, .7, .3, 1)", fill: "both" });
    this.keep(g, anim);
    this.flights.add(i);
    this.total = Math.max(this.total, FLY_MS);
    count("flights");
  }

  // The whole trick, once every card has landed and been seen, closes to its middle and slides to the winner.
  gather(pieces, spot, target) {
    const start = (this.flights.size ? FLY_MS : 0) + HOLD_MS;
    const total = start + GATHER_MS;
    const at = start / total, mid = (start + GATHER_MS * 0.35) / total;
    const box = (spot || pieces[0].parentElement).getBoundingClientRect();
    const m = centre(box), w = centre(target);
    for (const piece of pieces) {
      const { g, c, angle } = ghostOf(piece);
      g.classList.add("motion-gather"); // the cards alone: their players' names stay behind
      const rest = `translate(0, 0) rotate(${angle}deg)`;
      const anim = g.animate([
        { offset: 0, transform: rest, opacity: 0 },
        { offset: at, transform: rest, opacity: 0 },
        { offset: at, transform: rest, opacity: 0.9 },
        { offset: mid, transform: `translate(${m.x - c.x}px, ${m.y - c.y}px) rotate(0deg)`, opacity: 0.9, easing: "ease-in" },
        { offset: 1, transform: `translate(${w.x - c.x}px, ${w.y - c.y}px) scale(${GATHERED_SCALE})`, opacity: 0 },
      ], { duration: total, fill: "both" });
      this.keep(g, anim);
    }
    this.gatherAt = start;
    this.total = total;
    count("gathers");
  }

  keep(g, anim) {
    this.ghosts.push([g, anim]);
    anim.onfinish = () => g.remove();
  }

  // Hide the table's own cards while their ghosts move (again when the table is drawn again unchanged),
  // the moves going on from where they are.  data-moving marks a card while it waits for its ghost.
  attach(pieces) {
    for (const a of this.real) a.cancel(); // on the elements drawn before, or on the same ones
    const now = this.elapsed();
    this.real = [];
    // The piece and the card in it (a Barbu trick's card lies in a frame with its player's name).
    const hide = (node, keyframes, duration, fill = "none") => {
      let first = null;
      for (const target of [node, ...node.querySelectorAll("[data-card]")]) {
        const a = target.animate(keyframes, { duration, fill });
        a.currentTime = Math.min(now, duration);
        this.real.push(a);
        first = first || a;
      }
      return first;
    };
    // data-moving holds "in" while the card's ghost flies to it, "gather" while the trick's ghosts gather.
    const mark = (piece, word, a) => {
      if (a.playState === "finished") return;
      piece.dataset.moving = `${piece.dataset.moving || ""} ${word}`.trim();
      a.finished.then(() => {
        const left = (piece.dataset.moving || "").split(" ").filter((w) => w && w !== word).join(" ");
        if (left) piece.dataset.moving = left;
        else delete piece.dataset.moving;
      }, () => {});
    };
    pieces.forEach((piece, i) => {
      delete piece.dataset.moving;
      // Created first, so that the flight's hiding (later, hence on top) wins while both run.
      if (this.gatherAt !== null) {
        const at = this.gatherAt / this.total;
        mark(piece, "gather", hide(piece, [{ offset: 0, visibility: "visible" }, { offset: at, visibility: "visible" },
          { offset: at, visibility: "hidden" }, { offset: 1, visibility: "hidden" }], this.total, "forwards"));
      }
      if (this.flights.has(i)) mark(piece, "in", hide(piece, [{ visibility: "hidden" }, { visibility: "hidden" }], FLY_MS));
    });
  }

  stop() {
    for (const [g, a] of this.ghosts) {
      a.cancel();
      g.remove();
    }
    this.ghosts = [];
    for (const a of this.real) {
      a.cancel();
      if (a.effect && a.effect.target) delete a.effect.target.dataset.moving;
    }
    this.real = [];
  }
}

// The top bar's "Animations" box, next to the Rules button: checked when cards move; unchecking it stops them.
function wireToggle(onOff) {
  if (document.getElementById("motion-toggle")) return;
  const anchor = document.getElementById("rules-link");
  if (!anchor) return;
  const box = el("input", { type: "checkbox", id: "motion-toggle", checked: isOn() });
  const label = el("label", { class: "motion-toggle", title: t("Cards move from the hand to the trick and from the trick to its winner") },
    box, " ", el("span", { class: "motion-word", textContent: t("Animations") }));
  box.addEventListener("change", () => {
    keep(box.checked);
    if (!box.checked) onOff();
  });
  anchor.after(label);
}
