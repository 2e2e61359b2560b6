// Friends (templates/friends.html): the players I follow with their presence, read once (GET /api/friends) and then
// kept up to date by the account channel's "presence" messages (static/js/live.js); follow by name, unfollow,
// unblock, hide my presence.
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { postJSON } from "./net.js";
import { who } from "./account-link.js";

const $ = (id) => document.getElementById(id);
const STATES = { online: () => t("online"), playing: () => t("playing"), away: () => t("away"), offline: () => t("offline") };

function presence(row, state, watch) {
  row.dataset.state = state;
  const badge = row.querySelector(".presence");
  badge.textContent = (STATES[state] || STATES.offline)();
  badge.className = `presence presence-${state}`;
  const link = row.querySelector(".watch");
  link.hidden = !watch;
  if (watch) link.href = watch;
}

function friendRow(f) {
  const row = el("li", { class: "friend", "data-player": f.name },
    el("span", { class: "presence" }),
    el("a", { class: "who", href: f.profile, textContent: f.name }),
    el("a", { class: "button small watch", textContent: t("Watch"), hidden: true }),
    el("a", { class: "button small challenge", href: `/challenges/new?to=${encodeURIComponent(f.name)}`, textContent: t("Challenge") }),
    el("button", { type: "button", class: "button small quiet", textContent: t("Unfollow"), onclick: () => act("/api/friends/unfollow", f.name) }),
  );
  presence(row, f.state, f.watch);
  return row;
}

function blockRow(b) {
  return el("li", { class: "friend", "data-player": b.name },
    el("a", { class: "who", href: b.profile, textContent: b.name }),
    el("button", { type: "button", class: "button small", textContent: t("Unblock"), onclick: () => act("/api/blocks/unblock", b.name) }),
  );
}

async function act(url, name) {
  $("friends-error").textContent = "";
  try {
    await postJSON(url, { name });
    await load();
  } catch (e) {
    $("friends-error").textContent = e.message;
  }
}

async function load() {
  const r = await fetch("/api/friends", { cache: "no-store" });
  if (!r.ok) return;
  const data = await r.json();
  $("following").replaceChildren(...data.following.map(friendRow));
  $("following-none").hidden = data.following.length > 0;
  $("blocked").replaceChildren(...data.blocked.map(blockRow));
  $("blocked-none").hidden = data.blocked.length > 0;
  $("followers-count").textContent = tn("{n} player follows you", "{n} players follow you", data.followers, { n: data.followers });
  $("hide-presence").checked = !!data.hidden;
  $("friends").dataset.loaded = "1";
}

window.addEventListener("barbu:live", (e) => {
  const msg = e.detail;
  if (!msg || msg.type !== "presence") return;
  for (const row of $("following").children) {
    if (row.dataset.player === msg.name) presence(row, msg.state, msg.watch);
  }
});

who.then((user) => {
  if (!user) {
    $("friends-guest").hidden = false;
    return;
  }
  $("following-panel").hidden = false;
  $("blocks-panel").hidden = false;
  $("follow-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("follow-name").value.trim();
    if (!name) return;
    await act("/api/friends/follow", name);
    if (!$("friends-error").textContent) $("follow-name").value = "";
  });
  $("hide-presence").addEventListener("change", async (e) => {
    try {
      await postJSON("/api/presence", { hidden: e.target.checked });
    } catch (err) {
      $("friends-error").textContent = err.message;
    }
  });
  load();
});
