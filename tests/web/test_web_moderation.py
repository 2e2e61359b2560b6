"""The moderators' desk (issue 42): a report → the queue → each action → its effect → undone → the log; everyone
but a moderator refused everywhere; the report limit exact under a concurrent burst (one process on SQLite, two on
PostgreSQL and Redis); ``barbu users role|ban|mute|remove|restore|log``.

Against a real ``barbu serve`` (`serve_module`), each person an HTTP client with his own cookies.
"""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
import pytest
from conftest import postgres_url, redis_url, reset_postgres

from barbu.cli.main import main as barbu
from barbu.web.accounts import store as accounts
from barbu.web.accounts.service import fold, skeleton
from barbu.web.db.storage import Store
from barbu.web.moderation.service import REPORTS_PER_HOUR

SERVE = (
    "--signups-per-hour",
    "0",
    "--clubs-per-day",
    "0",
    "--events-per-day",
    "0",
    "--bot-delay",
    "0",
    "--daily-boards",
    "1",
)
PASSWORD = "Quiet lanterns 7 over the moor"
EVENT = {"name": "Thursday duplicate", "rules": "classic", "format": "one-match", "deals": 1, "clock": "normal"}


class Person:
    """One browser over HTTP: its own cookies, signed up under ``name``."""

    def __init__(self, base: str, name: str | None = None, password: str = PASSWORD) -> None:
        self.c = httpx.Client(base_url=base, timeout=60)
        self.name = name
        if name is not None:
            r = self.post("/api/account/signup", {"name": name, "password": password})
            assert r.status_code == 201, r.text

    def post(self, path: str, body: dict[str, Any], **headers: str) -> httpx.Response:
        return self.c.post(path, json=body, headers=headers)

    def get(self, path: str) -> httpx.Response:
        return self.c.get(path)


def unique(stem: str) -> str:
    return f"{stem}{secrets.token_hex(3)}"


def users(server: Any, *args: str) -> int:
    return barbu(["users", "--db", server.db, *args])


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text
    assert r.json()["error"]  # in plain words


@pytest.fixture(scope="module")
def mod(server: Any) -> Person:
    mona = Person(server.base, unique("Mona"))
    assert users(server, "role", mona.name or "", "moderator") == 0
    return mona


def desk(mod: Person) -> dict[str, Any]:
    r = mod.get("/api/moderation")
    assert r.status_code == 200, r.text
    return r.json()


def group(data: dict[str, Any], kind: str, label: str) -> dict[str, Any] | None:
    return next((g for g in data["groups"] if g["target"]["kind"] == kind and g["target"]["label"] == label), None)


def act(mod: Person, action: str, target: dict[str, Any], reason: str = "as the rules say", **more: Any) -> int:
    r = mod.post(
        "/api/moderation/act",
        {"action": action, "kind": target["kind"], "target": target["id"], "reason": reason} | more,
    )
    assert r.status_code == 200, r.text
    return int(r.json()["entry"])


def undo(mod: Person, entry: int, reason: str = "on second thoughts") -> int:
    r = mod.post("/api/moderation/undo", {"entry": entry, "reason": reason})
    assert r.status_code == 200, r.text
    return int(r.json()["entry"])


