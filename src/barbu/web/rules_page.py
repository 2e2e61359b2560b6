"""The rules pages: every preset explained, rendered from `barbu.guide` (never a second copy of the rules)."""

from __future__ import annotations

from html import escape

from ..besigue.actions import MELD_NAMES, MELD_VALUES
from ..besigue.ruleset import OPTIONS as BESIGUE_OPTIONS, PRESETS as BESIGUE_PRESETS, BesigueRules
from ..core.errors import BarbuError
from ..games import game_kind
from ..guide import Guide, Section, Table, rules_guide
from ..classic.ruleset import presets
from ..classic.ruleset import Ruleset

HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/static/css/barbu.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head>
<body class="rules-page"><header class="topbar"><h1><a href="/" class="home">♠ barbu</a>
<span class="muted">rules</span></h1><div class="topbar-right"><a class="button" href="/">Lobby</a></div></header>
<main class="rules-main">"""
TAIL = "</main></body></html>"


def _block(b: object) -> str:
    if isinstance(b, str):
        return f"<p>{escape(b)}</p>"
    if isinstance(b, Table):
        head = "".join(f"<th>{escape(h)}</th>" for h in b.header)
        rows = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in b.rows)
        return f'<div class="rules-table"><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'
    return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in b) + "</ul>"  # type: ignore[union-attr]


def _names() -> list[tuple[str, str]]:
    """Every preset of every game, with its description."""
    return [(p.name, p.description) for p in presets()] + [(k, d) for k, (_, d) in BESIGUE_PRESETS.items()]


def _nav(current: str | None) -> str:
    links = " ".join(
        f'<a class="button{" primary" if name == current else ""}" href="/rules/{escape(name)}">{escape(name)}</a>'
        for name, _ in _names())
    return f'<nav class="rules-nav" aria-label="Games">{links}</nav>'


def render_guide(guide: Guide, current: str) -> str:
    body = [f"<h2>{escape(guide.title)}</h2>", _nav(current)]
    for s in guide.sections:
        body.append(f'<section class="panel"><h3>{escape(s.heading)}</h3>'
                    + "".join(_block(b) for b in s.blocks) + "</section>")
    return HEAD.format(title=f"barbu — rules of {escape(current)}") + "".join(body) + TAIL


def rules_index() -> str:
    items = "".join(f'<li><a href="/rules/{escape(name)}">{escape(name)}</a> — {escape(desc)}</li>'
                    for name, desc in _names())
    return (HEAD.format(title="barbu — rules") + '<section class="panel"><h2>The rules of every game</h2>'
            f"<ul>{items}</ul></section>" + TAIL)


def rules_html(text: str) -> str | None:
    """The page for a preset or ruleset text; None if it names no game."""
    if game_kind(text).name == "besigue":
        try:
            b = BesigueRules.parse(text)
        except BarbuError:
            return None
        return render_guide(besigue_guide(b), b.preset)
    try:
        rules = Ruleset.parse(text)
    except BarbuError:
        return None
    return render_guide(rules_guide(rules), rules.preset)


MELD_CARDS = {
    "marriage": "K and Q of a suit", "trump-marriage": "K and Q of trumps", "bezique": "Q♠ and J♦",
    "double-bezique": "both Q♠ and both J♦", "four-jacks": "any four jacks", "four-queens": "any four queens",
    "four-kings": "any four kings", "four-aces": "any four aces", "quint": "A 10 K Q J of trumps",
}


def besigue_guide(r: BesigueRules) -> Guide:
    """Bésigue's rules page, from the ruleset and the engine's tables of combinations and options."""
    last = ("follow suit and head the trick if you can, else trump if you can"
            if r.endgame == "must_win" else "follow suit if you can, else trump if you can")
    seven = ("after winning a trick, the holder of the 7 of trumps may exchange it for the turn-up, "
             "or show the other one: 10 points, in place of that trick's declaration"
             if r.seven == "exchange" else "the 7 of trumps scores 10 when it is drawn from the stock, shown at once")
    brisques = "each ace and each 10" if r.brisques == "aces_and_tens" else "each ace"
    game = Section("The game", (
        f"Two players, 64 cards (two packs of 32), ranked A 10 K Q J 9 8 7. Each is dealt {r.hand} cards; "
        f"the rest ({r.stock_size} cards) is the stock, its bottom card turned up: its suit is trumps "
        "(a 7 turned up scores 10 for the dealer).",
        f"The game ends at the end of a deal in which a player has reached {r.target} points; "
        "the higher total wins.",
    ))
    play = Section("The play", (
        "The non-dealer leads. While the stock lasts there is no duty: play any card. The higher card of the "
        "suit led wins, or a trump over another suit; of two identical cards the first played wins.",
        "The winner of a trick may declare one combination by laying its cards face up before him; they stay "
        "his and he may play them from there later. Then both draw from the stock, the winner first.",
        f"When the stock is empty the declared cards go back to the hands and the last {r.hand} tricks are "
        f"played: you must {last}.",
    ))
    combos = Section("Combinations", (
        Table(("combination", "cards", "points"),
              tuple((MELD_NAMES[k].removeprefix("a ").capitalize(), MELD_CARDS[k], str(v))
                    for k, v in sorted(MELD_VALUES.items(), key=lambda kv: -kv[1]))),
        "A declaration takes at least one card from the hand. A card already declared may serve again only in "
        "a combination of another kind.",
    ))
    other = Section("Other points", (
        (f"10 for {brisques} won in tricks (brisques), counted at the end of the deal",
         "10 for the last trick", seven),
    ))
    options = Section("Options", (
        Table(("option", "value", "meaning"),
              tuple((name, str(getattr(r, name)), meaning + (f" — {values[str(getattr(r, name))]}"
                                                             if str(getattr(r, name)) in values else ""))
                    for name, (_, meaning, values) in BESIGUE_OPTIONS.items())),
    ))
    return Guide(f"Bésigue — {r}", (game, play, combos, other, options))
