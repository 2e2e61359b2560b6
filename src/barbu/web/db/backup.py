"""Backups of the server's database and restores from them (``barbu backup``, ``barbu restore``).

A backup is in the database's own format, so that the usual tools read it too: a SQLite file made by
sqlite3's online backup API (a consistent copy while the server writes), or a ``pg_dump -Fc`` archive of the
schema the server's URL uses (PostgreSQL's own tools, found on PATH).  A backup is written under a temporary
name and renamed when complete, so a failed or interrupted one never leaves a file that looks finished.

A restore reads the whole file first (is it a backup of barbu's tables, undamaged, of a schema this barbu
knows?), refuses to replace a database that holds data unless forced, and brings the restored schema up to
this barbu's migrations.  Problems are `BackupProblem`\\ s: a code and its values, worded by the command line.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from .storage import database_url, make_engine, migrate, newest_revision

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"
#: The tables whose presence says a database (or an archive) is barbu's.
MARKS = ("alembic_version", "barbu_tables")
#: How long a PostgreSQL tool may take before it is given up (seconds): a large site's dump takes minutes.
TOOL_TIMEOUT = 3600.0


class BackupProblem(Exception):
    """Why a backup or a restore could not be made: ``code`` and the values its words name."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values


@dataclass(frozen=True)
class BackupInfo:
    """What a backup holds: the database's kind, its schema's migration revision, and for PostgreSQL the
    schema its tables were in."""

    kind: str  # sqlite or postgresql
    revision: str
    schema: str | None = None


