// The seating panel every table page shares: who sits where, taking a seat, giving one to a computer player.
import { el } from "./dom.js";
import { strength as strengthName, t } from "./i18n.js";
import { loadCreator, loadSeat, postJSON, saveSeat } from "./net.js";
import { chairName } from "./tablewords.js";

// Whether the panel shows: while the table waits for players, or to a visitor while a seat is free.
export function seatingOpen(info, mySeat) {
  return info.status === "open" || (mySeat === null && info.seats.some((s) => s.kind === "open"));
}

// A private table's invitation secret: from the link's fragment (#invite=…, which the browser never sends
// to the server), kept for this table in this browser so a reload or a rematch still has it; else null.
export function invitation(tableId) {
  const key = `barbu:invite:${tableId}`;
  const found = /(?:^#|&)invite=([A-Za-z0-9_-]{1,200})/.exec(location.hash);
  if (found) localStorage.setItem(key, found[1]);
  return localStorage.getItem(key);
}

// A rematch of a private table keeps its invitation.
export function carryInvitation(oldId, newId) {
  const invite = localStorage.getItem(`barbu:invite:${oldId}`);
  if (invite) localStorage.setItem(`barbu:invite:${newId}`, invite);
}

// One row a seat: a free seat offers "Take this seat" (to a visitor; at a private table, one who came by
// its invitation) and a computer player of a chosen strength; your own seat, while the table waits, "Leave
// this seat"; to the table's creator, while it waits, "Remove" on every other taken seat.
// `on` holds take, bot, leave and remove.
export function seatRows(info, mySeat, on) {
  const creator = loadCreator(info.id) !== null;
  const invited = !info.private || creator || invitation(info.id) !== null;
  return info.seats.map((s) => {
    const row = el("div", { class: "seat-row", "data-seat-row": s.seat });
    // the seat by its place, seen from the reader's chair (a visitor's is the first seat's, as the table is drawn)
    row.append(el("span", { class: "seat-no", textContent: chairName(s.seat, mySeat, info.seats.length) }));
    if (s.kind === "open") {
      if (mySeat === null && !invited) {
        // A private table, opened without its invitation: nothing here this visitor may do.
        row.append(el("span", { class: "muted", "data-seat-private": s.seat, textContent: t("free, by invitation only") }));
        return row;
      }
      row.append(el("span", { class: "muted", textContent: t("free") }));
      if (mySeat === null) {
        const take = el("button", { type: "button", class: "primary", textContent: t("Take this seat"), "data-seat-take": s.seat });
        take.addEventListener("click", () => on.take(s.seat));
        row.append(take);
      }
      const strength = el("select", { "data-seat-strength": s.seat, title: t("strength") },
        ...info.strengths.map((k) => el("option", { value: k, textContent: strengthName(k), selected: k === info.default_strength })));
      const bot = el("button", { type: "button", textContent: t("Add a computer player"), "data-seat-bot": s.seat });
      bot.addEventListener("click", () => on.bot(s.seat, strength.value));
      row.append(strength, bot);
    } else {
      row.append(el("strong", { textContent: s.name }));
      if (s.seat === mySeat) {
        row.append(el("span", { class: "muted", textContent: t("(you)") }));
        if (info.status === "open") {
          const leave = el("button", { type: "button", textContent: t("Leave this seat"), "data-seat-leave": s.seat });
          leave.addEventListener("click", () => on.leave());
          row.append(leave);
        }
      } else if (creator && info.status === "open" && on.remove) {
        const remove = el("button", { type: "button", class: "danger", textContent: t("Remove"),
          title: t("Free this seat: the player watches from then on"), "data-seat-remove": s.seat });
        remove.addEventListener("click", () => on.remove(s.seat));
        row.append(remove);
      }
    }
    return row;
  });
}

// Take `seat` under the name typed in `nameInput`: the table's public facts, or null with the reason in `errorBox`.
export async function takeSeat(tableId, seat, nameInput, errorBox) {
  errorBox.textContent = "";
  const name = nameInput.value.trim();
  if (!name) {
    errorBox.textContent = t("Choose a display name first.");
    nameInput.focus();
    return null;
  }
  localStorage.setItem("barbu:name", name);
  try {
    // The invitation (a private table's) and the creator's credential ride in the body, never in the URL.
    const body = { seat, name };
    const invite = invitation(tableId);
    if (invite) body.invite = invite;
    if (loadCreator(tableId)) body.creator = loadCreator(tableId);
    const data = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/seats`, body);
    saveSeat(tableId, { token: data.token, seat, name });
    return data.table;
  } catch (e) {
    errorBox.textContent = e.message;
    return null;
  }
}

// Give `seat` to a computer player (the creator's credential, or a seated player's where the table allows it).
export async function addBot(tableId, seat, strength, errorBox) {
  errorBox.textContent = "";
  try {
    const token = loadCreator(tableId) || (loadSeat(tableId) || {}).token;
    return (await postJSON(`/api/tables/${encodeURIComponent(tableId)}/bots`, { seat, strength, token })).table;
  } catch (e) {
    errorBox.textContent = e.message;
    return null;
  }
}

// Before the match starts, the table's creator frees `seat` (a person's or a computer player's).
export async function removePlayer(tableId, seat, errorBox) {
  errorBox.textContent = "";
  try {
    const token = loadCreator(tableId);
    return (await postJSON(`/api/tables/${encodeURIComponent(tableId)}/remove`, { seat, token })).table;
  } catch (e) {
    errorBox.textContent = e.message;
    return null;
  }
}

// The Invite button: the link built from the address this page was opened at, copied when the browser allows;
// a private table's link carries its invitation after "#", which browsers never send to a server;
// a page opened at a local address says how friends on the network can reach the server.
export function wireInvite(tableId) {
  const close = document.getElementById("invite-close");
  if (close) close.addEventListener("click", () => closeInvite());
  document.getElementById("invite").addEventListener("click", async () => {
    const invite = invitation(tableId);
    const url = `${location.origin}/t/${tableId}` + (invite ? `#invite=${invite}` : "");
    document.getElementById("invite-box").hidden = false;
    const field = document.getElementById("invite-link");
    field.value = url;
    field.select();
    let note;
    try {
      await navigator.clipboard.writeText(url);
      note = t("copied");
    } catch {
      note = t("copy it from here");
    }
    const local = ["127.0.0.1", "localhost", "[::1]"].includes(location.hostname);
    if (local) note += " — " + t("this address works only on this computer: for friends on your network, start the " +
      "server with barbu serve --host 0.0.0.0 and open the page at this computer's network address");
    document.getElementById("invite-note").textContent = note;
  });
}

// The Invite box closes with its ×, and by itself when the match starts (the seats are all taken).
export function closeInvite() {
  const box = document.getElementById("invite-box");
  if (box) box.hidden = true;
}

let seenStatus = null;

// Called on every render: the Invite box closes when the table's status leaves "open" (the match started).
export function inviteFollows(info) {
  if (seenStatus === "open" && info.status !== "open") closeInvite();
  seenStatus = info.status;
}
