// The page's language: the words the server put in <script id="barbu-i18n"> (barbu/web/i18n.py), looked up
// as gettext does. t("Deal {n}", {n: 3}) fills named {field}s after the lookup; tn() picks a plural form by
// Intl.PluralRules; tp("contract", "No queens") looks a word up with its context; num() writes a number the
// language's way (1 250 in French, 1.250 in Italian). English pages carry no catalog: the msgids are English.

function readCatalog() {
  const node = typeof document !== "undefined" && document.getElementById("barbu-i18n");
  if (!node) return { lang: "en", messages: {} };
  try {
    return JSON.parse(node.textContent);
  } catch {
    return { lang: "en", messages: {} };
  }
}

const catalog = readCatalog();
export const lang = catalog.lang || "en";
const messages = catalog.messages || {};
const plurals = new Intl.PluralRules(lang);
// Grouped from the thousands, as the server's Babel writes them ("1.250" in Italian, where Intl alone writes 1250).
const numbers = new Intl.NumberFormat(lang, { useGrouping: "always" });

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

// A msgid in the page's language, its {field}s filled from params.
export function t(msgid, params) {
  const found = messages[msgid];
  return fill(typeof found === "string" ? found : msgid, params);
}

// The form of singular/plural for n (gettext's forms: the first for "one", the last otherwise).
export function tn(singular, plural, n, params) {
  const found = messages[singular];
  let text;
  if (Array.isArray(found)) text = plurals.select(n) === "one" ? found[0] : found[found.length - 1];
  else text = n === 1 ? singular : plural;
  return fill(text, { n: num(n), ...params });
}

// A word told apart from the same English word by its context ("contract", "suits", "rank letter").
export function tp(context, msgid, params) {
  const found = messages[`${context}\u0004${msgid}`];
  return fill(typeof found === "string" ? found : msgid, params);
}

// A number as the page's language writes it.
export function num(n) {
  return typeof n === "number" ? numbers.format(n) : String(n);
}

// The game's words, as the server's Words says them.
const SUIT_KEYS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_ONE = { S: "spade", H: "heart", D: "diamond", C: "club" };
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

// A percentage as the reader's language writes it: "62.5%", French "62,5 %" (a no-break space).
export function percent(x) {
  if (x === null || x === undefined) return "–";
  return `${num(Math.round(x * 10) / 10)}${lang === "fr" ? "\u00a0" : ""}%`;
}

export function suitName(s) {
  return tp("suits", SUIT_KEYS[s] || s);
}

export function suitName1(s) {
  return tp("suit", SUIT_ONE[s] || s);
}

// A suit named on its own, as trumps or as the suit led: "spades", "pique" (French names it in the singular).
export function namedSuit(s) {
  return tp("named suit", SUIT_KEYS[s] || s);
}

// A rank as printed on a card: 10, J, Q, K, A (V, D, R in French; F, D, R in Italian).
export function rankLetter(r) {
  const letter = r === "T" ? "10" : r;
  return tp("rank letter", letter);
}

// A card sent as "QH" worded as the player writes it: "Q♥", "D♥".
export function card(c) {
  return rankLetter(c[0]) + SYMBOL[c[1]];
}

// A contract by the English name its ruleset gives it; a Scottish combination call by call.
export function contract(name) {
  return String(name).split(" + ").map((part) => tp("contract", part)).join(" + ");
}

// The cookie the server reads (a year) and localStorage: the language chosen with the switcher.
export const COOKIE = "barbu_lang";
const YEAR = 365 * 24 * 3600;

export function chooseLanguage(code) {
  document.cookie = `${COOKIE}=${code}; max-age=${YEAR}; path=/; samesite=lax`;
  try {
    localStorage.setItem(COOKIE, code);
  } catch { /* private windows may refuse: the cookie is enough */ }
}

function cookieLanguage() {
  const m = document.cookie.match(/(?:^|;\s*)barbu_lang=(\w+)/);
  return m ? m[1] : null;
}

// The header's switcher: a choice sets the cookie and reloads the page in that language (without ?lang=).
export function wireSwitcher() {
  const select = document.getElementById("lang-select");
  if (!select) return;
  select.addEventListener("change", () => {
    chooseLanguage(select.value);
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.replace(url.toString());
  });
  // A language remembered in localStorage whose cookie was lost (cleared, expired): set it again.
  let kept = null;
  try {
    kept = localStorage.getItem(COOKIE);
  } catch { /* no storage */ }
  const url = new URL(location.href);
  if (kept && !cookieLanguage() && !url.searchParams.has("lang") && kept !== lang && select.querySelector(`option[value="${kept}"]`)) {
    chooseLanguage(kept);
    location.reload();
  }
}

// A computer player's strength as the page's language names it (a plugin's name stays as it is).
const STRENGTHS = { random: () => t("random"), rule: () => t("good player"), search: () => t("strong"), expert: () => t("expert") };
export function strength(name) {
  return STRENGTHS[name] ? STRENGTHS[name]() : name;
}
