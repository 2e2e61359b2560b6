"""The rules of a Barbu-family game in words, built from the ruleset itself.

Point values are read from the contract tables and the doubling example is
computed with the engine's own `settle`, so the guide can never disagree with
the scoring.  The result is plain data (sections of paragraphs, lists and
small tables) that the terminal, the web page and the command line render.
"""

from __future__ import annotations

from ..classic.contracts import ALL_AT_ONCE, CHINESE, DOMINO, SCOTTISH_HELP, Contract
from ..classic.match import Business, Match, settle
from ..classic.ruleset import OPTIONS, Ruleset, preset
from ..core.cards import CARDS, RANKS, SUIT_MASK, SUIT_SYMBOLS, rank_mask
from ..core.words import ENGLISH, N_, RANK_NAMES, Words
from .model import Block, Guide, Section, Table
from .ruleset_words import option_about, option_label, preset_name, value_phrase


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def card_name(c: int) -> str:
    rank = RANKS[c % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[c // 13]


def contract_help(contract: Contract, w: Words = ENGLISH) -> str:
    """A contract's help in ``w``'s language; a Scottish group's is its calls' help one after the other."""
    parts = contract.parts
    if len(parts) > 1 and all(p in SCOTTISH_HELP for p in parts):
        rules = " ".join(w.gettext(SCOTTISH_HELP[p]) for p in parts)
        return w.gettext(ALL_AT_ONCE).format(rules=rules)
    return w.gettext(contract.help) if contract.help else ""


def _rank_word(w: Words, r: int) -> str:
    """'queen' for a face card or an ace, '10' or '7' for the others."""
    return w.pgettext("rank", RANK_NAMES[r]) if RANKS[r] in "JQKA" else RANKS[r].replace("T", "10")


def _card_points_words(contract: Contract, w: Words = ENGLISH) -> list[str]:
    """'−6 for each queen', '−2 for each heart, the A♥ −6' … grouped by value."""
    by_value: dict[int, int] = {}
    for c, v in contract.card_points:
        by_value[v] = by_value.get(v, 0) | 1 << c
    words = []
    for value, mask in sorted(by_value.items(), key=lambda kv: -bin(kv[1]).count("1")):
        what = None
        for r in range(13):
            if mask == rank_mask(r):
                what = w.gettext("{value} for each {rank}").format(value=signed(value), rank=_rank_word(w, r))
        for s, m in enumerate(SUIT_MASK):
            if mask == m:
                what = w.gettext("{value} for each {suit}").format(value=signed(value), suit=SUIT_SYMBOLS[s])
        if what is None:
            everything = 0
            for m2 in by_value.values():
                everything |= m2
            suit = next((s for s, m in enumerate(SUIT_MASK) if mask & m == mask and everything & m == m), None)
            if suit is not None and bin(mask).count("1") > 6:
                what = w.gettext("{value} for each other {suit}").format(value=signed(value), suit=SUIT_SYMBOLS[suit])
        if what is None:
            cards = [w.card(c) for c in CARDS if mask >> c & 1]
            if len(cards) <= 6:
                what = w.gettext("{value} for {cards}").format(value=signed(value), cards=" ".join(cards))
            else:
                what = w.gettext("{value} for each of {n} cards").format(value=signed(value), n=len(cards))
        words.append(what)
    return words


#: The last tricks, the last one first.
LAST_TRICKS = (
    N_("the last trick {value}"),
    N_("the second-to-last trick {value}"),
    N_("the third-to-last trick {value}"),
)
#: Finishing places in Domino-like contracts.
PLACES = (
    N_("1st {value}"),
    N_("2nd {value}"),
    N_("3rd {value}"),
    N_("4th {value}"),
    N_("5th {value}"),
    N_("6th {value}"),
)


def contract_values(contract: Contract, players: int, w: Words = ENGLISH) -> str:
    """What a contract is worth, in one phrase built from its scoring parts."""
    bits: list[str] = []
    if contract.kind == CHINESE:
        return w.gettext(
            "+4 to the stronger of each pair of rows, for every other player; a fouled hand loses all its rows"
        )
    if contract.per_trick:
        bits.append(w.gettext("{value} for each trick taken").format(value=signed(contract.per_trick)))
    bits += _card_points_words(contract, w)
    if contract.last_tricks:
        parts = [
            w.gettext(LAST_TRICKS[i]).format(value=signed(v)) for i, v in enumerate(reversed(contract.last_tricks)) if v
        ]
        bits.append(", ".join(parts))
    if contract.finishing:
        places = ", ".join(
            w.gettext(PLACES[i]).format(value=signed(v)) for i, v in enumerate(contract.finishing[:players])
        )
        bits.append(w.gettext("finishing {places}").format(places=places))
    if contract.ravage:
        bits.append(
            w.gettext("{value} for the most cards taken in one suit (shared by ties)").format(
                value=signed(-contract.ravage)
            )
        )
    # TRANSLATORS: between the parts of a contract's value ("−2 for each other ♥; −6 for A♥"); French: " ; "
    return w.pgettext("separator", "; ").join(bits) or w.gettext("no points")


def contract_summary(rules: Ruleset, key: str, w: Words = ENGLISH) -> str:
    """One or two sentences for a contract: what it asks and what it is worth."""
    m = Match(rules)
    c = m.contract_by_key[key]
    text = w.gettext("{name}: {values}.").format(name=w.contract(c.name), values=contract_values(c, m.n, w))
    help_ = contract_help(c, w)
    if help_:
        text += f" {help_}"
    return text


def _match_section(rules: Ruleset, m: Match, w: Words) -> Section:
    fam = rules.family_spec
    n = m.n
    blocks: list[Block] = []
    if rules.family == "scottish":
        blocks.append(
            w.ngettext(
                "{n} players, 32 cards (7 to ace), 8 cards each. A match is {sets} Set(s); a Set is "
                "four Player Rounds and a Silly Round. In a Player Round the Caller deals every deal and "
                "names the calls to play, one or a group of them at once, until all seven are played; in "
                "the Silly Round cuts of the Unused Pack decide the calls and the pass-ons.",
                "{n} players, 32 cards (7 to ace), 8 cards each. A match is {sets} Set(s); a Set is "
                "four Player Rounds and a Silly Round. In a Player Round the Caller deals every deal and "
                "names the calls to play, one or a group of them at once, until all seven are played; in "
                "the Silly Round cuts of the Unused Pack decide the calls and the pass-ons.",
                rules.sets,
            ).format(n=n, sets=rules.sets)
        )
    else:
        per = len(m.contracts)
        if m.series_length < per:  # the short match
            each = m.series_length
            how = w.ngettext(
                "A short match: each player declares {each} contract of the {per}, choosing it from his whole list.",
                "A short match: each player declares {each} different contracts of the {per}, choosing them "
                "from his whole list.",
                each,
            ).format(each=each, per=per)
            if rules.rotation != "quick":
                how += " " + w.gettext("Each player in turn deals his deals in a row (his series).")
        elif rules.rotation == "quick":
            how = w.gettext(
                "The deal passes to the left after every deal; the dealer declares the contract, "
                "and each player declares each of the {per} contracts once."
            ).format(per=per)
        else:
            how = w.gettext(
                "Each player in turn deals {per} times in a row (his series) and declares a "
                "different contract each time, so that every contract is played once by every "
                "dealer."
            ).format(per=per)
        blocks.append(
            w.gettext("{n} players, {cards} cards, {hand} each; {deals} deals. {how}").format(
                n=n, cards=bin(m.deck).count("1"), hand=m.hand_size, deals=m.total_deals, how=how
            )
        )
    blocks.append(
        w.gettext("The highest total wins.")
        if fam.highest_wins
        else w.gettext("Points are penalties: the lowest total wins.")
    )
    return Section(w.gettext("How a match runs"), tuple(blocks))


def _contracts_section(rules: Ruleset, m: Match, w: Words) -> Section:
    rows = []
    for c in m.contracts:
        rows.append((w.contract(c.name), contract_values(c, m.n, w), contract_help(c, w)))
    total_note = (
        w.gettext(
            "Each contract's points add up to a fixed total on every deal, so the scores of a deal always balance."
        )
        if rules.family_spec.zero_sum
        else ""
    )
    # TRANSLATORS: the headings of the table of contracts in the rules
    header = (w.gettext("contract"), w.gettext("points"), w.gettext("what it asks"))
    blocks: list[Block] = [Table(header, tuple(rows))]
    if total_note:
        blocks.append(total_note)
    return Section(w.gettext("The contracts and what they are worth"), tuple(blocks))


#: When hearts may be led (the heart_lead option).
HEART_LEAD = {
    "never_unless_only_hearts": N_(
        "In the heart contracts a heart may not be led unless you hold nothing else; "
        "discarding hearts is always allowed."
    ),
    "first_trick": N_("In the heart contracts hearts may not be led to the first trick unless you hold only hearts."),
    "until_broken": N_("Hearts may not be led until a heart has been discarded on another suit."),
    "none": "",
}


def _play_section(rules: Ruleset, m: Match, w: Words) -> Section:
    heart = HEART_LEAD[rules.heart_lead]
    trump = (
        w.gettext(
            "When trumps are led you must play a higher trump if you can; when you cannot follow a "
            "plain suit you must trump, and overtrump a trump already played."
        )
        if rules.trump_rules == "classic"
        else w.gettext(
            "When you cannot follow suit you must trump, and overtrump if the trick is already "
            "trumped; when trumps are led you follow without having to win."
        )
    )
    items = [
        w.gettext(
            "Follow suit if you can; otherwise play any card. The highest card of the suit led wins "
            "the trick, or the highest trump; the winner leads the next trick."
        )
    ]
    if any(c.trump for c in m.contracts):
        items.append(trump)
    if any(c.kind == DOMINO for c in m.contracts):
        items.append(
            w.gettext(
                "Domino: the declarer names a starting rank. On your turn play a card of that "
                "rank, or the next card up or down in a suit already started; if you cannot, "
                "you pass."
            )
        )
    if heart:
        items.append(w.gettext(heart))
    if rules.stop_when_decided:
        items.append(w.gettext("A deal stops as soon as no card left in anyone's hand can change a score."))
    return Section(w.gettext("Playing the cards"), tuple([tuple(items)]))


SEATS = (N_("North"), N_("East"), N_("South"), N_("West"))


def _doubling_section(rules: Ruleset, m: Match, w: Words) -> Section | None:
    if rules.doubling != "classic" or m.n != 4:
        return None
    seats = [w.gettext(s) for s in SEATS]
    negative = next((c for c in m.contracts if c.key in ("no-queens", "queens")), None) or next(
        c for c in m.contracts if not c.positive and c.kind != CHINESE
    )
    each = next((v for _, v in negative.card_points), negative.per_trick) or -1
    # North deals and declares; queens taken: North 2, East 0, South 1, West 1.
    base = [2 * each, 0, each, each]
    business = [Business(1, 0, redoubled=True), Business(1, 2)]
    final = settle(base, business)
    pay_ne = (base[1] - base[0]) * 2
    pay_es = base[1] - base[2]
    name = w.contract(negative.name)
    items: list[Block] = [
        w.gettext(
            "After the contract is named (and trumps or the starting rank), each player in turn from the "
            "dealer's left may double other players, the dealer speaking last. A double is a bet between "
            "two players on this deal only: whoever scores better takes the difference from the other. A "
            "double answered by the doubled player is a redouble, and the difference counts twice."
        ),
        w.gettext(
            "At negative contracts you may double anyone; at the positive ones (Trumps, Domino) only the "
            "dealer may be doubled. The dealer never doubles; he may only redouble."
        ),
    ]
    if rules.double_obligation:
        items.append(
            w.ngettext(
                "The obligation: over each dealer's series, every other player must double that dealer at least "
                "{n} times. A player who still owes doubles when the deals left are as many as the doubles owed "
                'must double the dealer on each of them; the table shows "owes" beside his name.',
                "The obligation: over each dealer's series, every other player must double that dealer at least "
                "{n} times. A player who still owes doubles when the deals left are as many as the doubles owed "
                'must double the dealer on each of them; the table shows "owes" beside his name.',
                rules.double_obligation,
            ).format(n=rules.double_obligation)
        )
    if rules.undoubled_negative == "split":
        items.append(
            w.gettext(
                "No doubles, no play: if nobody doubles at a negative contract the deal is not "
                "played; its points are shared out among the players who did not deal."
            )
        )
    items.append(
        Table(
            ("", *seats),
            (
                (w.gettext("{name}: points taken").format(name=name), *(signed(x) for x in base)),
                (w.gettext("after the doubles"), *(signed(x) for x in final)),
            ),
        )
    )
    items.append(
        w.gettext(
            "Worked example: North deals and declares {name}. East doubles North and South; North redoubles East. "
            "North takes two queens' worth ({north}), East nothing, South and West {each} each. East against "
            "North: the difference is {diff}, redoubled {redoubled}, paid by North to East. East against South: "
            "{south}, paid by South. West doubled nobody and keeps his {west}. The deal's total stays {total}."
        ).format(
            name=name,
            north=signed(base[0]),
            each=signed(each),
            diff=abs(base[1] - base[0]),
            redoubled=abs(pay_ne),
            south=abs(pay_es),
            west=signed(base[3]),
            total=signed(sum(base)),
        )
    )
    return Section(w.gettext("Doubling"), tuple(items))


def _options_section(rules: Ruleset, w: Words) -> Section:
    fam = rules.family_spec
    rows = []
    for name, value in rules.option_values().items():
        if name == "players" or name not in fam.options:
            continue
        rows.append((option_label(name, w), value_phrase(name, value, w), option_about(name, OPTIONS[name].help, w)))
    if not rows:
        return Section(w.gettext("Options"), (w.gettext("This game has no options."),))
    # TRANSLATORS: the headings of the table of options in the rules
    header = (w.gettext("option"), w.gettext("value"), w.gettext("meaning"))
    return Section(w.gettext("Options of this table"), (Table(header, tuple(rows)),))


def barbu_guide(rules: Ruleset | str, w: Words = ENGLISH) -> Guide:
    """Everything a newcomer needs to play this ruleset: the match, the contracts, the play, doubling.

    ``w`` is the language it is written in (barbu.i18n.translator(lang); English by default).
    """
    rules = Ruleset.parse(rules) if isinstance(rules, str) else rules
    m = Match(rules)
    sections = [_match_section(rules, m, w), _contracts_section(rules, m, w), _play_section(rules, m, w)]
    doubling = _doubling_section(rules, m, w)
    if doubling:
        sections.append(doubling)
    sections.append(_options_section(rules, w))
    title = w.gettext("{preset}: {description}").format(
        preset=preset_name(rules.preset, w), description=w.gettext(preset(rules.preset).description)
    )
    return Guide(title, tuple(sections))


def settlements(base: tuple[int, ...] | list[int], doubles) -> list[tuple[int, int, int, bool]]:
    """Each double's transfer as (payer, receiver, amount, redoubled), computed as `settle` does."""
    out = []
    for b in doubles:
        diff = (base[b.doubler] - base[b.doubled]) * (2 if b.redoubled else 1)
        if diff >= 0:
            out.append((b.doubled, b.doubler, diff, b.redoubled))
        else:
            out.append((b.doubler, b.doubled, -diff, b.redoubled))
    return out


def settlement_words(base, doubles, name, w: Words = ENGLISH, me: int | None = None) -> list[str]:
    """ "East doubled you and you redoubled: you pay 24 to East" … for the end-of-deal summary.

    ``name(seat)`` words a seat; the seat ``me`` (or, if None, the one named "you") pays in the second person.
    """
    lines = []
    for b, (payer, receiver, amount, redoubled) in zip(doubles, settlements(base, doubles)):
        names = {"doubler": name(b.doubler), "doubled": name(b.doubled)}
        what = (
            w.gettext("{doubler} doubled {doubled}, redoubled by {doubled}")
            if redoubled
            else w.gettext("{doubler} doubled {doubled}")
        ).format(**names)
        you = payer == me if me is not None else name(payer) == "you"
        if amount == 0:
            lines.append(w.gettext("{what}: level, nothing changes hands").format(what=what))
        elif you:
            lines.append(
                w.gettext("{what}: you pay {amount} to {receiver}").format(
                    what=what, amount=w.number(amount), receiver=name(receiver)
                )
            )
        else:
            lines.append(
                w.gettext("{what}: {payer} pays {amount} to {receiver}").format(
                    what=what, payer=name(payer), amount=w.number(amount), receiver=name(receiver)
                )
            )
    return lines