def test_a_report_reaches_the_desk_and_every_action_takes_effect_is_logged_and_undone(server: Any, mod: Person) -> None:
    rita, vic = Person(server.base, unique("Rita")), Person(server.base, unique("Vic"))
    made = vic.post("/api/clubs", {"name": unique("Club "), "public": True, "description": "buy gold at example.com"})
    assert made.status_code == 201, made.text
    slug = made.json()["club"]["slug"]
    ev = vic.post("/api/events", EVENT | {"name": unique("Ev ")})
    assert ev.status_code == 201, ev.text
    event_id = ev.json()["event"]["id"]

    # reports: one of each kind; the same one twice is one report, its words replaced
    first = rita.post("/api/reports", {"kind": "player", "target": vic.name, "reason": "abuse", "text": "rude"})
    assert first.status_code == 201 and first.json()["new"] is True
    again = rita.post(
        "/api/reports", {"kind": "player", "target": vic.name, "reason": "abuse", "text": "rude at table 3"}
    )
    assert again.status_code == 200 and again.json()["new"] is False
    assert rita.post("/api/reports", {"kind": "club", "target": slug, "reason": "spam"}).status_code == 201
    assert rita.post("/api/reports", {"kind": "event", "target": str(event_id), "reason": "other"}).status_code == 201
    refused(rita.post("/api/reports", {"kind": "player", "target": rita.name, "reason": "abuse"}), 400, "report-self")
    refused(rita.post("/api/reports", {"kind": "table", "target": "x", "reason": "abuse"}), 400, "report-kind")
    refused(rita.post("/api/reports", {"kind": "player", "target": vic.name, "reason": "meh"}), 400, "report-reason")
    refused(
        rita.post("/api/reports", {"kind": "player", "target": vic.name, "reason": "abuse", "text": "x" * 501}),
        400,
        "report-text",
    )
    refused(
        rita.post("/api/reports", {"kind": "player", "target": "nobody-at-all", "reason": "abuse"}),
        404,
        "report-target-missing",
    )
    refused(
        Person(server.base).post("/api/reports", {"kind": "player", "target": vic.name, "reason": "abuse"}),
        401,
        "log-in",
    )

    # the queue: grouped by target, with the reporter, the reason and the words
    data = desk(mod)
    player = group(data, "player", vic.name)
    assert player is not None and [(r["reporter"], r["reason"], r["text"]) for r in player["reports"]] == [
        (rita.name, "abuse", "rude at table 3")
    ]
    assert player["target"]["url"] == f"/u/{vic.name}" and data["reasons"]["abuse"]
    club = group(data, "club", made.json()["club"]["name"])
    assert club is not None and club["target"]["about"] == "buy gold at example.com"
    event = group(data, "event", ev.json()["event"]["name"])
    assert event is not None and event["target"]["url"] == f"/e/{event_id}"

    # every action needs its reason; nothing changes without one
    r = mod.post(
        "/api/moderation/act", {"action": "ban", "kind": "player", "target": player["target"]["id"], "reason": " "}
    )
    refused(r, 400, "moderation-reason-needed")
    assert vic.get("/api/account").json()["user"]["name"] == vic.name

    # warn: he sees it (until he says he read it); the report is settled
    warned = act(mod, "warn", player["target"], "be civil at the table")
    notes = vic.get("/api/moderation/me").json()
    assert [w["reason"] for w in notes["warnings"]] == ["be civil at the table"] and notes["moderator"] is False
    assert group(desk(mod), "player", vic.name) is None
    assert vic.post("/api/moderation/me/read", {"warning": notes["warnings"][0]["id"]}).status_code == 200
    assert vic.get("/api/moderation/me").json()["warnings"] == []
    refused(rita.post("/api/moderation/me/read", {"warning": notes["warnings"][0]["id"]}), 404, "warning-missing")
    undo(mod, warned)

    # mute: no club, no description, no event, no event name, no report; he still reads and plays
    muted = act(mod, "mute", player["target"], "spam in descriptions", hours=24)
    assert vic.get("/api/moderation/me").json()["muted"] is True
    refused(vic.post("/api/clubs", {"name": unique("Other "), "public": True}), 403, "muted")
    refused(vic.post(f"/api/clubs/{slug}/edit", {"description": "more gold"}), 403, "muted")
    refused(vic.post("/api/events", EVENT | {"name": unique("Ev ")}), 403, "muted")
    refused(vic.post(f"/api/events/{event_id}/edit", {"name": unique("Renamed ")}), 403, "muted")
    refused(vic.post("/api/reports", {"kind": "player", "target": rita.name, "reason": "abuse"}), 403, "muted")
    assert vic.get(f"/api/clubs/{slug}").json()["club"]["description"] == "buy gold at example.com"
    assert vic.post(f"/api/clubs/{slug}/edit", {"public": True}).status_code == 200  # not words: allowed
    undo(mod, muted, "he apologised")
    assert vic.get("/api/moderation/me").json()["muted"] is False
    assert vic.post(f"/api/clubs/{slug}/edit", {"description": "a quiet club"}).status_code == 200

    # a mute until lifted says so
    forever = act(mod, "mute", player["target"], "again")
    notes = vic.get("/api/moderation/me").json()
    assert notes["muted"] is True and notes["muted_until"] is None
    refused(vic.post("/api/clubs", {"name": unique("Other "), "public": True}), 403, "muted-until-lifted")
    undo(mod, forever)

    # ban: his sessions end at once and he cannot log in; lifted, he can
    banned = act(mod, "ban", player["target"], "cheating with a second account")
    assert vic.get("/api/account").json()["user"] is None
    refused(vic.post("/api/account/login", {"name": vic.name, "password": PASSWORD}), 403, "account-closed")
    undo(mod, banned)
    assert vic.post("/api/account/login", {"name": vic.name, "password": PASSWORD}).status_code == 200

    # remove a club: gone from every list and page, for its owner too; restored, back
    removed = act(mod, "remove", club["target"], "advertising")
    guest = Person(server.base)
    assert guest.get(f"/api/clubs/{slug}").status_code == 404 and guest.get(f"/c/{slug}").status_code == 404
    assert vic.get(f"/api/clubs/{slug}").status_code == 404
    assert slug not in [c["slug"] for c in guest.get("/api/clubs").json()["public"]]
    assert slug not in [c["slug"] for c in vic.get("/api/clubs").json()["mine"]]
    undo(mod, removed)
    assert guest.get(f"/api/clubs/{slug}").status_code == 200

    # remove an event: the same
    gone = act(mod, "remove", event["target"], "a fake event")
    assert guest.get(f"/api/events/{event_id}").status_code == 404 and guest.get(f"/e/{event_id}").status_code == 404
    listed = guest.get("/api/events").json()
    assert event_id not in [e["id"] for e in listed["upcoming"] + listed["running"] + listed["past"]]
    refused(act_raw(mod, "remove", event["target"]), 409, "moderation-already")
    undo(mod, gone)
    assert guest.get(f"/api/events/{event_id}").status_code == 200

    # dismiss: the reports leave the queue with nothing done; undone, they are back
    assert rita.post("/api/reports", {"kind": "player", "target": vic.name, "reason": "name"}).status_code == 201
    dismissed = act(mod, "dismiss", player["target"], "nothing wrong with the name")
    assert group(desk(mod), "player", vic.name) is None
    refused(act_raw(mod, "dismiss", player["target"]), 409, "moderation-no-open-reports")
    undo(mod, dismissed)
    assert group(desk(mod), "player", vic.name) is not None
    refused(mod.post("/api/moderation/undo", {"entry": dismissed, "reason": "twice"}), 409, "moderation-not-undoable")

    # the log: who, what, on what, why, and what undid it, newest first
    log = [e for e in desk(mod)["log"] if e["kind"] != "player" or e["label"] == vic.name]
    mine = {e["id"]: e for e in log}
    assert mine[banned]["moderator"] == mod.name and mine[banned]["reason"] == "cheating with a second account"
    assert mine[banned]["undone_by"] is not None and mine[mine[banned]["undone_by"]]["action"] == "unban"
    assert mine[muted]["until"] is not None and mine[forever]["until"] is None
    assert [mine[i]["action"] for i in (warned, muted, removed, gone, dismissed)] == [
        "warn",
        "mute",
        "remove",
        "remove",
        "dismiss",
    ]
    assert [e["id"] for e in log] == sorted((e["id"] for e in log), reverse=True)


