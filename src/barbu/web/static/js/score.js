// The scorekeeper page: a browser's kept games, a new game, and keeping one game's score deal by deal.
// Every rule lives on the server: the page asks it what the next deal needs (the draft) and shows it;
// the edit key stays in this browser's localStorage (or the link's #key= fragment), never in a path.

import { el } from "./dom.js";
import { SYMBOLS, isRed } from "./cards.js";
import { card, contract, lang, namedSuit, num, rankLetter, t, tn, tp } from "./i18n.js";
import { chairName, rulesTitle } from "./tablewords.js";

const $ = (id) => document.getElementById(id);
const ORDER = ["dealer", "set_aside", "cuts", "contract", "trump", "rank", "doubles", "outcome"];
// The steps' names, marked for translation here and looked up (t) where they are shown.
const STEP_NAMES = { dealer: t("Dealer"), set_aside: t("Set aside"), cuts: t("Cuts"), contract: t("Contract"),
  trump: t("Trumps"), rank: t("Starting rank"), doubles: t("Doubles"), outcome: t("Outcome") };
const COLOURS = ["#1d6f42", "#c8102e", "#1f5fa8", "#d08a00", "#7b3fa0", "#2b8a8a"];
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
// A trump choice as the table says it: "♠ Spades", "♠ Pique" (a suit named as trumps: singular in French), or "No trumps".
const trumpWords = (s) => (s === "none" ? t("No trumps") : `${SYMBOLS[s]} ${capital(namedSuit(s))}`);

