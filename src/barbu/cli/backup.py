"""``barbu backup``, ``barbu restore`` and ``barbu migrate``: the operator's copies of the server's database.

``barbu backup --db URL FILE`` copies the database while the server runs (SQLite's online backup, or
PostgreSQL's ``pg_dump``); ``barbu restore FILE --db URL`` puts a copy back into an empty database (``--force``
to replace one that holds data) and brings its schema up to date; ``barbu migrate --db URL`` only brings the
schema up to date, once, before the server's processes start (docs/operations.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.words import N_
from ..i18n import _, number
from .common import add_database_argument, console, error

#: The words of each problem (`barbu.web.db.backup.BackupProblem`'s codes), with its values.
WORDS = {
    "bad-url": N_("cannot open the database {db}: {reason}; this server runs on SQLite or PostgreSQL"),
    "no-database": N_("cannot open the database {db}: {reason}"),
    "not-barbu-database": N_("the database {db} holds no barbu server's tables: nothing to back up"),
    "no-folder": N_("the folder {folder} does not exist"),
    "file-exists": N_("{path} exists already: add --overwrite to replace it, or choose another name"),
    "no-file": N_("there is no file {path}"),
    "not-backup": N_("{path} is not a backup of a barbu server: nothing was restored"),
    "damaged": N_("{path} is damaged and cannot be restored ({reason}): nothing was restored"),
    "wrong-kind": N_("{path} is a backup of a {found} database; restore it into a {found} database, not {db}"),
    "too-new": N_(
        "{path} was made by a newer barbu (schema {revision}; this one knows up to {newest}): upgrade barbu first"
    ),
    "has-data": N_(
        "the database {db} already holds data ({rows} rows): add --force to replace it with the backup, "
        "or restore into an empty database"
    ),
    "no-schema": N_("the schema named in {db} (its search_path) does not exist: create it first"),
    "wrong-schema": N_(
        "{path} holds the tables of the schema {found}, but {db} uses the schema {schema}: restore it into "
        "a database whose search_path is {found}"
    ),
    "no-tool": N_(
        "{tool} was not found: PostgreSQL's backups need its client tools on the PATH (Debian: apt install "
        "postgresql-client), of the server's version or newer"
    ),
    "tool-failed": N_("{tool} failed: {reason}"),
}


#: The databases' names as people write them.
KINDS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def add_backup_arguments(p: argparse.ArgumentParser) -> None:
    p.description = _(
        "Copy the web server's database into one file while the server runs: a SQLite file, or a pg_dump "
        "archive for PostgreSQL (pg_dump must be installed). Restore it with 'barbu restore'."
    )
    add_database_argument(p)
    p.add_argument("file", metavar="FILE", help=_("the backup file to write"))
    p.add_argument("--overwrite", action="store_true", help=_("replace FILE if it exists"))
    p.set_defaults(func=cmd_backup)


def add_restore_arguments(p: argparse.ArgumentParser) -> None:
    p.description = _(
        "Put a backup made by 'barbu backup' into the web server's database, then bring its schema up to "
        "date. Stop the server's processes first."
    )
    p.add_argument("file", metavar="FILE", help=_("the backup file to restore"))
    add_database_argument(p)
    p.add_argument(
        "--force", action="store_true", help=_("replace a database that holds data (everything in it is lost)")
    )
    p.set_defaults(func=cmd_restore)


def add_migrate_arguments(p: argparse.ArgumentParser) -> None:
    p.description = _(
        "Create or upgrade the web server's database schema, then exit: run it once before starting "
        "several server processes (each would otherwise do it at start-up)."
    )
    add_database_argument(p)
    p.set_defaults(func=cmd_migrate)


def database(args: argparse.Namespace) -> str:
    """The ``--db`` given, as a URL (a plain path is a SQLite file; default barbu-web.db here)."""
    from ..web.db.storage import sqlite_url

    db = args.db or sqlite_url("barbu-web.db")
    return db if "://" in db else sqlite_url(db)


def problem_words(e) -> str:
    """A `BackupProblem` in the reader's language."""
    values = dict(e.values)
    if "rows" in values:
        values["rows"] = number(values["rows"])
    if "found" in values and e.code == "wrong-kind":
        values["found"] = KINDS.get(values["found"], values["found"])
    return _(WORDS[e.code]).format(**values)


def cmd_backup(args: argparse.Namespace) -> int:
    from ..web.db.backup import BackupProblem, backup

    try:
        info = backup(database(args), Path(args.file), overwrite=args.overwrite)
    except BackupProblem as e:
        error(problem_words(e))
        return 2
    console.print(
        _("Backed up into {path} ({kind}, schema {revision}).").format(
            path=args.file, kind=KINDS[info.kind], revision=info.revision
        ),
        markup=False,
        soft_wrap=True,
    )
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from ..web.db.backup import BackupProblem, restore, shown
    from ..web.db.storage import newest_revision

    url = database(args)
    try:
        info = restore(Path(args.file), url, force=args.force)
    except BackupProblem as e:
        error(problem_words(e))
        return 2
    console.print(
        _("Restored {path} into {db} (schema {revision}, now {newest}).").format(
            path=args.file, db=shown(url), revision=info.revision, newest=newest_revision()
        ),
        markup=False,
        soft_wrap=True,
    )
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from ..web.db.backup import BackupProblem, kind_of, shown
    from ..web.db.storage import make_engine, migrate, newest_revision

    url = database(args)
    try:
        kind_of(url)
        engine = make_engine(url)
        try:
            migrate(engine)
        finally:
            engine.dispose()
    except BackupProblem as e:
        error(problem_words(e))
        return 2
    except SQLAlchemyError as e:
        reason = (str(getattr(e, "orig", None) or e).strip().splitlines() or ["?"])[0]
        error(_(WORDS["no-database"]).format(db=shown(url), reason=reason))
        return 1
    console.print(
        _("The database {db} is at schema {revision}.").format(db=shown(url), revision=newest_revision()),
        markup=False,
        soft_wrap=True,
    )
    return 0
