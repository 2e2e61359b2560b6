"""The models and the migrations describe the same schema.

The web server's tables are declared twice: as SQLAlchemy models (the ``Base.metadata`` of `barbu.web.db.storage`
and of every module declaring a model on it) and as the Alembic migrations that build a database.  Here the
migrations are run on an empty database (SQLite in the test's folder; PostgreSQL too where a URL is given) and
Alembic's own comparison (``alembic.autogenerate.compare_metadata``, the one ``alembic revision --autogenerate``
uses) must find nothing to change: no table, column, type, nullability, index, unique or foreign key that one has
and the other has not.  Server defaults are left out: the migrations give a server default to the columns they
add to tables that may hold rows already, where the models set a default on the Python side.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

import barbu.web
from barbu.web.db.storage import Base, make_engine, migrate

WEB = Path(barbu.web.__file__).parent
MODEL = re.compile(r"^class \w+\(Base\)", re.M)


def model_modules() -> list[str]:
    """Every module of barbu.web that declares a model (a class of ``Base``), wherever it lives."""
    names = []
    for path in sorted(WEB.rglob("*.py")):
        if "migrations" not in path.relative_to(WEB).parts and MODEL.search(path.read_text(encoding="utf-8")):
            names.append(".".join(("barbu.web", *path.relative_to(WEB).with_suffix("").parts)))
    return names


def test_the_migrations_build_the_schema_the_models_declare(db_url: str) -> None:
    names = model_modules()
    assert "barbu.web.db.storage" in names and any(n.startswith("barbu.web.accounts") for n in names), names
    for name in names:
        importlib.import_module(name)
    tables = set(Base.metadata.tables)
    assert {"barbu_tables", "barbu_seats", "barbu_events", "barbu_users"} <= tables, sorted(tables)
    engine = make_engine(db_url)
    try:
        migrate(engine)
        built = set(inspect(engine).get_table_names()) - {"alembic_version"}
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": False})
            differences = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()
    assert built == tables, (sorted(built - tables), sorted(tables - built))
    assert differences == [], "\n".join(map(repr, differences))


def test_the_head_read_from_file_names_is_alembics_and_a_database_at_it_is_left_alone(tmp_path: Path) -> None:
    """`migrate` skips Alembic when the database is at the head it reads from the revisions' file names: that
    head must be the one Alembic finds, and a database at it must still be brought up after a new revision."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from barbu.web.db.storage import MIGRATIONS, at_revision, newest_revision

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert newest_revision() == ScriptDirectory.from_config(cfg).get_current_head()
    engine = make_engine(f"sqlite:///{tmp_path / 'up.db'}")
    assert not at_revision(engine, newest_revision())  # an empty file: no alembic_version yet
    migrate(engine, "0005")
    assert at_revision(engine, "0005") and not at_revision(engine, newest_revision())
    migrate(engine)  # from 0005 to the head: not skipped
    assert at_revision(engine, newest_revision())
    assert "barbu_users" in inspect(engine).get_table_names()
    engine.dispose()
