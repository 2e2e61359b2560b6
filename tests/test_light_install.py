"""A light install: the engine, the records and the computer players on the standard library alone, and a
command line that loads each command's libraries only when that command runs.

Each check runs in a fresh interpreter (`subprocess`), since this one has long imported everything.  Where
an installation without the extras is played, a finder put first on ``sys.meta_path`` refuses to import
any module outside the standard library and barbu itself, as if nothing else were installed.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from barbu.agents import expert as expert_module
from barbu.agents import make_agent
from barbu.agents.refusals import LEARNED_NEEDS_NUMPY, MissingExtraWarning
from barbu.classic.match import CHANCE, Match
from barbu.core.errors import AgentError

#: What ``barbu --help`` must not load: servers, databases, screens, arrays, PDF, Babel.
HEAVY = (
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "redis",
    "numpy",
    "textual",
    "jinja2",
    "fpdf",
    "babel",
)

#: Put first on sys.meta_path: only the standard library and barbu can be imported (``ONLY`` narrows it to
#: the top-level names given, leaving the rest importable).
WITHOUT_EXTRAS = textwrap.dedent("""
    import sys

    class NotInstalled:
        def find_spec(self, name, path=None, target=None):
            top = name.partition(".")[0]
            if ONLY is not None and top not in ONLY:
                return None
            if top == "barbu" or top in sys.stdlib_module_names:
                return None
            raise ModuleNotFoundError(f"No module named {top!r}", name=top)

    sys.meta_path.insert(0, NotInstalled())
""")


def run(
    code: str, *args: str, only: tuple[str, ...] | None = None, stdin: str = "", cwd=None
) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter (with the finder above when ``only`` is given or ``()``)."""
    prelude = "" if only is None else f"ONLY = {set(only) or None!r}\n" + WITHOUT_EXTRAS
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
        cwd=cwd,
        env={**__import__("os").environ, "BARBU_LANG": "en", "COLUMNS": "100"},
    )


CLI = """
    import sys
    from barbu.cli.main import main
    try:
        code = main(sys.argv[1:])
    except SystemExit as e:
        code = e.code
    sys.stdout.flush()
    print("LOADED", ",".join(sorted({m.partition(".")[0] for m in sys.modules})), "CODE", code)
"""


def loaded(out: str) -> tuple[set[str], str]:
    line = out.strip().splitlines()[-1]
    assert line.startswith("LOADED"), out
    _word, names, _code_word, code = line.split(" ")
    return set(names.split(",")), code


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["rules"], ["rules", "classic"], ["serve", "--help"]])
def test_the_command_line_loads_no_server_database_screen_or_array(args):
    done = run(CLI, *args)
    assert done.returncode == 0, done.stderr
    names, code = loaded(done.stdout)
    assert code in ("0", "None")
    assert not names & set(HEAVY), f"barbu {' '.join(args)} loaded {sorted(names & set(HEAVY))}"
    if args == ["--help"]:
        assert "rich" not in names  # only argparse's help: no console needed
        assert "COMMAND" in done.stdout and "serve" in done.stdout


MATCH = """
    import random, warnings
    from barbu import CHANCE, Match
    from barbu.agents import make_agent
    from barbu.agents.refusals import MissingExtraWarning
    from barbu.core.errors import AgentError
    from barbu.i18n import translator, word_error
    from barbu.records.barbu import read_record, replay, write_record

    m = Match("classic", seed=7)
    players = [make_agent("rule", s) for s in range(4)]
    while not m.is_over:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            seat = m.to_act()
            m.apply(players[seat].act(m.view(seat)), seat=seat)
    write_record(m, "match.jsonl", {"players_names": ["a", "b", "c", "d"]})
    again = replay(read_record("match.jsonl"))
    assert again.consistent and again.match.totals == m.totals and len(m.results) == 28, again.inconsistencies

    # the languages without Babel: the compiled catalogs and the numbers
    assert translator("fr").number(-1250) == "-1\\u202f250" and translator("it").number(-1250) == "-1.250"
    try:
        Match("classic", seed=1).apply("AS")
    except Exception as e:
        refusal, english = word_error(e, "fr"), str(e)
    assert refusal and refusal != english, refusal

    # the expert without numpy: the chains, said once; learned=1 refused in words
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        experts = [make_agent("expert(samples=3, seconds=0.2)", s) for s in (1, 2)]
    assert [w.category for w in said] == [MissingExtraWarning], said
    assert "numpy" in str(said[0].message) and "barbu[learned]" in str(said[0].message)
    assert not experts[0].learned
    d = Match("classic", seed=3)
    while d.to_act() == CHANCE or d.phase_name != "play":
        d.apply(d.legal_actions()[0]) if d.to_act() != CHANCE else d.play_chance()
    seat = d.to_act()
    assert experts[0].act(d.view(seat)) in d.view(seat).legal
    try:
        make_agent("expert(learned=1)", 1)
    except AgentError as e:
        assert e.code == "agent-learned-needs-numpy", e
    else:
        raise AssertionError("expert(learned=1) without numpy was not refused")
    import sys
    print("OUTSIDE", sorted({n.partition(".")[0] for n in sys.modules if n.partition(".")[0] not in
                             sys.stdlib_module_names} - {"barbu"}))
"""