def shown(url: str) -> str:
    """A database URL as it may be printed: never its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a malformed URL is shown as given, past any credentials
        return url.rsplit("@", 1)[-1]


def kind_of(url: str) -> str:
    """``sqlite`` or ``postgresql``, the two databases the server runs on."""
    try:
        backend = make_url(database_url(url)).get_backend_name()
    except Exception as e:  # noqa: BLE001 - the URL's own fault, said in words
        raise BackupProblem("bad-url", db=shown(url), reason=str(e)) from None
    if backend not in ("sqlite", "postgresql"):
        raise BackupProblem("bad-url", db=shown(url), reason=backend)
    return backend


# -- backup --


def backup(url: str, path: Path, overwrite: bool = False) -> BackupInfo:
    """Copy the database at ``url`` into the file ``path``; refuses to replace an existing file unless told."""
    kind = kind_of(url)
    path = Path(path)
    if path.exists() and not overwrite:
        raise BackupProblem("file-exists", path=str(path))
    if not path.parent.is_dir():
        raise BackupProblem("no-folder", folder=str(path.parent))
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    os.close(fd)
    partial = Path(name)
    try:
        if kind == "sqlite":
            _sqlite_backup(url, partial)
        else:
            _pg_backup(url, partial)
        info = inspect(partial)
        with partial.open("rb") as f:
            os.fsync(f.fileno())
        _publish(partial, path, overwrite)
        return info
    finally:
        partial.unlink(missing_ok=True)


def _publish(partial: Path, path: Path, overwrite: bool) -> None:
    """The finished copy under its name: replacing a file only when told (a link fails on an existing name)."""
    if overwrite:
        os.replace(partial, path)
        return
    try:
        os.link(partial, path)
    except FileExistsError:
        raise BackupProblem("file-exists", path=str(path)) from None
    except OSError:  # a file system without hard links
        if path.exists():
            raise BackupProblem("file-exists", path=str(path)) from None
        os.replace(partial, path)


def _sqlite_file(url: str) -> Path:
    database = make_url(database_url(url)).database
    if not database or database == ":memory:":
        raise BackupProblem("bad-url", db=shown(url), reason="no file")
    return Path(database)


def _sqlite_backup(url: str, partial: Path) -> None:
    source_path = _sqlite_file(url)
    if not source_path.is_file():
        raise BackupProblem("no-database", db=str(source_path), reason="no such file")
    try:
        source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as e:
        raise BackupProblem("no-database", db=str(source_path), reason=str(e)) from None
    try:
        _require_marks(_sqlite_tables(source, str(source_path)), str(source_path))
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # one step: a consistent snapshot, even while the server writes
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            copy.close()
    except sqlite3.Error as e:
        raise BackupProblem("no-database", db=str(source_path), reason=str(e)) from None
    finally:
        source.close()


def _sqlite_tables(conn: sqlite3.Connection, where: str) -> set[str]:
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.DatabaseError as e:
        raise BackupProblem("no-database", db=where, reason=str(e)) from None
    return {r[0] for r in rows}


def _require_marks(tables: set[str], db: str) -> None:
    if not all(m in tables for m in MARKS):
        raise BackupProblem("not-barbu-database", db=db)


# -- what a file holds --


def inspect(path: Path) -> BackupInfo:
    """What the backup file ``path`` holds, after reading all of it; a `BackupProblem` when it is not an
    undamaged backup of barbu's tables."""
    path = Path(path)
    if not path.is_file():
        raise BackupProblem("no-file", path=str(path))
    with path.open("rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        return _inspect_sqlite(path)
    if head.startswith(PGDUMP_MAGIC):
        return _inspect_pg(path)
    raise BackupProblem("not-backup", path=str(path))


def _inspect_sqlite(path: Path) -> BackupInfo:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as e:
        raise BackupProblem("damaged", path=str(path), reason=str(e)) from None
    try:
        found = conn.execute("PRAGMA quick_check").fetchall()
        if [tuple(r) for r in found] != [("ok",)]:
            raise BackupProblem("damaged", path=str(path), reason=str(found[0][0]))
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not all(m in tables for m in MARKS):
            raise BackupProblem("not-backup", path=str(path))
        revisions = [r[0] for r in conn.execute("SELECT version_num FROM alembic_version")]
    except sqlite3.DatabaseError as e:
        raise BackupProblem("damaged", path=str(path), reason=str(e)) from None
    finally:
        conn.close()
    if len(revisions) != 1:
        raise BackupProblem("not-backup", path=str(path))
    return BackupInfo("sqlite", str(revisions[0]))


#: One table of a pg_restore listing: ``218; 1259 16390 TABLE schema name owner``.
TOC_TABLE = re.compile(r"^\d+; \d+ \d+ TABLE (\S+) (\S+) ")


def _inspect_pg(path: Path) -> BackupInfo:
    listing = _run_tool("pg_restore", ["--list", str(path)], damaged=path)
    schemas = {m.group(2): m.group(1) for m in map(TOC_TABLE.match, listing.splitlines()) if m}
    if not all(m in schemas for m in MARKS):
        raise BackupProblem("not-backup", path=str(path))
    _run_tool("pg_restore", ["--file", os.devnull, str(path)], damaged=path)  # every part of it readable
    data = _run_tool(
        "pg_restore", ["--data-only", "--table", "alembic_version", "--file", "-", str(path)], damaged=path
    )
    copy = re.search(r"^COPY \S*alembic_version .*? FROM stdin;\n(.*?)^\\\.$", data, re.M | re.S)
    revisions = copy.group(1).split() if copy else []
    if len(revisions) != 1:
        raise BackupProblem("not-backup", path=str(path))
    return BackupInfo("postgresql", revisions[0], schemas["barbu_tables"])


# -- restore --


def restore(path: Path, url: str, force: bool = False) -> BackupInfo:
    """Put the backup ``path`` into the database at ``url`` and bring its schema to this barbu's newest;
    refuses a database holding data unless ``force``.  Returns what the backup held."""
    kind = kind_of(url)
    info = inspect(path)
    if info.kind != kind:
        raise BackupProblem("wrong-kind", path=str(path), found=info.kind, db=shown(url))
    if info.revision > newest_revision():
        raise BackupProblem("too-new", path=str(path), revision=info.revision, newest=newest_revision())
    if kind == "sqlite":
        _sqlite_restore(Path(path), url, force)
    else:
        _pg_restore(Path(path), url, info, force)
    engine = make_engine(url)
    try:
        migrate(engine)
    except SQLAlchemyError as e:
        raise BackupProblem("no-database", db=shown(url), reason=_first_line(e)) from None
    finally:
        engine.dispose()
    return info


def _sqlite_restore(path: Path, url: str, force: bool) -> None:
    target = _sqlite_file(url)
    if not target.parent.is_dir():
        raise BackupProblem("no-folder", folder=str(target.parent))
    try:
        dest = sqlite3.connect(target, timeout=30)
    except sqlite3.Error as e:
        raise BackupProblem("no-database", db=str(target), reason=str(e)) from None
    try:
        tables = _sqlite_tables(dest, str(target)) - {"alembic_version", "sqlite_sequence"}
        rows = sum(dest.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in sorted(tables))
        if rows and not force:
            raise BackupProblem("has-data", db=str(target), rows=rows)
        source = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            source.backup(dest)  # the whole database replaced, page by page, in one transaction
        finally:
            source.close()
        dest.execute("PRAGMA journal_mode=WAL")  # as the server keeps it
    except sqlite3.Error as e:
        raise BackupProblem("no-database", db=str(target), reason=str(e)) from None
    finally:
        dest.close()


def _pg_restore(path: Path, url: str, info: BackupInfo, force: bool) -> None:
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            schema = conn.execute(text("SELECT current_schema()")).scalar()
            if schema is None:
                raise BackupProblem("no-schema", db=shown(url))
            if schema != info.schema:
                raise BackupProblem("wrong-schema", path=str(path), found=info.schema, schema=schema, db=shown(url))
            tables = conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema})
            names = [r[0] for r in tables if r[0] != "alembic_version"]
            rows = sum(conn.execute(text(f'SELECT count(*) FROM "{schema}"."{t}"')).scalar_one() for t in names)
            if rows and not force:
                raise BackupProblem("has-data", db=shown(url), rows=rows)
            for t in [*names, "alembic_version"]:  # what the archive brings back, and nothing in its way
                conn.execute(text(f'DROP TABLE IF EXISTS "{schema}"."{t}" CASCADE'))
    except SQLAlchemyError as e:
        raise BackupProblem("no-database", db=shown(url), reason=_first_line(e)) from None
    finally:
        engine.dispose()
    listing = _run_tool("pg_restore", ["--list", str(path)], damaged=path)
    # the schema exists already (the URL names it); its own entries would be refused or replace it
    kept = [line for line in listing.splitlines() if " SCHEMA " not in line]
    with tempfile.NamedTemporaryFile("w", suffix=".list", delete=False) as f:
        f.write("\n".join(kept) + "\n")
    try:
        args = ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", "--use-list", f.name]
        _run_tool("pg_restore", [*args, str(path)], url=url)
    finally:
        os.unlink(f.name)


