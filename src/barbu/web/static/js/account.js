// The account page (templates/account.html): a guest signs up or logs in, and the finished matches this browser
// played as a guest are claimed for the account at once; a member changes his password, logs out (here or
// everywhere), downloads his data, or deletes his account after a confirmation; /account/reset#key=… (a
// one-time link that `barbu users reset-password` prints, or the e-mail of "forgot your password") chooses a new
// password and logs in; /account/confirm#key=… confirms an e-mail address.  Every refusal
// is the server's own sentence, in the page's language.
import { tn, t } from "./i18n.js";
import { loadSeat, postJSON } from "./net.js";
import { account, showAccount, who } from "./account-link.js";
import { longDate } from "./playerwords.js";

const $ = (id) => document.getElementById(id);
const CLAIM_MAX = 200; // tables one claim may name (barbu/web/accountroutes.py CLAIM_MAX)
const here = location.pathname.replace(/\/+$/, "");
const resetting = here === "/account/reset";
const confirming = here === "/account/confirm";

// ------------------------------------------------------------------ views
function show(view) {
  $("account-loading").hidden = true;
  for (const v of ["guest", "reset", "confirm", "member"]) $(`${v}-view`).hidden = v !== view;
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
  showMailState(settings);
}

// Whether the address is confirmed, or waits for its link (sent when, to where), with "send again".
function showMailState(settings) {
  const box = $("mail-state");
  box.hidden = !settings.email;
  if (!settings.email) return;
  const waiting = !settings.confirmed;
  box.classList.toggle("waiting", waiting);
  $("mail-again").hidden = !waiting;
  $("mail-again").textContent = settings.confirmation_sent ? t("Send the link again") : t("Send the link");
  let text;
  if (!waiting) {
    text = settings.notify_turns
      ? t("Confirmed: {email}. The server writes there when tables wait for your move.", { email: settings.email })
      : t("Confirmed: {email}. The server writes there only when you ask for a new password.", { email: settings.email });
  } else if (settings.confirmation_sent) {
    text = t("Waiting for confirmation: a link was sent to {email} on {date}. Open it to receive e-mails there.", {
      email: settings.email, date: longDate(settings.confirmation_sent),
    });
  } else {
    text = t("Not confirmed: nothing is sent to {email} until you open the link the server sends there.", { email: settings.email });
  }
  $("mail-state-text").textContent = text;
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
  const key = linkKey();
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
  $("mail-again-error").textContent = "";
  if (data.email && !data.confirmed) {
    $("mail-done").textContent = data.sent ? t("Saved: a link to confirm it was sent to {email}.", { email: data.email })
      : data.confirmation_sent ? t("Saved.")
      : t("Saved, but no link could be sent to {email} today: try again tomorrow.", { email: data.email });
  } else {
    $("mail-done").textContent = data.notify_turns ? t("Saved: the server writes to {email} when it is your turn.", { email: data.email })
      : t("Saved: the server sends you no e-mails.");
  }
  showMailState(data);
});

$("mail-again").addEventListener("click", async () => {
  $("mail-again-error").textContent = "";
  $("mail-again").disabled = true;
  try {
    const data = await postJSON("/api/mail/confirm-again", {});
    showMailState(data);
    $("mail-done").textContent = t("Saved: a link to confirm it was sent to {email}.", { email: data.email });
  } catch (e) {
    $("mail-again-error").textContent = e.message;
  } finally {
    $("mail-again").disabled = false;
  }
});

// "Forgot your password?" where the server sends e-mails: one answer whatever the name or address.
account.then(({ mail }) => {
  $("forgot-line").hidden = !mail;
  $("forgot-operator").hidden = !!mail;
});
$("forgot-start").addEventListener("click", () => {
  const form = $("forgot-form");
  form.hidden = !form.hidden;
  $("forgot-start").setAttribute("aria-expanded", String(!form.hidden));
  if (!form.hidden) {
    $("forgot-who").value = $("login-name").value;
    $("forgot-who").focus();
  }
});
wire("forgot-form", "forgot-button", "forgot-error", async () => {
  $("forgot-done").textContent = "";
  await postJSON("/api/mail/forgot", { who: $("forgot-who").value.trim() });
  $("forgot-done").textContent = t("If an account has this name or address, and a confirmed address, a link is on its way there. It works once, within 24 hours.");
});

wire("confirm-form", "confirm-button", "confirm-error", async () => {
  $("confirm-done").textContent = "";
  const key = linkKey();
  if (!key) throw new Error(t("This link is incomplete: copy the whole link from the e-mail, or send another from your account page."));
  const data = await postJSON("/api/mail/confirm", { key });
  history.replaceState(null, "", "/account/confirm"); // the key is used up: it leaves the address bar
  $("confirm-button").hidden = true;
  $("confirm-done").textContent = t("Confirmed: {email} receives the e-mails of the account {name}.", { email: data.email, name: data.name });
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
function linkKey() {
  const m = /(?:^#|&)key=([A-Za-z0-9_-]{1,100})/.exec(location.hash);
  return m ? m[1] : null;
}

if (confirming) {
  show("confirm");
  $("confirm-button").focus();
} else if (resetting) {
  show("reset");
  if (!linkKey()) $("reset-error").textContent = t("This link is incomplete: copy the whole link the server's operator gave you, or ask for another.");
  $("reset-password").focus();
} else {
  who.then((user) => (user ? showMember(user) : showGuest()));
}