def act_raw(mod: Person, action: str, target: dict[str, Any], reason: str = "again") -> httpx.Response:
    return mod.post(
        "/api/moderation/act", {"action": action, "kind": target["kind"], "target": target["id"], "reason": reason}
    )


def test_no_one_but_a_moderator_reaches_the_desk(server: Any, mod: Person) -> None:
    guest, player = Person(server.base), Person(server.base, unique("Paul"))
    other = Person(server.base, unique("Modo"))
    assert users(server, "role", other.name or "", "moderator") == 0
    target = {"kind": "player", "id": "1"}
    for who, status, code in ((guest, 401, "log-in"), (player, 403, "moderators-only")):
        assert who.get("/moderation").status_code == 404
        refused(who.get("/api/moderation"), status, code)
        refused(act_raw(who, "ban", target), status, code)
        refused(who.post("/api/moderation/undo", {"entry": 1, "reason": "x"}), status, code)
    assert guest.get("/api/moderation/me").json() == {
        "moderator": False,
        "warnings": [],
        "muted": False,
        "muted_until": None,
    }
    page = mod.get("/moderation")
    assert page.status_code == 200 and 'id="desk"' in page.text
    assert mod.get("/api/moderation/me").json()["moderator"] is True
    # another site cannot act for a moderator (CSRF): the Origin is checked before anything
    r = mod.post(
        "/api/moderation/act",
        {"action": "ban", "kind": "player", "target": "1", "reason": "x"},
        origin="http://evil.example",
    )
    refused(r, 403, "cross-origin")
    # a moderator's account is the operator's to act on
    theirs = desk_target(mod, other)
    refused(act_raw(mod, "ban", theirs), 403, "moderation-on-moderator")
    assert other.get("/api/account").json()["user"]["name"] == other.name
    refused(act_raw(mod, "fly", theirs), 400, "moderation-action-unknown")
    refused(act_raw(mod, "remove", theirs), 400, "moderation-action-target")
    refused(act_raw(mod, "warn", {"kind": "player", "id": "999999"}), 404, "moderation-target-missing")


