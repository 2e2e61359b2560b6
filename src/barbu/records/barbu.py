"""Match records: JSON Lines for machines, a PBN-like text form for people.

A record is the ruleset, the seed and every action, chance included, so a
replay re-derives every score.  Each finished deal also states its scores; a
record whose stated scores disagree with the replay is *inconsistent*, and
the replay names the deal.  Any line that cannot be read gives a
`RecordError` with its line number.

JSON Lines layout, one object per line:

* ``{"type": "header", "format": "barbu-record", "version": 1, "rules": "classic", "seed": 7, ...}``
* ``{"type": "action", "actor": 2, "action": "QH"}`` (``actor`` is ``"chance"`` for chance events)
* ``{"type": "deal", "number": 1, "contract": "no-queens", "base": [...], "scores": [...], "totals": [...]}``
* ``{"type": "result", "totals": [...]}`` once the match is over
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import IO, Any, Iterable, Sequence

from ..classic.chinese import fouled
from ..classic.match import CHANCE, DealResult, Match
from ..classic.ruleset import Ruleset
from ..classic.series import exact
from ..classic.state import Points
from ..core.actions import Deal, Declare, Double, NameRank, NameTrump, PassOn, parse_chance
from ..core.cards import CARDS, RANKS, SUITS, CardSet
from ..core.chance import verify_board_chance, verify_chance
from ..core.daily_keys import board_key, game_key
from ..core.errors import BarbuError
from ..core.places import table_place
from ..i18n import _
from . import refusals as R
from .lines import published_key, read_lines, record_objects, write_lines
from .refusals import refuse

FORMAT = "barbu-record"
VERSION = 1


@dataclass
class Record:
    """A record as read from a file: header, actions (as text) and the scores it states."""

    rules: Ruleset
    seed: int | None = None
    header: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)  # (line number, action text)
    stated: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line number, deal line)
    result: dict[str, Any] | None = None


@dataclass
class Replay:
    """The outcome of replaying a record."""

    match: Match
    inconsistencies: list[str]

    @property
    def consistent(self) -> bool:
        return not self.inconsistencies


# ---------------------------------------------------------------- writing
def record_lines(match: Match, header: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The JSON objects of a record of ``match`` so far, deal lines interleaved where deals end."""
    head = {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "rules": str(match.rules),
        "seed": match.seed,
        "players": match.n,
    }
    if header:
        head.update({k: v for k, v in header.items() if k not in ("type", "format", "version")})
    out: list[dict[str, Any]] = [head]
    m = Match(match.rules, match.seed)
    written = 0
    for action in match.history:
        actor = m.to_act()
        m.apply(action)
        out.append({"type": "action", "actor": "chance" if actor == CHANCE else actor, "action": str(action)})
        if len(m.results) > written:
            written = len(m.results)
            out.append(deal_line(m.results[-1], m.totals_after(written)))
    if m.is_over:
        out.append(
            {"type": "result", "totals": [number_out(x) for x in m.totals], "standings": [s for s, _ in m.standings()]}
        )
    return out


def deal_line(r: DealResult, totals: Sequence[Points]) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "deal", "number": r.number, "dealer": r.dealer, "contract": r.contract}
    if r.trump is not None:
        d["trump"] = SUITS[r.trump]
    if r.rank is not None:
        d["rank"] = RANKS[r.rank]
    d["doubles"] = [str(b) for b in r.doubles]
    d["played"] = r.played
    d["base"] = list(r.base)
    d["scores"] = list(r.scores)
    if r.series:
        d["series"] = [number_out(x) for x in r.series]
    if r.scottish is not None:
        info = r.scottish
        d["set"], d["round"], d["caller"] = info.set_no, info.round_no, info.caller
        d["calls"] = {call: list(pts) for call, pts in zip(info.calls, info.parts)}
        d["glyphs"] = [str(g) for g in info.glyphs]
    d["totals"] = [number_out(x) for x in totals]
    return d


def number_out(x: "int | Fraction") -> "int | str":
    """JSON form of a points value: whole numbers as numbers, exact fractions as "75/2"."""
    return x if isinstance(x, int) else str(x)


def number_in(x: object) -> "int | Fraction":
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    if isinstance(x, str):
        try:
            return exact(Fraction(x))
        except (ValueError, ZeroDivisionError):
            pass
    raise ValueError(f"{x!r} is not a number of points")


def write_record(match: Match, out: "str | Path | IO[str]", header: dict[str, Any] | None = None) -> None:
    """Write the JSON Lines record of ``match`` (finished or not) to a path or an open file."""
    write_lines(record_lines(match, header), out)