def test_a_whole_match_and_its_record_on_the_standard_library_alone(tmp_path):
    done = run(MATCH, only=(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    # imported before the finder by the interpreter's own start-up (site), if anything: never by barbu
    outside = eval(done.stdout.strip().splitlines()[-1].removeprefix("OUTSIDE "))
    assert not set(outside) & set(HEAVY) and "rich" not in outside, outside


@pytest.mark.parametrize(
    "only,args,said",
    [
        ((), ["rules"], "the command line needs: pip install 'barbu[terminal]'"),
        (
            ("starlette", "uvicorn", "sqlalchemy", "jinja2", "msgspec"),
            ["serve"],
            "the web server needs: pip install 'barbu[web]'",
        ),
        (
            ("sqlalchemy",),
            ["score", "list"],
            "barbu score uses the web server's database, which needs: pip install 'barbu[web]'",
        ),
        (("fpdf",), ["sheet", "-o", "sheet.pdf"], "the printable sheets need: pip install 'barbu[sheets]'"),
    ],
)
def test_a_command_without_its_extra_says_which_to_install(tmp_path, only, args, said):
    done = run(CLI, *args, only=only, cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert f"barbu: error: {said}" in " ".join(done.stderr.split()), done.stderr
    assert loaded(done.stdout)[1] == "2"


def test_without_the_sheets_extra_the_html_sheet_is_written(tmp_path):
    done = run(CLI, "sheet", "-o", "sheet.html", only=("fpdf", "segno"), cwd=tmp_path)
    assert done.returncode == 0 and loaded(done.stdout)[1] == "0", done.stderr
    assert (tmp_path / "sheet.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("rules", ["classic", "besigue"])
def test_the_plain_game_needs_no_textual(tmp_path, rules):
    done = run(
        CLI,
        "play",
        "--plain",
        "--rules",
        rules,
        "--seed",
        "3",
        "--no-compare",
        only=("textual",),
        stdin="quit\n",
        cwd=tmp_path,
    )
    assert done.returncode == 0 and loaded(done.stdout)[1] == "0", done.stderr
    assert "textual" not in loaded(done.stdout)[0]
    # quit before any move: nothing is kept, and it says so
    assert "Type 'help'" in done.stdout and "Nothing was played" in done.stdout and not list(tmp_path.glob("*.jsonl"))


def test_the_expert_without_numpy_in_this_process(monkeypatch):
    """The same fallback, seen from inside: the chains' 40 deals, one note, and learned=1 refused."""
    monkeypatch.setattr(expert_module, "_LEARNED", [None])
    monkeypatch.setattr(expert_module, "_TOLD", [])
    with pytest.warns(MissingExtraWarning, match=r"pip install 'barbu\[learned\]'"):
        agent = make_agent("expert", 1)
    m = Match("classic", seed=3)
    while m.to_act() == CHANCE:
        m.play_chance()
    v = m.view(m.to_act())
    assert not agent.learned and agent.samples_for(v) == make_agent("expert(learned=0)", 1).samples_for(v)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once only: a second expert says nothing
        make_agent("expert", 2)
    with pytest.raises(AgentError) as e:
        make_agent("expert(learned=1)", 1)
    assert e.value.message is LEARNED_NEEDS_NUMPY
