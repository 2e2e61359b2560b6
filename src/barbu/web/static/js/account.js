// The account page (templates/account.html): a guest signs up or logs in, and the finished matches this browser
// played as a guest are claimed for the account at once; a member changes his password, logs out (here or
// everywhere), downloads his data, or deletes his account after a confirmation; /account/reset#key=… (a
// one-time link that `barbu users reset-password` prints) chooses a new password and logs in.  Every refusal
// is the server's own sentence, in the page's language.
import { tn, t } from "./i18n.js";
import { loadSeat, postJSON } from "./net.js";
import { account, showAccount, who } from "./account-link.js";
import { longDate } from "./playerwords.js";

const $ = (id) => document.getElementById(id);
const CLAIM_MAX = 200; // tables one claim may name (barbu/web/accountroutes.py CLAIM_MAX)
const resetting = location.pathname.replace(/\/+$/, "") === "/account/reset";

// ------------------------------------------------------------------ views
function show(view) {
  $("account-loading").hidden = true;
  for (const v of ["guest", "reset", "member"]) $(`${v}-view`).hidden = v !== view;
  $("account-main").dataset.view = view;
}

function note(text) {
  const box = $("account-note");
  box.textContent = text;
  box.hidden = !text;
}

function showMember(user) {
  showAccount(user);
  $("member-name").textContent = user.name;
  $("member-since").textContent = t("Member since {date}", { date: longDate(user.since) });
  $("member-profile").href = user.profile || `/u/${encodeURIComponent(user.name)}`;
  $("password-username").value = user.name;
  $("delete-form").hidden = true;
  $("delete-start").hidden = false;
  document.title = t("barbu — {name}'s account", { name: user.name });
  show("member");
  showMail(user);
}

// "Your turn" e-mails, where the server sends any: the address and whether to write.
async function showMail(user) {
  const { mail } = await account;
  $("mail-panel").hidden = !mail;
  if (!mail) return;
  const settings = user.email === undefined ? (await (await fetch("/api/account", { cache: "no-store" })).json()).user || {} : user;
  $("mail-address").value = settings.email || "";
  $("mail-notify").checked = !!settings.notify_turns;
}

function showGuest() {
  showAccount(null);
  document.title = t("barbu — your account");
  show("guest");
}

// ------------------------------------------------------------------ claiming the guest's matches
// The tables this browser holds a seat's credential for ("My tables" keeps them: barbu:seat:<id>).
function guestSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const m = /^barbu:seat:(.+)$/.exec(localStorage.key(i) || "");
    if (!m) continue;
    const seat = loadSeat(m[1]);
    if (seat && typeof seat.token === "string" && m[1].length <= 32) out.push({ id: m[1], token: seat.token });
  }
  return out.slice(0, CLAIM_MAX);
}

// Ask the server to add them to the account: the finished ones nobody's account holds yet are added.
async function claim() {
  const tables = guestSeats();
  if (!tables.length) return 0;
  try {
    const data = await postJSON("/api/account/claim", { tables });
    return Array.isArray(data.claimed) ? data.claimed.length : 0;
  } catch {
    return 0; // nothing is lost: the next log-in asks again
  }
}

// Logged in (signed up, logged in, or by a new password): the member's page, what happened, and the claim.
async function loggedIn(user, said) {
  showMember(user);
  note(said);
  const n = await claim();
  if (n) {
    note(said + " " + tn("{n} finished match you played in this browser as a guest is now in your history.",
      "{n} finished matches you played in this browser as a guest are now in your history.", n));
  }
  $("account-note").focus();
}

// ------------------------------------------------------------------ forms
// A form's submission: its button greyed while the server answers, the refusal in its error line.
function wire(form, button, errorBox, send) {
  $(form).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $(errorBox).textContent = "";
    $(button).disabled = true;
    try {
      await send();
    } catch (e) {
      $(errorBox).textContent = e.message;
    } finally {
      $(button).disabled = false;
    }
  });
}

wire("signup-form", "signup-button", "signup-error", async () => {
  const data = await postJSON("/api/account/signup", { name: $("signup-name").value, password: $("signup-password").value });
  $("signup-password").value = "";
  await loggedIn(data.user, t("Welcome, {name}: your account is made and you are logged in.", { name: data.user.name }));
});

wire("login-form", "login-button", "login-error", async () => {
  const data = await postJSON("/api/account/login", { name: $("login-name").value, password: $("login-password").value });
  $("login-password").value = "";
  await loggedIn(data.user, t("You are logged in as {name}.", { name: data.user.name }));
});

wire("reset-form", "reset-button", "reset-error", async () => {
  const key = resetKey();
  if (!key) throw new Error(t("This link is incomplete: copy the whole link the server's operator gave you, or ask for another."));
  const data = await postJSON("/api/account/reset", { key, password: $("reset-password").value });
  $("reset-password").value = "";
  history.replaceState(null, "", "/account"); // the key is used up: it leaves the address bar
  await loggedIn(data.user, t("Your new password is set and you are logged in as {name}.", { name: data.user.name }));
});

wire("password-form", "password-button", "password-error", async () => {
  $("password-done").textContent = "";
  await postJSON("/api/account/password", { old: $("password-old").value, new: $("password-new").value });
  $("password-old").value = "";
  $("password-new").value = "";
  $("password-done").textContent = t("Your password is changed; your other devices are logged out.");
});

wire("mail-form", "mail-button", "mail-error", async () => {
  $("mail-done").textContent = "";
  const data = await postJSON("/api/account/notify", { email: $("mail-address").value.trim(), notify: $("mail-notify").checked });
  $("mail-done").textContent = data.notify_turns ? t("Saved: the server writes to {email} when it is your turn.", { email: data.email })
    : t("Saved: the server sends you no e-mails.");
});

async function logOut(url, said) {
  $("sessions-error").textContent = "";
  try {
    await postJSON(url, {});
    showGuest();
    note(said);
  } catch (e) {
    $("sessions-error").textContent = e.message;
  }
}

$("logout").addEventListener("click", () => logOut("/api/account/logout", t("You are logged out.")));
$("logout-all").addEventListener("click", () => logOut("/api/account/logout-all", t("You are logged out on every device.")));

$("delete-start").addEventListener("click", () => {
  $("delete-form").hidden = false;
  $("delete-start").hidden = true;
  $("delete-error").textContent = "";
  $("delete-password").focus();
});
$("delete-cancel").addEventListener("click", () => {
  $("delete-form").hidden = true;
  $("delete-start").hidden = false;
  $("delete-password").value = "";
  $("delete-start").focus();
});
wire("delete-form", "delete-yes", "delete-error", async () => {
  await postJSON("/api/account/delete", { password: $("delete-password").value });
  $("delete-password").value = "";
  showGuest();
  note(t("Your account is deleted. The matches you played stay in the others' history, under “a deleted player”."));
});

// ------------------------------------------------------------------ opening the page
// The one-time link's key, after "#" (browsers never send it to the server, so it is in no log).
function resetKey() {
  const m = /(?:^#|&)key=([A-Za-z0-9_-]{1,100})/.exec(location.hash);
  return m ? m[1] : null;
}

if (resetting) {
  show("reset");
  if (!resetKey()) $("reset-error").textContent = t("This link is incomplete: copy the whole link the server's operator gave you, or ask for another.");
  $("reset-password").focus();
} else {
  who.then((user) => (user ? showMember(user) : showGuest()));
}
