// The seating panel every table page shares: who sits where, taking a seat, giving one to a computer player.
import { el } from "./dom.js";
import { strength as strengthName, t } from "./i18n.js";
import { loadCreator, loadSeat, postJSON, saveSeat } from "./net.js";

// Whether the panel shows: while the table waits for players, or to a visitor while a seat is free.
export function seatingOpen(info, mySeat) {
  return info.status === "open" || (mySeat === null && info.seats.some((s) => s.kind === "open"));
}

// One row a seat: a free seat offers "Take this seat" (to a visitor) and a computer player of a chosen
// strength; your own seat, while the table waits, "Leave this seat".  `on` holds take, bot and leave.
export function seatRows(info, mySeat, on) {
  return info.seats.map((s) => {
    const row = el("div", { class: "seat-row", "data-seat-row": s.seat });
    row.append(el("span", { class: "seat-no", textContent: t("Seat {seat}", { seat: s.seat }) }));
    if (s.kind === "open") {
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
    const data = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/seats`, { seat, name });
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

// The Invite button: the link built from the address this page was opened at, copied when the browser allows;
// a page opened at a local address says how friends on the network can reach the server.
export function wireInvite(tableId) {
  document.getElementById("invite").addEventListener("click", async () => {
    const url = `${location.origin}/t/${tableId}`;
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
