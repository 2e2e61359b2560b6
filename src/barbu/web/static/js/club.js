// A club's page (templates/club.html), from GET /api/clubs/<slug>: the club, its tables (refreshed like the
// lobby's) and a form for a new one, the season's leaderboard and the past seasons', its members with their
// ratings, its past matches; for the owner and the admins, the invitation links and the members' roles; for the
// owner, closing the season, the settings and deleting the club.  Every refusal is the server's own sentence.
import { el } from "./dom.js";
import { num, t, tn } from "./i18n.js";
import { postJSON, saveCreator } from "./net.js";
import { computerName, presetName, rulesTitle } from "./tablewords.js";
import { dealProgress, playersLine, seatLine } from "./tablerows.js";
import { longDate, ratingChip, shortMoment } from "./playerwords.js";
import { eventCard } from "./events.js";

const $ = (id) => document.getElementById(id);
const slug = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const api = `/api/clubs/${encodeURIComponent(slug)}`;
const CLOCKS = ["relaxed", "normal", "quick", "none"];
const TURN_CLOCKS = ["hours", "day", "days"];
let data = null; // the club as last read
let catalogue = []; // the games a table may be made for (GET /api/options)
let shownSeason = null; // the season whose leaderboard is shown

function roleName(role) {
  return { owner: t("owner"), admin: t("admin"), member: t("member") }[role] || role;
}

function kindTag(club) {
  return el("span", { class: club.public ? "tag public" : "tag private", textContent: club.public ? t("Public") : t("Private") });
}

function note(text) {
  $("club-note").textContent = text;
  $("club-note").hidden = !text;
}

// A button's action: greyed while the server answers, the refusal in `errorBox`, then the page read again.
async function act(button, errorBox, send) {
  $(errorBox).textContent = "";
  if (button) button.disabled = true;
  try {
    const said = await send();
    if (said) note(said);
    await load();
  } catch (e) {
    $(errorBox).textContent = e.message;
  } finally {
    if (button) button.disabled = false;
  }
}

// ------------------------------------------------------------------ the club
function showHead(d) {
  const c = d.club;
  document.title = t("barbu — {name}", { name: c.name });
  $("club-title").textContent = c.name;
  $("club-kind").replaceWith(Object.assign(kindTag(c), { id: "club-kind" }));
  $("club-count").textContent = tn("{n} member", "{n} members", c.members);
  $("club-role").textContent = d.role ? t("you: {role}", { role: roleName(d.role) }) : "";
  $("club-role").hidden = !d.role;
  $("club-description").textContent = c.description;
  $("club-description").hidden = !c.description;
  $("leave").hidden = !d.role || d.role === "owner";
}

// ------------------------------------------------------------------ tables
function tableRow(tb) {
  const seats = el("div", { class: "seat-list" }, ...tb.seats.map((s) => seatLine(s, data && s.kind === "human" && s.name === data.you)));
  let status;
  if (tb.status === "open") status = tn("{n} free seat", "{n} free seats", tb.open_seats);
  else status = tb.deal_number ? dealProgress(tb) : t("being played");
  const marks = [];
  if (tb.rated) marks.push(el("span", { class: "rated-mark", textContent: t("Rated") }));
  if (tb.turn_based) marks.push(el("span", { class: "tag", textContent: t("turn-based") }));
  const seated = data && tb.seats.some((s) => s.kind === "human" && s.name === data.you);
  let label = tb.open_seats ? t("Join") : t("Watch");
  if (seated) label = t("Back to your seat");
  return el("div", { class: "table-row", "data-table": tb.id },
    el("div", {}, el("strong", { textContent: rulesTitle(tb.rules), title: tb.rules }), " ", ...marks, " ",
      el("span", { class: "muted", textContent: playersLine(tb, status) })),
    seats,
    el("div", { class: "row-actions" },
      el("a", { href: `/t/${tb.id}`, class: "button" + (tb.open_seats || seated ? " primary" : ""), "data-join": tb.id,
        textContent: label })));
}

function showTables(tables) {
  $("club-tables").replaceChildren(...(tables.length ? tables.map(tableRow)
    : [el("p", { class: "empty", textContent: data && data.role ? t("No club table is open: create one below.")
      : t("No club table is open.") })]));
}

