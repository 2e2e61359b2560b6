// The account link in every page's header (templates/_account.html): "Log in" for a guest; the player's name,
// linking to his profile, and "Account" when logged in.  `who` is the logged-in player as GET /api/account
// says ({name, profile, since}, or null for a guest), for a page's script that needs to know it too (the
// lobby's Rated boxes, the table's seats): the module runs once per page, so the question is asked once.
import { t } from "./i18n.js";

async function ask() {
  try {
    const r = await fetch("/api/account", { credentials: "same-origin", cache: "no-store" });
    if (!r.ok) return { user: null };
    const data = await r.json();
    return data && typeof data === "object" ? data : { user: null };
  } catch {
    return { user: null }; // the server is unreachable: the page works as a guest's
  }
}

// The whole answer ({user, mail}: whether this server sends e-mails), and the player alone.
export const account = ask();
export const who = account.then((data) => data.user || null);

// Draw the link for `user` (null: a guest); the account page calls it again after a log-in or a log-out.
export function showAccount(user) {
  const box = document.getElementById("account-link");
  if (!box) return;
  box.dataset.state = user ? "member" : "guest";
  const login = document.getElementById("account-login");
  const name = document.getElementById("account-name");
  const settings = document.getElementById("account-settings");
  login.hidden = !!user;
  name.hidden = !user;
  settings.hidden = !user;
  if (!user) return;
  name.href = user.profile || `/u/${encodeURIComponent(user.name)}`;
  name.title = t("Your profile: {name}", { name: user.name });
  document.getElementById("account-name-text").textContent = user.name;
  document.getElementById("account-initial").textContent = Array.from(user.name)[0].toUpperCase();
}

who.then(showAccount);
