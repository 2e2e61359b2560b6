"""Alembic environment for the barbu web server's tables.

`barbu.web.db.storage.migrate` passes an open connection in
``config.attributes["connection"]``; run from the command line, the URL comes
from ``sqlalchemy.url`` (or the ``BARBU_DB`` environment variable).
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from barbu.web.db.storage import Base, database_url

config = context.config
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("BARBU_DB", "")
    context.configure(url=database_url(url), target_metadata=target_metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    conn = config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("BARBU_DB", "")
    engine = create_engine(database_url(url))
    with engine.begin() as c:
        context.configure(connection=c, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