async function refreshTables() {
  if (document.hidden || !data) return;
  try {
    const r = await fetch(`${api}/tables`, { cache: "no-store" });
    if (r.ok) showTables((await r.json()).tables);
  } catch { /* the next round tries again */ }
}

// The new table's form: the games of the lobby, their player counts, rated or not, real-time or turn-based.
function showGame() {
  const p = catalogue.find((g) => g.name === $("table-game").value);
  if (!p) return;
  $("table-players").replaceChildren(...p.players.map((n) => el("option", { value: n, textContent: num(n), selected: n === p.default_players })));
  $("table-players").disabled = p.players.length === 1;
}

function showClocks() {
  const turns = $("table-turns").checked;
  const names = turns ? TURN_CLOCKS : CLOCKS;
  const words = { relaxed: t("Relaxed"), normal: t("Normal"), quick: t("Quick"), none: t("No clock"),
    hours: t("8 hours a move"), day: t("1 day a move"), days: t("3 days a move") };
  $("table-clock").replaceChildren(...names.map((n) => el("option", { value: n, textContent: words[n],
    selected: n === (turns ? "day" : "normal") })));
}

async function loadGames() {
  try {
    const r = await fetch("/api/options");
    catalogue = (await r.json()).presets;
  } catch {
    return;
  }
  $("table-game").replaceChildren(...catalogue.map((p) => el("option", { value: p.name, textContent: presetName(p.name) })));
  showGame();
  showClocks();
}

function wireTableForm() {
  $("table-game").addEventListener("change", showGame);
  $("table-turns").addEventListener("change", showClocks);
  $("table-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("table-error").textContent = "";
    $("table-create").disabled = true;
    try {
      const made = await postJSON(`${api}/tables`, { rules: $("table-game").value, players: Number($("table-players").value),
        rated: $("table-rated").checked, turn_based: $("table-turns").checked, clock: $("table-clock").value });
      saveCreator(made.id, made.creator); // lets this browser seat computer players there, and remove players
      location.href = made.url;
    } catch (e) {
      $("table-error").textContent = e.message;
      $("table-create").disabled = false;
    }
  });
}

// ------------------------------------------------------------------ the leaderboard
function seasonLine(s) {
  return s.ended ? t("Season {n}: from {start} to {end}", { n: num(s.number), start: longDate(s.started.slice(0, 10)), end: longDate(s.ended.slice(0, 10)) })
    : t("Season {n}, since {start}: the current season", { n: num(s.number), start: longDate(s.started.slice(0, 10)) });
}

