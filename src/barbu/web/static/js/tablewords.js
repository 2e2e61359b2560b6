// The engine's identifiers as a player reads them: a table's rules ("classic(rotation=quick)" reads
// "Classic · quick rotation"), an option and its values ("heart_lead" reads "heart lead"), and the seats
// (numbered from 1, a computer player named by where it sits from the reader's chair, as the terminal does).
// The protocol keeps its 0-based seats and identifiers: only what is shown is worded here.
import { strength as strengthName, t, tn } from "./i18n.js";

// The presets, by the name the engine gives them.
const PRESETS = {
  classic: () => t("Classic"),
  italian: () => t("Italian Barbù"),
  "italian-six": () => t("Italian Barbù, six contracts"),
  salad: () => t("Salad"),
  french: () => t("French Barbu"),
  scottish: () => t("Scottish Barbu"),
  besigue: () => t("Bésigue"),
  "besigue-english": () => t("English Bésigue"),
};

export function presetName(name) {
  return PRESETS[name] ? PRESETS[name]() : name;
}

// Options, by their identifiers.
const OPTIONS = {
  players: () => t("players"),
  rotation: () => t("rotation"),
  doubling: () => t("doubling"),
  double_obligation: () => t("double obligation"),
  undoubled_negative: () => t("undoubled negative"),
  heart_lead: () => t("heart lead"),
  trump_rules: () => t("trump rules"),
  allow_no_trump: () => t("allow no trump"),
  domino_ace: () => t("domino ace"),
  stop_when_decided: () => t("stop when decided"),
  ravage_city: () => t("Ravage City"),
  ravage_value: () => t("Ravage City value"),
  chinese_poker: () => t("Chinese poker"),
  sets: () => t("sets"),
  contracts_each: () => t("contracts each"),
  hand: () => t("cards in hand"),
  brisques: () => t("brisques"),
  seven: () => t("seven of trumps"),
  endgame: () => t("last tricks"),
  target: () => t("target"),
};

export function optionName(name) {
  return OPTIONS[name] ? OPTIONS[name]() : String(name).replaceAll("_", " ");
}

// An option's values, short, as the rules pages describe them (keyed "option=value").
const VALUES = {
  "rotation=dealer": () => t("the dealer declares a whole series"),
  "rotation=quick": () => t("each player declares in turn"),
  "doubling=classic": () => t("doubles and redoubles"),
  "doubling=none": () => t("no doubling"),
  "undoubled_negative=split": () => t("not played, points shared"),
  "undoubled_negative=play": () => t("played"),
  "heart_lead=never_unless_only_hearts": () => t("never, unless you hold only hearts"),
  "heart_lead=first_trick": () => t("not on the first trick"),
  "heart_lead=until_broken": () => t("once a heart has been discarded"),
  "heart_lead=none": () => t("any time"),
  "trump_rules=classic": () => t("overtrump and undertrump"),
  "trump_rules=italian": () => t("Italian: no undertrumping"),
  "domino_ace=high": () => t("high: after the king"),
  "domino_ace=low": () => t("low: before the two"),
  "hand=9": () => t("nine cards, by threes"),
  "hand=8": () => t("eight cards, by 3-2-3"),
  "brisques=aces": () => t("each ace won"),
  "brisques=aces_and_tens": () => t("each ace and each ten won"),
  "seven=drawn": () => t("shown when drawn"),
  "seven=exchange": () => t("exchanged for the turn-up"),
  "endgame=follow_or_trump": () => t("follow suit, else trump"),
  "endgame=must_win": () => t("follow and win the trick, else trump"),
};

// A value of an option as a player reads it: "true" reads "yes", an identifier its words.
export function valueName(option, value) {
  const key = `${option}=${value}`;
  if (VALUES[key]) return VALUES[key]();
  if (value === true || value === "true") return t("yes");
  if (value === false || value === "false") return t("no");
  return String(value).replaceAll("_", " ");
}

