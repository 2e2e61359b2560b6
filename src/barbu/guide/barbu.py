"""The rules of a Barbu-family game in words, built from the ruleset itself.

Point values are read from the contract tables and the doubling example is
computed with the engine's own `settle`, so the guide can never disagree with
the scoring.  The result is plain data (sections of paragraphs, lists and
small tables) that the terminal, the web page and the command line render.
"""

from __future__ import annotations

from ..classic.contracts import CHINESE, DOMINO, Contract
from ..classic.match import Business, Match, settle
from ..classic.ruleset import OPTIONS, Ruleset, preset
from ..core.cards import CARDS, RANKS, SUIT_MASK, SUIT_SYMBOLS, rank_mask
from .model import Block, Guide, Section, Table


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def card_name(c: int) -> str:
    rank = RANKS[c % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[c // 13]


def _card_points_words(contract: Contract) -> list[str]:
    """'−6 for each queen', '−2 for each heart, the A♥ −6' … grouped by value."""
    by_value: dict[int, int] = {}
    for c, v in contract.card_points:
        by_value[v] = by_value.get(v, 0) | 1 << c
    words = []
    for value, mask in sorted(by_value.items(), key=lambda kv: -bin(kv[1]).count("1")):
        what = None
        for r in range(13):
            if mask == rank_mask(r):
                what = f"each {('10' if RANKS[r] == 'T' else RANKS[r])}" if RANKS[r] not in "QKJA" else \
                    f"each {dict(Q='queen', K='king', J='jack', A='ace')[RANKS[r]]}"
        for s, m in enumerate(SUIT_MASK):
            if mask == m:
                what = f"each {SUIT_SYMBOLS[s]}"
        if what is None:
            everything = 0
            for m2 in by_value.values():
                everything |= m2
            suit = next((s for s, m in enumerate(SUIT_MASK) if mask & m == mask and everything & m == m), None)
            if suit is not None and bin(mask).count("1") > 6:
                what = f"each other {SUIT_SYMBOLS[suit]}"
        if what is None:
            cards = [card_name(c) for c in CARDS if mask >> c & 1]
            what = " ".join(cards) if len(cards) <= 6 else f"each of {len(cards)} cards"
        words.append(f"{signed(value)} for {what}")
    return words


def contract_values(contract: Contract, players: int) -> str:
    """What a contract is worth, in one phrase built from its scoring parts."""
    bits: list[str] = []
    if contract.kind == CHINESE:
        return "+4 to the stronger of each pair of rows, for every other player; a fouled hand loses all its rows"
    if contract.per_trick:
        bits.append(f"{signed(contract.per_trick)} for each trick taken")
    bits += _card_points_words(contract)
    if contract.last_tricks:
        names = ["the last trick", "the second-to-last trick", "the third-to-last trick"]
        parts = [f"{names[i]} {signed(v)}" for i, v in enumerate(reversed(contract.last_tricks)) if v]
        bits.append(", ".join(parts))
    if contract.finishing:
        places = ["1st", "2nd", "3rd", "4th", "5th", "6th"]
        bits.append("finishing " + ", ".join(f"{places[i]} {signed(v)}"
                                              for i, v in enumerate(contract.finishing[:players])))
    if contract.ravage:
        bits.append(f"{signed(-contract.ravage)} for the most cards taken in one suit (shared by ties)")
    return "; ".join(bits) or "no points"


def contract_summary(rules: Ruleset, key: str) -> str:
    """One or two sentences for a contract: what it asks and what it is worth."""
    m = Match(rules)
    c = m.contract_by_key[key]
    text = f"{c.name}: {contract_values(c, m.n)}."
    if c.help:
        text += f" {c.help}"
    return text


def _match_section(rules: Ruleset, m: Match) -> Section:
    fam = rules.family_spec
    n = m.n
    blocks: list[Block] = []
    if rules.family == "scottish":
        blocks.append(f"{n} players, 32 cards (7 to ace), 8 cards each. A match is {rules.sets} Set(s); a Set is "
                      "four Player Rounds and a Silly Round. In a Player Round the Caller deals every deal and "
                      "names the calls to play, one or a group of them at once, until all seven are played; in "
                      "the Silly Round cuts of the Unused Pack decide the calls and the pass-ons.")
    else:
        per = len(m.contracts)
        if rules.rotation == "quick":
            how = ("The deal passes to the left after every deal; the dealer declares the contract, "
                   f"and each player declares each of the {per} contracts once.")
        else:
            how = (f"Each player in turn deals {per} times in a row (his series) and declares a different "
                   "contract each time, so that every contract is played once by every dealer.")
        blocks.append(f"{n} players, {bin(m.deck).count('1')} cards, {m.hand_size} each; {m.total_deals} deals. "
                      + how)
    blocks.append("The highest total wins." if fam.highest_wins else
                  "Points are penalties: the lowest total wins.")
    return Section("How a match runs", tuple(blocks))


def _contracts_section(rules: Ruleset, m: Match) -> Section:
    rows = []
    for c in m.contracts:
        what = c.help or ""
        rows.append((c.name, contract_values(c, m.n), what))
    total_note = ("Each contract's points add up to a fixed total on every deal, so the scores of a deal always "
                  "balance." if rules.family_spec.zero_sum else "")
    blocks: list[Block] = [Table(("contract", "points", "what it asks"), tuple(rows))]
    if total_note:
        blocks.append(total_note)
    return Section("The contracts and what they are worth", tuple(blocks))


def _play_section(rules: Ruleset, m: Match) -> Section:
    heart = {
        "never_unless_only_hearts": "In the heart contracts a heart may not be led unless you hold nothing else; "
                                    "discarding hearts is always allowed.",
        "first_trick": "In the heart contracts hearts may not be led to the first trick unless you hold only hearts.",
        "until_broken": "Hearts may not be led until a heart has been discarded on another suit.",
        "none": "",
    }[rules.heart_lead]
    trump = ("When trumps are led you must play a higher trump if you can; when you cannot follow a plain suit "
             "you must trump, and overtrump a trump already played." if rules.trump_rules == "classic" else
             "When you cannot follow suit you must trump, and overtrump if the trick is already trumped; when "
             "trumps are led you follow without having to win.")
    items = ["Follow suit if you can; otherwise play any card. The highest card of the suit led wins the trick, "
             "or the highest trump; the winner leads the next trick."]
    if any(c.trump for c in m.contracts):
        items.append(trump)
    if any(c.kind == DOMINO for c in m.contracts):
        items.append("Domino: the declarer names a starting rank. On your turn play a card of that rank, or the "
                     "next card up or down in a suit already started; if you cannot, you pass.")
    if heart:
        items.append(heart)
    if rules.stop_when_decided:
        items.append("A deal stops as soon as no card left in anyone's hand can change a score.")
    return Section("Playing the cards", tuple([tuple(items)]))


def _doubling_section(rules: Ruleset, m: Match) -> Section | None:
    if rules.doubling != "classic" or m.n != 4:
        return None
    seats = ["North", "East", "South", "West"]
    negative = next((c for c in m.contracts if c.key in ("no-queens", "queens")), None) or \
        next(c for c in m.contracts if not c.positive and c.kind != CHINESE)
    each = next((v for _, v in negative.card_points), negative.per_trick) or -1
    # North deals and declares; queens taken: North 2, East 0, South 1, West 1.
    base = [2 * each, 0, each, each]
    business = [Business(1, 0, redoubled=True), Business(1, 2)]
    final = settle(base, business)
    pay_ne = (base[1] - base[0]) * 2
    pay_es = base[1] - base[2]
    items: list[Block] = [
        "After the contract is named (and trumps or the starting rank), each player in turn from the dealer's "
        "left may double other players, the dealer speaking last. A double is a bet between two players on this "
        "deal only: whoever scores better takes the difference from the other. A double answered by the "
        "doubled player is a redouble, and the difference counts twice.",
        "At negative contracts you may double anyone; at the positive ones (Trumps, Domino) only the dealer may "
        "be doubled. The dealer never doubles; he may only redouble.",
    ]
    if rules.double_obligation:
        items.append(f"The obligation: over each dealer's series, every other player must double that dealer at "
                     f"least {rules.double_obligation} times. A player who still owes doubles when the deals left "
                     "are as many as the doubles owed must double the dealer on each of them; the table shows "
                     "\"owes\" beside his name.")
    if rules.undoubled_negative == "split":
        items.append("No doubles, no play: if nobody doubles at a negative contract the deal is not played; its "
                     "points are shared out among the players who did not deal.")
    items.append(Table(("", *seats), (
        (f"{negative.name}: points taken", *(signed(x) for x in base)),
        ("after the doubles", *(signed(x) for x in final)),
    )))
    items.append(f"Worked example: North deals and declares {negative.name}. East doubles North and South; "
                 f"North redoubles East. North takes two queens' worth ({signed(base[0])}), East nothing, South and "
                 f"West {signed(each)} each. East against North: the difference is {abs(base[1] - base[0])}, "
                 f"redoubled {abs(pay_ne)}, paid by North to East. East against South: {abs(pay_es)}, paid by "
                 f"South. West doubled nobody and keeps his {signed(base[3])}. The deal's total stays "
                 f"{signed(sum(base))}.")
    return Section("Doubling", tuple(items))


def _options_section(rules: Ruleset) -> Section:
    fam = rules.family_spec
    rows = []
    for name, value in rules.option_values().items():
        if name == "players" or name not in fam.options:
            continue
        rows.append((name.replace("_", " "), OPTIONS[name].format(value), OPTIONS[name].help))
    if not rows:
        return Section("Options", ("This game has no options.",))
    return Section("Options of this table", (Table(("option", "value", "meaning"), tuple(rows)),))


def barbu_guide(rules: Ruleset | str) -> Guide:
    """Everything a newcomer needs to play this ruleset: the match, the contracts, the play, doubling."""
    rules = Ruleset.parse(rules) if isinstance(rules, str) else rules
    m = Match(rules)
    sections = [_match_section(rules, m), _contracts_section(rules, m), _play_section(rules, m)]
    doubling = _doubling_section(rules, m)
    if doubling:
        sections.append(doubling)
    sections.append(_options_section(rules))
    return Guide(f"{rules.preset}: {preset(rules.preset).description}", tuple(sections))


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


def settlement_words(base, doubles, name) -> list[str]:
    """"East doubled you and you redoubled: you pay 24 to East" … for the end-of-deal summary."""
    lines = []
    for b, (payer, receiver, amount, redoubled) in zip(doubles, settlements(base, doubles)):
        what = f"{name(b.doubler)} doubled {name(b.doubled)}" + (f", redoubled by {name(b.doubled)}" if redoubled else "")
        if amount == 0:
            lines.append(f"{what}: level, nothing changes hands")
        else:
            lines.append(f"{what}: {name(payer)} {'pay' if name(payer) == 'you' else 'pays'} {amount} "
                         f"to {name(receiver)}")
    return lines
