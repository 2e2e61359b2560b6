"""The guided first deal in the browser ("Learn to play", issue 30): the page and its stateless API.

``GET /learn`` and ``GET /learn/{lesson}`` show the page; ``POST /api/learn`` with ``{"lesson": key,
"actions": [...]}`` (the learner's accepted actions so far, and maybe one more to try) answers with the
lesson as the learner's seat sees it.  The server keeps nothing: the lesson model
(`barbu.guide.lesson`) is fixed and deterministic, so the key and the actions rebuild it every time.

Everything sent comes from the learner's own view (`Match.view` of seat 0, through `views`), so no
other seat's hand ever leaves the server; the lesson's texts are worded here, in the page's language,
as the server words the engine's refusals at a table.  The computer seats' moves since the learner's
last action come as ``frames`` (the public table after his action and after each of theirs), so the page
can play them one by one with the real table's motion.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core.errors import BarbuError
from ...guide.lesson import KEYS, LESSONS, SEAT, LessonPlay, Refusal, lesson
from ...i18n import translator
from ..common.errors import WebError
from ..common.i18n import page_language
from ..common.wording import refusal as worded_refusal
from ..tables.views import contract_info, public_state, redact, view_json, visible_cards
from . import payloads as p
from . import refusals as R
from .bodies import decode
from .helpers import not_found, page
from .services import services

log = logging.getLogger("barbu.web")

#: A lesson takes at most a handful of the learner's actions; refused ones are not kept, so a page sends
#: its accepted ones and one more.  Anything longer is not a lesson's.
MAX_ACTIONS = 30
MAX_ACTION_CHARS = 40


async def learn_page(request: Request) -> Response:
    key = request.path_params.get("lesson", "")
    if key and key not in KEYS:
        return not_found(request)
    return page(request, "learn.html", lesson=key or KEYS[0])


async def api_learn(request: Request) -> Response:
    """The lesson after the learner's actions, as his seat sees it (bodies: `payloads.Lesson`)."""
    key, actions = parsed(await decode(request, p.Lesson))
    lang = page_language(request, services(request).settings)  # the page's: its cookie, set when the page was shown
    try:
        body = lesson_json(key, actions, lang)
    except BarbuError as e:  # the model refuses what it cannot rebuild: said in words
        raise WebError.wrap(e) from None
    except Exception as e:  # a fault of ours: one line in the log, never a traceback, the learner told plainly
        log.error("learn: lesson %s with %d action(s) failed: %s", key, len(actions), type(e).__name__)
        raise WebError(R.LESSON_FAILED) from None
    return JSONResponse(body, headers={"cache-control": "no-store", "content-language": lang})


def parsed(body: p.Lesson) -> tuple[str, list[str]]:
    """The lesson's key and the learner's actions, or a 400 that says what is wrong."""
    try:
        lesson(body.lesson)
    except BarbuError as e:
        raise WebError.wrap(e) from None
    if len(body.actions) > MAX_ACTIONS:
        raise WebError(R.TOO_MANY_ACTIONS, n=MAX_ACTIONS)
    if any(len(a) > MAX_ACTION_CHARS for a in body.actions):
        raise WebError(R.ACTION_TOO_LONG, n=MAX_ACTION_CHARS)
    return body.lesson, body.actions


def lesson_json(key: str, actions: list[str], lang: str) -> dict[str, Any]:
    """The lesson after ``actions``, as the learner's seat sees it, worded in ``lang``.

    The model's `replay`, done step by step so that the other seats' moves after the last action (or,
    at the start, before the learner's first decision) are kept as frames for the page to play.
    """
    play = LessonPlay(key)
    frames: list[dict[str, Any]] = []

    def frame() -> None:
        frames.append(public_state(play.match, play.match.view(SEAT)))

    def others(keep: bool) -> None:
        while (seat := play.other_to_act()) is not None:
            play.apply_other(seat, play.move_for(seat))
            if keep:
                frame()

    others(keep=not actions)
    for i, a in enumerate(actions):
        refused = play.act(a) is not None
        last = i == len(actions) - 1 and not refused  # after a refusal nothing moves
        if last:
            frame()  # the learner's own action, then each other seat's
        others(keep=last)
    state = play.state()
    view = state.view
    words = translator(lang)
    table = view_json(play.match, [view], SEAT)
    if not state.your_turn:  # a lesson may end before its deal does: nothing more is asked of the learner
        table["legal"], table["legal_count"] = None, 0
    table["expected"] = [str(a) for a in state.expected]
    return {
        "lesson": key,
        "number": state.number,
        "total": state.total,
        "title": words.gettext(state.title),
        "lessons": [{"key": x.key, "title": words.gettext(x.title)} for x in LESSONS],
        "text": state.message.worded(words),
        "your_turn": state.your_turn,
        "finished": state.finished,
        "next": state.next_lesson,
        "actions": list(state.actions),
        "refused": refusal_json(state.refusal, view, lang) if state.refusal else None,
        "state": table,
        "frames": frames,
        "table": {"players": play.match.n, "rules": play.lesson.rules, "contracts": contract_info(play.match)},
    }


def refusal_json(r: Refusal, view: Any, lang: str) -> dict[str, Any]:
    """A refused action as the learner may read it: the engine's reason (a card he cannot see is "…") and
    the step's lesson.  The action itself is not echoed back: the page knows what it sent."""
    out: dict[str, Any] = {"code": r.code, "lesson": r.lesson.worded(translator(lang)), "message": None}
    if r.error is not None:
        seen = visible_cards(view)
        said = worded_refusal(r.error, lang, lambda c: bool(seen >> c & 1), lambda text: redact(text, seen))
        out["message"], out["reason"] = said["message"], said.get("reason")
        if "params" in said:
            out["params"] = said["params"]
    return out


ROUTES: list[BaseRoute] = [
    Route("/learn", learn_page),
    Route("/learn/{lesson}", learn_page),
    Route("/api/learn", api_learn, methods=["POST"]),
]
