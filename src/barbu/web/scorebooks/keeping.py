"""The scorekeeper in `barbu serve`: pages and a JSON API to keep the score of games played with real cards.

Pages: ``/score`` (a browser's kept games, a new game, an import), ``/score/{id}`` (keep one
game: the edit key travels in the page's URL fragment or the browser's localStorage, never in a
path) and ``/score/view/{view_id}`` (the read-only sheet the other players open).

API (every request that changes or reads a game by its private id carries the edit key):

- ``POST /api/score`` {rules, names, first, title, owner} → 201 {id, view_id, key, game}
- ``POST /api/score/mine`` {owner} → {games}: the games this browser keeps
- ``POST /api/score/import`` {text, format: json|csv, title, owner} → 201 like a new game
- ``GET /api/score/{id}`` (header ``x-score-key``) → {game}: the sheet and what the next deal needs
- ``POST /api/score/{id}/draft`` {key, entry, index?} → {needs, questions, preview}: nothing is saved
- ``POST /api/score/{id}/change`` {key, version, op: add|replace|delete|undo|title, index?, entry?, title?}
  → {game}
- ``POST /api/score/{id}/delete`` {key} → {deleted}
- ``GET /api/score/view/{view_id}`` → {game}: the sheet, without the private id
- ``GET /score/view/{view_id}/game.json`` and ``game.csv``: the export files
- ``GET /score/view/{view_id}/sheet.pdf`` and ``sheet.html``: the printable sheet (`printable_sheet`)

Every number is the keeper's (the engine's scoring); a refused entry answers 422 with the
keeper's plain words and changes nothing; a save made from an old version answers 409.

Languages: the page is a template in the reader's language (`web.i18n.page_language`: ``?lang=``, the
``barbu_lang`` cookie, Accept-Language); its script sends that language in the header ``x-barbu-lang``
on every request, and the answers are worded in it: a refusal is ``{error, code, params, deal}`` (the
error in the reader's words, the code and raw parameters for programs), the keeper's questions, flags,
the Scottish Set and Round and "undo" in that language.  Contract names travel as the rules name them
(English) and the page words them; the printable sheet takes ``?lang=`` too.  Exports stay English.
"""

from __future__ import annotations

import asyncio
import copy
import io
import json
import logging
from typing import Any, Awaitable, Callable

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...classic.contracts import SCOTTISH_CALL_NAMES
from ...core import safejson
from ...core.words import ENGLISH, N_, NN_, Message, Words
from ...i18n import language, translator, word_error
from ...i18n.typed import card_of
from ...records.barbu import number_out
from ...scorekeeper import AnyKeeper, KeeperError, keeper_from_dict, new_keeper
from ...scorekeeper import exchange
from ...scorekeeper.printing import FORMATS, printable
from ...scorekeeper.questions import label
from ...scorekeeper import refusals as K
from ...scorekeeper.refusals import word_note
from ...scorekeeper.sheet import MELD_LABELS
from ...scottish.scoresheet import GLYPH_NAMES
from .store import CHANGED_ELSEWHERE, Scorebook, ScorebookError, Scorebooks, WordedError
from ..common.i18n import page_language, render_page
from ..db.creations import KEPT_GAME, Creations
from ..common.settings import Settings
from ..db.storage import Store
from ..tables.actor import TableError

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
    "rules": (_m("rules-not-text", N_("the game must be text")),
              _m("rules-too-long", N_("the game is too long (at most {most} characters)")),
              _m("rules-missing", N_("choose a game"))),
    "name": (_m("name-not-text", N_("player {n}'s name must be text")),
             _m("name-too-long", N_("player {n}'s name is too long (at most {most} characters)")),
             _m("name-missing", N_("player {n}'s name is missing"))),
    "title": (_m("title-not-text", N_("the title must be text")),
              _m("title-too-long", N_("the title is too long (at most {most} characters)")),
              _m("title-missing", N_("the title is missing"))),
    "owner": (_m("owner-not-text", N_("the browser's id must be text")),
              _m("owner-too-long", N_("the browser's id is too long (at most {most} characters)")),
              _m("owner-missing", N_("the browser's id is missing"))),
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
TOO_MANY_GAMES = _m("too-many-games", NN_(
    "you have started {limit} games this hour, the most one player may; try again in {n} minute",
    "you have started {limit} games this hour, the most one player may; try again in {n} minutes"))
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
    return {"flags": [word_note(f, tr) for f in notes],
            "flag_codes": [f.template.code if getattr(f, "template", None) else None for f in notes]}


