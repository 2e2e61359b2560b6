"""``barbu rules``: every game and its variants, or one ruleset's options and contracts in words."""

from __future__ import annotations

import argparse

from rich.table import Table
from rich.text import Text

from ..classic.match import Match
from ..classic.ruleset import OPTIONS, Ruleset, preset, presets
from ..games import game_kind
from ..guide import value_phrase
from ..guide.barbu import contract_values
from ..i18n import _, number, words
from .common import besigue_commands, console
from .wording import contract, data, option_cell


def add_arguments(r: argparse.ArgumentParser) -> None:
    r.add_argument("name", nargs="?", help=_("a preset or ruleset text, like classic(rotation=quick)"))
    r.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    if args.name and game_kind(args.name).name == "besigue":
        return besigue_commands().cmd_rules(args, console)
    if not args.name:
        t = Table(title=_("Presets"), show_lines=False)
        t.add_column(_("preset"))
        t.add_column(_("aliases"))
        t.add_column(_("players"))
        t.add_column(_("description"))
        for p in presets():
            fam = p.ruleset.family_spec
            t.add_row(p.name, ", ".join(p.aliases), ",".join(str(x) for x in fam.players), data(p.description))
        console.print(t)
        besigue_commands().print_presets(console)
        console.print(
            _(
                "Show one preset's options with [bold]barbu rules NAME[/bold]; "
                "override them as in [bold]classic(rotation=quick)[/bold]."
            )
        )
        return 0
    r = Ruleset.parse(args.name)
    fam = r.family_spec
    p = preset(r.preset)
    console.print(f"[bold]{r}[/bold] — {data(p.description)}")
    wins = _("highest total wins") if fam.highest_wins else _("lowest total wins")
    console.print(_("{description}; {wins}.").format(description=data(fam.description), wins=wins))
    t = Table(title=_("Options"))
    t.add_column(_("option"), width=max(len(n) for n in OPTIONS))
    t.add_column(_("value"), overflow="fold")
    # at most a third of 80 columns: a long identifier ("never_unless_only_hearts") is folded, never the table
    # cut at the terminal's edge, its right-hand column with it
    t.add_column(_("allowed"), overflow="fold", max_width=18)
    t.add_column(_("meaning"), overflow="fold")
    for name, value in r.option_values().items():
        if name != "players" and name not in fam.options:
            continue
        spec = OPTIONS[name]
        allowed = ", ".join(str(x) for x in fam.players) if name == "players" else spec.allowed(words())
        t.add_row(option_cell(name), value_phrase(name, value, words()), allowed, data(spec.help))
    console.print(t)
    m = Match(r)
    if fam.name == "scottish":
        print_scottish_calls(m)
        return 0
    c = Table(title=_("Contracts (each declarer names each once)"))
    c.add_column(_("contract"))
    c.add_column(_("key"))
    c.add_column(_("total"), justify="right")
    c.add_column(_("how it scores"))
    for k in m.contracts:  # what each trick or card is worth first, then the contract in words
        c.add_row(
            contract(k.name),
            k.key,
            number(k.total(m.n, m.hand_size, m.deck)) if k.fixed_total else _("varies"),
            Text.assemble((contract_values(k, m.n, words()), "bold"), "\n", data(k.help)),
        )
    console.print(c)
    return 0


def print_scottish_calls(m: Match) -> None:
    """The seven calls of a Round; groups of negative calls are played at once."""
    c = Table(title=_("Calls (each Round plays all seven, alone or in groups)"))
    c.add_column(_("call"))
    c.add_column(_("key"))
    c.add_column(_("total"), justify="right")
    c.add_column(_("how it scores"))
    for key in ("aces", "king", "queens", "hearts", "tricks", "patience", "double-patience"):
        k = m.contract_by_key[key]
        c.add_row(
            contract(k.name),
            key,
            number(k.total(m.n, m.hand_size, m.deck)),
            Text.assemble((contract_values(k, m.n, words()), "bold"), "\n", data(k.help)),
        )
    console.print(c)
    console.print(
        _(
            "Groups of negative calls are called as one, like [bold]king+queens[/bold] (all five: "
            "[bold]the-lot[/bold]). A Caller's seven calls must include two groups of 2+ or one of 3+. "
            "The Silly Round's calls and pass-ons are cut from the Unused Pack."
        )
    )