def desk_target(mod: Person, who: Person) -> dict[str, Any]:
    """A player as the desk names him (his account's id), found through a report of him."""
    reporter = Person(mod.c.base_url.__str__(), unique("Rep"))
    assert reporter.post("/api/reports", {"kind": "player", "target": who.name, "reason": "other"}).status_code == 201
    found = group(desk(mod), "player", who.name or "")
    assert found is not None
    return dict(found["target"])


def make_players(server: Any, n: int) -> list[str]:
    """``n`` accounts written straight into the server's database: the targets of a burst of reports."""
    names = [unique("Target") for _ in range(n)]
    store = Store(server.db)
    try:
        with store.engine.begin() as conn:
            for name in names:
                accounts.add_user(conn, name, fold(name), skeleton(name), "not a hash")
    finally:
        store.close()
    return names


def burst(people: list[Person], bodies: list[dict[str, Any]]) -> list[int]:
    """Every report sent at once, each person's in turn: the statuses."""
    with ThreadPoolExecutor(len(bodies)) as pool:
        answers = list(pool.map(lambda i: people[i % len(people)].post("/api/reports", bodies[i]), range(len(bodies))))
    for a in answers:
        assert a.status_code in (200, 201, 429), a.text
        if a.status_code == 429:
            assert a.json()["code"] == "too-many-reports"
    return [a.status_code for a in answers]


def test_the_report_limit_holds_exactly_under_a_concurrent_burst(server: Any) -> None:
    n = REPORTS_PER_HOUR + 15
    targets = make_players(server, n)
    reporter = Person(server.base, unique("Burst"))
    codes = burst([reporter], [{"kind": "player", "target": t, "reason": "spam"} for t in targets])
    assert (codes.count(201), codes.count(429)) == (REPORTS_PER_HOUR, n - REPORTS_PER_HOUR)
    # the same report sent twelve times at once is one report, and counts once
    twice = Person(server.base, unique("Twice"))
    codes = burst([twice], [{"kind": "player", "target": targets[0], "reason": "spam"}] * 12)
    assert (codes.count(201), codes.count(200)) == (1, 11)


