"""Run the web server with uvicorn: what ``barbu serve`` does."""

from __future__ import annotations

import gc
import logging
import sys

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
    tune_runtime()
    # No per-message compression: the messages are small, and deflating each one costs more CPU
    # than it saves on the wire.
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=access_log,
                ws_max_size=WS_MAX_SIZE, ws_ping_interval=20, ws_ping_timeout=20, ws_per_message_deflate=False,
                timeout_graceful_shutdown=5)


def tune_runtime() -> None:
    """Settings for a busy server process, measured with benchmarks/web_load.py (125 tables).

    - The database writer thread must win Python's lock back quickly after each call into the
      driver; at the default 5 ms switch interval a commit behind a busy event loop took up to
      90 ms, and every table waits for its commit before it answers.
    - Young-generation collections every 10,000 allocations rather than 700, and the objects of
      start-up (modules, classes, functions) frozen out of the collector's reach, so that a full
      collection, which stops every table, comes less often and has less to walk.
    """
    sys.setswitchinterval(0.0002)
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