# ---------------------------------------------------------------- reading
def read_record(source: "str | Path | IO[str] | Iterable[str]") -> Record:
    """Parse a JSON Lines record; every problem names its line."""
    record: Record | None = None
    for no, obj in record_objects(read_lines(source)):
        kind = obj["type"]
        if record is None:
            if kind != "header":
                raise refuse(R.STARTS_WITH_HEADER, no)
            if obj.get("format") != FORMAT:
                raise refuse(R.NOT_A_RECORD, no, format=obj.get("format"))
            if obj.get("version") != VERSION:
                raise refuse(R.VERSION_UNSUPPORTED, no, version=obj.get("version"), expected=VERSION)
            try:
                rules = Ruleset.parse(str(obj.get("rules", "")))
            except BarbuError as e:
                raise refuse(R.BAD_RULESET, no, error=e) from None
            seed = obj.get("seed")
            if seed is not None and not isinstance(seed, int):
                raise refuse(R.BAD_SEED, no)
            record = Record(rules=rules, seed=seed, header=obj)
            continue
        if kind == "action":
            if not isinstance(obj.get("action"), str):
                raise refuse(R.ACTION_NEEDS_TEXT, no)
            record.actions.append((no, obj["action"]))
        elif kind == "deal":
            for key in ("number", "scores"):
                if key not in obj:
                    raise refuse(R.DEAL_NEEDS, no, key=key)
            if not isinstance(obj["scores"], list) or not all(isinstance(x, int) for x in obj["scores"]):
                raise refuse(R.DEAL_SCORES, no)
            record.stated.append((no, obj))
        elif kind == "result":
            record.result = obj
        elif kind == "header":
            raise refuse(R.SECOND_HEADER, no)
        else:
            raise refuse(R.UNKNOWN_LINE, no, kind=kind)
    if record is None:
        raise refuse(R.EMPTY_NO_HEADER)
    return record


def verify_deals(record: Record) -> list[int] | None:
    """Check a record's chance events against the key it publishes (see `barbu.chance`).

    None when the record carries no key; otherwise the numbers of the action
    lines whose deal, draw or cut is not the one the key produces (empty: all
    verified).
    """
    secret = published_key(record.header)
    board = daily_board_key(record.header)
    if secret is None and board is None:
        return None
    m = Match(record.rules, record.seed)
    actions = []
    for no, text in record.actions:
        try:
            actions.append(m.parse_action(text))
            m.apply(actions[-1])
        except BarbuError as e:
            raise refuse(R.CANNOT_REPLAY, no, text=text, error=e) from None
    if board is not None:  # a board of the daily deals: dealt by the board's key, derived from the day's
        wrong = verify_board_chance(lambda: Match(record.rules, record.seed), actions, board)
    elif secret is not None and record.header["chance"].get("dealing") == "boards":  # a duplicate event's table
        wrong = verify_board_chance(lambda: Match(record.rules, record.seed), actions, secret)
    else:
        assert secret is not None
        wrong = verify_chance(lambda: Match(record.rules, record.seed), actions, secret)
    return [record.actions[i][0] for i in wrong]


def with_daily_key(header: dict[str, Any], key: str) -> dict[str, Any]:
    """A daily deal's header given its day's published key (``barbu replay --daily-key``): the deal is then
    checked with it.  A record that is no daily deal's is refused."""
    daily = header.get("daily")
    if not isinstance(daily, dict):
        raise refuse(R.DAILY_BOARD, 1)
    return {
        **header,
        "chance": {
            "method": "hmac-sha256-daily",
            "day_key": key.strip(),
            "game": daily.get("game"),
            "board": daily.get("board"),
        },
    }


def daily_board_key(header: dict[str, Any]) -> bytes | None:
    """The chance key of a daily board whose record publishes its day's key (`barbu.core.daily_keys`), if any."""
    chance = header.get("chance")
    if not isinstance(chance, dict) or chance.get("method") != "hmac-sha256-daily":
        return None
    try:
        day = bytes.fromhex(str(chance.get("day_key", "")))
    except ValueError:
        raise refuse(R.KEY_NOT_HEX, 1) from None
    if len(day) < 16:
        raise refuse(R.KEY_TOO_SHORT, 1)
    game, number = chance.get("game"), chance.get("board")
    if not isinstance(game, str) or not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise refuse(R.DAILY_BOARD, 1)
    return board_key(game_key(day, game), number)