# -- PostgreSQL's tools --


def _pg_backup(url: str, partial: Path) -> None:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            schema = conn.execute(text("SELECT current_schema()")).scalar()
            found = set() if schema is None else set(_pg_tables(conn, schema))
    except SQLAlchemyError as e:
        raise BackupProblem("no-database", db=shown(url), reason=_first_line(e)) from None
    finally:
        engine.dispose()
    _require_marks(found, shown(url))
    _run_tool(
        "pg_dump",
        ["--format=custom", "--no-owner", "--no-privileges", "--schema", str(schema), "--file", str(partial)],
        url=url,
    )


def _pg_tables(conn: Any, schema: str) -> list[str]:
    return [r[0] for r in conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema})]


def _run_tool(tool: str, args: list[str], url: str | None = None, damaged: Path | None = None) -> str:
    """Run one of PostgreSQL's tools; its output, or a `BackupProblem` in words (never a traceback)."""
    found = shutil.which(tool)
    if found is None:
        raise BackupProblem("no-tool", tool=tool)
    env = dict(os.environ)
    if url is not None:
        parsed = make_url(database_url(url))
        if parsed.password is not None:
            env["PGPASSWORD"] = str(parsed.password)  # not on the command line, where ps would show it
        plain = parsed.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
        args = [*args, f"--dbname={plain}"]
    try:
        done = subprocess.run([found, *args], capture_output=True, text=True, env=env, timeout=TOOL_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BackupProblem("tool-failed", tool=tool, reason=str(e)) from None
    if done.returncode != 0:
        reason = _tool_reason(done.stderr)
        if damaged is not None:
            raise BackupProblem("damaged", path=str(damaged), reason=reason)
        raise BackupProblem("tool-failed", tool=tool, reason=reason)
    return done.stdout


def _tool_reason(stderr: str) -> str:
    """The tool's first error line, without its name in front."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else "?")
    return re.sub(r"^(pg_dump|pg_restore): (error: )?", "", first)


def _first_line(e: BaseException) -> str:
    return (str(getattr(e, "orig", None) or e).strip().splitlines() or ["?"])[0]
