"""The scorekeeper in `barbu serve`: the kept games of games played with real cards, as its page shows them.

`Scorekeeping` is the service (the server's scorebooks and its count of new games per address); the
rest checks what a browser sends (its typed fields, a deal's answers), makes a new game or an imported
one, applies a change, and turns a game into what the page shows (`book_json`), worded in the reader's
language.  Its pages and API are `barbu.web.routes.scorebooks`.

Every number is the keeper's (the engine's scoring); a refusal is a `ScoreError` (coded, with its
status and the deal concerned), the keeper's own or the store's, each worded in the reader's language.
"""

from __future__ import annotations

import copy
import io
import json
import logging
from fractions import Fraction
from typing import Any, Callable

from ...classic.contracts import SCOTTISH_CALL_NAMES
from ...core import safejson
from ...core.words import ENGLISH, N_, NN_, Message, Words
from ...i18n import word_error
from ...i18n.typed import card_of
from ...records.barbu import number_out
from ...scorekeeper import AnyKeeper, BesigueKeeper, Keeper, KeeperError, exchange, keeper_from_dict, new_keeper
from ...scorekeeper import refusals as K
from ...scorekeeper.printing import FORMATS, printable
from ...scorekeeper.questions import label
from ...scorekeeper.refusals import word_note
from ...scorekeeper.sheet import MELD_LABELS
from ...scottish.scoresheet import GLYPH_NAMES
from ..db.creations import KEPT_GAME, Creations
from ..db.storage import Store
from .store import Scorebook, Scorebooks, WordedError

log = logging.getLogger("barbu.web")
UNDO_KEPT = 30  # changes a game remembers for "undo"
MAX_NAME = 24
MAX_OWNER = 100
EDIT_OPS = ("add", "replace", "delete", "undo", "title")
ENTRY_ORDER = ("dealer", "set_aside", "cuts", "contract", "trump", "rank", "doubles", "outcome")


class ScoreError(WordedError):
    """A request the scorekeeper refuses: ``status`` is the HTTP status, ``deal`` the deal concerned;
    the message is coded, so the page words it in its reader's language."""

    def __init__(self, message: Message | str, status: int = 400, deal: int | None = None, **params: Any) -> None:
        super().__init__(message, **params)
        self.status, self.deal = status, deal


def _m(code: str, text: "str | tuple[str, str]", count: str = "n") -> Message:
    """A refusal of the score pages (kept out of the engine's list of messages, `core.words.MESSAGES`)."""
    singular, plural = (text, None) if isinstance(text, str) else text
    return Message(code, singular, plural, count)