def replay(record: Record) -> Replay:
    """Re-apply every action; compare each stated deal score with the replay's."""
    m = Match(record.rules, record.seed)
    for no, text in record.actions:
        try:
            m.apply(m.parse_action(text))
        except BarbuError as e:
            raise refuse(R.CANNOT_REPLAY, no, text=text, error=e) from None
    problems: list[str] = []
    for no, d in record.stated:
        k = d["number"]
        if not isinstance(k, int) or not 1 <= k <= len(m.results):
            problems.append(
                _("deal {deal} (line {line}): the record states scores for a deal the actions never finish").format(
                    deal=k, line=no
                )
            )
            continue
        r = m.results[k - 1]
        if list(r.scores) != d["scores"]:
            problems.append(
                _("deal {deal} (line {line}): the record states scores {stated} but the play gives {played}").format(
                    deal=k, line=no, stated=d["scores"], played=list(r.scores)
                )
            )
        if "base" in d and d["base"] != list(r.base):
            problems.append(
                _(
                    "deal {deal} (line {line}): the record states contract points {stated} but the play gives {played}"
                ).format(deal=k, line=no, stated=d["base"], played=list(r.base))
            )
        if "totals" in d and d["totals"] != [number_out(x) for x in m.totals_after(k)]:
            problems.append(
                _(
                    "deal {deal} (line {line}): the record states running totals {stated} but the play gives {played}"
                ).format(deal=k, line=no, stated=d["totals"], played=[number_out(x) for x in m.totals_after(k)])
            )
        if "contract" in d and d["contract"] != r.contract:
            problems.append(
                _("deal {deal} (line {line}): the record says {stated} but {played} was played").format(
                    deal=k, line=no, stated=d["contract"], played=r.contract
                )
            )
        if r.scottish is not None and "calls" in d:
            mine = {call: list(pts) for call, pts in zip(r.scottish.calls, r.scottish.parts)}
            if d["calls"] != mine:
                problems.append(
                    _(
                        "deal {deal} (line {line}): the record states call points {stated} but the play gives {played}"
                    ).format(deal=k, line=no, stated=d["calls"], played=mine)
                )
        if list(r.series) != [_num_or_none(x) for x in d.get("series", [])]:
            problems.append(
                _(
                    "deal {deal} (line {line}): the record states series points {stated} but the play gives {played}"
                ).format(deal=k, line=no, stated=d.get("series", []), played=[number_out(x) for x in r.series])
            )
    stated_numbers = {d["number"] for _, d in record.stated}
    for r in m.results:
        if r.number not in stated_numbers:
            problems.append(_("deal {deal}: the record states no scores for it").format(deal=r.number))
    if record.result is not None:
        totals = [_num_or_none(x) for x in record.result.get("totals") or []]
        if totals != list(m.totals):
            problems.append(
                _("final result: the record states totals {stated} but the play gives {played}").format(
                    stated=totals, played=m.totals
                )
            )
    return Replay(m, problems)


def _num_or_none(x: object) -> "int | Fraction | None":
    try:
        return number_in(x)
    except ValueError:
        return None


def load_match(path: "str | Path") -> Match:
    """Read and replay a record, returning the match at its last action (for resuming)."""
    return replay(read_record(path)).match


# ---------------------------------------------------------------- text form
def deal_text(m: Match, r: DealResult, actions: list[tuple[int, Any]], names: Sequence[str] | None = None) -> list[str]:
    """The PBN-like tags and play of one finished deal.  ``actions`` are (actor, action) of the deal; ``names``
    (places when not given) call the players where the tags use words (a Scottish deal's glyphs)."""
    n = m.n
    lines = [
        f'[Deal "{r.number}"]',
        f'[Dealer "{r.dealer}"]',
        '[Hands "' + " ".join(str(CardSet(h)) for h in r.hands) + '"]',
        f'[Contract "{r.contract}"]',
    ]
    if r.trump is not None:
        lines.append(f'[Trump "{SUITS[r.trump]}"]')
    if r.rank is not None:
        lines.append(f'[Rank "{RANKS[r.rank]}"]')
    calls = [f"{s}:{a}" for s, a in actions if isinstance(a, Double)]
    if calls:
        lines.append('[Auction "' + " ".join(calls) + '"]')
    if r.scottish is not None:
        lines.extend(scottish_tags(m, r))
    else:
        lines.append('[Doubles "' + " ".join(str(b) for b in r.doubles) + '"]')
    contract = m.contract_by_key[r.contract]
    if r.set_aside:
        lines.append(f'[SetAside "{CardSet(r.set_aside)}"]')
    if not r.played:
        lines.append("% not played: nobody doubled a negative contract")
    elif r.arrangements:
        lines.append('[Play "arrangements"]')
        for s, a in enumerate(r.arrangements):
            lines.append(
                f"{s}: {CardSet(a.back)} {CardSet(a.middle)} {CardSet(a.front)}" + ("  fouled" if fouled(a) else "")
            )
    elif contract.kind == "domino":
        lines.append('[Play "domino"]')
        turns = [
            f"{s}:{a}"
            for s, a in actions
            if not isinstance(a, (Double, NameRank, NameTrump, Declare, PassOn)) and s != CHANCE
        ]
        for i in range(0, len(turns), 8):
            lines.append(" ".join(turns[i : i + 8]))
        lines.append('[Finishing "' + " ".join(str(s) for s in r.finishing) + '"]')
    else:
        lines.append('[Play "tricks"]')
        for leader, cards in r.tricks:
            w = trick_winner(leader, cards, r.trump if contract.trump else None, n)
            lines.append(f"{leader}: " + " ".join(str(CARDS[c]) for c in cards) + f"  -> {w}")
    lines.append('[Base "' + " ".join(str(x) for x in r.base) + '"]')
    lines.append('[Score "' + " ".join(str(x) for x in r.scores) + '"]')
    if r.series:
        lines.append('[Series "' + " ".join(str(x) for x in r.series) + '"]')
    if r.scottish is not None:
        for call, pts in zip(r.scottish.calls, r.scottish.parts):
            lines.append(f'[Call "{call} ' + " ".join(str(x) for x in pts) + '"]')
        if r.scottish.glyphs:
            from ..scottish.scoresheet import glyphs_by

            who = names if names is not None else [table_place(s, 0, n) for s in range(n)]
            lines.append('[Glyphs "' + glyphs_by(r.scottish.glyphs, who) + '"]')
    return lines


