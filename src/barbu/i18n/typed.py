"""What a player types in their own language, read into the engine's notation.

The games read English notation only (``QD``, ``pass``, ``double 2``, ``no-queens``,
``trump H``, ``declare marriage KS QS``); this module is the front ends' bridge from a
French or Italian player's words to it:

    engine_text("dk", "fr")            -> "QD"         (dame de carreau)
    engine_text("D♦", "fr")            -> "QD"
    engine_text("contre 2", "fr")      -> "double 2"
    engine_text("pas de dames", "fr")  -> "no-queens"
    engine_text("atout cœur", "fr")    -> "trump hearts"
    engine_text("niente donne", "it")  -> "no-queens"

Every word is read from the catalogs, not from tables of our own: rank and suit letters
(contexts "rank letter", "suit letter", and "rank letters typed" for a face's other letters:
the Italian K beside R), rank and suit names ("rank", "suit", "suits"),
contract names ("contract"), Bésigue's combinations ("combination") and the keywords a
player types ("typed": each translation lists the words a player may type, separated by
"|").  The player's language is read first, English second, so "qd" is the queen of
diamonds for a French player too.

A text typed without knowing the phase can mean two things ("roi de cœur" is a card and
a Scottish call; "réussite" is Domino in one preset and Success in another), so
`readings()` lists every reading, best first; `parse_typed(game, text, lang)` gives the
first one the game's own ``parse_action`` accepts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..besigue.actions import MELD_NAMES
from ..classic.contracts import classic_contracts
from ..classic.ruleset import presets
from ..core.errors import ParseError
from ..core.refusals import NOT_A_CARD
from ..core.words import RANK_NAMES, RANKS, SUIT_NAMES, SUITS, Words
from . import language, translator

#: The keywords a player types, in the engine's words (the msgids of context "typed").
#: Bésigue's combination keys are among them, so "quinte" or "scala" can name a quint.
#: "family" (the doubling call on every player but oneself and the dealer) is named in the Keys help.
TYPED_WORDS = (
    "pass",
    "double",
    "redouble",
    "maximum",
    "family",
    "trump",
    "none",
    "rank",
    "contract",
    "call",
    "play",
    "lay",
    "give",
    "declare",
    "no-declaration",
    "exchange",
    "show",
    "and",
    "of",
    *MELD_NAMES,
)
SYMBOLS = {"♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}
#: Leading articles dropped from a combination's name ("un mariage" is typed "mariage").
ARTICLES = ("a ", "an ", "un ", "une ", "una ", "uno ", "un' ")
#: The longest phrase read as one word ("pas de dernier pli", "mariage d atout").
LONGEST = 5


def fold(text: str) -> str:
    """Lower case without accents, apostrophes as spaces: what is compared ("Cœur" and "coeur" alike)."""
    t = text.lower().replace("œ", "oe").replace("’", " ").replace("'", " ")
    t = "".join(ch for ch in unicodedata.normalize("NFKD", t) if not unicodedata.combining(ch))
    return " ".join(t.split())


def contract_keys() -> dict[str, list[str]]:
    """Every contract and call name of every preset (English) -> the keys families give it, first seen first."""
    keys: dict[str, list[str]] = {}
    contracts = [c for p in presets() for c in p.ruleset.family_spec.contracts(p.ruleset)]
    for c in [*contracts, *classic_contracts(ravage_city=True, chinese_poker=True)]:
        if c.key not in keys.setdefault(c.name, []):
            keys[c.name].append(c.key)
    return keys


@dataclass
class Lexicon:
    """The words of one language as typed (folded) -> the engine's words."""

    lang: str

    ranks: dict[str, int] = field(default_factory=dict)  # letter -> rank 0..12
    suits: dict[str, int] = field(default_factory=dict)  # letter or symbol -> suit 0..3
    rank_words: dict[str, int] = field(default_factory=dict)  # "dame", "queen" -> rank
    suit_words: dict[str, int] = field(default_factory=dict)  # "coeur", "coeurs" -> suit
    keywords: dict[str, str] = field(default_factory=dict)  # "contre" -> "double"
    contracts: dict[str, list[str]] = field(default_factory=dict)  # "pas de dames" -> ["no-queens"]