STORED_UNREADABLE = _m("stored-unreadable", N_("this stored game no longer reads: {error}"))
#: What a typed field may not be, for each field the page sends: (not text, too long, missing).
FIELD_ERRORS = {
    "rules": (
        _m("rules-not-text", N_("the game must be text")),
        _m("rules-too-long", N_("the game is too long (at most {most} characters)")),
        _m("rules-missing", N_("choose a game")),
    ),
    "name": (
        _m("name-not-text", N_("player {n}'s name must be text")),
        _m("name-too-long", N_("player {n}'s name is too long (at most {most} characters)")),
        _m("name-missing", N_("player {n}'s name is missing")),
    ),
    "title": (
        _m("title-not-text", N_("the title must be text")),
        _m("title-too-long", N_("the title is too long (at most {most} characters)")),
        _m("title-missing", N_("the title is missing")),
    ),
    "owner": (
        _m("owner-not-text", N_("the browser's id must be text")),
        _m("owner-too-long", N_("the browser's id is too long (at most {most} characters)")),
        _m("owner-missing", N_("the browser's id is missing")),
    ),
}
BAD_INDEX = _m("bad-index", N_("say which deal: its index is a whole number"))
NOT_AN_ENTRY = _m("not-an-entry", N_("a deal is sent as a set of named answers (a JSON object)"))
BAD_ANSWER = _m("bad-answer", N_("the answer to “{key}” is not a number, a player, a list or a yes/no"))
BAD_NAMES = _m("bad-names", N_("give the players' names, in seating order (2 to 6 players)"))
BAD_FIRST = _m("bad-first", N_("the first dealer is one of the players"))
NO_FILE = _m("no-file", N_("choose a file exported by the scorekeeper (JSON or CSV)"))
BAD_FORMAT = _m("bad-format", N_("the file is JSON or CSV"))
NO_SUCH_DEAL = _m("no-such-deal", N_("there is no deal {n}"))
BAD_OP = _m("bad-op", N_("the change is one of {ops}"))
NOTHING_TO_UNDO = _m("nothing-to-undo", N_("there is nothing to undo"))
TOO_MANY_GAMES = _m(
    "too-many-games",
    NN_(
        "you have started {limit} games this hour, the most one player may; try again in {n} minute",
        "you have started {limit} games this hour, the most one player may; try again in {n} minutes",
    ),
)
STARTING = _m("server-starting", N_("the server is starting: try again in a moment"))
CROSS_ORIGIN = _m("cross-origin", N_("cross-origin requests are refused"))
NOT_JSON_TYPE = _m("not-json-type", N_("send JSON (content-type application/json)"))
BAD_JSON = _m("bad-json", N_("the request cannot be read: {error}"))  # error: the JSON error, in the reader's words
NOT_AN_OBJECT = _m("not-an-object", N_("the request must be a JSON object"))
UNREADABLE_ANSWERS = _m("unreadable-answers", N_("the deal's answers are not in a form the scorekeeper reads"))
NO_VERSION = _m("no-version", N_("the change must name the version of the game it was made from"))
EXPORT_KINDS = _m("export-kinds", N_("a game is exported as game.json or game.csv"))
PRINT_KINDS = _m("print-kinds", N_("the printable sheet is sheet.pdf or sheet.html"))


def worded(e: Exception, lang: str) -> str:
    """A refusal of the score pages, the keeper or the store, in ``lang`` (each words itself)."""
    return word_error(e, lang)


# ---------------------------------------------------------------------- the sheet as the page shows it
def _num(x: Any) -> Any:
    return number_out(x)


def _flags(keeper: Any, number: int, tr: Words) -> dict[str, list]:
    """A deal's flags in ``tr``'s words, and their codes (``flag_codes``) for the page to tell them apart."""
    notes = keeper.flags.get(number, [])
    return {
        "flags": [word_note(f, tr) for f in notes],
        "flag_codes": [f.template.code if getattr(f, "template", None) else None for f in notes],
    }


def where_text(set_no: int, round_no: int | None, tr: Words = ENGLISH) -> str:
    """Where a Scottish deal sits on the sheet: its Set and its Round (None: the Silly Round), as the keeper
    says it."""
    if round_no is None:
        return tr.render(K.SILLY_ROUND, {"set": set_no})
    return tr.render(K.PLAYER_ROUND, {"set": set_no, "round": round_no})


def _barbu_deal(keeper: Any, r: Any, run: list, tr: Words = ENGLISH) -> dict[str, Any]:
    contract = keeper.match.contract_by_key.get(r.contract)
    d: dict[str, Any] = {
        "number": r.number,
        "dealer": r.dealer,
        "declarer": r.declarer,
        "contract": r.contract,
        "name": contract.name if contract else r.contract,
        "trump": "SHDC"[r.trump] if r.trump is not None else None,
        "rank": "23456789TJQKA"[r.rank] if r.rank is not None else None,
        "doubles": [[b.doubler, b.doubled, b.redoubled] for b in r.doubles],
        "played": r.played,
        "scores": [_num(x) for x in r.added],
        "totals": [_num(x) for x in run],
        **_flags(keeper, r.number, tr),
    }
    if r.series:
        d["series"] = [_num(x) for x in r.series]
    sc = r.scottish
    if sc is not None:
        d["where"] = where_text(sc.set_no, None if sc.silly else sc.round_no, tr)
        d["set"] = sc.set_no
        d["calls"] = [[SCOTTISH_CALL_NAMES.get(c, c), [_num(x) for x in p]] for c, p in zip(sc.calls, sc.parts)]
        d["glyphs"] = [
            {
                "seat": g.seat,
                "name": tr.gettext(GLYPH_NAMES.get(g.name, g.name)),
                "call": SCOTTISH_CALL_NAMES.get(g.call, g.call) if g.call else None,
            }
            for g in sc.glyphs
        ]
        d["cuts"] = [[what, str(card)] for what, card in sc.cuts]
    return d