// ------------------------------------------------------------------ the browser's id and keys
function ownerId() {
  let id = localStorage.getItem("barbu:score:owner");
  if (!id) {
    id = (crypto.randomUUID ? crypto.randomUUID() : Math.random().toString(36).slice(2) + Date.now().toString(36));
    localStorage.setItem("barbu:score:owner", id);
  }
  return id;
}
const keyName = (id) => `barbu:score:key:${id}`;
const loadKey = (id) => localStorage.getItem(keyName(id));
const saveKey = (id, key) => localStorage.setItem(keyName(id), key);

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// Every request says which language the page shows, so the server words its answers (refusals, questions) in it.
async function api(url, body, headers = {}) {
  headers = { "x-barbu-lang": lang, ...headers };
  const init = body === undefined ? { headers } :
    { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
  let r;
  try {
    r = await fetch(url, init);
  } catch {
    throw new ApiError(t("the server cannot be reached: check the connection and try again"), 0);
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new ApiError(data.error || t("the request failed ({status})", { status: r.status }), r.status);
  return data;
}

// Points come as numbers, or as exact fractions "145/2" (italian-six's series): shown as 72½.
// Written as the page's language writes numbers (num): 1 250 in French, 1.250 in Italian.
const value = (x) => (typeof x === "number" ? x : Number(String(x).split("/")[0]) / Number(String(x).split("/")[1] || 1));
function fmt(x) {
  if (typeof x === "number") return num(x);
  const v = value(x), whole = Math.trunc(v), rest = Math.abs(v - whole);
  if (Math.abs(rest - .5) > 1e-9) return num(Math.round(v * 100) / 100);
  return `${v < 0 && whole === 0 ? "-" : ""}${whole === 0 ? "" : num(whole)}½`;
}
const signed = (x) => (value(x) > 0 ? `+${fmt(x)}` : fmt(x));

// ------------------------------------------------------------------ home: the list, a new game, an import
let catalogue = [];

async function showHome() {
  $("home").hidden = false;
  document.title = t("barbu — keep score");
  loadGames();
  try {
    catalogue = (await api("/api/options")).presets;
  } catch (e) {
    $("new-error").textContent = e.message;
    return;
  }
  $("new-preset").replaceChildren(...catalogue.map((p) => el("option", { value: p.name, textContent: p.name })));
  $("new-preset").addEventListener("change", presetChanged);
  $("new-players").addEventListener("change", () => { namesFields(); rulesLine(); });
  $("new-form").addEventListener("submit", startGame);
  $("import-file").addEventListener("change", importFile);
  presetChanged();
}

async function loadGames() {
  const box = $("games");
  try {
    const { games } = await api("/api/score/mine", { owner: ownerId() });
    // Games this browser holds a key for without having started them (opened from a private link).
    const mine = new Set(games.map((g) => g.id));
    const others = Object.keys(localStorage).filter((k) => k.startsWith("barbu:score:key:"))
      .map((k) => k.slice("barbu:score:key:".length)).filter((id) => !mine.has(id));
    for (const id of others) {
      try {
        const { game } = await api(`/api/score/${id}`, undefined, { "x-score-key": loadKey(id) });
        games.push({ id, title: game.title, rules: game.rules, deals: game.deals.length, updated_at: game.updated_at });
      } catch (e) {
        if (e.status === 404 || e.status === 403) localStorage.removeItem(keyName(id));  // deleted elsewhere
      }
    }
    if (!games.length) {
      box.replaceChildren(el("p", { class: "muted", textContent: t("No game kept here yet: start one below.") }));
      return;
    }
    box.replaceChildren(...games.map(gameRow));
  } catch (e) {
    box.replaceChildren(el("p", { class: "error", textContent: e.message }));
  }
}

function gameRow(g) {
  const when = new Date(g.updated_at).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  const del = el("button", { type: "button", class: "danger small-button", textContent: t("Delete"),
    "aria-label": t("Delete {title}", { title: g.title }) });
  del.addEventListener("click", async () => {
    if (!confirm(tn("Delete \"{title}\" and its {n} deal(s)? This cannot be undone.",
      "Delete \"{title}\" and its {n} deal(s)? This cannot be undone.", g.deals, { title: g.title }))) return;
    try {
      await api(`/api/score/${g.id}/delete`, { key: loadKey(g.id) });
      localStorage.removeItem(keyName(g.id));
      loadGames();
    } catch (e) { alert(e.message); }
  });
  return el("div", { class: "game-row" },
    el("a", { class: "game-link", href: `/score/${g.id}` },
      el("strong", { textContent: g.title }),
      el("span", { class: "muted small", textContent: [rulesTitle(g.rules), tn("{n} deal(s)", "{n} deal(s)", g.deals), when].join(" · ") })),
    del);
}

const preset = () => catalogue.find((p) => p.name === $("new-preset").value);

function presetChanged() {
  const p = preset();
  $("new-description").textContent = p.description;
  $("new-players").replaceChildren(...p.players.map((n) =>
    el("option", { value: n, textContent: tn("{n} player", "{n} players", n), selected: n === p.default_players })));
  $("new-players-label").hidden = p.players.length === 1;
  $("new-options").replaceChildren(...p.options.map(optionField));
  $("new-options-box").hidden = !p.options.length;
  namesFields();
  rulesLine();
}

function optionField(opt) {
  let input;
  const id = `opt-${opt.name}`;
  if (opt.kind === "bool") input = el("input", { type: "checkbox", id, checked: opt.default });
  else if (opt.choices) input = el("select", { id }, ...opt.choices.map((c) =>
    el("option", { value: c, textContent: String(c), selected: c === opt.default })));
  else input = el("input", { type: "number", id, value: opt.default, min: opt.minimum ?? "", max: opt.maximum ?? "" });
  input.addEventListener("change", rulesLine);
  return el("label", { class: "option" }, el("span", { textContent: opt.name.replaceAll("_", " ") }), input,
    el("small", { class: "muted", textContent: opt.help }));
}

function rulesText() {
  const p = preset();
  const diffs = [];
  for (const opt of p.options) {
    const input = $(`opt-${opt.name}`);
    let v = opt.kind === "bool" ? input.checked : input.value;
    if (opt.kind === "int") v = Number(v);
    if (v !== opt.default && String(v) !== String(opt.default)) diffs.push(`${opt.name}=${v}`);
  }
  const n = Number($("new-players").value);
  if (p.players.length > 1 && n !== p.default_players) diffs.push(`players=${n}`);
  return diffs.length ? `${p.name}(${diffs.join(", ")})` : p.name;
}

function rulesLine() { $("new-rules").textContent = rulesText(); }

function namesFields() {
  const n = Number($("new-players").value) || preset().default_players;
  const old = [...$("new-names").querySelectorAll("input")].map((i) => i.value);
  $("new-names").replaceChildren(...Array.from({ length: n }, (_, i) =>
    el("input", { class: "name-input", maxLength: 24, placeholder: t("Player {n}", { n: num(i + 1) }), value: old[i] || "",
      "aria-label": t("Player {n}'s name", { n: num(i + 1) }), oninput: firstChips })));
  firstChips();
}

function names() {
  return [...$("new-names").querySelectorAll("input")].map((i, k) => i.value.trim() || t("Player {n}", { n: num(k + 1) }));
}

let firstDealer = 0;
function firstChips() {
  const ns = names();
  if (firstDealer >= ns.length) firstDealer = 0;
  $("new-first").replaceChildren(...ns.map((n, i) => {
    const b = el("button", { type: "button", class: "chip", textContent: n, "aria-pressed": String(i === firstDealer) });
    b.addEventListener("click", () => { firstDealer = i; firstChips(); });
    return b;
  }));
}

async function startGame(ev) {
  ev.preventDefault();
  $("new-error").textContent = "";
  $("new-start").disabled = true;
  try {
    const r = await api("/api/score", { rules: rulesText(), names: names(), first: firstDealer,
      title: $("new-title").value, owner: ownerId() });
    saveKey(r.id, r.key);
    location.href = r.url;
  } catch (e) {
    $("new-error").textContent = e.message;
    $("new-start").disabled = false;
  }
}

async function importFile() {
  const file = $("import-file").files[0];
  $("import-error").textContent = "";
  if (!file) return;
  if (file.size > 250_000) { $("import-error").textContent = t("this file is too large to be a kept game"); return; }
  const text = await file.text();
  const format = file.name.toLowerCase().endsWith(".csv") ? "csv" : "json";
  try {
    const r = await api("/api/score/import", { text, format, owner: ownerId(), title: "" });
    saveKey(r.id, r.key);
    location.href = r.url;
  } catch (e) {
    $("import-error").textContent = e.message;
  }
}

// ------------------------------------------------------------------ one game: state
const S = {
  id: null, viewId: null, key: null, readOnly: false,
  game: null, // the server's sheet and what the next deal needs
  entry: {}, index: null, // the deal being filled in, and which past deal it corrects (null: a new one)
  outcome: {}, // the outcome's answers as they are being filled in
  draft: null, // the server's answer for the entry: needs, questions, preview
  error: "", saveError: "", busy: false, picked: null, // picked: the past deal whose actions are open
};

async function showGame(id) {
  S.id = id;
  const m = location.hash.match(/key=([\w-]+)/);
  if (m) {
    saveKey(id, m[1]);
    history.replaceState(null, "", location.pathname);
  }
  S.key = loadKey(id);
  $("game").hidden = false;
  if (!S.key) {
    $("page-error").textContent = t("This browser does not hold this game's edit key. Open the link the keeper " +
      "shared for his own devices, or ask for the read-only link.");
    $("game").hidden = true;
    return;
  }
  await reload();
}

async function showView(viewId) {
  S.viewId = viewId;
  S.readOnly = true;
  $("game").hidden = false;
  $("entry").hidden = true;
  await reload();
  setInterval(() => { if (!document.hidden) reload(true); }, 5000);
}

async function reload(quiet = false) {
  try {
    const { game } = S.readOnly ? await api(`/api/score/view/${S.viewId}`) :
      await api(`/api/score/${S.id}`, undefined, { "x-score-key": S.key });
    const changed = !S.game || S.game.version !== game.version;
    S.game = game;
    S.viewId = game.view_id;
    if (changed) renderGame();
    if (!S.readOnly) await redraft();
    notice("");
  } catch (e) {
    if (quiet) { notice(t("Not updated: {error}", { error: e.message })); return; }
    $("page-error").textContent = e.message;
    if (e.status === 404 || e.status === 403) $("game").hidden = true;
  }
}

function notice(text, action = null) {
  const p = $("game-notice");
  p.hidden = !text;
  p.replaceChildren(text);
  if (action) p.append(" ", action);
}

// ------------------------------------------------------------------ one game: the deal being entered
let draftSeq = 0;
async function redraft() {
  S.saveError = "";
  const body = { key: S.key, entry: structuredClone(S.entry) };
  if (S.index !== null) body.index = S.index;
  const seq = ++draftSeq;  // taps may outrun the server: only the answer to the latest entry is shown
  S.busy = true;
  try {
    const reply = await api(`/api/score/${S.id}/draft`, body);
    if (seq !== draftSeq) return;
    S.draft = reply;
    S.error = "";
  } catch (e) {
    if (seq !== draftSeq) return;
    S.error = e.message;
    if (!S.draft) S.draft = { needs: S.game.next, questions: [] };
    if (S.draft.preview) S.draft = { ...S.draft, preview: null };
  }
  S.busy = false;
  renderEntry();
}

function answer(field, value) {
  S.entry[field] = value;
  redraft();
}

function clearFrom(field) {
  S.pendingDoubles = null;
  for (const f of ORDER.slice(ORDER.indexOf(field))) delete S.entry[f];
  if (ORDER.indexOf(field) <= ORDER.indexOf("outcome")) S.outcome = {};
  S.draft = null;
  redraft();
}

function startNew() {
  openMelds.clear();
  S.pendingDoubles = null;
  S.entry = {}; S.index = null; S.outcome = {}; S.draft = null; S.error = ""; S.picked = null;
  redraft();
}

function startEdit(i) {
  S.entry = structuredClone(S.game.entries[i]);
  S.outcome = structuredClone(S.entry.outcome || {});
  S.index = i; S.draft = null; S.error = ""; S.picked = null;
  renderSheet();
  redraft();
  $("entry").scrollIntoView({ behavior: "smooth", block: "start" });
}

async function send(change) {
  S.busy = true;
  renderEntry();
  try {
    const { game } = await api(`/api/score/${S.id}/change`, { key: S.key, version: S.game.version, ...change });
    S.game = game;
    S.entry = {}; S.index = null; S.outcome = {}; S.draft = null; S.error = ""; S.picked = null;
    openMelds.clear();
    notice("");
    renderGame();
    await redraft();
    const top = $("entry").getBoundingClientRect().top;
    if (top < 0 && (change.op === "add" || change.op === "replace")) $("entry").scrollIntoView({ block: "start" });  // the next deal's form, not the sheet
    return true;
  } catch (e) {
    S.busy = false;
    if (e.status === 409) {
      notice(e.message, el("button", { type: "button", class: "primary", textContent: t("Reload"),
        onclick: () => { S.game = null; reload(); } }));
      S.saveError = t("Not saved: {error} (your entry is kept: reload, then save it again).", { error: e.message });
    } else {
      S.saveError = t("Not saved: {error}", { error: e.message });  // the entry stays; the button stays, to try again
    }
    renderEntry();
    return false;
  }
}

// A score book always names its players; one that did not is called by the place from the first seat's chair.
const playerName = (s) => S.game.names[s] ?? chairName(s, 0, S.game.names.length);

function renderEntry() {
  const box = $("entry");
  if (S.readOnly || !S.draft) return;
  const need = S.draft.needs;
  box.dataset.deal = need.ask === "over" ? "over" : String(need.number);  // what tests and scripts wait for
  const parts = [];
  const title = S.index !== null ? t("Correcting deal {n}", { n: num(S.index + 1) }) :
    need.ask === "over" ? t("The game is over") : t("Deal {n}", { n: num(need.number) });
  const who = [];
  if (need.ask !== "over" && need.dealer !== null && need.dealer !== undefined) who.push(t("{name} deals", { name: playerName(need.dealer) }));
  if (need.declarer !== null && need.declarer !== undefined && need.declarer !== need.dealer)
    who.push(t("{name} chooses", { name: playerName(need.declarer) }));
  if (need.where) who.push(need.where);
  parts.push(el("div", { class: "entry-head" },
    el("h2", { textContent: title }), el("span", { class: "muted", textContent: who.join(" · ") })));
  if (need.ask === "over") {
    const [[best, top], ...rest] = S.game.standings;
    const tied = rest.filter(([, x]) => x === top).map(([s]) => playerName(s));
    parts.push(el("p", { class: "winner", textContent: tied.length ?
      t("{names} share the first place with {points}.", { names: new Intl.ListFormat(lang).format([playerName(best), ...tied]), points: fmt(top) }) :
      t("{name} wins with {points}.", { name: playerName(best), points: fmt(top) }) }),
      el("p", { textContent: t("Final standings: {list}.", { list: S.game.standings.map(([s, x]) => `${playerName(s)} ${fmt(x)}`).join(", ") }) }));
    box.replaceChildren(...parts);
    return;
  }
  const at = need.ask === "done" ? ORDER.length : ORDER.indexOf(need.ask);
  for (const f of ORDER) {
    if (f === "outcome" || !(f in S.entry) || ORDER.indexOf(f) >= at) continue;
    parts.push(el("div", { class: "answered" },
      el("span", { class: "muted", textContent: STEP_NAMES[f] }),
      el("strong", { textContent: answerText(f, S.entry[f]) }),
      el("button", { type: "button", class: "link-button", textContent: t("change"), "aria-label": t("Change: {step}", { step: STEP_NAMES[f] }),
        onclick: () => clearFrom(f) })));
  }
  if (need.contract_name && !("contract" in S.entry))  // settled by the Silly Round's cuts
    parts.push(el("div", { class: "answered" }, el("span", { class: "muted", textContent: STEP_NAMES.contract }),
      el("strong", { textContent: contract(need.contract_name) }), el("span", { class: "muted small", textContent: t("from the cuts") })));
  const step = el("div", { class: "step", "data-ask": need.ask });
  parts.push(step);
  const render = STEPS[need.ask];
  if (render) render(step, need);
  if (need.ask === "done") {
    const qs = S.draft.questions || [];
    if (qs.length) outcomeStep(step, { questions: qs });
  }
  parts.push(el("p", { class: "error", id: "entry-error", role: "alert", textContent: S.error || S.saveError }));
  if (need.ask === "done" && S.draft.preview) parts.push(previewBox(S.draft.preview));
  const actions = el("div", { class: "entry-actions" });
  if (need.ask === "done" && S.draft.preview) {
    const save = el("button", { type: "button", class: "primary big", id: "save-deal", disabled: S.busy,
      textContent: S.index !== null ? t("Save the correction to deal {n}", { n: num(S.index + 1) }) : t("Save deal {n}", { n: num(need.number) }) });
    save.addEventListener("click", () => send(S.index !== null ? { op: "replace", index: S.index, entry: S.entry } :
      { op: "add", entry: S.entry }));
    actions.append(save);
  }
  if (S.index !== null || Object.keys(S.entry).length)
    actions.append(el("button", { type: "button", textContent: S.index !== null ? t("Cancel the correction") : t("Start the deal again"),
      onclick: startNew }));
  parts.push(actions);
  box.replaceChildren(...parts);
}

function answerText(f, v) {
  if (f === "dealer") return playerName(v);
  if (f === "contract") {
    const need = S.draft && S.draft.needs;
    return contract((need && need.contract === v && need.contract_name) || contractNames[v] || v);
  }
  if (f === "trump") return trumpWords(v);
  if (f === "rank") return rankLetter(v);
  if (f === "set_aside") return v.split(" ").filter(Boolean).map(card).join(" ");
  if (f === "cuts") return v.map(cutLabel).join(", ");
  if (f === "doubles") return v.length ? v.map(doubleText).join(", ") : tp("doubles", "none");
  return String(v);
}

const contractNames = {};  // key -> name, as the contract step offered them

// A card of the Unused Pack as people say it: 3♠, Joker, Bridge.
const CUT_WORDS = { Joker: t("Joker"), Bridge: t("Bridge") };
const cutLabel = (c) => (/^[2-6][SHDC]$/.test(c) ? `${c[0]}${SYMBOLS[c[1]]}` : CUT_WORDS[c] || c);

function doubleText([a, b, re]) {
  return `${playerName(a)} ${re ? "✕✕" : "✕"} ${playerName(b)}`;
}

function bigButton(text, onclick, attrs = {}) {
  return el("button", { type: "button", class: "chip big-chip", textContent: text, onclick, ...attrs });
}

const STEPS = {
  dealer(step) {
    step.append(el("h3", { textContent: t("Who deals? (the draw decides)") }),
      el("div", { class: "chips" }, ...S.game.names.map((n, i) => bigButton(n, () => answer("dealer", i)))));
  },
  set_aside(step, need) {
    const chosen = new Set((S.entry.set_aside || "").split(" ").filter(Boolean));
    const count = el("p", { class: "muted" });
    const next = el("button", { type: "button", class: "primary", textContent: t("These are the cards") });
    const refresh = () => {
      count.textContent = tn("{chosen} of {n} card(s) chosen", "{chosen} of {n} card(s) chosen", need.set_aside, { chosen: num(chosen.size) });
      next.disabled = chosen.size !== need.set_aside;
    };
    const grid = el("div", { class: "card-grid" });
    for (const s of "SHDC") {
      grid.append(el("span", { class: `grid-suit${isRed("A" + s) ? " red" : ""}`, textContent: SYMBOLS[s], "aria-hidden": "true" }));
      for (const r of "AKQJT98765432") {
      const c = r + s;
      const b = el("button", { type: "button", class: `pick-card${isRed(c) ? " red" : ""}`, textContent: rankLetter(r),
        "aria-label": card(c), "aria-pressed": String(chosen.has(c)), "data-card": c });
      b.addEventListener("click", () => {
        if (chosen.has(c)) chosen.delete(c); else chosen.add(c);
        b.setAttribute("aria-pressed", String(chosen.has(c)));
        refresh();
      });
      grid.append(b);
      }
    }
    next.addEventListener("click", () => answer("set_aside", [...chosen].join(" ")));
    refresh();
    step.append(el("h3", { textContent: tn("The {n} card(s) left out face up", "The {n} card(s) left out face up", need.set_aside) }), grid, count, next);
  },
  cuts(step, need) {
    // The Silly Round: each card cut from the Unused Pack, tapped in order, until the calls and pass-ons are settled.
    const cuts = S.entry.cuts || [];
    const forWhat = need.cut_for === "passes" ? t("The next cut settles the passing: black, each player passes 3 cards; red, no (more) passing.") :
      need.cut_for === "calls" ? t("The next cut is for the calls: 2 Aces, 3 King of hearts, 4 Queens, 5 Hearts, 6 Tricks, Joker all that is left, Bridge Double Patience.") : "";
    const pack = [];
    for (const suit of "SHDC") for (const r of "23456") pack.push([r + suit, `${r}${SYMBOLS[suit]}`, isRed(r + suit)]);
    pack.push(["Joker", cutLabel("Joker"), false], ["Bridge", cutLabel("Bridge"), false]);
    step.append(el("h3", { textContent: t("The Silly Round: tap each card cut from the Unused Pack, in order") }),
      cuts.length ? el("p", { class: "small", textContent: t("Cut so far: {cuts}", { cuts: cuts.map(cutLabel).join(", ") }) }) : "",
      el("p", { class: "muted small", textContent: forWhat }),
      el("div", { class: "cut-grid" }, ...pack.map(([code, label, red]) => el("button", { type: "button",
        class: `pick-card${red ? " red" : ""}`, textContent: label, "data-cut": code,
        onclick: () => answer("cuts", [...(S.entry.cuts || []), code]) }))),
      cuts.length ? el("button", { type: "button", class: "link-button", textContent: t("take back the last cut"),
        onclick: () => { S.entry.cuts = cuts.slice(0, -1); if (!S.entry.cuts.length) delete S.entry.cuts; redraft(); } }) : "");
  },
  contract(step, need) {
    for (const [k, n] of need.contracts) contractNames[k] = n;
    step.append(el("h3", { textContent: t("{name} chooses", { name: playerName(need.declarer ?? need.dealer) }) }),
      el("div", { class: "chips contracts" }, ...need.contracts.map(([k, n]) =>
        bigButton(contract(n), () => answer("contract", k), { "data-contract": k }))));
  },
  trump(step, need) {
    step.append(el("h3", { textContent: STEP_NAMES.trump }), el("div", { class: "chips suits" }, ...need.trumps.map((s) =>
      bigButton(trumpWords(s), () => answer("trump", s),
        { "data-trump": s, class: `chip big-chip${s === "H" || s === "D" ? " red" : ""}` }))));
  },
  rank(step, need) {
    step.append(el("h3", { textContent: STEP_NAMES.rank }), el("div", { class: "chips ranks" }, ...need.ranks.map((r) =>
      bigButton(rankLetter(r), () => answer("rank", r), { "data-rank": r }))));
  },
  doubles: doublesStep,
  outcome: outcomeStep,
};

// Who doubled whom: rows are the players who may double, columns whom; tap once to double, again to redouble.
function doublesStep(step, need) {
  const n = S.game.names.length;
  const pairs = new Map(); // "a-b" -> redoubled
  for (const [a, b, re] of S.entry.doubles || S.pendingDoubles || []) pairs.set(`${a}-${b}`, !!re);
  const table = el("table", { class: "double-grid" });
  const head = el("tr", {}, el("th", { textContent: t("doubles →") }),
    ...S.game.names.map((nm) => el("th", { scope: "col", textContent: nm })));
  table.append(head);
  const cells = [];
  const owed = need.owed || {};
  for (const [doubler, targets] of Object.entries(need.doublers)) {
    const a = Number(doubler);
    const label = el("th", { scope: "row" }, playerName(a));
    if (owed[doubler]) label.append(el("small", { class: "owed", textContent: t("owes {n}", { n: num(owed[doubler]) }) }));
    const row = el("tr", {}, label);
    for (let b = 0; b < n; b++) {
      const td = el("td");
      if (targets.includes(b)) {
        const btn = el("button", { type: "button", class: "dbl", "data-doubler": a, "data-doubled": b,
          "aria-label": t("{name} doubles {target}", { name: playerName(a), target: playerName(b) }) });
        cells.push([btn, a, b]);
        btn.addEventListener("click", () => {
          const k = `${a}-${b}`;
          if (!pairs.has(k)) { pairs.delete(`${b}-${a}`); pairs.set(k, false); }
          else if (!pairs.get(k)) pairs.set(k, true);
          else pairs.delete(k);
          paint();
        });
        td.append(btn);
      } else {
        td.append(el("span", { class: "muted", textContent: a === b ? "" : "·" }));
      }
      row.append(td);
    }
    table.append(row);
  }
  const summary = el("p", { class: "muted small" });
  const paint = () => {
    for (const [btn, a, b] of cells) {
      const k = `${a}-${b}`;
      const state = !pairs.has(k) ? "" : pairs.get(k) ? "redoubled" : "doubled";
      btn.dataset.state = state;
      btn.textContent = state === "doubled" ? "✕" : state === "redoubled" ? "✕✕" : "";
      btn.setAttribute("aria-pressed", String(!!state));
    }
    const list = [...pairs].map(([k, re]) => { const [a, b] = k.split("-").map(Number); return [a, b, re]; });
    S.pendingDoubles = list;
    summary.textContent = list.length ? list.map(([a, b, re]) => (re ?
      t("{name} doubles {target} and {target} redoubles", { name: playerName(a), target: playerName(b) }) :
      t("{name} doubles {target}", { name: playerName(a), target: playerName(b) }))).join("; ") + "." : t("No doubles yet.");
    done.textContent = list.length ? t("These are the doubles") : t("Nobody doubled");
  };
  const done = el("button", { type: "button", class: "primary", id: "doubles-done",
    onclick: () => { const d = S.pendingDoubles || []; S.pendingDoubles = null; answer("doubles", d); } });
  step.append(el("h3", { textContent: t("Doubles: tap to double, tap again for a redouble") }),
    el("div", { class: "grid-wrap" }, table), summary,
    Object.keys(owed).length ? el("p", { class: "muted small", textContent: t("The obligation: {list}.", { list: owedText(owed) }) }) : "",
    done);
  paint();
}

// Who still owes the declarer doubles, and how many.
function owedText(owed) {
  const says = ([s, k]) => tn("{name} still owes {n} double(s) to the declarer",
    "{name} still owes {n} double(s) to the declarer", k, { name: playerName(Number(s)) });
  return Object.entries(owed).map(says).join("; ");
}

// The outcome as the table counts it: one widget per question the rules need.
function outcomeStep(step, need) {
  const qs = need.questions;
  step.append(el("h3", { textContent: t("What happened") }));
  for (const q of qs) step.append(question(q));
}

function outcomeComplete(qs) {
  return qs.every((q) => {
    const v = S.outcome[q.key];
    if (q.kind === "counts") return Array.isArray(v) && (q.total === undefined || v.reduce((a, b) => a + b, 0) === q.total);
    if (q.kind === "seat") return Number.isInteger(v);
    if (q.kind === "seats") return Array.isArray(v) && v.length === q.size && v.every(Number.isInteger);
    if (q.kind === "order") return Array.isArray(v) && v.length >= (q.minimum ?? q.size) && v.length <= q.size;
    if (q.kind === "rows") return Array.isArray(v) && v.every((row) => row && row.trim());
    if (q.kind === "yesno") return typeof v === "boolean";
    return true; // melds: none is an answer
  });
}

let outcomeTimer = null;
const openMelds = new Set();  // the Bésigue declarations lists left open while the form is redrawn
function outcomeChanged(redraw = true) {
  const qs = S.draft.questions && S.draft.questions.length ? S.draft.questions : S.draft.needs.questions;
  clearTimeout(outcomeTimer);
  ++draftSeq;  // a draft on its way answers for an outcome that is no longer the one shown
  if (S.draft.preview) S.draft = { ...S.draft, preview: null };  // no Save until this outcome's preview is back
  S.error = "";
  if (outcomeComplete(qs)) {
    S.entry.outcome = structuredClone(S.outcome);
    outcomeTimer = setTimeout(redraft, 250);
  } else {
    delete S.entry.outcome;
  }
  if (redraw) renderEntry();
}

function question(q) {
  const box = el("div", { class: `question q-${q.kind}`, "data-key": q.key });
  box.append(el("div", { class: "q-label", textContent: q.label }));
  const names = S.game.names;
  if (q.kind === "counts") {
    const v = S.outcome[q.key] || names.map(() => 0);
    S.outcome[q.key] = v;
    const left = el("div", { class: "left" });
    const paintLeft = () => {
      if (q.total === undefined) { left.textContent = ""; return; }
      const rest = q.total - v.reduce((a, b) => a + b, 0);
      left.textContent = rest === 0 ? t("all {total} counted", { total: num(q.total) }) :
        rest > 0 ? t("{rest} of {total} left", { rest: num(rest), total: num(q.total) }) :
        t("{over} too many ({total} in all)", { over: num(-rest), total: num(q.total) });
      left.dataset.state = rest === 0 ? "ok" : rest > 0 ? "left" : "over";
    };
    names.forEach((nm, s) => {
      const out = el("output", { class: "count", textContent: num(v[s]), "data-seat": s });
      const set = (x) => {
        const most = q.maximum ?? 99;
        v[s] = Math.max(0, Math.min(most, x));
        out.textContent = num(v[s]);
        paintLeft();
        outcomeChanged();
      };
      const rest = () => (q.total === undefined ? 0 : q.total - v.reduce((a, b) => a + b, 0));
      box.append(el("div", { class: "stepper" }, el("span", { class: "who", textContent: nm }),
        el("button", { type: "button", class: "step-btn", textContent: "−", "aria-label": t("{name}: one fewer", { name: nm }), "data-seat": s,
          "data-step": "down", onclick: () => set(v[s] - 1) }),
        out,
        el("button", { type: "button", class: "step-btn", textContent: "+", "aria-label": t("{name}: one more", { name: nm }), "data-seat": s,
          "data-step": "up", onclick: () => set(v[s] + 1) }),
        q.total !== undefined ? el("button", { type: "button", class: "rest-btn", textContent: t("rest"), title: t("give this player all that is left"),
          "aria-label": t("{name} takes the rest", { name: nm }), "data-seat": s, "data-step": "rest", onclick: () => set(v[s] + rest()) }) : ""));
    });
    box.append(left);
    paintLeft();
  } else if (q.kind === "seat") {
    box.append(el("div", { class: "chips" }, ...names.map((nm, s) => el("button", { type: "button", class: "chip",
      textContent: nm, "aria-pressed": String(S.outcome[q.key] === s), "data-seat": s,
      onclick: () => { S.outcome[q.key] = s; outcomeChanged(); } }))));
  } else if (q.kind === "seats") {
    const v = S.outcome[q.key] || Array(q.size).fill(null);
    S.outcome[q.key] = v;
    for (let i = 0; i < q.size; i++) {
      const label = q.size === 1 ? "" : i === q.size - 1 ? t("Last trick") : q.size - i === 2 ? t("Last but one") :
        t("Trick −{n}", { n: num(q.size - i - 1) });
      box.append(el("div", { class: "seats-row", "data-slot": i }, label ? el("span", { class: "muted small slot", textContent: label }) : "",
        el("div", { class: "chips" }, ...names.map((nm, s) => el("button", { type: "button", class: "chip", textContent: nm,
          "aria-pressed": String(v[i] === s), "data-seat": s, onclick: () => { v[i] = s; outcomeChanged(); } })))));
    }
  } else if (q.kind === "order") {
    const v = S.outcome[q.key] || [];
    S.outcome[q.key] = v;
    const places = el("ol", { class: "order-list" }, ...v.map((s) => el("li", { textContent: names[s] })));
    if (v.length === q.size && q.size === names.length - 1)  // the one left is last: shown, not tapped
      places.append(el("li", { class: "muted", textContent: names.find((_, s) => !v.includes(s)) }));
    box.append(el("p", { class: "muted small", textContent: tn("Tap the players in the order they went out ({n} place).",
      "Tap the players in the order they went out ({n} places).", q.size) }),
      el("div", { class: "chips" }, ...names.map((nm, s) => el("button", { type: "button", class: "chip", textContent: nm,
        disabled: v.includes(s) || v.length >= q.size, "data-seat": s,
        onclick: () => { v.push(s); outcomeChanged(); } }))),
      places,
      v.length ? el("button", { type: "button", class: "link-button", textContent: t("clear the order"),
        onclick: () => { v.length = 0; outcomeChanged(); } }) : "");
  } else if (q.kind === "rows") {
    const v = S.outcome[q.key] || names.map(() => "");
    S.outcome[q.key] = v;
    names.forEach((nm, s) => {
      // TRANSLATORS: an example of Chinese poker rows (back / middle / front) as a player types the cards,
      // rank then suit, in this language's letters (the server reads them in the page's language)
      const input = el("input", { class: "wide rows-input", value: v[s], placeholder: t("AS KS QS JS TS / 9H 8H 7H 6H 5H / 4D 3D 2D"),
        "aria-label": t("{name}'s rows", { name: nm }), "data-seat": s });
      // Typed text is kept as it comes; the form is redrawn only once every row is there (focus stays put).
      input.addEventListener("input", () => { v[s] = input.value; });
      input.addEventListener("change", () => { v[s] = input.value; outcomeChanged(false); });
      // The phone's Enter key goes on to the next player's rows; after the last it closes the keyboard,
      // so the deal's scores show without a tap elsewhere.
      input.enterKeyHint = s < names.length - 1 ? "next" : "done";
      input.addEventListener("keydown", (e) => {
        if (e.key !== "Enter") return;
        e.preventDefault();
        const next = box.querySelector(`.rows-input[data-seat='${s + 1}']`);
        if (next) next.focus(); else input.blur();
      });
      box.append(el("label", { class: "rows-field" }, el("span", { textContent: nm }), input));
    });
  } else if (q.kind === "yesno") {
    box.append(el("div", { class: "chips" }, ...[[true, t("Yes")], [false, t("No")]].map(([val, word]) => el("button", { type: "button",
      class: "chip", textContent: word, "aria-pressed": String(S.outcome[q.key] === val),
      onclick: () => { S.outcome[q.key] = val; outcomeChanged(); } }))));
  } else if (q.kind === "melds") {
    const v = S.outcome[q.key] || names.map(() => ({}));
    S.outcome[q.key] = v;
    names.forEach((nm, s) => {
      const list = el("div", { class: "meld-list" });
      for (const [kind, label, points] of q.choices) {
        const out = el("output", { class: "count", textContent: num(v[s][kind] || 0) });
        const set = (x) => {
          x = Math.max(0, Math.min(12, x));
          if (x) v[s][kind] = x; else delete v[s][kind];
          out.textContent = num(x);
          outcomeChanged();
        };
        list.append(el("div", { class: "stepper small-stepper" }, el("span", { class: "who", textContent: `${label} (${num(points)})` }),
          el("button", { type: "button", class: "step-btn", textContent: "−", "aria-label": t("{name}: one fewer of {what}", { name: nm, what: label }), onclick: () => set((v[s][kind] || 0) - 1) }),
          out,
          el("button", { type: "button", class: "step-btn", textContent: "+", "aria-label": t("{name}: one more of {what}", { name: nm, what: label }), onclick: () => set((v[s][kind] || 0) + 1) })));
      }
      const total = Object.entries(v[s]).reduce((a, [k, c]) => a + c * (q.choices.find((x) => x[0] === k) || [0, 0, 0])[2], 0);
      const det = el("details", { class: "meld-player", open: openMelds.has(s), "data-seat": s },
        el("summary", { textContent: tn("{name}'s declarations: {n} point", "{name}'s declarations: {n} points", total, { name: nm }) }), list);
      det.addEventListener("toggle", () => { if (det.open) openMelds.add(s); else openMelds.delete(s); });
      box.append(det);
    });
  }
  return box;
}

function previewBox(p) {
  const d = p.deal;
  const rows = p.names.map((nm, s) => el("tr", {}, el("th", { textContent: nm }),
    el("td", { class: "num", textContent: signed(d.scores[s]) }), el("td", { class: "num muted", textContent: fmt(p.totals[s]) })));
  return el("div", { class: "preview", id: "preview" },
    el("h3", { textContent: d.played === false ? t("Not played: the points are shared") : t("This deal scores") }),
    el("table", {}, el("tr", {}, el("th"), el("th", { textContent: t("deal") }), el("th", { textContent: t("total") })), ...rows),
    ...(d.flags || []).map((f) => el("p", { class: "flag", textContent: `⚠ ${f}` })));
}

// ------------------------------------------------------------------ one game: head, sheet, chart, tools
function renderGame() {
  const g = S.game;
  document.title = t("{title} — barbu score", { title: g.title });
  $("game-title").textContent = g.title;
  // TRANSLATORS: the English keeps "deal(s)" in both forms; give each form its own word.
  const count = g.total_deals ? tn("{n} deal(s) of {total}", "{n} deal(s) of {total}", g.deals.length, { total: num(g.total_deals) }) :
    tn("{n} deal(s)", "{n} deal(s)", g.deals.length);
  $("game-rules").textContent = [rulesTitle(g.rules), count, ...(g.over ? [t("finished")] : []),
    ...(S.readOnly ? [t("read-only, updates by itself")] : [])].join(" · ");
  $("standings").replaceChildren(...g.standings.map(([s, x], i) => el("li", { "data-seat": s },
    el("span", { class: "place", textContent: num(i + 1) }), el("span", { class: "who", textContent: g.names[s] }),
    el("strong", { class: "total", textContent: fmt(x) }))));
  const tools = $("head-tools");
  tools.replaceChildren();
  if (!S.readOnly) {
    tools.append(el("button", { type: "button", id: "rename", class: "link-button", textContent: t("rename"),
      onclick: async () => {
        const title = prompt(t("A name for this game:"), g.title);
        if (title && title.trim() && title.trim() !== g.title) await send({ op: "title", title: title.trim() });
      } }));
    const what = g.undo_text || "";
    tools.append(el("button", { type: "button", id: "undo", textContent: "↶ " + t("Undo"), disabled: !g.undo,
      title: what || t("nothing to undo"), "aria-label": what ? t("Undo: {what}", { what }) : t("Undo"),
      onclick: async () => { if (await send({ op: "undo" })) notice(t("Done: {what}.", { what })); } }));
  } else {
    tools.append(el("button", { type: "button", textContent: "↻ " + t("Refresh"), onclick: () => reload(true) }));
  }
  renderSheet();
  renderChart();
  renderTools();
}

function blocks(g) {
  // As on paper: the Barbu families in a block per dealer; the Scottish game by Set and Round; Bésigue deal by deal.
  // With the quick rotation the dealer changes every deal: one block in play order, each deal naming its dealer.
  if (g.quick) return [{ title: "", deals: g.deals.map((d, i) => [d, i]), seat: null, quick: true }];
  const out = new Map();
  g.deals.forEach((d, i) => {
    const key = g.game === "besigue" ? "all" : d.where ? d.where : `${d.dealer}`;
    const title = g.game === "besigue" ? "" : d.where ? d.where : t("{name} deals", { name: g.names[d.dealer] });
    if (!out.has(key)) out.set(key, { title, deals: [], seat: g.game === "besigue" || d.where ? null : d.declarer });
    out.get(key).deals.push([d, i]);
  });
  return [...out.values()];
}

function renderSheet() {
  const g = S.game;
  const table = $("score-sheet");
  const n = g.names.length;
  table.dataset.players = n;
  const head = el("thead", {}, el("tr", {}, el("th", { class: "what", textContent: t("Deal") }),
    ...g.names.map((nm, s) => el("th", { scope: "col", style: `--c:${COLOURS[s % 6]}` }, nm))));
  const bodies = [];
  for (const b of blocks(g)) {
    const tb = el("tbody");
    if (b.title) tb.append(el("tr", { class: "block" }, el("th", { colSpan: n + 1, textContent: b.title })));
    for (const [d, i] of b.deals) {
      const what = el("td", { class: "what" }, el("span", { class: "no", textContent: num(d.number) }), " ",
        el("span", { class: "cname", textContent: dealName(g, d) }));
      if (b.quick) what.append(el("small", { class: "muted", textContent: t("{name} deals", { name: g.names[d.dealer] }) }));
      if (d.doubles && d.doubles.length) what.append(el("small", { class: "dbls", textContent: d.doubles.map(doubleText).join(" · ") }));
      for (const [call, parts] of (d.calls || []).length > 1 ? d.calls : []) {  // a combination: each call's points
        const hit = parts.map((x, s) => [x, s]).filter(([x]) => value(x) !== 0);
        what.append(el("small", { class: "muted", textContent: `${contract(call)}: ${hit.length ? hit.map(([x, s]) => `${g.names[s]} ${fmt(x)}`).join(", ") : num(0)}` }));
      }
      if (d.series) what.append(el("small", { class: "muted", textContent: t("series: {list}", { list:
        d.series.map((x, s) => [x, s]).filter(([x]) => value(x) !== 0).map(([x, s]) => `${g.names[s]} ${signed(x)}`).join(", ") || num(0) }) }));
      if (d.played === false) what.append(el("small", { class: "muted", textContent: t("not played: shared") }));
      if (g.game === "besigue") what.append(el("small", { class: "muted", textContent: besigueDetail(g, d) }));
      const flags = d.flags.filter((f, k) => (d.flag_codes || [])[k] !== "keeper-flag-not-played");  // said in the row already
      const row = el("tr", { class: `deal${flags.length ? " flagged" : ""}${S.picked === i ? " picked" : ""}`, "data-index": i },
        what, ...d.scores.map((x, s) => el("td", { class: `num${value(x) < 0 ? " neg" : ""}` },
          el("span", { class: "pts", textContent: signed(x) }), el("small", { class: "run", textContent: fmt(d.totals[s]) }))));
      if (!S.readOnly) {
        row.tabIndex = 0;
        row.title = t("Deal {n}: tap to correct or delete it", { n: num(d.number) });
        row.addEventListener("click", () => { S.picked = S.picked === i ? null : i; renderSheet(); });
        row.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); row.click(); }
        });
      }
      tb.append(row);
      if (d.glyphs && d.glyphs.length)
        tb.append(el("tr", { class: "glyphs" }, el("td", { colSpan: n + 1 }, ...d.glyphs.map((gl) =>
          el("span", { class: "glyph", textContent: `${gl.name}${gl.call ? ` (${contract(gl.call)})` : ""} — ${g.names[gl.seat]}` })))));
      for (const f of flags) tb.append(el("tr", { class: "flag-row" }, el("td", { colSpan: n + 1, textContent: `⚠ ${f}` })));
      if (S.picked === i && !S.readOnly) {
        tb.append(el("tr", { class: "row-actions" }, el("td", { colSpan: n + 1 },
          el("button", { type: "button", class: "primary", textContent: t("Correct deal {n}", { n: num(d.number) }), onclick: () => startEdit(i) }),
          el("button", { type: "button", class: "danger", textContent: t("Delete deal {n}", { n: num(d.number) }), onclick: () => {
            if (confirm(t("Delete deal {n}? The deals after it move up and are scored again.", { n: num(d.number) }))) send({ op: "delete", index: i });
          } }),
          el("button", { type: "button", textContent: t("Close"), onclick: () => { S.picked = null; renderSheet(); } }))));
      }
    }
    const left = b.seat !== null && g.left && !g.over ? g.left[b.seat] : [];
    if (left.length)
      tb.append(el("tr", { class: "left-row" }, el("td", { colSpan: n + 1, textContent: t("Still to choose: {list}", { list: left.map(contract).join(", ") }) })));
    if (b.quick && g.left && !g.over)
      g.names.forEach((nm, s) => { if (g.left[s].length) tb.append(el("tr", { class: "left-row" }, el("td", { colSpan: n + 1,
        textContent: t("{name} still chooses from: {list}", { name: nm, list: g.left[s].map(contract).join(", ") }) }))); });
    bodies.push(tb);
  }
  const foot = el("tfoot", {}, el("tr", {}, el("th", { class: "what", textContent: t("Total") }),
    ...g.totals.map((x) => el("td", { class: "num total", textContent: fmt(x) }))));
  if (!g.deals.length) bodies.push(el("tbody", {}, el("tr", {}, el("td", { colSpan: n + 1, class: "muted empty", textContent: t("No deal yet.") }))));
  table.replaceChildren(head, ...bodies, foot);
  const doubled = g.deals.some((d) => d.doubles && d.doubles.length);
  $("sheet-legend").textContent = [...(doubled ? [t("✕ a double, ✕✕ a redouble (doubler first).")] : []),
    t("Big: the deal's points; small: the running total."), ...(S.readOnly ? [] : [t("Tap a deal to correct or delete it.")])].join(" ");
}

