"""Play online: the multiplayer web server and the browser table.

`create_app` builds the ASGI application (Starlette, served by uvicorn);
`barbu serve` runs it.  Tables are actors (`barbu.web.tables.actor`), stored with
SQLAlchemy and Alembic (`barbu.web.db.storage`), and what each connection
receives is built from the engine's views only (`barbu.web.tables.views`).
"""

from typing import Any

__all__ = ["create_app", "Settings"]


def __getattr__(name: str) -> Any:
    """Imported on first use, so the command line can read the settings without loading the server."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .common.settings import Settings

        return Settings
    raise AttributeError(name)