def _besigue_deal(keeper: Any, r: dict, tr: Words = ENGLISH) -> dict[str, Any]:
    word = tr.gettext  # the sheet's own names of the combinations (the keeper's catalog)
    melds = [", ".join(f"{word(MELD_LABELS.get(k, k))} {tr.number(v)}" for k, v in m) for m in r.get("melds", [[], []])]
    return {
        "number": r["deal"],
        "dealer": r["dealer"],
        "scores": list(r["scores"]),
        "totals": list(r["totals"]),
        "brisques": list(r.get("brisques", [])),
        "sevens": list(r.get("sevens", [])),
        "last": r.get("last_trick"),
        "melds": melds,
        **_flags(keeper, r["deal"], tr),
    }


def sheet_json(keeper: AnyKeeper, tr: Words = ENGLISH) -> dict[str, Any]:
    """The sheet as on paper: every deal with its points and the running totals; standings; flags."""
    out: dict[str, Any] = {
        "game": keeper.game,
        "rules": str(keeper.rules),
        "names": list(keeper.names),
        "first": keeper.first,
        "over": keeper.is_over,
        "totals": [_num(x) for x in keeper.totals],
        "standings": [[s, _num(t)] for s, t in keeper.standings()],
        "entries": copy.deepcopy(keeper.entries),
    }
    if isinstance(keeper, BesigueKeeper):
        out["deals"] = [_besigue_deal(keeper, r, tr) for r in keeper.results]
        out["target"] = keeper.rules.target
        out["highest_wins"] = True
        out["scottish"] = False
        return out
    return out | _barbu_sheet(keeper, tr)


def _barbu_sheet(keeper: Keeper, tr: Words) -> dict[str, Any]:
    """The deals of a Barbu family's sheet (Scottish Barbu's Sets and Rounds too), and what is left to choose."""
    out: dict[str, Any] = {}
    run: list[int | Fraction] = [0] * keeper.n  # a series' points are kept exact, fractions included
    deals = []
    for r in keeper.results:
        run = [a + b for a, b in zip(run, r.added)]
        deals.append(_barbu_deal(keeper, r, run, tr))
    out["deals"] = deals
    out["total_deals"] = keeper.match.total_deals
    out["highest_wins"] = keeper.rules.family_spec.highest_wins
    out["scottish"] = bool(deals and deals[0].get("where")) or "scottish" in str(keeper.rules)
    # The quick rotation passes the deal every deal: the sheet stays in play order, not a block per dealer.
    out["quick"] = not out["scottish"] and keeper.rules.rotation == "quick"
    if not out["scottish"]:  # each declarer's contracts still to choose, in the rules' order, as on paper
        m = keeper.match
        out["left"] = [[c.name for c in m.contracts if c.key in m.contracts_left[s]] for s in range(keeper.n)]
    return out


def book_json(book: Scorebook, keeper: AnyKeeper, private: bool, tr: Words = ENGLISH) -> dict[str, Any]:
    """A stored game for the page: the sheet, and for its keeper what the next deal needs, in ``tr``'s words."""
    out = sheet_json(keeper, tr)
    undo = book.data.get("undo", [])
    out.update(
        {
            "title": book.title,
            "version": book.version,
            "view_id": book.view_id,
            "updated_at": book.updated_at.isoformat(),
            "undo": len(undo),
        }
    )
    if private and undo:
        out["undo_text"] = undo_text(undo[-1], keeper.entries, tr)
    if private:
        out["id"] = book.id
        out["next"] = needs_json(keeper, keeper.needs({}), tr)
    else:
        out.pop("entries")
    return out