function dealName(g, d) {
  if (g.game === "besigue") return t("{name} dealt", { name: g.names[d.dealer] });
  let text = contract(d.name);
  if (d.trump) text += ` ${SYMBOLS[d.trump]}`;
  if (d.rank) text = t("{contract} from {rank}", { contract: text, rank: rankLetter(d.rank) });
  if (d.where || d.declarer !== d.dealer) text = `${g.names[d.declarer]}: ${text}`;
  return text;
}

function besigueDetail(g, d) {
  const bits = [];
  g.names.forEach((nm, s) => {
    const m = d.melds[s];
    const parts = [t("brisques {n}", { n: num(d.brisques[s] ?? 0) })];
    if (d.sevens[s]) parts.push(t("sevens {n}", { n: num(d.sevens[s]) }));
    if (m) parts.push(m);
    bits.push(`${nm}: ${parts.join(", ")}`);
  });
  if (d.last !== null && d.last !== undefined) bits.push(t("last trick {name}", { name: g.names[d.last] }));
  return bits.join(" · ");
}

function renderChart() {
  const g = S.game;
  const box = $("chart");
  if (!g.deals.length) { box.replaceChildren(el("p", { class: "muted", textContent: t("The chart starts with the first deal.") })); return; }
  const NS = "http://www.w3.org/2000/svg";
  const W = Math.max(360, Math.min(900, box.clientWidth || 600)), H = 240, L = 44, R = 12, T = 12, B = 28;
  const series = g.names.map((_, s) => [0, ...g.deals.map((d) => value(d.totals[s]))]);
  const all = series.flat();
  let lo = Math.min(0, ...all), hi = Math.max(0, ...all);
  if (lo === hi) hi = lo + 1;
  const x = (i) => L + (W - L - R) * i / g.deals.length;
  const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("Running totals after each deal"));
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  for (const v of niceTicks(lo, hi)) {  // ticks: whole numbers
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis zero" : "axis" });
    add("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, num(v));
  }
  const step = Math.max(1, Math.ceil(g.deals.length / 10));
  for (let i = step; i <= g.deals.length; i += step) add("text", { x: x(i), y: H - 8, "text-anchor": "middle", class: "tick" }, num(i));
  series.forEach((pts, s) => {
    add("polyline", { points: pts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none",
      stroke: COLOURS[s % 6], "stroke-width": 3, "stroke-linejoin": "round", "data-seat": s });
    add("circle", { cx: x(pts.length - 1), cy: y(pts[pts.length - 1]), r: 4, fill: COLOURS[s % 6] });
  });
  const legend = el("div", { class: "legend" }, ...g.names.map((nm, s) =>
    el("span", { style: `--c:${COLOURS[s % 6]}` }, el("i"), `${nm} ${fmt(g.totals[s])}`)));
  box.replaceChildren(svg, legend);
}