def _alternatives(text: str) -> list[str]:
    return [fold(a) for a in text.split("|") if a.strip()]


@cache
def lexicon(lang: str) -> Lexicon:
    """The typed words of ``lang`` read from its catalogs."""
    w: Words = translator(lang)
    lex = Lexicon(lang, suits=dict(SYMBOLS))
    for r, letter in enumerate(RANKS):
        lex.ranks[fold(w.rank_letter(letter))] = r
        lex.rank_words[fold(w.pgettext("rank", RANK_NAMES[r]))] = r
    lex.ranks["10"] = RANKS.index("T")  # every language writes the ten "10" too
    for letter in "JQKA":  # the other letters a player may type for a face: the Italian K beside R
        for typed in _alternatives(w.pgettext("rank letters typed", letter)):
            lex.ranks.setdefault(typed, RANKS.index(letter))
    for s in range(4):
        lex.suits[fold(w.suit_letter(s))] = s
        lex.suit_words[fold(w.suit(s))] = s
        lex.suit_words[fold(w.suit1(s))] = s
    for word in TYPED_WORDS:
        for typed in _alternatives(w.pgettext("typed", word)):
            lex.keywords.setdefault(typed, word)
    for key, name in MELD_NAMES.items():
        typed = fold(w.pgettext("combination", name))
        for article in ARTICLES:
            typed = typed.removeprefix(article)
        lex.keywords.setdefault(typed, key)
    for name, keys in contract_keys().items():
        for typed in _alternatives(w.contract(name)):
            lex.contracts.setdefault(typed, [])
            lex.contracts[typed] += [k for k in keys if k not in lex.contracts[typed]]
    return lex


def _lexicons(lang: str) -> list[Lexicon]:
    """The player's language first, then English."""
    code = language(lang)
    return [lexicon(code)] if code == "en" else [lexicon(code), lexicon("en")]


def _card_in(token: str, lex: Lexicon) -> int | None:
    """A card written as one word in this lexicon's letters, rank first or suit first."""
    for i in range(1, len(token)):
        a, b = token[:i], token[i:]
        if a in lex.ranks and b in lex.suits:
            return lex.suits[b] * 13 + lex.ranks[a]
        if a in lex.suits and b in lex.ranks:
            return lex.suits[a] * 13 + lex.ranks[b]
    return None


def _card_phrase(words: list[str], lex: Lexicon) -> int | None:
    """A card in words: "dame de coeur", "10 di picche", "queen of hearts", "roi coeur"."""
    if len(words) == 3:
        if lex.keywords.get(words[1]) != "of":
            return None
        words = [words[0], words[2]]
    if len(words) != 2:
        return None
    rank = lex.rank_words.get(words[0], lex.ranks.get(words[0]))
    suit = lex.suit_words.get(words[1])
    return None if rank is None or suit is None else suit * 13 + rank