def undo_text(before: list, now: list, tr: Words = ENGLISH) -> str:
    """What "undo" would take back, in words: the last change turned ``before`` into ``now``."""
    if len(before) == len(now) - 1:
        return tr.gettext(N_("take back deal {n}")).format(n=tr.number(len(now)))
    if len(before) == len(now) + 1:
        i = next((i for i, (a, b) in enumerate(zip(before, now)) if a != b), len(now))
        return tr.gettext(N_("bring back deal {n}, deleted")).format(n=tr.number(i + 1))
    i = next((i for i, (a, b) in enumerate(zip(before, now)) if a != b), 0)
    return tr.gettext(N_("take back the correction to deal {n}")).format(n=tr.number(i + 1))


def needs_json(keeper: AnyKeeper, need: Any, tr: Words = ENGLISH) -> dict[str, Any]:
    """What the next deal needs, as the page shows it: the questions and the Scottish Set and Round in
    ``tr``'s words (contract names stay English: the page words them with its own catalog)."""
    d = jsonable(need.to_dict())
    for q, question in zip(d["questions"], need.questions):
        q["label"] = label(question, tr)
        if q.get("choices"):  # Bésigue's declarations: (kind, name, points)
            q["choices"] = [[k, tr.pgettext("combination", name), v] for k, name, v in q["choices"]]
    if need.where:  # the Scottish Set and Round
        d["where"] = word_note(need.where, tr)
    return d


def jsonable(d: Any) -> Any:
    """Needs and questions hold cards (ints) and tuples: plain JSON values."""
    return safejson.loads(json.dumps(d, default=str))


def stored(keeper: AnyKeeper, undo: list) -> dict[str, Any]:
    """The keeper's JSON form plus the entries before each recent change, so "undo" survives reloads."""
    data = keeper.to_dict()
    data["undo"] = undo[-UNDO_KEPT:]
    return data


def keeper_of(book: Scorebook) -> AnyKeeper:
    try:
        return keeper_from_dict(book.data)
    except KeeperError as e:  # pragma: no cover - stored games were checked when saved
        raise ScoreError(STORED_UNREADABLE, 500, error=str(e)) from None


# ---------------------------------------------------------------------- checking what a browser sends
def text_field(value: Any, what: str, most: int, empty_ok: bool = False, **params: Any) -> str:
    """A typed field (``what`` is a key of `FIELD_ERRORS`), trimmed, refused if not text, too long or missing."""
    not_text, too_long, missing = FIELD_ERRORS[what]
    if value is None and empty_ok:
        return ""
    if not isinstance(value, str):
        raise ScoreError(not_text, **params)
    value = value.strip()
    if len(value) > most:
        raise ScoreError(too_long, most=most, **params)
    if not value and not empty_ok:
        raise ScoreError(missing, **params)
    return value


def owner_field(value: Any) -> str | None:
    if value in (None, ""):
        return None
    return text_field(value, "owner", MAX_OWNER)


