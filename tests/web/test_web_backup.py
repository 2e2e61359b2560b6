"""``barbu backup``, ``barbu restore`` and ``barbu migrate`` on SQLite and on PostgreSQL (its own schema).

A match finished by the real app is backed up while the app still holds its database open, restored into an
empty database, and its record, served by an app on the restored database, replays to exactly the same scores.
Damaged and foreign files, a database that holds data and an existing backup file are refused in words and
change nothing; a backup of an older schema is brought up to date by the restore; backups taken while a real
``barbu serve`` process plays are whole copies of a log that grew meanwhile.
"""

from __future__ import annotations

import io
import os
import sqlite3
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import reset_postgres
from sqlalchemy import create_engine, text
from webhelpers import http, new_table
from wsclient import app_client

from barbu.cli.main import main
from barbu.records.barbu import read_record, replay
from barbu.web import Settings
from barbu.web.db.storage import database_url, make_engine, migrate, newest_revision

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)
RULES = "salad(players=3)"


def finished_record(url: str) -> tuple[str, str]:
    """A match of computer players played to its end by the app on ``url``: its table and its record.  The app
    is still running (its database open) when the record is read; the backup is made by the caller after."""
    with app_client(Settings(db_url=url, **FAST)) as c:
        r = c.post("/api/tables", json={"rules": RULES})
        assert r.status_code == 201, r.text
        tid, creator = r.json()["id"], r.json()["creator"]
        for s in range(3):
            got = c.post(f"/api/tables/{tid}/bots", json={"seat": s, "strength": "random", "token": creator})
            assert got.status_code == 200, got.text
        for _ in range(1200):
            if c.get(f"/api/tables/{tid}").json()["table"]["status"] == "over":
                return tid, c.get(f"/api/tables/{tid}/record").text
            time.sleep(0.05)
    pytest.fail("the computer table did not finish")


def served_record(url: str, tid: str) -> str:
    with app_client(Settings(db_url=url, **FAST)) as c:
        r = c.get(f"/api/tables/{tid}/record")
        assert r.status_code == 200, r.text
        return r.text


def scores(record_text: str) -> tuple[list, list]:
    """Each deal's scores and the totals, recomputed by replaying every action (and checked against those the
    record states)."""
    rep = replay(read_record(io.StringIO(record_text)))
    assert rep.consistent, rep.inconsistencies
    return [list(r.added) for r in rep.match.results], list(rep.match.totals)


def barbu(capsys, *args: str) -> tuple[int, str]:
    """Run the command line here; its exit code and everything it printed."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, " ".join((out.out + out.err).split())


def empty_database(url: str, tmp_path: Path) -> str:
    """Another, empty database of the same kind: a new SQLite file, or this process's schema emptied."""
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'restored.db'}"
    reset_postgres(url)
    return url


def revision(url: str) -> str:
    engine = create_engine(database_url(url))
    with engine.connect() as conn:
        found = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    engine.dispose()
    return found


def test_a_finished_match_backed_up_and_restored_replays_to_the_same_scores(db_url, tmp_path, capsys) -> None:
    tid, record = finished_record(db_url)
    before = scores(record)
    assert before[0] and len(before[1]) == 3
    file = tmp_path / "site.backup"
    code, said = barbu(capsys, "backup", "--db", db_url, str(file))
    assert code == 0 and "Backed up into" in said, said
    assert [p.name for p in tmp_path.iterdir() if ".partial" in p.name] == []

    # no overwrite: the file is kept as it was, byte for byte
    kept = file.read_bytes()
    code, said = barbu(capsys, "backup", "--db", db_url, str(file))
    assert code == 2 and "exists already: add --overwrite" in said, said
    assert file.read_bytes() == kept

    # a database that holds data is not replaced without --force
    code, said = barbu(capsys, "restore", str(file), "--db", db_url)
    assert code == 2 and "already holds data" in said and "--force" in said, said

    target = empty_database(db_url, tmp_path)
    code, said = barbu(capsys, "restore", str(file), "--db", target)
    assert code == 0 and "Restored" in said, said
    assert "barbu:barbu@" not in said  # never the password
    again = served_record(target, tid)
    assert again == record
    assert scores(again) == before

    # --force replaces a database holding data: the restored one, with the match still in it
    code, said = barbu(capsys, "restore", str(file), "--db", target, "--force")
    assert code == 0, said
    assert scores(served_record(target, tid)) == before


