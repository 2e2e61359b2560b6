// The scorekeeper page: a browser's kept games, a new game, and keeping one game's score deal by deal.
// Every rule lives on the server: the page asks it what the next deal needs (the draft) and shows it;
// the edit key stays in this browser's localStorage (or the link's #key= fragment), never in a path.

import { el } from "./dom.js";
import { SYMBOLS, cardLabel, isRed, rankLabel } from "./cards.js";

const $ = (id) => document.getElementById(id);
const ORDER = ["dealer", "set_aside", "cuts", "contract", "trump", "rank", "doubles", "outcome"];
const STEP_NAMES = { dealer: "Dealer", set_aside: "Set aside", cuts: "Cuts", contract: "Contract", trump: "Trumps",
  rank: "Starting rank", doubles: "Doubles", outcome: "Outcome" };
const COLOURS = ["#1d6f42", "#c8102e", "#1f5fa8", "#d08a00", "#7b3fa0", "#2b8a8a"];
const SUIT_WORDS = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs", none: "No trumps" };

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

async function api(url, body, headers = {}) {
  const init = body === undefined ? { headers } :
    { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
  let r;
  try {
    r = await fetch(url, init);
  } catch {
    throw new ApiError("the server cannot be reached: check the connection and try again", 0);
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new ApiError(data.error || `the request failed (${r.status})`, r.status);
  return data;
}

// Points come as numbers, or as exact fractions "145/2" (italian-six's series): shown as 72½.
const num = (x) => (typeof x === "number" ? x : Number(String(x).split("/")[0]) / Number(String(x).split("/")[1] || 1));
function fmt(x) {
  if (typeof x === "number") return String(x);
  const v = num(x), whole = Math.trunc(v), rest = Math.abs(v - whole);
  const part = Math.abs(rest - .5) < 1e-9 ? "½" : rest ? String(rest.toFixed(2)).slice(1) : "";
  return `${v < 0 && whole === 0 ? "-" : ""}${whole === 0 && part ? "" : whole}${part}`;
}
const signed = (x) => (num(x) > 0 ? `+${fmt(x)}` : fmt(x));

// ------------------------------------------------------------------ home: the list, a new game, an import
let catalogue = [];

async function showHome() {
  $("home").hidden = false;
  document.title = "barbu — keep score";
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
      box.replaceChildren(el("p", { class: "muted", textContent: "No game kept here yet: start one below." }));
      return;
    }
    box.replaceChildren(...games.map(gameRow));
  } catch (e) {
    box.replaceChildren(el("p", { class: "error", textContent: e.message }));
  }
}

function gameRow(g) {
  const when = new Date(g.updated_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  const del = el("button", { type: "button", class: "danger small-button", textContent: "Delete",
    "aria-label": `Delete ${g.title}` });
  del.addEventListener("click", async () => {
    if (!confirm(`Delete "${g.title}" and its ${g.deals} deal(s)? This cannot be undone.`)) return;
    try {
      await api(`/api/score/${g.id}/delete`, { key: loadKey(g.id) });
      localStorage.removeItem(keyName(g.id));
      loadGames();
    } catch (e) { alert(e.message); }
  });
  return el("div", { class: "game-row" },
    el("a", { class: "game-link", href: `/score/${g.id}` },
      el("strong", { textContent: g.title }),
      el("span", { class: "muted small", textContent: `${g.rules} · ${g.deals} deal(s) · ${when}` })),
    del);
}

const preset = () => catalogue.find((p) => p.name === $("new-preset").value);

function presetChanged() {
  const p = preset();
  $("new-description").textContent = p.description;
  $("new-players").replaceChildren(...p.players.map((n) =>
    el("option", { value: n, textContent: `${n} players`, selected: n === p.default_players })));
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
    el("input", { class: "name-input", maxLength: 24, placeholder: `Player ${i + 1}`, value: old[i] || "",
      "aria-label": `Player ${i + 1}'s name`, oninput: firstChips })));
  firstChips();
}

