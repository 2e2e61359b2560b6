"""Play online: the multiplayer web server and the browser table.

`create_app` builds the ASGI application (Starlette, served by uvicorn);
`barbu serve` runs it.  Tables are actors (`barbu.web.table`), stored with
SQLAlchemy and Alembic (`barbu.web.storage`), and what each connection
receives is built from the engine's views only (`barbu.web.views`).
"""

from .app import create_app
from .settings import Settings

__all__ = ["create_app", "Settings"]