@pytest.mark.slow
def test_the_report_limit_holds_on_two_processes_with_postgresql_and_redis(serve: Any) -> None:
    db = postgres_url()
    reset_postgres(db)
    a, b = [serve(*SERVE, "--broker", redis_url(), db=db) for _ in range(2)]
    n = REPORTS_PER_HOUR + 14
    targets = make_players(a, n)
    first = Person(a.base, unique("Burst"))
    second = Person(b.base)
    second.c.cookies = first.c.cookies  # the same browser, through the other process
    codes = burst([first, second], [{"kind": "player", "target": t, "reason": "spam"} for t in targets])
    assert (codes.count(201), codes.count(429)) == (REPORTS_PER_HOUR, n - REPORTS_PER_HOUR)
    # a moderator acting through one process holds on the other: the mute, the ban, the log
    mona, vic = Person(b.base, unique("Mona")), Person(a.base, unique("Vic"))
    assert users(a, "role", mona.name or "", "moderator") == 0
    assert (
        Person(a.base, unique("Rita"))
        .post("/api/reports", {"kind": "player", "target": vic.name, "reason": "abuse"})
        .status_code
        == 201
    )
    found = group(desk(mona), "player", vic.name or "")
    assert found is not None
    act(mona, "mute", found["target"], "shouting", hours=1)
    refused(vic.post("/api/clubs", {"name": unique("Loud "), "public": True}), 403, "muted")
    banned = act(mona, "ban", found["target"], "threats")
    assert vic.get("/api/account").json()["user"] is None
    assert [e["action"] for e in desk(mona)["log"][:2]] == ["ban", "mute"]
    undo(mona, banned)
    assert vic.post("/api/account/login", {"name": vic.name, "password": PASSWORD}).status_code == 200


def test_the_operator_gives_roles_bans_mutes_removes_and_reads_the_log(
    server: Any, capsys: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # the log's table on one line an entry
    ann = Person(server.base, unique("Ann"))
    made = ann.post("/api/clubs", {"name": unique("Shell club "), "public": True})
    slug = made.json()["club"]["slug"]
    assert users(server, "role", ann.name or "", "moderator") == 0
    assert ann.get("/api/moderation").status_code == 200
    capsys.readouterr()
    assert users(server, "list") == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if ann.name in line)
    assert line.rstrip(" │|").endswith("yes"), line  # the Moderator column
    assert users(server, "role", ann.name or "", "player") == 0
    assert ann.get("/api/moderation").status_code == 403
    assert users(server, "mute", ann.name or "", "--hours", "2", "--reason", "shouting") == 0
    refused(ann.post("/api/clubs", {"name": unique("Loud "), "public": True}), 403, "muted")
    assert users(server, "mute", ann.name or "", "--lift", "--reason", "calmer now") == 0
    assert users(server, "remove", "club", slug, "--reason", "a copy of another club") == 0
    assert ann.get(f"/api/clubs/{slug}").status_code == 404
    assert users(server, "remove", "club", slug, "--reason", "twice") == 2
    assert users(server, "restore", "club", f"/c/{slug}", "--reason", "it was not") == 0
    assert ann.get(f"/api/clubs/{slug}").status_code == 200
    assert users(server, "ban", ann.name or "", "--reason", "threats") == 0
    assert ann.get("/api/account").json()["user"] is None
    assert users(server, "unban", ann.name or "", "--reason", "a second chance") == 0
    assert ann.post("/api/account/login", {"name": ann.name, "password": PASSWORD}).status_code == 200
    assert users(server, "remove", "event", "999999", "--reason", "x") == 2
    capsys.readouterr()
    assert users(server, "log", "--limit", "500") == 0
    out = capsys.readouterr().out
    for words in ("shouting", "calmer now", "a copy of another club", "it was not", "threats", "a second chance"):
        assert words in out, out
    with pytest.raises(SystemExit):
        users(server, "mute", ann.name or "", "--hours", "2")  # the reason is required


