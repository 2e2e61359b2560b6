"""Which extra to install, in plain words, when a command needs a library the installation lacks.

The base install is the engine, the records and the computer players, on the standard library alone; each
front end comes with an extra (pyproject.toml): ``terminal`` (Rich, Textual), ``web``, ``sheets``,
``learned`` (numpy), ``cluster``, ``rl``, and ``play`` for all a player needs.  A command imports its
libraries when it runs; when one is missing, `missing_extra` says which extra brings it, instead of a
traceback.
"""

from __future__ import annotations

from ..core.words import N_
from ..i18n import _

#: The extra that installs each library a command may import (its top-level module).
EXTRA_OF = {
    "rich": "terminal",
    "textual": "terminal",
    "starlette": "web",
    "uvicorn": "web",
    "websockets": "web",
    "orjson": "web",
    "sqlalchemy": "web",
    "alembic": "web",
    "psycopg": "web",
    "redis": "web",
    "jinja2": "web",
    "babel": "web",
    "argon2": "web",
    "confusable_homoglyphs": "web",
    "openskill": "web",
    "msgspec": "web",
    "prometheus_client": "web",
    "pythonjsonlogger": "web",
    "fpdf": "sheets",
    "segno": "sheets",
    "numpy": "learned",
    "distributed": "cluster",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "rl",
}
#: What the missing library is for, by extra (Rich: the command line's own tables).
NEEDS = {
    "rich": N_("the command line needs: pip install 'barbu[terminal]'"),
    "terminal": N_(
        "the full-screen terminal game needs: pip install 'barbu[terminal]' (or play line by line: barbu play --plain)"
    ),
    "web": N_("the web server needs: pip install 'barbu[web]'"),
    "sheets": N_("the printable sheets need: pip install 'barbu[sheets]'"),
    "learned": N_("the expert's learned inference needs numpy: pip install 'barbu[learned]'"),
    "cluster": N_("the cluster needs: pip install 'barbu[cluster]'"),
    "rl": N_("the training adapters need: pip install 'barbu[rl]'"),
}
#: The full-screen part of other commands than ``barbu play``.
SCREENS = {
    "learn": N_("the full-screen lessons need: pip install 'barbu[terminal]' (or line by line: barbu learn --plain)"),
    "puzzle": N_(
        "the puzzles need: pip install 'barbu[terminal]' (without Textual, line by line: barbu puzzle --plain)"
    ),
    "score": N_(
        "the full-screen scorekeeper needs: pip install 'barbu[terminal]' (barbu score list, show, export "
        "and the other subcommands work without it)"
    ),
}
#: Commands that use the web server's database without serving pages: the kept games, the accounts, the
#: daily deals' secret.
DATABASE_COMMANDS = ("score", "users", "play", "daily", "backup", "restore", "migrate")
DATABASE = N_("barbu {command} uses the web server's database, which needs: pip install 'barbu[web]'")


def missing_extra(e: ImportError, command: str | None = None) -> str | None:
    """What to install for the library ``e`` could not import, in the player's words; None when it is not
    one an extra brings (then the error is a real one)."""
    name = (e.name or "").partition(".")[0]
    if command == "puzzle" and name in ("openskill", "platformdirs"):  # the terminal extra brings them
        return _(SCREENS["puzzle"])
    extra = EXTRA_OF.get(name)
    if extra is None:
        return None
    if name == "rich":
        return _(NEEDS["rich"])
    if extra == "terminal" and command in SCREENS:
        return _(SCREENS[command])
    if extra == "web" and command in DATABASE_COMMANDS:
        return _(DATABASE).format(command=command)
    return _(NEEDS[extra])
