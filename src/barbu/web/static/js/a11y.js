// A table for everyone (issue 43): what a player who uses the keyboard or a screen reader needs from every
// table, kept in one place so that each game's script only says what is its own.
//   announce(text, urgent)   says a move, a trick won, a double, a score in the page's live regions
//                            (#announce, polite; #announce-now, assertive: only for "your turn")
//   keepFocus(draw, next)    redraws without losing the focus: on the same control if it is drawn again
//                            (the same card, the same choice), else on the next decision, else on its region
//   arrowKeys(box, items)    arrow keys, Home and End move among a row's controls (the playable cards)

const KEPT = 4; // the last few announcements stay in the region (a reader says each as it is added)

// A line said to screen readers, in the page's language (the caller words it with i18n.js).
export function announce(text, urgent = false) {
  const region = document.getElementById(urgent ? "announce-now" : "announce");
  if (!region || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > KEPT) region.firstElementChild.remove();
}

// Whether the player moves with the keyboard now (his last input was a key, not a pointer): a control
// focused for him is then scrolled into view, as the browser does for a Tab.
let byKeyboard = false;
addEventListener("keydown", (e) => { if (!e.altKey && !e.ctrlKey && !e.metaKey) byKeyboard = true; }, true);
addEventListener("pointerdown", () => { byKeyboard = false; }, true);

const SAME = ["data-card", "data-action", "data-info", "data-put", "data-suggest", "data-clear", "data-seat-take", "data-seat-bot", "href"];
const CONTROLS = "a[href], button, input, select, textarea, summary, [tabindex]";

// A control as a person tells it from its neighbours: its kind, its words and where it leads.
function looks(node) {
  return `${node.tagName}|${node.textContent.trim()}|${node.getAttribute("href") || ""}`;
}

// The focused control named so it can be found again once redrawn: its id, or its region's id and its data key.
function focusKey(node) {
  if (!node || node === document.body || !node.isConnected) return null;
  const region = node.parentElement && node.parentElement.closest("[id]");
  const attr = SAME.find((a) => node.hasAttribute(a));
  const own = node.id ? `#${CSS.escape(node.id)}` : null;
  const keyed = attr && region ? `#${CSS.escape(region.id)} [${attr}="${CSS.escape(node.getAttribute(attr))}"]` : null;
  // Else, for a control with no id nor key, the same-looking one of its region (the first, second… of those alike);
  // a card or a choice gone is gone (another card may show the same figures).
  const alike = region && !own && !keyed ? [...region.querySelectorAll(CONTROLS)].filter((x) => looks(x) === looks(node)) : [];
  return { node, own, keyed, region: region ? region.id : null, looks: looks(node), nth: alike.indexOf(node) };
}

// The control drawn again in the place of `before`, if there is one.
function again(before) {
  const found = [before.own, before.keyed].filter(Boolean).map((s) => document.querySelector(s)).find(usable);
  if (found || !before.region || before.nth < 0) return found;
  const region = document.getElementById(before.region);
  const alike = region ? [...region.querySelectorAll(CONTROLS)].filter((x) => looks(x) === before.looks) : [];
  return [alike[before.nth], alike[0]].find(usable);
}

function usable(node) {
  return node && node.isConnected && !node.disabled && !node.closest("[hidden]") && node.getClientRects().length > 0;
}

export function focusOn(node) {
  if (!node) return;
  if (!node.matches("a[href], button, input, select, textarea, [tabindex]")) node.setAttribute("tabindex", "-1");
  node.focus({ preventScroll: true });
  if (byKeyboard) node.scrollIntoView({ block: "nearest" });
}

// Regions where the focus may wait between turns: when the player's turn comes, it moves on to his decision.
const WAITING = new Set(["hand", "decision", "bz-hand", "bz-decision", "felt", "bz-felt"]);

// Runs draw() (which may replace every control on the table) and puts the focus back where the player had it.
// `next()` is the table's next decision for this player (the first playable card or choice), or null.
export function keepFocus(draw, next) {
  const before = focusKey(document.activeElement);
  draw();
  if (!before) return;
  const waiting = WAITING.has(before.node.id);
  const decision = next();
  // A card that went out of play (one he may no longer play) gives the focus to his decision, if he has one.
  const keeps = (node) => !node.matches(".card:not(.legal):not(button)") || !usable(decision);
  if (usable(before.node) && !waiting && keeps(before.node)) return; // still there, usable and in play
  if (!waiting) {
    const same = again(before);
    if (same && keeps(same)) return focusOn(same);
  }
  if (usable(decision)) return focusOn(decision);
  if (usable(before.node)) return; // a waiting region, still there
  // Gone, or hidden (a summary that left the felt): the focus waits in the region it was in, or the one around it.
  const region = before.region && document.getElementById(before.region);
  const around = region && region.parentElement && region.parentElement.closest("section[id], aside[id], main");
  const waitIn = [WAITING.has(before.region) ? region : null, region && region.closest("section[id], aside[id], main"), around,
    document.querySelector("main")].find(usable);
  if (waitIn) focusOn(waitIn);
}

// Arrow keys among a row's controls: `items()` lists them (the playable cards first, if any).  Enter and Space
// press the focused one, as a browser does for any button.
export function arrowKeys(box, items) {
  box.addEventListener("keydown", (e) => {
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };
    if (!(e.key in keys) || e.altKey || e.ctrlKey || e.metaKey) return;
    const list = items().filter(usable);
    if (!list.length) return;
    e.preventDefault();
    const at = list.indexOf(document.activeElement);
    const step = keys[e.key];
    let i;
    if (step === "first") i = 0;
    else if (step === "last") i = list.length - 1;
    else if (at < 0) i = step > 0 ? 0 : list.length - 1;
    else i = (at + step + list.length) % list.length;
    byKeyboard = true;
    focusOn(list[i]);
  });
}