function names() {
  return [...$("new-names").querySelectorAll("input")].map((i, k) => i.value.trim() || `Player ${k + 1}`);
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
  if (file.size > 250_000) { $("import-error").textContent = "this file is too large to be a kept game"; return; }
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
    $("page-error").textContent = "This browser does not hold this game's edit key. Open the link the keeper " +
      "shared for his own devices, or ask for the read-only link.";
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
    if (quiet) { notice(`Not updated: ${e.message}`); return; }
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
      notice(e.message, el("button", { type: "button", class: "primary", textContent: "Reload",
        onclick: () => { S.game = null; reload(); } }));
      S.saveError = "Not saved: " + e.message + " (your entry is kept: reload, then save it again).";
    } else {
      S.saveError = `Not saved: ${e.message}`;  // the entry stays; the button stays, to try again
    }
    renderEntry();
    return false;
  }
}

const playerName = (s) => S.game.names[s] ?? `seat ${s}`;

function renderEntry() {
  const box = $("entry");
  if (S.readOnly || !S.draft) return;
  const need = S.draft.needs;
  const parts = [];
  const title = S.index !== null ? `Correcting deal ${S.index + 1}` :
    need.ask === "over" ? "The game is over" : `Deal ${need.number}`;
  const who = [];
  if (need.ask !== "over" && need.dealer !== null && need.dealer !== undefined) who.push(`${playerName(need.dealer)} deals`);
  if (need.declarer !== null && need.declarer !== undefined && need.declarer !== need.dealer)
    who.push(`${playerName(need.declarer)} chooses`);
  if (need.where) who.push(need.where);
  parts.push(el("div", { class: "entry-head" },
    el("h2", { textContent: title }), el("span", { class: "muted", textContent: who.join(" · ") })));
  if (need.ask === "over") {
    const [[best, top], ...rest] = S.game.standings;
    const tied = rest.filter(([, t]) => t === top).map(([s]) => playerName(s));
    parts.push(el("p", { class: "winner", textContent: tied.length ? `${[playerName(best), ...tied].join(" and ")} share the first place with ${fmt(top)}.` :
      `${playerName(best)} wins with ${fmt(top)}.` }),
      el("p", { textContent: `Final standings: ${S.game.standings.map(([s, t]) => `${playerName(s)} ${fmt(t)}`).join(", ")}.` }));
    box.replaceChildren(...parts);
    return;
  }
  const at = need.ask === "done" ? ORDER.length : ORDER.indexOf(need.ask);
  for (const f of ORDER) {
    if (f === "outcome" || !(f in S.entry) || ORDER.indexOf(f) >= at) continue;
    parts.push(el("div", { class: "answered" },
      el("span", { class: "muted", textContent: STEP_NAMES[f] }),
      el("strong", { textContent: answerText(f, S.entry[f]) }),
      el("button", { type: "button", class: "link-button", textContent: "change", "aria-label": `Change ${STEP_NAMES[f]}`,
        onclick: () => clearFrom(f) })));
  }
  if (need.contract_name && !("contract" in S.entry))  // settled by the Silly Round's cuts
    parts.push(el("div", { class: "answered" }, el("span", { class: "muted", textContent: "Contract" }),
      el("strong", { textContent: need.contract_name }), el("span", { class: "muted small", textContent: "from the cuts" })));
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
      textContent: S.index !== null ? `Save the correction to deal ${S.index + 1}` : `Save deal ${need.number}` });
    save.addEventListener("click", () => send(S.index !== null ? { op: "replace", index: S.index, entry: S.entry } :
      { op: "add", entry: S.entry }));
    actions.append(save);
  }
  if (S.index !== null || Object.keys(S.entry).length)
    actions.append(el("button", { type: "button", textContent: S.index !== null ? "Cancel the correction" : "Start the deal again",
      onclick: startNew }));
  parts.push(actions);
  box.replaceChildren(...parts);
}

function answerText(f, v) {
  if (f === "dealer") return playerName(v);
  if (f === "contract") {
    const need = S.draft && S.draft.needs;
    return (need && need.contract === v && need.contract_name) || contractNames[v] || v;
  }
  if (f === "trump") return v === "none" ? "No trumps" : `${SYMBOLS[v]} ${SUIT_WORDS[v]}`;
  if (f === "rank") return rankLabel(v);
  if (f === "set_aside") return v.split(" ").filter(Boolean).map(cardLabel).join(" ");
  if (f === "cuts") return v.map(cutLabel).join(", ");
  if (f === "doubles") return v.length ? v.map(doubleText).join(", ") : "none";
  return String(v);
}