def index_field(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError(BAD_INDEX)
    return value


def entry_field(value: Any) -> dict:
    """A deal's answers: the keeper checks each field; the answers inside the outcome are checked here
    for shape (numbers, players, texts, yes/no, lists or tables of them) before the keeper reads them."""
    if not isinstance(value, dict):
        raise ScoreError(NOT_AN_ENTRY)
    outcome = value.get("outcome")
    if isinstance(outcome, dict):
        for k, v in outcome.items():
            if not _answer_ok(v):
                raise ScoreError(BAD_ANSWER, key=str(k)[:20])
    return value


def typed_rows(text: str, lang: str) -> str:
    """Chinese poker rows as a player of ``lang`` typed them ("AP RP DP / …" in French) in the engine's
    notation ("AS KS QS / …"); a word that names no card stays as typed, for the keeper to refuse."""
    return " / ".join(" ".join(card_of(word, lang) or word for word in row.split()) for row in text.split("/"))


def typed_entry(entry: dict, lang: str) -> dict:
    """A deal's answers with what was typed (the Chinese rows) read in the reader's language: the entry
    kept is in the engine's notation, whatever language it was typed in."""
    outcome = entry.get("outcome")
    if lang == "en" or not isinstance(outcome, dict):
        return entry
    rows = outcome.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        return entry
    return {**entry, "outcome": {**outcome, "rows": [typed_rows(r, lang) for r in rows]}}


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _answer_ok(v: Any, depth: int = 0) -> bool:
    """An outcome answer: a player or a count, yes/no, a text (Chinese rows), or a list or table of them."""
    if _is_int(v) or isinstance(v, (bool, str)):
        return True
    if depth < 2 and isinstance(v, list):
        return all(_answer_ok(x, depth + 1) for x in v)
    if depth < 2 and isinstance(v, dict):
        return all(isinstance(k, str) and _is_int(x) for k, x in v.items())
    return False


def new_game(rules: Any, names: Any, first: Any = 0, title: Any = None) -> tuple[AnyKeeper, str]:
    """A new kept game from the form: rules, players' names in seating order, the first dealer."""
    rules = text_field(rules, "rules", 200)
    if not isinstance(names, list) or not 2 <= len(names) <= 6:
        raise ScoreError(BAD_NAMES)
    names = [text_field(x, "name", MAX_NAME, n=i + 1) for i, x in enumerate(names)]
    if isinstance(first, bool) or not isinstance(first, int):
        raise ScoreError(BAD_FIRST)
    keeper = new_keeper(rules, names, first)
    title = text_field(title, "title", 120, empty_ok=True) or default_title(keeper)
    return keeper, title


def default_title(keeper: AnyKeeper) -> str:
    game = getattr(keeper.rules, "preset", None) or str(keeper.rules).split("(")[0]
    game = game.replace("besigue", "bésigue").replace("-", " ")
    return f"{game.capitalize()}: {', '.join(keeper.names)}"


def imported(text: Any, fmt: Any = None) -> AnyKeeper:
    """A game read back from an export file (JSON or CSV, ``fmt``: else told by its first character) or taken
    from a played match record, every deal checked again."""
    if not isinstance(text, str) or not text.strip():
        raise ScoreError(NO_FILE)
    try:
        if exchange.is_record(text):  # a .jsonl record: the page sends it as it sends any file
            return exchange.from_record(text)
        fmt = fmt or ("json" if text.lstrip().startswith(("{", "[")) else "csv")
        if fmt == "json":
            return import_json(text)
        if fmt == "csv":
            return import_csv(text)
    except KeeperError as e:
        if _unparsable(e):
            e.status = 400  # type: ignore[attr-defined]  # a file that does not parse: a bad request, not a refused game
        raise
    raise ScoreError(BAD_FORMAT)


def _unparsable(e: KeeperError) -> bool:
    """Whether an import was refused because its text is not JSON at all (a record's line included, whose
    error keeps the JSON error as its context), rather than because the game it holds is refused."""
    cause = e.cause
    return (
        isinstance(cause, safejson.JsonError)
        or isinstance(getattr(cause, "__context__", None), safejson.JsonError)
        or e.code == K.CSV_ROW.code
    )


# The exchange formats are `barbu.scorekeeper.exchange`'s; these thin calls are where the page uses them.
def export_json(keeper: AnyKeeper) -> str:
    return exchange.to_json(keeper)


def export_csv(keeper: AnyKeeper) -> str:
    return exchange.to_csv(keeper)


def import_json(text: str) -> AnyKeeper:
    return exchange.from_json(text)


def import_csv(text: str) -> AnyKeeper:
    return exchange.from_csv(text)


def printable_sheet(keeper: AnyKeeper, kind: str, lang: str = "en") -> tuple[bytes, str]:
    """The printable sheet (``pdf`` or ``html``) in ``lang`` and its media type."""
    return printable(keeper, kind, lang=lang), FORMATS[kind]


def view_qr_svg(url: str, tr: Words = ENGLISH) -> bytes:
    """A QR code of ``url`` as an SVG image (dark modules on white, a quiet zone of two modules)."""
    import segno  # only when a QR code is drawn, not at every start-up

    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        scale=4,
        border=2,
        dark="#1b1b1b",
        light="#ffffff",
        xmldecl=False,
        title=tr.gettext(N_("The read-only link")),
    )
    return out.getvalue()