def test_damaged_and_foreign_files_are_refused_in_words_and_change_nothing(db_url, tmp_path, capsys) -> None:
    migrate_code, said = barbu(capsys, "migrate", "--db", db_url)
    assert migrate_code == 0 and newest_revision() in said, said
    good = tmp_path / "good.backup"
    assert barbu(capsys, "backup", "--db", db_url, str(good))[0] == 0
    junk = tmp_path / "notes.txt"
    junk.write_text("not a backup\n")
    cut = tmp_path / "cut.backup"
    cut.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (line TEXT)")
    # a database that is not a barbu server's is not backed up, and leaves no file behind
    code, said = barbu(capsys, "backup", "--db", f"sqlite:///{other}", str(tmp_path / "other.backup"))
    assert code == 2 and "holds no barbu server's tables" in said, said
    assert sorted(p.name for p in tmp_path.iterdir() if "backup" in p.name) == ["cut.backup", "good.backup"]
    target = empty_database(db_url, tmp_path)
    for file, words in (
        (junk, "is not a backup of a barbu server"),
        (other, "is not a backup of a barbu server"),
        (cut, "is damaged and cannot be restored"),
        (tmp_path / "missing.backup", "there is no file"),
    ):
        code, said = barbu(capsys, "restore", str(file), "--db", target)
        assert code == 2 and words in said and "Traceback" not in said, (file, said)
    if target.startswith("sqlite"):
        assert not Path(target.removeprefix("sqlite:///")).exists() or _sqlite_tables(target) == set()
    else:
        engine = make_engine(target)
        with engine.connect() as conn:
            assert (
                conn.execute(text("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")).scalar() == 0
            )
        engine.dispose()
    # a backup of one kind is not restored into the other
    other_kind = (
        "postgresql://barbu@127.0.0.1/none" if db_url.startswith("sqlite") else f"sqlite:///{tmp_path / 'x.db'}"
    )
    code, said = barbu(capsys, "restore", str(good), "--db", other_kind)
    assert code == 2 and "is a backup of a" in said, said


def _sqlite_tables(url: str) -> set[str]:
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_backup_of_an_older_schema_is_brought_up_to_date(db_url, tmp_path, capsys) -> None:
    older = f"{int(newest_revision()) - 1:04d}"
    engine = make_engine(db_url)
    migrate(engine, older)
    engine.dispose()
    assert revision(db_url) == older
    file = tmp_path / "old.backup"
    code, said = barbu(capsys, "backup", "--db", db_url, str(file))
    assert code == 0 and f"schema {older}" in said, said
    target = empty_database(db_url, tmp_path)
    code, said = barbu(capsys, "restore", str(file), "--db", target)
    assert code == 0 and f"schema {older}, now {newest_revision()}" in said, said
    assert revision(target) == newest_revision()


def test_postgresql_without_its_tools_is_said_in_words(tmp_path, capsys, monkeypatch) -> None:
    from conftest import postgres_url

    url = postgres_url()
    reset_postgres(url)
    assert barbu(capsys, "migrate", "--db", url)[0] == 0
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump here
    code, said = barbu(capsys, "backup", "--db", url, str(tmp_path / "b.backup"))
    assert code == 2 and "pg_dump was not found" in said and "postgresql-client" in said, said
    assert os.listdir(tmp_path) == []  # not even a partial file


def test_a_sqlite_backup_while_the_server_writes_is_whole(tmp_path, capsys) -> None:
    """The online backup copies one consistent state even while another connection writes."""
    url = f"sqlite:///{tmp_path / 'live.db'}"
    engine = make_engine(url)
    migrate(engine)
    with engine.begin() as conn:  # a transaction open across the backup: its rows are not in the copy
        conn.execute(
            text("INSERT INTO barbu_creations (address_hash, kind, created_at) VALUES ('a', 'k', '2026-01-01')")
        )
        code, said = barbu(capsys, "backup", "--db", url, str(tmp_path / "live.backup"))
        assert code == 0, said
    engine.dispose()
    with sqlite3.connect(tmp_path / "live.backup") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) FROM barbu_creations").fetchone() == (0,)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_backups_taken_while_a_real_server_plays_are_whole(serve, tmp_path, capsys) -> None:
    """``barbu serve`` plays a match of computer players in its own process while backups are taken: each copy
    is an undamaged database whose table log has no gap, and the last, restored, serves the same record."""
    server = serve("--bot-delay", "0", "--deal-pause", "0")
    tid, _ = new_table(server.base, RULES, bots={0: "random", 1: "random", 2: "random"})
    counts: list[int] = []
    for n in range(1000):
        over = http("GET", f"{server.base}/api/tables/{tid}")[1]["table"]["status"] == "over"
        file = tmp_path / f"live-{n}.backup"
        code, said = barbu(capsys, "backup", "--db", server.db, str(file))
        assert code == 0, said
        with sqlite3.connect(f"file:{file}?mode=ro", uri=True) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            seqs = [r[0] for r in conn.execute("SELECT seq FROM barbu_events WHERE table_id = ? ORDER BY seq", (tid,))]
        assert seqs == list(range(len(seqs)))  # a prefix of the log, never a hole
        counts.append(len(seqs))
        if over:
            break
    assert counts == sorted(counts) and counts[0] < counts[-1]  # copies of a log that grew meanwhile
    target = f"sqlite:///{tmp_path / 'restored.db'}"
    assert barbu(capsys, "restore", str(file), "--db", target)[0] == 0
    record = urllib.request.urlopen(f"{server.base}/api/tables/{tid}/record", timeout=60).read().decode()
    assert served_record(target, tid) == record
    assert scores(record)[1]
    assert "Traceback" not in server.log()