def where_text(set_no: int, round_no: int | None, tr: Words = ENGLISH) -> str:
    """Where a Scottish deal sits on the sheet: its Set and its Round (None: the Silly Round), as the keeper
    says it."""
    if round_no is None:
        return tr.render(K.SILLY_ROUND, {"set": set_no})
    return tr.render(K.PLAYER_ROUND, {"set": set_no, "round": round_no})


def _barbu_deal(keeper: Any, r: Any, run: list, tr: Words = ENGLISH) -> dict[str, Any]:
    contract = keeper.match.contract_by_key.get(r.contract)
    d: dict[str, Any] = {
        "number": r.number, "dealer": r.dealer, "declarer": r.declarer, "contract": r.contract,
        "name": contract.name if contract else r.contract,
        "trump": "SHDC"[r.trump] if r.trump is not None else None,
        "rank": "23456789TJQKA"[r.rank] if r.rank is not None else None,
        "doubles": [[b.doubler, b.doubled, b.redoubled] for b in r.doubles], "played": r.played,
        "scores": [_num(x) for x in r.added], "totals": [_num(x) for x in run],
        **_flags(keeper, r.number, tr),
    }
    if r.series:
        d["series"] = [_num(x) for x in r.series]
    sc = r.scottish
    if sc is not None:
        d["where"] = where_text(sc.set_no, None if sc.silly else sc.round_no, tr)
        d["set"] = sc.set_no
        d["calls"] = [[SCOTTISH_CALL_NAMES.get(c, c), [_num(x) for x in p]] for c, p in zip(sc.calls, sc.parts)]
        d["glyphs"] = [{"seat": g.seat, "name": tr.gettext(GLYPH_NAMES.get(g.name, g.name)),
                        "call": SCOTTISH_CALL_NAMES.get(g.call, g.call) if g.call else None} for g in sc.glyphs]
        d["cuts"] = [[what, str(card)] for what, card in sc.cuts]
    return d


def _besigue_deal(keeper: Any, r: dict, tr: Words = ENGLISH) -> dict[str, Any]:
    word = tr.gettext  # the sheet's own names of the combinations (the keeper's catalog)
    melds = [", ".join(f"{word(MELD_LABELS.get(k, k))} {tr.number(v)}" for k, v in m) for m in r.get("melds", [[], []])]
    return {"number": r["deal"], "dealer": r["dealer"], "scores": list(r["scores"]), "totals": list(r["totals"]),
            "brisques": list(r.get("brisques", [])), "sevens": list(r.get("sevens", [])),
            "last": r.get("last_trick"), "melds": melds, **_flags(keeper, r["deal"], tr)}


def sheet_json(keeper: AnyKeeper, tr: Words = ENGLISH) -> dict[str, Any]:
    """The sheet as on paper: every deal with its points and the running totals; standings; flags."""
    out: dict[str, Any] = {"game": keeper.game, "rules": str(keeper.rules), "names": list(keeper.names),
                           "first": keeper.first, "over": keeper.is_over,
                           "totals": [_num(x) for x in keeper.totals],
                           "standings": [[s, _num(t)] for s, t in keeper.standings()],
                           "entries": copy.deepcopy(keeper.entries)}
    if keeper.game == "besigue":
        out["deals"] = [_besigue_deal(keeper, r, tr) for r in keeper.results]
        out["target"] = keeper.rules.target
        out["highest_wins"] = True
        out["scottish"] = False
        return out
    run = [0] * keeper.n
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
    out.update({"title": book.title, "version": book.version, "view_id": book.view_id,
                "updated_at": book.updated_at.isoformat(), "undo": len(undo)})
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
    d = _jsonable(need.to_dict())
    for q, question in zip(d["questions"], need.questions):
        q["label"] = label(question, tr)
        if q.get("choices"):  # Bésigue's declarations: (kind, name, points)
            q["choices"] = [[k, tr.pgettext("combination", name), v] for k, name, v in q["choices"]]
    if need.where:  # the Scottish Set and Round
        d["where"] = word_note(need.where, tr)
    return d


