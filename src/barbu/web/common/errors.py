"""The web's refusals: one error type, coded refusals in tables like the engine's, and their HTTP status.

A domain (tables, accounts, clubs, events, daily deals, scorebooks) says *what* it refuses and of
which kind — a request that does not make sense, one that is not allowed, something missing, a
conflict with the state, a limit reached — never an HTTP status: `status_of` gives the status, for
the routes and for an owner answering a relayed request.  Each refusal has a stable code (sent to
the browser beside its words, as the engine's are) and an English template marked for the catalog
(worded in each reader's language by `barbu.web.common.wording.word`).

``refusal("seat-taken", N_("seat {seat} is taken"), CONFLICT)`` defines one (once, in the domain's
``refusals.py``); ``raise WebError(SEAT_TAKEN, seat=2)`` refuses with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import BarbuError
from ...core.words import Words
from ...i18n import translator

# The kinds of refusal, and the HTTP status each is answered with.
BAD = "bad"  # the request does not make sense (a malformed field, an unknown choice)
UNAUTHORIZED = "unauthorized"  # nobody is logged in where an account is needed
FORBIDDEN = "forbidden"  # the asker may not do this
MISSING = "missing"  # what the request names does not exist (or may not be seen by the asker)
TIMEOUT = "timeout"  # the request took too long to arrive
TOO_LARGE = "too-large"  # the request's body is larger than the limit
UNSUPPORTED = "unsupported"  # the request's body is not of the media type asked for (JSON)
CONFLICT = "conflict"  # the state does not allow it now (a seat taken, a match over)
GONE = "gone"  # it existed and is no more (a used link)
LIMITED = "limited"  # a per-address or per-account limit is reached
FAILED = "failed"  # the server could not do it (a database error)
UNAVAILABLE = "unavailable"  # the server is busy or stopping: try again later

HTTP_STATUS = {
    BAD: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    MISSING: 404,
    TIMEOUT: 408,
    CONFLICT: 409,
    GONE: 410,
    TOO_LARGE: 413,
    UNSUPPORTED: 415,
    LIMITED: 429,
    FAILED: 500,
    UNAVAILABLE: 503,
}
_KIND_OF_STATUS = {status: kind for kind, status in HTTP_STATUS.items()}


@dataclass(frozen=True)
class Refusal:
    """A refusal of the web: its stable code, its English template (or an NN_ pair) and its kind."""

    code: str
    template: str | tuple[str, str]
    kind: str = BAD

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.kind]


#: Every refusal the web defines, by code: the tests check that each is translated.
REFUSALS: dict[str, Refusal] = {}


def refusal(code: str, template: str | tuple[str, str], kind: str = BAD) -> Refusal:
    """Define (once) the refusal ``code``."""
    if kind not in HTTP_STATUS:
        raise ValueError(f"unknown kind of refusal {kind!r}")
    r = Refusal(code, template, kind)
    if REFUSALS.setdefault(code, r) != r:
        raise ValueError(f"refusal code {code!r} defined twice with different texts")
    return r


def fill(tr: Words, template: str | tuple[str, str], fields: dict[str, Any]) -> str:
    """A looked-up template with its fields: whole numbers as the language writes them, texts as they are.

    A template marked ``NN_(singular, plural)`` takes the form for its field ``n``.
    """
    shown = {k: tr.number(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in fields.items()}
    text = tr.ngettext(*template, fields["n"]) if isinstance(template, tuple) else tr.gettext(template)
    return text.format(**shown)


class WebError(BarbuError):
    """A request the server refuses, worded by the server itself: a refusal with its fields.

    ``str(e)`` is the English sentence; `barbu.web.common.wording.word` says it in another language.
    ``cause`` keeps the engine's error it stands for (a ruleset that does not parse), worded by the
    cause's own code.  The old form, an inline template and a status (``WebError(N_("…"), 409)``),
    is still read while the last ones are given codes.
    """

    def __init__(
        self,
        what: Refusal | str | tuple[str, str],
        status: int | None = None,
        cause: BaseException | None = None,
        code: str | None = None,
        **fields: Any,
    ) -> None:
        if isinstance(what, Refusal):
            template, kind, code = what.template, what.kind, what.code
        else:
            template, kind = what, _KIND_OF_STATUS.get(status or 400, BAD)
        if status is not None and isinstance(what, Refusal):
            kind = _KIND_OF_STATUS[status]
        self.template, self.fields, self.kind, self.cause, self.code = template, fields, kind, cause, code
        self.params = fields
        super().__init__(str(cause) if cause is not None else fill(translator("en"), template, fields))

    @property
    def status(self) -> int:
        """The HTTP status this refusal is answered with."""
        return HTTP_STATUS[self.kind]

    @classmethod
    def wrap(cls, cause: BaseException, kind: str = BAD) -> WebError:
        """The engine's error ``cause`` as this error, worded by the cause's own code."""
        return cls("", HTTP_STATUS[kind], cause=cause)


def status_of(e: BaseException) -> int:
    """The HTTP status a refusal is answered with (400 for the engine's own refusals)."""
    return e.status if isinstance(e, WebError) else 400