// One option set away from its preset, as a short phrase for a title.
const PHRASES = {
  "rotation=quick": () => t("quick rotation"),
  "rotation=dealer": () => t("dealer's series"),
  "doubling=none": () => t("no doubling"),
  "doubling=classic": () => t("with doubling"),
  "ravage_city=true": () => t("with Ravage City"),
  "chinese_poker=true": () => t("with Chinese poker"),
  "allow_no_trump=true": () => t("no-trump allowed"),
  "allow_no_trump=false": () => t("no no-trump"),
  "stop_when_decided=false": () => t("every card played"),
};

function phrase(option, value) {
  const key = `${option}=${value}`;
  if (PHRASES[key]) return PHRASES[key]();
  if (option === "players") return t("{n} players", { n: value });
  if (option === "contracts_each") return tn("short match: {n} contract each", "short match: {n} contracts each", Number(value));
  if (option === "target" && Number(value) < 1000) return t("short match: to {n} points", { n: value });
  return t("{option}: {value}", { option: optionName(option), value: valueName(option, value) });
}

// "classic(rotation=quick, ravage_city=true)" -> "Classic · quick rotation · with Ravage City".
export function rulesTitle(text) {
  const m = /^([\w-]+)(?:\((.*)\))?$/.exec(String(text || "").trim());
  if (!m) return String(text || "");
  const parts = [presetName(m[1])];
  const short = /contracts_each=/.test(m[2] || "");
  for (const pair of (m[2] || "").split(",")) {
    const [k, v] = pair.split("=").map((x) => (x || "").trim());
    if (short && k === "double_obligation" && v === "1") continue; // the short match's own obligation, said by it
    if (k && v !== undefined && v !== "") parts.push(phrase(k, v));
  }
  return parts.join(" · ");
}

// Where the other players sit, seen from your chair at the bottom of the table, by how many seats after
// you they play (barbu/tui/labels.py PLACES): the next to play on your left (West), the last on your right.
const PLACES = {
  3: { 1: () => t("West"), 2: () => t("East") },
  4: { 1: () => t("West"), 2: () => t("North"), 3: () => t("East") },
  5: { 1: () => t("West"), 2: () => t("North-west"), 3: () => t("North-east"), 4: () => t("East") },
  6: { 1: () => t("West"), 2: () => t("North-west"), 3: () => t("North"), 4: () => t("North-east"), 5: () => t("East") },
};

// Another seat's place from the reader's (null for a spectator, for your own seat or a table size without places).
export function placeName(seat, me, players) {
  if (me === null || me === undefined || seat === me) return null;
  const p = (PLACES[players] || {})[(seat - me + players) % players];
  return p ? p() : null;
}


// A computer player's name from the reader's chair, its place and strength in words: "West, good player"
// (barbu/play/labels.py computer_name), the Bésigue opponent "North, good player"; a spectator sees the
// table from the first seat's chair (it is South); "West, computer" when its strength is unknown.
export function computerName(seat, me, players, strength) {
  const word = strength ? strengthName(strength) : t("computer");
  return t("{place}, {strength}", { place: chairName(seat, me, players), strength: word });
}

// A seat's place at the table from the reader's chair (a spectator's is the first seat's): "South" for the
// chair itself, "North" facing it at two, "West"… at three to six; the seat's number only past six.
export function chairName(seat, me, players) {
  const chair = me === null || me === undefined ? 0 : me;
  if (seat === chair) return t("South");
  // past six, a table never offered: the seat counted from 1
  return players === 2 ? t("North") : placeName(seat, chair, players) || t("Seat {n}", { n: seat + 1 });
}

// What each phase asks of the player, for the turn line ("Your turn: play a card."); null for another phase.
const PHASE_PROMPTS = {
  declare: () => t("choose the contract"),
  trump: () => t("name the trump suit"),
  rank: () => t("name the starting rank"),
  doubling: () => t("double, redouble or pass"),
  play: () => t("play a card"),
  domino: () => t("lay a card or pass"),
  arrange: () => t("arrange your cards in three rows"),
};

export function phasePrompt(phase) {
  return PHASE_PROMPTS[phase] ? PHASE_PROMPTS[phase]() : null;
}