def test_misshapen_requests_are_refused_in_plain_words_and_leave_no_traceback(server: Any, mod: Person) -> None:
    rita, vic = Person(server.base, unique("Rita")), Person(server.base, unique("Vic"))
    odd: list[Any] = [None, True, 987654, 1.5, [], {}, "x" * 3000, "\x00", "../../etc", -1]
    for value in odd:
        for field in ("kind", "target", "reason", "text"):
            body = {"kind": "player", "target": vic.name, "reason": "abuse", "text": "t"} | {field: value}
            r = rita.post("/api/reports", body)
            assert r.status_code in (200, 201, 400, 404), (field, value, r.text)
            assert r.status_code < 300 or r.json()["code"], r.text
        for field in ("action", "kind", "target", "reason", "hours"):
            body = {"action": "mute", "kind": "player", "target": "1", "reason": "why", "hours": 2} | {field: value}
            r = mod.post("/api/moderation/act", body)
            assert r.status_code in (200, 400, 403, 404, 409), (field, value, r.text)
            assert r.status_code == 200 or r.json()["code"], r.text
        r = mod.post("/api/moderation/undo", {"entry": value, "reason": "why"})
        assert r.status_code in (400, 404, 409) and r.json()["code"], r.text
        r = rita.post("/api/moderation/me/read", {"warning": value})
        assert r.status_code == 404 and r.json()["code"] == "warning-missing", r.text
    refused(
        rita.c.post("/api/reports", content=b"{not json", headers={"content-type": "application/json"}), 400, "json-key"
    )
    assert "Traceback" not in server.log()


def test_reports_of_what_is_gone(server: Any, mod: Person) -> None:
    """A deleted account takes the reports about him along; a deleted club's reports may still be dismissed."""
    rita, gone, owner = (Person(server.base, unique(n)) for n in ("Rita", "Gone", "Owner"))
    made = owner.post("/api/clubs", {"name": unique("Brief "), "public": True}).json()["club"]
    assert rita.post("/api/reports", {"kind": "player", "target": gone.name, "reason": "abuse"}).status_code == 201
    assert rita.post("/api/reports", {"kind": "club", "target": made["slug"], "reason": "spam"}).status_code == 201
    assert gone.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
    assert group(desk(mod), "player", gone.name or "") is None
    assert owner.post(f"/api/clubs/{made['slug']}/delete", {"name": made["name"]}).status_code == 200
    club = group(desk(mod), "club", made["name"])
    assert club is not None and club["target"].get("gone") is True
    refused(act_raw(mod, "remove", club["target"]), 404, "moderation-target-missing")
    act(mod, "dismiss", club["target"], "the owner deleted it himself")
    assert group(desk(mod), "club", made["name"]) is None


def play_daily(who: Person, game: str = "classic") -> None:
    """The day's set played to its end, the first legal move each time."""
    r = who.post(f"/api/daily/{game}/start", {})
    assert r.status_code == 200, r.text
    body = r.json()
    while not body["finished"]:
        r = who.post(f"/api/daily/{game}/move", {"board": body["board"], "move": body["state"]["legal"][0]})
        assert r.status_code == 200, r.text
        body = r.json()


def test_the_desk_shows_several_daily_finishers_from_one_address(server: Any, mod: Person) -> None:
    one, two = Person(server.base, unique("Dora")), Person(server.base, unique("Dino"))
    play_daily(one)
    play_daily(two)
    marks = [m for m in desk(mod)["daily"] if m["game"] == "classic"]
    assert len(marks) == 1 and len(marks[0]["address"]) == 12 and "127.0.0.1" not in str(marks)
    names = [f["name"] for f in marks[0]["finishers"]]
    assert one.name in names and two.name in names


def test_two_moderators_at_once_act_once(server: Any, mod: Person) -> None:
    """The same ban sent eight times at once is done and logged once; its undo likewise."""
    vic = Person(server.base, unique("Vic"))
    target = desk_target(mod, vic)
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: act_raw(mod, "ban", target, "threats"), range(8)))
    assert sorted(a.status_code for a in answers) == [200] + [409] * 7, [a.text for a in answers]
    banned = next(a.json()["entry"] for a in answers if a.status_code == 200)
    with ThreadPoolExecutor(8) as pool:
        undone = list(
            pool.map(lambda _: mod.post("/api/moderation/undo", {"entry": banned, "reason": "sorry"}), range(8))
        )
    assert sorted(a.status_code for a in undone) == [200] + [409] * 7, [a.text for a in undone]
    mine = [e for e in desk(mod)["log"] if e["label"] == vic.name]
    assert [e["action"] for e in mine] == ["unban", "ban"]
