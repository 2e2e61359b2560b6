"""``barbu ARGS`` run in the test's own process, through the command line's entry point (`barbu.cli.main.main`,
what ``python -m barbu`` calls), its exit code and what it wrote captured.

For tests of what a command does, not of a process starting: a new process costs about 1.3 s of processor
(Python, then the command line's imports) before the command runs, which was most of those tests' time.  The
tests that are about the process itself (a terminal or none, the light install's imports) still start one."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from barbu.cli.main import main
from barbu.i18n import current, use


@dataclass
class Ran:
    """What a command left: its exit code and what it wrote (the fields of `subprocess.CompletedProcess`)."""

    returncode: int
    stdout: str
    stderr: str


def barbu(*args: str, config: Path | None = None, input: str = "", cwd: Path | None = None, columns: int = 80) -> Ran:
    """``barbu ARGS`` in English unless ``--lang`` says otherwise, `input` its standard input (not a terminal, as a
    pipe is not), run in the folder `cwd`, its lines as wide as a process's with ``COLUMNS=columns`` (80: a process
    writing to a pipe); `config` is the folder it keeps its settings in (``XDG_CONFIG_HOME``).  The process's
    language, folder, input, environment and consoles are as they were afterwards."""
    from barbu.cli import common, score

    consoles = (common.console, common.err, score.console, score.err)  # made at import: told the width here
    widths = [c._width for c in consoles]
    for c in consoles:
        c._width = columns
    out, err = io.StringIO(), io.StringIO()
    lang, folder = current(), os.getcwd()
    stdin, sys.stdin = sys.stdin, io.StringIO(input)
    if cwd is not None:
        os.chdir(cwd)
    saved = {k: os.environ.get(k) for k in ("XDG_CONFIG_HOME", "BARBU_LANG", "COLUMNS")}
    os.environ["BARBU_LANG"], os.environ["COLUMNS"] = "en", str(columns)
    if config is not None:
        os.environ["XDG_CONFIG_HOME"] = str(config)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse's refusals end so, as they end the process
                code = e.code if isinstance(e.code, int) else 2
    finally:
        sys.stdin = stdin
        os.chdir(folder)
        use(lang)
        for c, w in zip(consoles, widths):
            c._width = w
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return Ran(code, out.getvalue(), err.getvalue())