def _jsonable(d: Any) -> Any:
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
def _text(value: Any, what: str, most: int, empty_ok: bool = False, **params: Any) -> str:
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


def _owner(value: Any) -> str | None:
    if value in (None, ""):
        return None
    return _text(value, "owner", MAX_OWNER)


def _index(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError(BAD_INDEX)
    return value


def _entry(value: Any) -> dict:
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
    rows = outcome.get("rows") if isinstance(outcome, dict) else None
    if lang == "en" or not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
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


def new_game(data: dict[str, Any]) -> tuple[AnyKeeper, str]:
    """A new kept game from the form: rules, players' names in seating order, the first dealer."""
    rules = _text(data.get("rules"), "rules", 200)
    names = data.get("names")
    if not isinstance(names, list) or not 2 <= len(names) <= 6:
        raise ScoreError(BAD_NAMES)
    names = [_text(x, "name", MAX_NAME, n=i + 1) for i, x in enumerate(names)]
    first = data.get("first", 0)
    if isinstance(first, bool) or not isinstance(first, int):
        raise ScoreError(BAD_FIRST)
    keeper = new_keeper(rules, names, first)
    title = _text(data.get("title"), "title", 120, empty_ok=True) or default_title(keeper)
    return keeper, title


def default_title(keeper: AnyKeeper) -> str:
    game = getattr(keeper.rules, "preset", None) or str(keeper.rules).split("(")[0]
    game = game.replace("besigue", "bésigue").replace("-", " ")
    return f"{game.capitalize()}: {', '.join(keeper.names)}"


def imported(data: dict[str, Any]) -> AnyKeeper:
    """A game read back from an export file (JSON or CSV) or taken from a played match record, every deal
    checked again."""
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ScoreError(NO_FILE)
    try:
        if exchange.is_record(text):  # a .jsonl record: the page sends it as it sends any file
            return exchange.from_record(text)
        fmt = data.get("format") or ("json" if text.lstrip().startswith(("{", "[")) else "csv")
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
    return (isinstance(cause, safejson.JsonError) or isinstance(getattr(cause, "__context__", None), safejson.JsonError)
            or e.code == K.CSV_ROW.code)


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
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#1b1b1b", light="#ffffff",
                                    xmldecl=False, title=tr.gettext(N_("The read-only link")))
    return out.getvalue()


# The printed sheet is a document of its own: its styles are inline and it runs no script at all.
PRINT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; "
             "base-uri 'none'; form-action 'none'")


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


def change(keeper: AnyKeeper, undo: list, data: dict[str, Any]) -> tuple[AnyKeeper, list]:
    """Apply one change (add, replace, delete, undo); returns the game after it and the new undo list.
    The undo list holds the entries before each change, stored with the game so undo survives reloads."""
    op = data.get("op")
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
        keeper.add(_entry(data.get("entry")))
    elif op == "replace":
        keeper.replace(_index(data.get("index")), _entry(data.get("entry")))
    else:
        keeper.delete(_index(data.get("index")))
    return keeper, undo + [before]