// Whole-number ticks, about five across the range (at least two), a step of 1, 2 or 5 times a power of ten;
// never "-0" (Math.ceil of a small negative ratio gives -0).
function niceTicks(lo, hi) {
  const raw = (hi - lo) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const stepv = Math.max(1, [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw));
  const out = [];
  for (let v = Math.ceil(lo / stepv) * stepv; v <= hi; v += stepv) out.push(Math.round(v) || 0);
  return out;
}

function renderTools() {
  const g = S.game;
  const viewUrl = `${location.origin}/score/view/${g.view_id}`;
  const box = $("tools");
  const copyButton = (label, text, id) => el("button", { type: "button", id, textContent: label, onclick: async (ev) => {
    try { await navigator.clipboard.writeText(text); ev.target.textContent = t("Copied ✓"); }
    catch { prompt(t("Copy this link:"), text); }
  } });
  const parts = [
    el("p", {}, t("For the other players (read-only, updates by itself):"), " ",
      el("a", { href: viewUrl, id: "view-link", textContent: viewUrl })),
    el("div", { class: "share-row" },
      el("img", { src: `/score/view/${g.view_id}/qr.svg`, alt: t("QR code of the read-only link"), class: "qr", width: 168, height: 168 }),
      el("div", {}, el("p", { class: "muted small", textContent: t("The other players scan this with their phones.") }),
        copyButton(t("Copy the read-only link"), viewUrl, "copy-view"),
        navigator.share ? el("button", { type: "button", textContent: t("Share…"), onclick: () =>
          navigator.share({ title: g.title, text: t("The score of our game"), url: viewUrl }).catch(() => {}) }) : "")),
  ];
  if (!S.readOnly) {
    parts.push(el("p", { class: "muted small", textContent:
      t("To keep this game from another of your own devices, open this private link there (it lets the holder change the score: do not share it with the table).") }),
      copyButton(t("Copy my private link"), `${location.origin}/score/${S.id}#key=${S.key}`, "copy-private"));
  }
  parts.push(el("div", { class: "tool-row" },
    el("a", { class: "button", href: `/score/view/${g.view_id}/game.json`, download: "", textContent: t("Export JSON") }),
    el("a", { class: "button", href: `/score/view/${g.view_id}/game.csv`, download: "", textContent: t("Export CSV") }),
    el("a", { class: "button", href: `/score/view/${g.view_id}/sheet.pdf?lang=${lang}`, textContent: t("Print (PDF)") }),
    el("a", { class: "button", href: `/score/view/${g.view_id}/sheet.html?lang=${lang}`, textContent: t("Print (page)") })));
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ which page
const path = location.pathname.replace(/\/+$/, "");
let m;
if ((m = path.match(/^\/score\/view\/([\w-]+)$/))) showView(m[1]);
else if ((m = path.match(/^\/score\/([\w-]+)$/))) showGame(m[1]);
else showHome();
