"""Run the web server with uvicorn: what ``barbu serve`` does."""

from __future__ import annotations

import logging

from .app import create_app
from .settings import Settings

#: The largest WebSocket frame uvicorn accepts; the app refuses messages above Settings.max_message anyway.
WS_MAX_SIZE = 64 * 1024


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info",
          access_log: bool = True) -> None:
    import uvicorn
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    app = create_app(settings)
    # No per-message compression: the messages are small, and deflating each one costs more CPU
    # than it saves on the wire.
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=access_log,
                ws_max_size=WS_MAX_SIZE, ws_ping_interval=20, ws_ping_timeout=20, ws_per_message_deflate=False,
                timeout_graceful_shutdown=5)