# The printed sheet is a document of its own: its styles are inline and it runs no script at all.
PRINT_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'none'"
)


# ---------------------------------------------------------------------- the changes, on a stored game
def draft(keeper: AnyKeeper, entry: dict, index: int | None, tr: Words = ENGLISH) -> dict[str, Any]:
    """What a deal being filled in still needs, and once complete the scores it would give (nothing saved),
    worded with ``tr``."""
    if index is None:
        base = keeper
    else:
        if not 0 <= index < len(keeper.entries):
            raise ScoreError(NO_SUCH_DEAL, n=index + 1)
        base = keeper_from_dict({**keeper.to_dict(), "entries": keeper.entries[:index]})
    need = needs_json(base, base.needs(entry), tr)
    out: dict[str, Any] = {"needs": need, "questions": need["questions"]}
    if need["ask"] == "done" and "outcome" in entry:
        before = needs_json(base, base.needs({k: v for k, v in entry.items() if k != "outcome"}), tr)
        out["questions"] = before["questions"]
    if need["ask"] == "done":
        trial = keeper_from_dict(keeper.to_dict())
        if index is None:
            trial.add(entry)
            number = len(trial.entries)
        else:
            trial.replace(index, entry)
            number = index + 1
        sheet = sheet_json(trial, tr)
        deal = sheet["deals"][number - 1]
        out["preview"] = {"deal": deal, "totals": sheet["totals"], "names": sheet["names"]}
    return out


def change(keeper: AnyKeeper, undo: list, op: Any, index: Any = None, entry: Any = None) -> tuple[AnyKeeper, list]:
    """Apply one change (add, replace, delete, undo, title); returns the game after it and the new undo list.
    The undo list holds the entries before each change, stored with the game so undo survives reloads."""
    if op not in EDIT_OPS:
        raise ScoreError(BAD_OP, ops=", ".join(EDIT_OPS))
    before = copy.deepcopy(keeper.entries)
    if op == "title":  # a new name for the game: the deals are untouched
        return keeper, undo
    if op == "undo":
        if not undo:
            raise ScoreError(NOTHING_TO_UNDO)
        return keeper_from_dict({**keeper.to_dict(), "entries": undo[-1]}), undo[:-1]
    if op == "add":
        keeper.add(entry_field(entry))
    elif op == "replace":
        keeper.replace(index_field(index), entry_field(entry))
    else:
        keeper.delete(index_field(index))
    return keeper, undo + [before]


# ---------------------------------------------------------------------- the service
class Scorekeeping:
    """The kept games of one server: its database's scorebooks, and the count of new games per address.

    ``creations``: the server's per-hour counts, kept in its database (without it, in memory only)."""

    def __init__(self, store: Callable[[], Store | None], per_hour: int, creations: Creations | None = None) -> None:
        self._store = store
        self.per_hour = per_hour
        self.counts = creations if creations is not None else Creations()
        self._books: dict[int, Scorebooks] = {}

    def books(self) -> Scorebooks:
        """The scorebooks of the server's database (refused while the server is starting)."""
        s = self._store()
        if s is None:
            raise ScoreError(STARTING, 503)
        b = self._books.get(id(s))
        if b is None:
            self._books.clear()
            b = self._books[id(s)] = Scorebooks(s)
        return b

    async def check_create(self, address: str) -> None:
        """At most ``per_hour`` new games per address, so one client cannot fill the database; checked and
        counted in one step (across every process of the server), and the count survives a restart."""
        if not self.per_hour:
            return
        wait = await self.counts.take(address, KEPT_GAME, self.per_hour)
        if wait:
            raise ScoreError(TOO_MANY_GAMES, 429, limit=self.per_hour, n=wait)
