"""Bring the catalogs up to date and fill in translations kept in ``.i18n-pending/*.json``.

    python tools/i18n_pending.py web cli      # the domains to extract, merge and compile

Several people working in one tree at once would overwrite each other's ``.po`` edits; instead each keeps
the French and Italian of his new messages in a JSON file of his own::

    {"web": {"the msgid": {"fr": "…", "it": "…"},
             "one {n} mail": {"fr": ["…", "…"], "it": ["…", "…"]},        # a plural: its forms
             "ctx\\u0004the msgid": {"fr": "…", "it": "…"}}}                 # with a context

and this script, under a lock, extracts each domain, merges it into each language, sets those translations
and compiles the ``.mo``.  The pending files are folded into the catalogs for good when the work lands.
"""

from __future__ import annotations

import fcntl
import json
import sys
from pathlib import Path

from barbu.i18n import LANGUAGES
from barbu.i18n.catalogs import po_path, read, update, write

ROOT = Path(__file__).resolve().parent.parent
PENDING = ROOT / ".i18n-pending"


def pending() -> dict[str, dict[str, dict[str, object]]]:
    """Every pending translation, by domain and msgid."""
    merged: dict[str, dict[str, dict[str, object]]] = {}
    for path in sorted(PENDING.glob("*.json")):
        for domain, messages in json.loads(path.read_text(encoding="utf-8")).items():
            merged.setdefault(domain, {}).update(messages)
    return merged


def fill(domain: str, messages: dict[str, dict[str, object]]) -> list[str]:
    """Set the pending translations of one domain; returns the msgids not found in its catalog."""
    unknown: list[str] = []
    for lang in LANGUAGES[1:]:
        path = po_path(lang, domain)
        catalog = read(path, lang, domain)
        for key, words in messages.items():
            context, _, msgid = key.rpartition("\x04")
            message = catalog.get(msgid, context=context or None)
            if message is None:
                if lang == LANGUAGES[1]:
                    unknown.append(key)
                continue
            text = words.get(lang)
            if text is None:
                continue
            message.string = tuple(text) if isinstance(text, list) else str(text)
            message.flags.discard("fuzzy")
        write(catalog, path, mo=True)
    return unknown


def main(argv: list[str]) -> int:
    domains = argv or ["web"]
    PENDING.mkdir(exist_ok=True)
    with (PENDING / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        todo = pending()
        for domain in domains:
            update(domain)
            for key in fill(domain, todo.get(domain, {})):
                print(f"{domain}: not in the catalog (yet): {key!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