# ---------------------------------------------------------------------- routes
def score_routes(settings: Settings, store: Callable[[], Store | None],
                 read_body: Callable[[Request, int, float], Awaitable[bytes]],
                 origin_allowed: Callable[[Any, Settings], bool], creations: Creations | None = None) -> list[Route]:
    """The scorekeeper's pages and API, on the server's database and with its request limits.

    ``creations``: the server's per-hour counts, kept in its database (without it, in memory only)."""
    books_cache: dict[int, Scorebooks] = {}
    counts = creations if creations is not None else Creations()

    async def check_create(request: Request) -> None:
        """At most ``kept_games_per_hour`` new games per address, so one client cannot fill the database;
        checked and counted in one step (across every process of the server), and the count survives a restart."""
        limit = settings.kept_games_per_hour
        if not limit:
            return
        address = request.client.host if request.client else "unknown"
        wait = await counts.take(address, KEPT_GAME, limit)
        if wait:
            raise ScoreError(TOO_MANY_GAMES, 429, limit=limit, n=wait)

    def lang_of(request: Request) -> str:
        """The reader's language: what the page says it shows (header x-barbu-lang), else the request's own."""
        asked = request.headers.get("x-barbu-lang")
        return language(asked) if asked else page_language(request, settings)

    def tr_of(request: Request) -> Words:
        return translator(lang_of(request))

    def books() -> Scorebooks:
        s = store()
        if s is None:
            raise ScoreError(STARTING, 503)
        b = books_cache.get(id(s))
        if b is None:
            books_cache.clear()
            b = books_cache[id(s)] = Scorebooks(s)
        return b

    def page(request: Request) -> Response:
        return render_page(request, settings, "score.html")

    async def read(request: Request, limit: int | None = None) -> dict[str, Any]:
        if not origin_allowed(request, settings):
            raise ScoreError(CROSS_ORIGIN, 403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise ScoreError(NOT_JSON_TYPE, 415)
        try:
            body = await read_body(request, limit or settings.max_message, settings.body_timeout)
        except TableError as e:
            raise ScoreError(str(e), e.status) from None
        try:
            data = safejson.loads(body)
        except safejson.JsonError as e:
            raise ScoreError(BAD_JSON, error=word_error(e, lang_of(request))) from None
        if not isinstance(data, dict):
            raise ScoreError(NOT_AN_OBJECT)
        return data

    def api(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except (ScoreError, KeeperError, ScorebookError) as e:
                return refusal(request, e)
            except (TypeError, AttributeError, IndexError, KeyError, ValueError):
                # Answers of a shape the checks above let through and the keeper could not read: a refusal
                # for the browser, and a trace in the log so the check can be made tighter.
                log.exception("scorekeeper: %s %s could not read the request", request.method, request.url.path)
                return refusal(request, ScoreError(UNREADABLE_ANSWERS, 422))
        return run

    def refusal(request: Request, e: Exception) -> JSONResponse:
        """A refusal as the page reads it: worded in the reader's language, with its code and parameters."""
        lang = lang_of(request)
        body: dict[str, Any] = {"error": worded(e, lang), "code": getattr(e, "code", None),
                                "params": _jsonable(getattr(e, "params", None) or {})}
        if not isinstance(e, ScorebookError):
            body["deal"] = e.deal  # type: ignore[attr-defined]
        return JSONResponse(body, status_code=getattr(e, "status", 422))

    def no_store(data: dict[str, Any], status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status, headers={"cache-control": "no-store"})

    def key_of(request: Request, data: dict[str, Any] | None = None) -> str | None:
        key = (data or {}).get("key") if data is not None else request.headers.get("x-score-key")
        return key if isinstance(key, str) and len(key) <= 200 else None

    async def create_book(request: Request, keeper: AnyKeeper, title: str, owner: str | None) -> Response:
        book, key = await asyncio.to_thread(books().create, stored(keeper, []), title, owner)
        return no_store({"id": book.id, "view_id": book.view_id, "key": key, "url": f"/score/{book.id}",
                         "game": book_json(book, keeper, True, tr_of(request))}, 201)

    async def api_new(request: Request) -> Response:
        data = await read(request)
        keeper, title = await asyncio.to_thread(new_game, data)
        await check_create(request)
        return await create_book(request, keeper, title, _owner(data.get("owner")))

    async def api_import(request: Request) -> Response:
        data = await read(request, settings.max_import)
        keeper = await asyncio.to_thread(imported, data)
        await check_create(request)
        title = _text(data.get("title"), "title", 120, empty_ok=True) or default_title(keeper)
        return await create_book(request, keeper, title, _owner(data.get("owner")))

    async def api_mine(request: Request) -> Response:
        data = await read(request)
        owner = _owner(data.get("owner"))
        rows = await asyncio.to_thread(books().owned_by, owner) if owner else []
        games = []
        for b in rows:
            s = b.summary()
            s.pop("view_id", None)
            games.append(s)
        return no_store({"games": games})

    async def api_game(request: Request) -> Response:
        book = await asyncio.to_thread(books().check_key, request.path_params["book_id"], key_of(request))
        keeper = await asyncio.to_thread(keeper_of, book)
        return no_store({"game": await asyncio.to_thread(book_json, book, keeper, True, tr_of(request))})

    async def api_view(request: Request) -> Response:
        book = await asyncio.to_thread(books().get_view, request.path_params["view_id"])
        keeper = await asyncio.to_thread(keeper_of, book)
        return no_store({"game": await asyncio.to_thread(book_json, book, keeper, False, tr_of(request))})

    async def api_draft(request: Request) -> Response:
        data = await read(request)
        book = await asyncio.to_thread(books().check_key, request.path_params["book_id"], key_of(request, data))
        keeper = await asyncio.to_thread(keeper_of, book)
        index = data.get("index")
        index = None if index is None else _index(index)
        entry = typed_entry(_entry(data.get("entry")), lang_of(request))
        return no_store(await asyncio.to_thread(draft, keeper, entry, index, tr_of(request)))

    async def api_change(request: Request) -> Response:
        data = await read(request)
        key = key_of(request, data)
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ScoreError(NO_VERSION)
        book = await asyncio.to_thread(books().check_key, request.path_params["book_id"], key)
        if book.version != version:
            raise ScorebookError(CHANGED_ELSEWHERE, 409)
        keeper = await asyncio.to_thread(keeper_of, book)
        if isinstance(data.get("entry"), dict):
            data["entry"] = typed_entry(data["entry"], lang_of(request))
        keeper, undo = await asyncio.to_thread(change, keeper, list(book.data.get("undo", [])), data)
        title = _text(data.get("title"), "title", 120) if data.get("op") == "title" else None
        saved = await asyncio.to_thread(books().save, book.id, key, stored(keeper, undo), version, title)
        return no_store({"game": await asyncio.to_thread(book_json, saved, keeper, True, tr_of(request))})

    async def api_delete(request: Request) -> Response:
        data = await read(request)
        await asyncio.to_thread(books().delete, request.path_params["book_id"], key_of(request, data))
        return no_store({"deleted": request.path_params["book_id"]})

    async def export(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in ("json", "csv"):
            raise ScoreError(EXPORT_KINDS, 404)
        book = await asyncio.to_thread(books().get_view, request.path_params["view_id"])
        keeper = await asyncio.to_thread(keeper_of, book)
        stem = "".join(c if c.isalnum() else "-" for c in book.title)[:40].strip("-") or "game"
        text = await asyncio.to_thread(export_json if kind == "json" else export_csv, keeper)
        media = "application/json" if kind == "json" else "text/csv; charset=utf-8"
        return Response(text, media_type=media,
                        headers={"content-disposition": f'attachment; filename="{stem}.{kind}"'})

    async def printed(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in ("pdf", "html"):
            raise ScoreError(PRINT_KINDS, 404)
        book = await asyncio.to_thread(books().get_view, request.path_params["view_id"])
        keeper = await asyncio.to_thread(keeper_of, book)
        printed = await asyncio.to_thread(printable_sheet, keeper, kind, lang_of(request))
        body, media = printed
        headers = {"content-security-policy": PRINT_CSP}
        if kind == "pdf":
            headers["content-disposition"] = 'inline; filename="sheet.pdf"'
        return Response(body, media_type=media, headers=headers)

    async def qr_code(request: Request) -> Response:
        """The read-only link as a QR code, for the other players at the table to scan from the keeper's phone."""
        book = await asyncio.to_thread(books().get_view, request.path_params["view_id"])
        return Response(view_qr_svg(str(request.url_for("score_view", view_id=book.view_id)), tr_of(request)),
                        media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=86400", "vary": "accept-language, cookie"})

    return [
        Route("/score", page),
        Route("/score/view/{view_id}", page, name="score_view"),
        Route("/score/view/{view_id}/qr.svg", api(qr_code)),
        Route("/score/view/{view_id}/game.{kind:str}", api(export)),
        Route("/score/view/{view_id}/sheet.{kind:str}", api(printed)),
        Route("/score/{book_id}", page),
        Route("/api/score", api(api_new), methods=["POST"]),
        Route("/api/score/mine", api(api_mine), methods=["POST"]),
        Route("/api/score/import", api(api_import), methods=["POST"]),
        Route("/api/score/view/{view_id}", api(api_view)),
        Route("/api/score/{book_id}", api(api_game)),
        Route("/api/score/{book_id}/draft", api(api_draft), methods=["POST"]),
        Route("/api/score/{book_id}/change", api(api_change), methods=["POST"]),
        Route("/api/score/{book_id}/delete", api(api_delete), methods=["POST"]),
    ]