def scottish_tags(m: Match, r: DealResult) -> list[str]:
    """The Scottish deal's place in the match, its cuts and its pass-ons (the record shows every choice)."""
    from ..scottish.pack import format_pack
    from ..scottish.silly import DIRECTION_NAMES

    info = r.scottish
    where = (
        f"set {info.set_no}, silly round, deal {info.deal_in_round}"
        if info.silly
        else f"set {info.set_no}, player round {info.round_no}, caller {info.caller}, deal {info.deal_in_round}"
    )
    lines = [f'[Round "{where}"]']
    if info.cuts:
        lines.append('[Cuts "' + " ".join(f"{why}:{format_pack(c)}" for why, c in info.cuts) + '"]')
    for offset, gives in info.passes:
        lines.append(
            f'[PassOn "{DIRECTION_NAMES[offset]} '
            + " ".join(f"{s}:{','.join(str(CARDS[c]) for c in range(52) if g >> c & 1)}" for s, g in enumerate(gives))
            + '"]'
        )
    return lines


def trick_winner(leader: int, cards: tuple[int, ...], trump: int | None, n: int) -> int:
    """Who won a finished trick: the highest trump, else the highest card of the suit led."""
    best = 0
    for i, c in enumerate(cards):
        b = cards[best]
        if trump is not None and c // 13 == trump and (b // 13 != trump or c > b):
            best = i
        elif c // 13 == b // 13 and c > b:
            best = i
    return (leader + best) % n


def deals_with_actions(m: Match) -> list[list[tuple[int, Any]]]:
    """For each finished deal of ``m``, its (actor, action) list from the deal on."""
    r = Match(m.rules, m.seed)
    per: list[list[tuple[int, Any]]] = []
    cur: list[tuple[int, Any]] = []
    for a in m.history:
        actor = r.to_act()
        assert actor is not None  # the match took this action, so it was not over
        r.apply(a)
        if isinstance(a, Deal):
            cur = []
        cur.append((actor, a))
        if len(r.results) > len(per):
            per.append(cur)
    return per


def text_form(m: Match, deal: int | None = None, names: Sequence[str] | None = None) -> str:
    """The whole match (or one deal) as the readable text form; ``names`` call the players on a Scottish
    scoresheet (their places when not given), never their seat numbers."""
    lines = ["% barbu match record", f'[Rules "{m.rules}"]', f'[Seed "{m.seed}"]', f'[Players "{m.n}"]']
    per = deals_with_actions(m)
    for r, acts in zip(m.results, per):
        if deal is not None and r.number != deal:
            continue
        lines.append("")
        lines.extend(deal_text(m, r, acts, names))
        lines.append('[Totals "' + " ".join(str(x) for x in m.totals_after(r.number)) + '"]')
    if m.rules.family == "scottish" and deal is None and m.results:
        from ..scottish.scoresheet import sheet_from_results, sheet_lines

        lines.append("")
        lines.append("% scoresheet")
        lines.extend("% " + x for x in sheet_lines(sheet_from_results(m.results, m.n), names))
    if m.is_over and deal is None:
        lines.append("")
        lines.append('[Result "' + " ".join(str(x) for x in m.totals) + '"]')
    return "\n".join(lines) + "\n"


__all__ = [
    "Record",
    "Replay",
    "read_record",
    "replay",
    "write_record",
    "record_lines",
    "text_form",
    "parse_chance",
    "load_match",
    "trick_winner",
]