function boardTable(g, you) {
  const cols = ["rank", "who", "num", "num", "num won", "num"];
  const head = el("tr", {}, ...["#", t("Player"), t("Rating"), t("Matches"), t("Won"), t("Mean place")]
    .map((h, i) => el("th", { scope: "col", class: cols[i], textContent: h, title: i ? null : t("Rank") })));
  const rows = g.players.map((p) => el("tr", { class: p.name === you ? "mine" : "", "data-player": p.name },
    el("td", { class: "rank", textContent: num(p.rank) }),
    el("td", { class: "who" }, el("a", { href: p.profile, textContent: p.name })),
    el("td", { class: "num" }, ratingChip(p, "club-rating")),
    el("td", { class: "num", textContent: num(p.matches) }),
    el("td", { class: "num won", textContent: num(p.wins) }),
    el("td", { class: "num", textContent: num(p.mean_place) })));
  return el("div", { class: "table-wrap" }, el("table", { class: "board-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

function showBoard(board, minimum, season) {
  $("season-line").textContent = seasonLine(season);
  const you = data && data.you;
  if (!board.length) {
    $("board").replaceChildren(el("p", { class: "empty", textContent: season.ended ? t("No rated match was played at the club's tables that season.")
      : t("No rated match at the club's tables this season yet: create a rated club table, and every rated match played there counts.") }));
    return;
  }
  const parts = [el("p", { class: "muted small", textContent: tn("A rating over the season's rated matches at the club's tables, from a fresh start; “?” marks a provisional figure. Players are ranked after {n} rated match.",
    "A rating over the season's rated matches at the club's tables, from a fresh start; “?” marks a provisional figure. Players are ranked after {n} rated matches.", minimum) })];
  for (const g of board) {
    const box = el("section", { class: "board-game", "data-game": g.game }, el("h3", { textContent: presetName(g.game) }));
    if (g.players.length) box.append(boardTable(g, you));
    else box.append(el("p", { class: "empty", textContent: t("Nobody has played enough rated matches to be ranked yet.") }));
    if (g.unranked.length) {
      box.append(el("p", { class: "unranked muted small" }, t("Not ranked yet:") + " ",
        g.unranked.map((p) => t("{name} ({matches})", { name: p.name, matches: tn("{n} match", "{n} matches", p.matches) })).join(", ")));
    }
    parts.push(box);
  }
  $("board").replaceChildren(...parts);
}

async function pickSeason() {
  const n = Number($("season-select").value);
  shownSeason = n;
  if (n === data.season.number) {
    showBoard(data.board, data.board_min, data.season);
    return;
  }
  try {
    const r = await fetch(`${api}/seasons/${n}`, { cache: "no-store" });
    const past = await r.json();
    if (!r.ok) throw new Error(past.error);
    if (shownSeason === n) showBoard(past.board, past.board_min, past.season);
  } catch (e) {
    $("season-error").textContent = e.message || "";
  }
}

function showSeasons(d) {
  const keep = shownSeason && d.seasons.some((s) => s.number === shownSeason) ? shownSeason : d.season.number;
  $("season-select").replaceChildren(...[...d.seasons].reverse().map((s) => el("option", { value: s.number, selected: s.number === keep,
    textContent: s.ended ? t("Season {n}", { n: num(s.number) }) : t("Season {n} (current)", { n: num(s.number) }) })));
  $("season-select").disabled = d.seasons.length < 2;
  $("season-close").hidden = d.role !== "owner";
  $("close-season").textContent = t("Close season {n} and begin season {next}", { n: num(d.season.number), next: num(d.season.number + 1) });
  $("close-question").textContent = t("Close season {n}? Its leaderboard is kept as it stands, and season {next} begins from nothing.",
    { n: num(d.season.number), next: num(d.season.number + 1) });
  $("close-yes").textContent = t("Close season {n}", { n: num(d.season.number) });
  if (keep === d.season.number) {
    shownSeason = keep;
    showBoard(d.board, d.board_min, d.season);
  } else {
    pickSeason();
  }
}

// ------------------------------------------------------------------ members
function memberRow(m, d) {
  const row = el("div", { class: "member-row", "data-member": m.name });
  const who = el("div", { class: "member-who" },
    el("a", { href: m.profile, class: "member-name", textContent: m.name }), " ",
    el("span", { class: `tag role ${m.role}`, textContent: roleName(m.role) }));
  const games = Object.keys(m.ratings).sort((a, b) => d.games.indexOf(a) - d.games.indexOf(b));
  const figures = el("div", { class: "member-ratings" }, ...games.map((g) => el("span", { class: "member-rating", "data-game": g },
    el("span", { class: "muted", textContent: presetName(g) }), " ", ratingChip(m.ratings[g], "club-rating"))));
  const since = el("div", { class: "muted small", textContent: t("joined {date}", { date: longDate(m.joined.slice(0, 10)) }) });
  row.append(el("div", { class: "member-main" }, who, figures, since));
  const actions = el("div", { class: "row-actions member-actions" });
  const mine = d.role;
  if (d.you && m.name !== d.you) { // challenge him to a table (templates/challenge.html)
    actions.append(el("a", { class: "button", href: `/challenges/new?to=${encodeURIComponent(m.name)}`, textContent: t("Challenge") }));
  }
  if (m.name !== d.you && m.role !== "owner") {
    if (mine === "owner") {
      const next = m.role === "admin" ? "member" : "admin";
      actions.append(el("button", { type: "button", "data-role": next, textContent: next === "admin" ? t("Make admin") : t("Make member"),
        onclick: (ev) => act(ev.currentTarget, "members-error", () => postJSON(`${api}/role`, { member: m.name, role: next })) }));
      actions.append(confirming(t("Hand over"), t("Hand the club over to {name}? You stay an admin.", { name: m.name }),
        t("Hand it over"), "data-owner", () => postJSON(`${api}/owner`, { member: m.name })
          .then(() => t("{name} owns the club now; you are an admin.", { name: m.name }))));
    }
    if (mine === "owner" || (mine === "admin" && m.role === "member")) {
      actions.append(confirming(t("Remove"), t("Remove {name} from the club?", { name: m.name }), t("Remove"), "data-remove",
        () => postJSON(`${api}/remove`, { member: m.name }).then(() => t("{name} is no longer a member.", { name: m.name }))));
    }
  }
  if (actions.childElementCount) row.append(actions);
  return row;
}

// A button that asks first: clicked, it shows the question with a confirming button and Cancel beside it.
function confirming(label, question, yes, attr, send) {
  const box = el("span", { class: "confirming" });
  const start = el("button", { type: "button", textContent: label, [attr]: "1" });
  const ask = el("span", { class: "confirm-line", role: "alertdialog", hidden: true },
    el("span", { textContent: question }), " ",
    el("button", { type: "button", class: "danger strong", textContent: yes, [`${attr}-yes`]: "1",
      onclick: (ev) => act(ev.currentTarget, "members-error", send) }), " ",
    el("button", { type: "button", textContent: t("Cancel"), onclick: () => { ask.hidden = true; start.hidden = false; start.focus(); } }));
  start.addEventListener("click", () => { start.hidden = true; ask.hidden = false; ask.querySelector("button").focus(); });
  box.append(start, ask);
  return box;
}

function showMembers(d) {
  $("members-help").hidden = !d.members.some((m) => Object.keys(m.ratings).length);
  $("members").replaceChildren(...d.members.map((m) => memberRow(m, d)));
}

// ------------------------------------------------------------------ invitation links
function inviteRow(i) {
  let state;
  if (i.expired) state = t("expired");
  else if (i.expires) state = t("works until {moment}", { moment: shortMoment(i.expires) });
  else state = t("works until revoked");
  const facts = [t("made by {name} on {moment}", { name: i.by || t("a deleted player"), moment: shortMoment(i.created) }), state,
    tn("used {n} time", "used {n} times", i.uses)];
  const expiry = el("select", { "aria-label": t("Change how long it works"), "data-expiry": i.id },
    el("option", { value: "", textContent: t("New expiry…"), selected: true }),
    el("option", { value: "24", textContent: t("1 day from now") }),
    el("option", { value: "168", textContent: t("7 days from now") }),
    el("option", { value: "720", textContent: t("30 days from now") }),
    el("option", { value: "never", textContent: t("until revoked") }));
  expiry.addEventListener("change", () => {
    if (!expiry.value) return;
    const hours = expiry.value === "never" ? null : Number(expiry.value);
    act(expiry, "invite-error", () => postJSON(`${api}/invites/${i.id}/expiry`, { hours }));
  });
  return el("div", { class: "invite-row" + (i.expired ? " expired" : ""), "data-invite": i.id },
    el("div", {}, el("strong", { textContent: t("Link {n}", { n: num(i.id) }) }), " ",
      el("span", { class: "muted small", textContent: facts.join(" · ") })),
    el("div", { class: "row-actions" }, expiry,
      el("button", { type: "button", class: "danger", "data-revoke": i.id, textContent: t("Revoke"),
        onclick: (ev) => act(ev.currentTarget, "invite-error", () => postJSON(`${api}/invites/${i.id}/revoke`, {})
          .then(() => t("The link is revoked: it no longer lets anyone join."))) })));
}

function showInvites(d) {
  const invites = d.invites || [];
  $("invites").replaceChildren(...(invites.length ? invites.map(inviteRow)
    : [el("p", { class: "empty", textContent: t("No link yet: make one and send it to the people you want in the club.") })]));
}

function wireInvites() {
  $("invite-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("invite-error").textContent = "";
    $("invite-create").disabled = true;
    try {
      const v = $("invite-hours").value;
      const made = await postJSON(`${api}/invites`, { hours: v ? Number(v) : null });
      $("invite-link").value = location.origin + made.url;
      $("invite-new").hidden = false;
      await load();
      $("invite-link").select();
    } catch (e) {
      $("invite-error").textContent = e.message;
    } finally {
      $("invite-create").disabled = false;
    }
  });
  $("invite-copy").addEventListener("click", async () => {
    $("invite-link").select();
    try {
      await navigator.clipboard.writeText($("invite-link").value);
      $("invite-copy").textContent = t("Copied");
    } catch {
      document.execCommand("copy");
    }
  });
}

// ------------------------------------------------------------------ past matches
// A match's computer players are named by their places from its first person's chair ("West, good player").
function chairOf(m) {
  const person = m.seats.find((x) => !x.computer);
  return person ? person.seat : 0;
}

function seatChip(s, m) {
  let name;
  if (s.deleted) name = el("em", { textContent: t("a deleted player") });
  else if (s.computer) name = computerName(s.seat, chairOf(m), m.players, s.strength);
  else if (s.account) name = el("a", { href: `/u/${encodeURIComponent(s.account)}`, textContent: s.account });
  else name = s.name;
  const chip = el("span", { class: "seat-chip", "data-seat": s.seat },
    el("span", { class: "place", textContent: `${num(s.place)}.` }), " ", name, " ",
    el("span", { class: "points", textContent: num(s.points) }));
  if (s.left) chip.append(" ", el("span", { class: "muted", textContent: t("(left early)") }));
  return chip;
}

function matchRow(m) {
  const head = el("div", { class: "match-head" },
    el("strong", { textContent: rulesTitle(m.rules), title: m.rules }), " ",
    el("span", { class: "muted", textContent: shortMoment(m.finished) }), " ",
    m.rated ? el("span", { class: "tag rated", textContent: t("rated") }) : el("span", { class: "tag", textContent: t("not rated") }));
  const seats = el("div", { class: "seat-list" }, ...[...m.seats].sort((a, b) => a.place - b.place || a.seat - b.seat).map((x) => seatChip(x, m)));
  return el("article", { class: "match-row", "data-match": m.table },
    el("div", { class: "match-main" }, head, seats),
    el("div", { class: "row-actions" }, el("a", { class: "button", href: m.replay, "data-replay": m.table, textContent: t("Replay") })));
}

function showMatches(matches, more, append = false) {
  const rows = matches.map(matchRow);
  if (append) $("matches").append(...rows);
  else $("matches").replaceChildren(...(rows.length ? rows : [el("p", { class: "empty", textContent: t("No finished match at the club's tables yet.") })]));
  $("more-matches").hidden = !more;
  $("more-matches").dataset.before = matches.length ? matches[matches.length - 1].finished : "";
}

// ------------------------------------------------------------------ the owner's settings
function showSettings(d) {
  $("settings-panel").hidden = d.role !== "owner";
  if (d.role !== "owner" || document.activeElement === $("settings-description")) return;
  $("settings-description").value = d.club.description;
  $("settings-private").checked = !d.club.public;
}

function wireSettings() {
  $("settings-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    $("settings-done").textContent = "";
    act($("settings-save"), "settings-error", async () => {
      await postJSON(`${api}/edit`, { description: $("settings-description").value, public: !$("settings-private").checked });
      $("settings-done").textContent = t("Saved.");
    });
  });
  $("delete-start").addEventListener("click", () => {
    $("delete-form").hidden = false;
    $("delete-start").hidden = true;
    $("delete-name").focus();
  });
  $("delete-cancel").addEventListener("click", () => {
    $("delete-form").hidden = true;
    $("delete-start").hidden = false;
    $("delete-name").value = "";
  });
  $("delete-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("delete-error").textContent = "";
    $("delete-yes").disabled = true;
    try {
      await postJSON(`${api}/delete`, { name: $("delete-name").value });
      location.href = `/clubs?deleted=${encodeURIComponent(data.club.name)}`;
    } catch (e) {
      $("delete-error").textContent = e.message;
      $("delete-yes").disabled = false;
    }
  });
}

// ------------------------------------------------------------------ the page
async function load() {
  let r;
  try {
    r = await fetch(api, { cache: "no-store" });
  } catch {
    $("club-error").textContent = t("The server cannot be reached; try again in a moment.");
    return;
  }
  $("club-loading").hidden = true;
  const d = await r.json().catch(() => ({}));
  if (r.status === 404) { // deleted, or no longer visible to this reader (left a private club)
    location.replace(location.pathname);
    return;
  }
  if (!r.ok) {
    $("club-error").textContent = d.error || t("request failed ({status})", { status: r.status });
    return;
  }
  data = d;
  $("club").dataset.role = d.role || "";
  showHead(d);
  showTables(d.tables);
  $("new-table").hidden = !d.role;
  showSeasons(d);
  showMembers(d);
  $("invites-panel").hidden = !(d.role === "owner" || d.role === "admin");
  if (!$("invites-panel").hidden) showInvites(d);
  showMatches(d.matches, d.more_matches);
  showSettings(d);
  for (const id of ["head-panel", "tables-panel", "board-panel", "members-panel", "matches-panel"]) $(id).hidden = false;
  $("club").dataset.loaded = "1";
}

$("leave").addEventListener("click", () => {
  $("leave").hidden = true;
  const ask = el("span", { class: "confirm-line", role: "alertdialog" }, t("Leave the club?"), " ",
    el("button", { type: "button", class: "danger strong", id: "leave-yes", textContent: t("Leave"), onclick: async (ev) => {
      ev.currentTarget.disabled = true;
      try {
        await postJSON(`${api}/leave`, {});
        location.href = "/clubs";
      } catch (e) {
        $("head-error").textContent = e.message;
        ev.currentTarget.disabled = false;
      }
    } }), " ",
    el("button", { type: "button", textContent: t("Cancel"), onclick: () => { ask.remove(); $("leave").hidden = false; } }));
  $("head-actions").append(ask);
});
$("season-select").addEventListener("change", pickSeason);
$("close-season").addEventListener("click", () => {
  $("close-confirm").hidden = false;
  $("close-season").hidden = true;
  $("close-yes").focus();
});
$("close-no").addEventListener("click", () => {
  $("close-confirm").hidden = true;
  $("close-season").hidden = false;
});
$("close-yes").addEventListener("click", () => act($("close-yes"), "season-error", async () => {
  const closed = data.season.number;
  const done = await postJSON(`${api}/season`, { season: closed });
  $("close-confirm").hidden = true;
  $("close-season").hidden = false;
  shownSeason = done.season.number;
  return t("Season {n} is closed and kept; season {next} begins now.", { n: num(closed), next: num(done.season.number) });
}));
$("more-matches").addEventListener("click", async () => {
  const before = $("more-matches").dataset.before;
  try {
    const r = await fetch(`${api}/matches?before=${encodeURIComponent(before)}`, { cache: "no-store" });
    const older = await r.json();
    if (r.ok) showMatches(older.matches, older.more_matches, true);
  } catch { /* the button stays for another try */ }
});
wireTableForm();
wireInvites();
wireSettings();
loadGames();
load();
setInterval(refreshTables, 5000);

// The club's duplicate events (static/js/events.js): upcoming and running first, then the latest past ones; its
// owner and admins are pointed to the form that makes one.
async function loadEvents() {
  try {
    const r = await fetch(`/api/events?club=${encodeURIComponent(slug)}`, { cache: "no-store" });
    if (!r.ok) return;
    const d = await r.json();
    const list = [...d.running, ...d.upcoming, ...d.past.slice(0, 3)];
    const role = $("club").dataset.role;
    const directs = role === "owner" || role === "admin";
    $("club-event-new").hidden = !directs;
    $("club-event-new").href = `/events?club=${encodeURIComponent(slug)}#create-panel`;
    $("club-events-panel").hidden = !list.length && !directs;
    $("club-events").replaceChildren(...list.map((e) => eventCard({ ...e, club: null }))); // its club is this one
  } catch {
    // the page works without its events
  }
}
// once the page knows the reader's role (whether to offer the form)
(function whenLoaded() {
  if ($("club").dataset.loaded) loadEvents();
  else setTimeout(whenLoaded, 200);
})();
setInterval(loadEvents, 30000);