def card_of(text: str, lang: str, english: bool = True) -> str | None:
    """The card ``text`` names in ``lang`` (then English) in the engine's notation ("QD", "QS*"), or None."""
    t = fold(text)
    star = "*" if t.endswith("*") else ""
    t = t.removesuffix("*").strip()
    for lex in _lexicons(lang) if english else [lexicon(language(lang))]:
        c = _card_in(t, lex) if " " not in t else None
        if c is None:
            c = _card_phrase(t.split(), lex)
        if c is not None:
            return RANKS[c % 13] + SUITS[c // 13] + star
    return None


def parse_card(text: str, lang: str) -> int:
    """The card 0..51 a player typed in ``lang``; the core's ParseError (not-a-card) when nothing fits."""
    card = card_of(text, lang)
    if card is None or card.endswith("*"):
        raise ParseError.of(NOT_A_CARD, text=text)
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def contract_readings(text: str, lang: str) -> list[str]:
    """The contract keys ``text`` may name, a Scottish combination's calls joined by "+"."""
    t = fold(text)
    lexes = _lexicons(lang)
    for lex in lexes:
        for prefix in ("contract", "call"):
            for typed, word in lex.keywords.items():
                if word == prefix and t.startswith(typed + " "):
                    t = t.removeprefix(typed + " ")
    for lex in lexes:
        if t in lex.contracts:
            return list(lex.contracts[t])
    ands = {typed for lex in lexes for typed, word in lex.keywords.items() if word == "and"}
    parts = [p.strip() for p in re.split(r"\s*[+,&]\s*|\s+(?:" + "|".join(map(re.escape, ands)) + r")\s+", t)]
    if len(parts) < 2:
        return []
    keys = []
    for part in parts:
        found = next((lex.contracts[part][0] for lex in lexes if part in lex.contracts), None)
        if found is None:
            return []
        keys.append(found)
    return ["+".join(keys)]


def _word(words: list[str], lang: str) -> tuple[str, int] | None:
    """The engine's word for the longest phrase at the start of ``words``, and how many words it took.

    The player's language is read before English: a French "as" is an ace, not the ace of spades.
    """
    for n in range(min(LONGEST, len(words)), 0, -1):
        phrase = " ".join(words[:n])
        for lex in _lexicons(lang):
            card = card_of(phrase, lex.lang, english=False)
            if card is not None:
                return card, n
            if phrase in lex.keywords and lex.keywords[phrase] != "of":  # "de" only joins a card's words
                return lex.keywords[phrase], n
            if n == 1 and phrase in lex.rank_words:
                return RANKS[lex.rank_words[phrase]], 1
            if n == 1 and phrase in lex.suit_words:
                return SUIT_NAMES[lex.suit_words[phrase]], 1
            if phrase in lex.contracts:
                return lex.contracts[phrase][0], n
            if n == 1 and not phrase.isdigit() and phrase in lex.ranks:
                return RANKS[lex.ranks[phrase]], 1
            if n == 1 and lex.lang != "en" and phrase in lex.suits:  # "atout c": cœur (English letters stay)
                return SUIT_NAMES[lex.suits[phrase]], 1
    return None


def _phrases(text: str, lang: str) -> list[tuple[str, str]]:
    """``text`` read phrase by phrase, longest first: (the engine's word, the phrase as typed, folded)."""
    words = fold(text).replace(",", " , ").split()
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        found = _word(words[i:], lang)
        n = 1 if found is None else found[1]
        out.append((words[i] if found is None else found[0], " ".join(words[i : i + n])))
        i += n
    return out


def word_by_word(text: str, lang: str) -> str:
    """``text`` read phrase by phrase, longest first; what is not a word of ours stays as typed."""
    return " ".join(engine for engine, _ in _phrases(text, lang)).replace(" , ", ", ")


def readings(text: str, lang: str) -> list[str]:
    """Every engine text ``text`` may mean for a player of ``lang``, best first; the text as typed comes last."""
    out: list[str] = []
    card = card_of(text, lang, english=False)
    for reading in ([card] if card else []) + contract_readings(text, lang) + [word_by_word(text, lang)]:
        if reading and reading not in out:
            out.append(reading)
    typed = " ".join(text.split())
    if typed not in out and typed.lower() not in out:
        out.append(typed)
    return out


def engine_text(text: str, lang: str) -> str:
    """What a player typed in ``lang`` in the engine's notation ("dk" -> "QD", "passe" -> "pass")."""
    return readings(text, lang)[0]


def parse_typed(game: Any, text: str, lang: str) -> Any:
    """The action ``game.parse_action`` reads from the first reading it accepts.

    When none fits, the refusal that names the smallest wrong part is raised ("unknown
    combination 'mariagex'" rather than "cannot read 'annonce mariagex rp dp'"; the text as
    typed on a tie), with the player's own words in it, never the engine's ("'2p'", not
    "'2S'"); `barbu.i18n.word_error` words it in their language.
    """
    options = readings(text, lang)
    errors: list[tuple[str, ParseError]] = []
    for reading in options:
        try:
            return game.parse_action(reading)
        except ParseError as e:
            errors.append((reading, e))
    reading, least = min(reversed(errors), key=lambda re: len(str(re[1].params.get("text", re[0]))))
    wrong = least.params.get("text")
    if least.message is None or not isinstance(wrong, str) or reading == options[-1]:
        raise least
    typed = {engine.lower(): phrase for engine, phrase in _phrases(text, lang)}
    typed[reading.lower()] = " ".join(text.split())
    if wrong.lower() in typed:
        raise type(least).of(least.message, **{**least.params, "text": typed[wrong.lower()]})
    raise least
