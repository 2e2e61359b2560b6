"""What every game's JSON Lines records share: reading the file, one JSON object a line, the published key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

from ..core import safejson
from ..core.errors import RecordError, UnreadableFile
from . import refusals as R
from .refusals import refuse


def write_lines(lines: Iterable[dict[str, Any]], out: "str | Path | IO[str]") -> None:
    """Write a record's lines to a path, whole or not at all (a save never leaves half a file), or to an open file."""
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if isinstance(out, (str, Path)):
        path = Path(out)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    else:
        out.write(text)


def read_lines(source: "str | Path | IO[str] | Iterable[str]") -> Iterable[str]:
    """The lines of a record file (or the lines given), a missing or binary file said in plain words."""
    if not isinstance(source, (str, Path)):
        return source
    try:
        return Path(source).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise refuse(R.CANNOT_READ, cls=UnreadableFile, path=str(source), reason=e.strerror or str(e)) from None
    except UnicodeDecodeError:
        raise refuse(R.NOT_TEXT, cls=UnreadableFile, path=str(source)) from None


def record_objects(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; RecordError names the line of anything malformed."""
    for no, raw in enumerate(lines, start=1):
        raw = raw.strip()
        if not raw:
            continue
        try:
            obj = safejson.loads(raw)
        except safejson.JsonError as e:
            raise RecordError(str(e), no) from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise refuse(R.NOT_JSON_OBJECT, no)
        yield no, obj


def published_key(header: dict[str, Any]) -> bytes | None:
    """The table's chance key a finished public match publishes in its header (`barbu.core.chance`), if any."""
    chance = header.get("chance")
    if not isinstance(chance, dict) or chance.get("method") != "hmac-sha256":
        return None
    try:
        secret = bytes.fromhex(str(chance.get("secret", "")))
    except ValueError:
        raise refuse(R.KEY_NOT_HEX, 1) from None
    if len(secret) < 16:
        raise refuse(R.KEY_TOO_SHORT, 1)
    return secret
