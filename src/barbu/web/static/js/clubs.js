// The clubs page (templates/clubs.html), from GET /api/clubs: the player's own clubs, the public ones, and the form
// that creates a club.  At /clubs/join#key=… (an invitation link) it shows what the link invites to and joins: the
// key stays after the "#", so it travels only in the body of a POST, never in an address a server logs.
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { postJSON } from "./net.js";
import { who } from "./account-link.js";

const $ = (id) => document.getElementById(id);
const view = $("clubs").dataset.view;

// The words of a member's role.
function roleName(role) {
  return { owner: t("owner"), admin: t("admin"), member: t("member") }[role] || role;
}

// "Public" or "Private", as a tag.
function kindTag(club) {
  return el("span", { class: club.public ? "tag public" : "tag private", textContent: club.public ? t("Public") : t("Private") });
}

// One club in a list: its name (a link to its page), public or private, how many members, the reader's role.
function clubCard(c) {
  const facts = el("p", { class: "club-facts" }, kindTag(c), " ",
    el("span", { class: "muted", textContent: tn("{n} member", "{n} members", c.members) }));
  if (c.role) facts.append(" ", el("span", { class: "tag role", textContent: roleName(c.role) }));
  return el("article", { class: "club-card", "data-club": c.slug },
    el("h3", {}, el("a", { href: c.url, class: "club-name", textContent: c.name })),
    facts,
    c.description ? el("p", { class: "club-description short", textContent: c.description }) : null);
}

async function loadList() {
  let data;
  try {
    const r = await fetch("/api/clubs", { cache: "no-store" });
    data = await r.json();
    if (!r.ok) throw new Error(data.error || t("request failed ({status})", { status: r.status }));
  } catch (e) {
    $("public-loading").hidden = true;
    $("public-clubs").replaceChildren(el("p", { class: "error", textContent: e.message || t("The server cannot be reached; try again in a moment.") }));
    return;
  }
  $("public-loading").hidden = true;
  $("public-clubs").replaceChildren(...(data.public.length ? data.public.map(clubCard)
    : [el("p", { class: "empty", textContent: t("No public club yet: create the first.") })]));
  if (data.mine) {
    $("mine-panel").hidden = false;
    $("my-clubs").replaceChildren(...(data.mine.length ? data.mine.map(clubCard)
      : [el("p", { class: "empty", textContent: t("You are in no club yet: create one, or ask a club for an invitation link.") })]));
  }
  $("clubs").dataset.loaded = "1";
}

async function showForm() {
  const user = await who;
  $("club-form").hidden = !user;
  $("create-guest").hidden = !!user;
}

function wireForm() {
  $("club-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("club-error").textContent = "";
    $("club-create").disabled = true;
    try {
      const data = await postJSON("/api/clubs", { name: $("club-name").value, description: $("club-description").value,
        public: $("club-public").checked });
      location.href = data.club.url;
    } catch (e) {
      $("club-error").textContent = e.message;
      $("club-create").disabled = false;
    }
  });
}

// ------------------------------------------------------------------ an invitation link
function inviteKey() {
  const m = /(?:^#|&)key=([A-Za-z0-9_-]{1,100})/.exec(location.hash);
  return m ? m[1] : null;
}

async function showInvitation() {
  const key = inviteKey();
  $("join-loading").hidden = true;
  if (!key) {
    $("join-error").textContent = t("This link is incomplete: copy the whole link you were sent, or ask the club for another.");
    $("clubs").dataset.loaded = "1";
    return;
  }
  let data;
  try {
    data = await postJSON("/api/clubs/invitation", { key });
  } catch (e) {
    $("join-error").textContent = e.message;
    $("clubs").dataset.loaded = "1";
    return;
  }
  const c = data.club;
  document.title = t("barbu — join {name}", { name: c.name });
  $("join-name").textContent = c.name;
  $("join-kind").replaceWith(Object.assign(kindTag(c), { id: "join-kind" }));
  $("join-description").textContent = c.description;
  $("join-description").hidden = !c.description;
  $("join-members").textContent = tn("{n} member", "{n} members", c.members);
  $("join-club").hidden = false;
  const user = await who;
  if (data.member) {
    $("join-open").href = c.url;
    $("join-open").hidden = false;
    $("join-members").textContent += " · " + t("You are a member already.");
  } else if (user) {
    $("join-button").hidden = false;
  } else {
    $("join-login").hidden = false;
  }
  $("clubs").dataset.loaded = "1";
  $("join-button").addEventListener("click", async () => {
    $("join-error").textContent = "";
    $("join-button").disabled = true;
    try {
      const joined = await postJSON("/api/clubs/join", { key });
      history.replaceState(null, "", "/clubs/join"); // the key has served: it leaves the address bar
      location.href = joined.club.url;
    } catch (e) {
      $("join-error").textContent = e.message;
      $("join-button").disabled = false;
    }
  });
}

if (view === "join") {
  // Back from the account page after logging in: the page is read again, so that it offers to join.
  window.addEventListener("pageshow", (ev) => { if (ev.persisted) location.reload(); });
  showInvitation();
} else {
  wireForm();
  showForm();
  loadList().then(() => {
    const made = new URLSearchParams(location.search).get("deleted");
    if (made) {
      $("clubs-note").textContent = t("The club {name} is deleted.", { name: made });
      $("clubs-note").hidden = false;
    }
  });
}