const contractNames = {};  // key -> name, as the contract step offered them

// A card of the Unused Pack as people say it: 3♠, Joker, Bridge.
const cutLabel = (c) => (/^[2-6][SHDC]$/.test(c) ? `${c[0]}${SYMBOLS[c[1]]}` : c);

function doubleText([a, b, re]) {
  return `${playerName(a)} ${re ? "✕✕" : "✕"} ${playerName(b)}`;
}

function bigButton(text, onclick, attrs = {}) {
  return el("button", { type: "button", class: "chip big-chip", textContent: text, onclick, ...attrs });
}

const STEPS = {
  dealer(step) {
    step.append(el("h3", { textContent: "Who deals? (the draw decides)" }),
      el("div", { class: "chips" }, ...S.game.names.map((n, i) => bigButton(n, () => answer("dealer", i)))));
  },
  set_aside(step, need) {
    const chosen = new Set((S.entry.set_aside || "").split(" ").filter(Boolean));
    const count = el("p", { class: "muted" });
    const next = el("button", { type: "button", class: "primary", textContent: "These are the cards" });
    const refresh = () => {
      count.textContent = `${chosen.size} of ${need.set_aside} card(s) chosen`;
      next.disabled = chosen.size !== need.set_aside;
    };
    const grid = el("div", { class: "card-grid" });
    for (const s of "SHDC") {
      grid.append(el("span", { class: `grid-suit${isRed("A" + s) ? " red" : ""}`, textContent: SYMBOLS[s], "aria-hidden": "true" }));
      for (const r of "AKQJT98765432") {
      const c = r + s;
      const b = el("button", { type: "button", class: `pick-card${isRed(c) ? " red" : ""}`, textContent: rankLabel(r),
        "aria-label": cardLabel(c), "aria-pressed": String(chosen.has(c)), "data-card": c });
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
    step.append(el("h3", { textContent: `The ${need.set_aside} card(s) left out face up` }), grid, count, next);
  },
  cuts(step, need) {
    // The Silly Round: each card cut from the Unused Pack, tapped in order, until the calls and pass-ons are settled.
    const cuts = S.entry.cuts || [];
    const forWhat = need.cut_for === "passes" ? "The next cut settles the passing: black, each player passes 3 cards; red, no (more) passing." :
      need.cut_for === "calls" ? "The next cut is for the calls: 2 Aces, 3 King of hearts, 4 Queens, 5 Hearts, 6 Tricks, Joker all that is left, Bridge Double Patience." : "";
    const pack = [];
    for (const suit of "SHDC") for (const r of "23456") pack.push([r + suit, `${r}${SYMBOLS[suit]}`, isRed(r + suit)]);
    pack.push(["Joker", "Joker", false], ["Bridge", "Bridge", false]);
    step.append(el("h3", { textContent: "The Silly Round: tap each card cut from the Unused Pack, in order" }),
      cuts.length ? el("p", { class: "small", textContent: `Cut so far: ${cuts.map(cutLabel).join(", ")}` }) : "",
      el("p", { class: "muted small", textContent: forWhat }),
      el("div", { class: "cut-grid" }, ...pack.map(([code, label, red]) => el("button", { type: "button",
        class: `pick-card${red ? " red" : ""}`, textContent: label, "data-cut": code,
        onclick: () => answer("cuts", [...(S.entry.cuts || []), code]) }))),
      cuts.length ? el("button", { type: "button", class: "link-button", textContent: "take back the last cut",
        onclick: () => { S.entry.cuts = cuts.slice(0, -1); if (!S.entry.cuts.length) delete S.entry.cuts; redraft(); } }) : "");
  },
  contract(step, need) {
    for (const [k, n] of need.contracts) contractNames[k] = n;
    step.append(el("h3", { textContent: `${playerName(need.declarer ?? need.dealer)} chooses` }),
      el("div", { class: "chips contracts" }, ...need.contracts.map(([k, n]) =>
        bigButton(n, () => answer("contract", k), { "data-contract": k }))));
  },
  trump(step, need) {
    step.append(el("h3", { textContent: "Trumps" }), el("div", { class: "chips suits" }, ...need.trumps.map((t) =>
      bigButton(t === "none" ? "No trumps" : `${SYMBOLS[t]} ${SUIT_WORDS[t]}`, () => answer("trump", t),
        { "data-trump": t, class: `chip big-chip${t === "H" || t === "D" ? " red" : ""}` }))));
  },
  rank(step, need) {
    step.append(el("h3", { textContent: "Starting rank" }), el("div", { class: "chips ranks" }, ...need.ranks.map((r) =>
      bigButton(rankLabel(r), () => answer("rank", r), { "data-rank": r }))));
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
  const head = el("tr", {}, el("th", { textContent: "doubles →" }),
    ...S.game.names.map((nm) => el("th", { scope: "col", textContent: nm })));
  table.append(head);
  const cells = [];
  const owed = need.owed || {};
  for (const [doubler, targets] of Object.entries(need.doublers)) {
    const a = Number(doubler);
    const label = el("th", { scope: "row" }, playerName(a));
    if (owed[doubler]) label.append(el("small", { class: "owed", textContent: `owes ${owed[doubler]}` }));
    const row = el("tr", {}, label);
    for (let b = 0; b < n; b++) {
      const td = el("td");
      if (targets.includes(b)) {
        const btn = el("button", { type: "button", class: "dbl", "data-doubler": a, "data-doubled": b,
          "aria-label": `${playerName(a)} doubles ${playerName(b)}` });
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
    summary.textContent = list.length ? list.map(([a, b, re]) =>
      `${playerName(a)} doubles ${playerName(b)}${re ? ` and ${playerName(b)} redoubles` : ""}`).join("; ") + "." : "No doubles yet.";
    done.textContent = list.length ? "These are the doubles" : "Nobody doubled";
  };
  const done = el("button", { type: "button", class: "primary", id: "doubles-done",
    onclick: () => { const d = S.pendingDoubles || []; S.pendingDoubles = null; answer("doubles", d); } });
  step.append(el("h3", { textContent: "Doubles: tap to double, tap again for a redouble" }),
    el("div", { class: "grid-wrap" }, table), summary,
    Object.keys(owed).length ? el("p", { class: "muted small", textContent:
      "The obligation: " + Object.entries(owed).map(([s, k]) => `${playerName(Number(s))} still owes ${k} double(s) to the declarer`).join("; ") + "." }) : "",
    done);
  paint();
}

// The outcome as the table counts it: one widget per question the rules need.
function outcomeStep(step, need) {
  const qs = need.questions;
  step.append(el("h3", { textContent: "What happened" }));
  for (const q of qs) step.append(question(q));
}

function outcomeComplete(qs) {
  return qs.every((q) => {
    const v = S.outcome[q.key];
    if (q.kind === "counts") return Array.isArray(v) && (q.total === undefined || v.reduce((a, b) => a + b, 0) === q.total);
    if (q.kind === "seat") return Number.isInteger(v);
    if (q.kind === "seats") return Array.isArray(v) && v.length === q.size && v.every(Number.isInteger);
    if (q.kind === "order") return Array.isArray(v) && v.length >= (q.minimum ?? q.size) && v.length <= q.size;
    if (q.kind === "rows") return Array.isArray(v) && v.every((t) => t && t.trim());
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
      left.textContent = rest === 0 ? `all ${q.total} counted` : rest > 0 ? `${rest} of ${q.total} left` : `${-rest} too many (${q.total} in all)`;
      left.dataset.state = rest === 0 ? "ok" : rest > 0 ? "left" : "over";
    };
    names.forEach((nm, s) => {
      const out = el("output", { class: "count", textContent: String(v[s]), "data-seat": s });
      const set = (x) => {
        const most = q.maximum ?? 99;
        v[s] = Math.max(0, Math.min(most, x));
        out.textContent = String(v[s]);
        paintLeft();
        outcomeChanged();
      };
      const rest = () => (q.total === undefined ? 0 : q.total - v.reduce((a, b) => a + b, 0));
      box.append(el("div", { class: "stepper" }, el("span", { class: "who", textContent: nm }),
        el("button", { type: "button", class: "step-btn", textContent: "−", "aria-label": `${nm} one fewer`, "data-seat": s,
          "data-step": "down", onclick: () => set(v[s] - 1) }),
        out,
        el("button", { type: "button", class: "step-btn", textContent: "+", "aria-label": `${nm} one more`, "data-seat": s,
          "data-step": "up", onclick: () => set(v[s] + 1) }),
        q.total !== undefined ? el("button", { type: "button", class: "rest-btn", textContent: "rest", title: "give this player all that is left",
          "aria-label": `${nm} takes the rest`, "data-seat": s, "data-step": "rest", onclick: () => set(v[s] + rest()) }) : ""));
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
      const label = q.size === 1 ? "" : i === q.size - 1 ? "Last trick" : `${q.size - i === 2 ? "Last but one" : `Trick −${q.size - i - 1}`}`;
      box.append(el("div", { class: "seats-row", "data-slot": i }, label ? el("span", { class: "muted small slot", textContent: label }) : "",
        el("div", { class: "chips" }, ...names.map((nm, s) => el("button", { type: "button", class: "chip", textContent: nm,
          "aria-pressed": String(v[i] === s), "data-seat": s, onclick: () => { v[i] = s; outcomeChanged(); } })))));
    }
  } else if (q.kind === "order") {
    const v = S.outcome[q.key] || [];
    S.outcome[q.key] = v;
    const places = el("ol", { class: "order-list" }, ...v.map((s) => el("li", { textContent: names[s] })));
    box.append(el("p", { class: "muted small", textContent: `Tap the players in the order they went out (${q.size} place${q.size > 1 ? "s" : ""}).` }),
      el("div", { class: "chips" }, ...names.map((nm, s) => el("button", { type: "button", class: "chip", textContent: nm,
        disabled: v.includes(s) || v.length >= q.size, "data-seat": s,
        onclick: () => { v.push(s); outcomeChanged(); } }))),
      places,
      v.length ? el("button", { type: "button", class: "link-button", textContent: "clear the order",
        onclick: () => { v.length = 0; outcomeChanged(); } }) : "");
  } else if (q.kind === "rows") {
    const v = S.outcome[q.key] || names.map(() => "");
    S.outcome[q.key] = v;
    names.forEach((nm, s) => {
      const input = el("input", { class: "wide rows-input", value: v[s], placeholder: "AS KS QS JS TS / 9H 8H 7H 6H 5H / 4D 3D 2D",
        "aria-label": `${nm}'s rows`, "data-seat": s });
      // Typed text is kept as it comes; the form is redrawn only once every row is there (focus stays put).
      input.addEventListener("input", () => { v[s] = input.value; });
      input.addEventListener("change", () => { v[s] = input.value; outcomeChanged(false); });
      box.append(el("label", { class: "rows-field" }, el("span", { textContent: nm }), input));
    });
  } else if (q.kind === "yesno") {
    box.append(el("div", { class: "chips" }, ...[[true, "Yes"], [false, "No"]].map(([val, t]) => el("button", { type: "button",
      class: "chip", textContent: t, "aria-pressed": String(S.outcome[q.key] === val),
      onclick: () => { S.outcome[q.key] = val; outcomeChanged(); } }))));
  } else if (q.kind === "melds") {
    const v = S.outcome[q.key] || names.map(() => ({}));
    S.outcome[q.key] = v;
    names.forEach((nm, s) => {
      const list = el("div", { class: "meld-list" });
      for (const [kind, label, points] of q.choices) {
        const out = el("output", { class: "count", textContent: String(v[s][kind] || 0) });
        const set = (x) => {
          x = Math.max(0, Math.min(12, x));
          if (x) v[s][kind] = x; else delete v[s][kind];
          out.textContent = String(x);
          outcomeChanged();
        };
        list.append(el("div", { class: "stepper small-stepper" }, el("span", { class: "who", textContent: `${label} (${points})` }),
          el("button", { type: "button", class: "step-btn", textContent: "−", "aria-label": `${nm}: one ${label} fewer`, onclick: () => set((v[s][kind] || 0) - 1) }),
          out,
          el("button", { type: "button", class: "step-btn", textContent: "+", "aria-label": `${nm}: one more ${label}`, onclick: () => set((v[s][kind] || 0) + 1) })));
      }
      const total = Object.entries(v[s]).reduce((a, [k, c]) => a + c * (q.choices.find((x) => x[0] === k) || [0, 0, 0])[2], 0);
      const det = el("details", { class: "meld-player", open: openMelds.has(s), "data-seat": s },
        el("summary", { textContent: `${nm}'s declarations: ${total} points` }), list);
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
    el("h3", { textContent: d.played === false ? "Not played: the points are shared" : "This deal scores" }),
    el("table", {}, el("tr", {}, el("th"), el("th", { textContent: "deal" }), el("th", { textContent: "total" })), ...rows),
    ...(d.flags || []).map((f) => el("p", { class: "flag", textContent: `⚠ ${f}` })));
}

// ------------------------------------------------------------------ one game: head, sheet, chart, tools
function renderGame() {
  const g = S.game;
  document.title = `${g.title} — barbu score`;
  $("game-title").textContent = g.title;
  $("game-rules").textContent = `${g.rules} · ${g.deals.length} deal(s)${g.total_deals ? ` of ${g.total_deals}` : ""}` +
    (g.over ? " · finished" : "") + (S.readOnly ? " · read-only, updates by itself" : "");
  $("standings").replaceChildren(...g.standings.map(([s, t], i) => el("li", { "data-seat": s },
    el("span", { class: "place", textContent: `${i + 1}` }), el("span", { class: "who", textContent: g.names[s] }),
    el("strong", { class: "total", textContent: fmt(t) }))));
  const tools = $("head-tools");
  tools.replaceChildren();
  if (!S.readOnly) {
    tools.append(el("button", { type: "button", id: "rename", class: "link-button", textContent: "rename",
      onclick: async () => {
        const title = prompt("A name for this game:", g.title);
        if (title && title.trim() && title.trim() !== g.title) await send({ op: "title", title: title.trim() });
      } }));
    const what = g.undo_text || "";
    tools.append(el("button", { type: "button", id: "undo", textContent: "↶ Undo", disabled: !g.undo,
      title: what || "nothing to undo", "aria-label": what ? `Undo: ${what}` : "Undo",
      onclick: async () => { if (await send({ op: "undo" })) notice(`Done: ${what}.`); } }));
  } else {
    tools.append(el("button", { type: "button", textContent: "↻ Refresh", onclick: () => reload(true) }));
  }
  renderSheet();
  renderChart();
  renderTools();
}

function blocks(g) {
  // As on paper: the Barbu families in a block per dealer; the Scottish game by Set and Round; Bésigue deal by deal.
  const out = new Map();
  g.deals.forEach((d, i) => {
    const key = g.game === "besigue" ? "all" : d.where ? d.where : `${d.dealer}`;
    const title = g.game === "besigue" ? "" : d.where ? d.where : `${g.names[d.dealer]} deals`;
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
  const head = el("thead", {}, el("tr", {}, el("th", { class: "what", textContent: "Deal" }),
    ...g.names.map((nm, s) => el("th", { scope: "col", style: `--c:${COLOURS[s % 6]}` }, nm))));
  const bodies = [];
  for (const b of blocks(g)) {
    const tb = el("tbody");
    if (b.title) tb.append(el("tr", { class: "block" }, el("th", { colSpan: n + 1, textContent: b.title })));
    for (const [d, i] of b.deals) {
      const what = el("td", { class: "what" }, el("span", { class: "no", textContent: String(d.number) }), " ",
        el("span", { class: "cname", textContent: dealName(g, d) }));
      if (d.doubles && d.doubles.length) what.append(el("small", { class: "dbls", textContent: d.doubles.map(doubleText).join(" · ") }));
      for (const [call, parts] of (d.calls || []).length > 1 ? d.calls : []) {  // a combination: each call's points
        const hit = parts.map((x, s) => [x, s]).filter(([x]) => num(x) !== 0);
        what.append(el("small", { class: "muted", textContent: `${call}: ${hit.length ? hit.map(([x, s]) => `${g.names[s]} ${x}`).join(", ") : "0"}` }));
      }
      if (d.series) what.append(el("small", { class: "muted", textContent:
        `series: ${d.series.map((x, s) => [x, s]).filter(([x]) => num(x) !== 0).map(([x, s]) => `${g.names[s]} ${signed(x)}`).join(", ") || "0"}` }));
      if (d.played === false) what.append(el("small", { class: "muted", textContent: "not played: shared" }));
      if (g.game === "besigue") what.append(el("small", { class: "muted", textContent: besigueDetail(g, d) }));
      const flags = d.flags.filter((f) => !f.startsWith("not played"));  // said in the row already
      const row = el("tr", { class: `deal${flags.length ? " flagged" : ""}${S.picked === i ? " picked" : ""}`, "data-index": i },
        what, ...d.scores.map((x, s) => el("td", { class: `num${num(x) < 0 ? " neg" : ""}` },
          el("span", { class: "pts", textContent: signed(x) }), el("small", { class: "run", textContent: fmt(d.totals[s]) }))));
      if (!S.readOnly) {
        row.tabIndex = 0;
        row.title = `Deal ${d.number}: tap to correct or delete it`;
        row.addEventListener("click", () => { S.picked = S.picked === i ? null : i; renderSheet(); });
        row.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); row.click(); }
        });
      }
      tb.append(row);
      if (d.glyphs && d.glyphs.length)
        tb.append(el("tr", { class: "glyphs" }, el("td", { colSpan: n + 1 }, ...d.glyphs.map((gl) =>
          el("span", { class: "glyph", textContent: `${gl.name}${gl.call ? ` (${gl.call})` : ""} — ${g.names[gl.seat]}` })))));
      for (const f of flags) tb.append(el("tr", { class: "flag-row" }, el("td", { colSpan: n + 1, textContent: `⚠ ${f}` })));
      if (S.picked === i && !S.readOnly) {
        tb.append(el("tr", { class: "row-actions" }, el("td", { colSpan: n + 1 },
          el("button", { type: "button", class: "primary", textContent: `Correct deal ${d.number}`, onclick: () => startEdit(i) }),
          el("button", { type: "button", class: "danger", textContent: `Delete deal ${d.number}`, onclick: () => {
            if (confirm(`Delete deal ${d.number}? The deals after it move up and are scored again.`)) send({ op: "delete", index: i });
          } }),
          el("button", { type: "button", textContent: "Close", onclick: () => { S.picked = null; renderSheet(); } }))));
      }
    }
    const left = b.seat !== null && g.left && !g.over ? g.left[b.seat] : [];
    if (left.length)
      tb.append(el("tr", { class: "left-row" }, el("td", { colSpan: n + 1, textContent: `Still to choose: ${left.join(", ")}` })));
    bodies.push(tb);
  }
  const foot = el("tfoot", {}, el("tr", {}, el("th", { class: "what", textContent: "Total" }),
    ...g.totals.map((t) => el("td", { class: "num total", textContent: fmt(t) }))));
  if (!g.deals.length) bodies.push(el("tbody", {}, el("tr", {}, el("td", { colSpan: n + 1, class: "muted empty", textContent: "No deal yet." }))));
  table.replaceChildren(head, ...bodies, foot);
  const doubled = g.deals.some((d) => d.doubles && d.doubles.length);
  $("sheet-legend").textContent = (doubled ? "✕ a double, ✕✕ a redouble (doubler first). " : "") +
    "Big: the deal's points; small: the running total." + (S.readOnly ? "" : " Tap a deal to correct or delete it.");
}

function dealName(g, d) {
  if (g.game === "besigue") return `${g.names[d.dealer]} dealt`;
  let t = d.name;
  if (d.trump) t += ` ${SYMBOLS[d.trump]}`;
  if (d.rank) t += ` from ${rankLabel(d.rank)}`;
  if (d.where || d.declarer !== d.dealer) t = `${g.names[d.declarer]}: ${t}`;
  return t;
}

function besigueDetail(g, d) {
  const bits = [];
  g.names.forEach((nm, s) => {
    const m = d.melds[s];
    bits.push(`${nm}: brisques ${d.brisques[s] ?? 0}${d.sevens[s] ? `, sevens ${d.sevens[s]}` : ""}${m ? `, ${m}` : ""}`);
  });
  if (d.last !== null && d.last !== undefined) bits.push(`last trick ${g.names[d.last]}`);
  return bits.join(" · ");
}

function renderChart() {
  const g = S.game;
  const box = $("chart");
  if (!g.deals.length) { box.replaceChildren(el("p", { class: "muted", textContent: "The chart starts with the first deal." })); return; }
  const NS = "http://www.w3.org/2000/svg";
  const W = Math.max(360, Math.min(900, box.clientWidth || 600)), H = 240, L = 44, R = 12, T = 12, B = 28;
  const series = g.names.map((_, s) => [0, ...g.deals.map((d) => num(d.totals[s]))]);
  const all = series.flat();
  let lo = Math.min(0, ...all), hi = Math.max(0, ...all);
  if (lo === hi) hi = lo + 1;
  const x = (i) => L + (W - L - R) * i / g.deals.length;
  const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Running totals after each deal");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  for (const v of niceTicks(lo, hi)) {  // ticks: whole numbers
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis zero" : "axis" });
    add("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v));
  }
  const step = Math.max(1, Math.ceil(g.deals.length / 10));
  for (let i = step; i <= g.deals.length; i += step) add("text", { x: x(i), y: H - 8, "text-anchor": "middle", class: "tick" }, String(i));
  series.forEach((pts, s) => {
    add("polyline", { points: pts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none",
      stroke: COLOURS[s % 6], "stroke-width": 3, "stroke-linejoin": "round", "data-seat": s });
    add("circle", { cx: x(pts.length - 1), cy: y(pts[pts.length - 1]), r: 4, fill: COLOURS[s % 6] });
  });
  const legend = el("div", { class: "legend" }, ...g.names.map((nm, s) =>
    el("span", { style: `--c:${COLOURS[s % 6]}` }, el("i"), `${nm} ${fmt(g.totals[s])}`)));
  box.replaceChildren(svg, legend);
}

function niceTicks(lo, hi) {
  const span = hi - lo;
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const stepv = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / stepv) * stepv; v <= hi; v += stepv) out.push(Math.round(v));
  return out;
}

function renderTools() {
  const g = S.game;
  const viewUrl = `${location.origin}/score/view/${g.view_id}`;
  const box = $("tools");
  const copyButton = (label, text, id) => el("button", { type: "button", id, textContent: label, onclick: async (ev) => {
    try { await navigator.clipboard.writeText(text); ev.target.textContent = "Copied ✓"; }
    catch { prompt("Copy this link:", text); }
  } });
  const parts = [
    el("p", {}, "For the other players (read-only, updates by itself): ",
      el("a", { href: viewUrl, id: "view-link", textContent: viewUrl })),
    el("div", { class: "share-row" },
      el("img", { src: `/score/view/${g.view_id}/qr.svg`, alt: "QR code of the read-only link", class: "qr", width: 168, height: 168 }),
      el("div", {}, el("p", { class: "muted small", textContent: "The other players scan this with their phones." }),
        copyButton("Copy the read-only link", viewUrl, "copy-view"),
        navigator.share ? el("button", { type: "button", textContent: "Share…", onclick: () =>
          navigator.share({ title: g.title, text: "The score of our game", url: viewUrl }).catch(() => {}) }) : "")),
  ];
  if (!S.readOnly) {
    parts.push(el("p", { class: "muted small", textContent:
      "To keep this game from another of your own devices, open this private link there (it lets the holder change the score: do not share it with the table)." }),
      copyButton("Copy my private link", `${location.origin}/score/${S.id}#key=${S.key}`, "copy-private"));
  }
  parts.push(el("div", { class: "tool-row" },
    el("a", { class: "button", href: `/score/view/${g.view_id}/game.json`, download: "", textContent: "Export JSON" }),
    el("a", { class: "button", href: `/score/view/${g.view_id}/game.csv`, download: "", textContent: "Export CSV" }),
    el("a", { class: "button", href: `/score/view/${g.view_id}/sheet.pdf`, textContent: "Print (PDF)" }),
    el("a", { class: "button", href: `/score/view/${g.view_id}/sheet.html`, textContent: "Print (page)" })));
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ which page
const path = location.pathname.replace(/\/+$/, "");
let m;
if ((m = path.match(/^\/score\/view\/([\w-]+)$/))) showView(m[1]);
else if ((m = path.match(/^\/score\/([\w-]+)$/))) showGame(m[1]);
else showHome();
