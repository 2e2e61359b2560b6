"""``barbu sheet`` and ``barbu replay RECORD --sheet FILE`` end to end, through the command line's entry point in
this process (`tests/inprocess.py`: its 17 processes cost 8 s of the module's 12 s of processor)."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
from inprocess import barbu


def pdf_text(path) -> tuple[int, str]:
    doc = pdfium.PdfDocument(str(path))
    return len(doc), "\n".join(page.get_textpage().get_text_range() for page in doc)


def test_blank_sheet_as_pdf_html_and_text(tmp_path):
    out = barbu(
        "sheet",
        "--rules",
        "french",
        "--players",
        "5",
        "--names",
        "Anna,Bernard,Carla,Dario,Eve",
        "-o",
        str(tmp_path / "f.pdf"),
    )
    assert out.returncode == 0, out.stderr
    assert "wrote the PDF score sheet" in out.stdout
    count, text = pdf_text(tmp_path / "f.pdf")
    assert count >= 1 and "Eve" in text and "Contracts chosen" in text and "french(players=5)" in text
    out = barbu("sheet", "--rules", "italian-six", "--paper", "letter", "-o", str(tmp_path / "i.html"))
    assert out.returncode == 0, out.stderr
    html = (tmp_path / "i.html").read_text(encoding="utf-8")
    assert "size: letter" in html and "Series points" in html
    out = barbu("sheet", "--rules", "salad", "--players", "3")
    assert out.returncode == 0 and "No queens" in out.stdout and "Blank sheet" in out.stdout
    out = barbu("sheet", "--rules", "scottish", "--sets", "3")
    assert out.returncode == 0 and "== Set 3" in out.stdout and "Silly Round" in out.stdout
    out = barbu("sheet", "--rules", "besigue-english", "-o", str(tmp_path / "b.pdf"))
    assert out.returncode == 0, out.stderr
    assert "Brisques" in pdf_text(tmp_path / "b.pdf")[1]


def test_bad_sheet_requests_are_refused_in_plain_words(tmp_path):
    out = barbu("sheet", "--rules", "classic", "--names", "Anna,Bernard", "-o", str(tmp_path / "x.pdf"))
    assert out.returncode == 2 and "give 4 names" in out.stderr
    out = barbu("sheet", "--rules", "classic", "--players", "5")
    assert out.returncode == 2 and "4 players" in out.stderr
    out = barbu("sheet", "--rules", "besigue", "--players", "3")
    assert out.returncode == 2 and "2 players" in out.stderr
    out = barbu("sheet", "--rules", "classic", "-o", str(tmp_path / "x.doc"))
    assert out.returncode == 2 and ".pdf, .html or .txt" in out.stderr
    out = barbu("sheet", "--rules", "classic", "--names", "Anna,,Carla,Dario")
    assert out.returncode == 2 and "empty" in out.stderr
    out = barbu("sheet", "--rules", "classic", "--sets", "2")
    assert out.returncode == 2 and "--sets is for the Scottish game" in out.stderr
    assert not list(tmp_path.iterdir())  # nothing written


def test_replay_renders_a_played_record_to_the_sheet(tmp_path):
    rec = tmp_path / "m.jsonl"
    assert barbu("selfplay", "--rules", "classic", "--seed", "3", "--out", str(rec)).returncode == 0
    result = [json.loads(x) for x in rec.read_text().splitlines()][-1]
    out = barbu("replay", str(rec), "--sheet", str(tmp_path / "m.pdf"), "--names", "Anna,Bernard,Carla,Dario")
    assert out.returncode == 0, out.stderr
    count, text = pdf_text(tmp_path / "m.pdf")
    assert count >= 2 and "Anna" in text and "Final total and standings" in text
    for total in result["totals"]:
        assert str(total) in text
    out = barbu("replay", str(rec), "--sheet", str(tmp_path / "m.html"))
    assert out.returncode == 0, out.stderr
    html = (tmp_path / "m.html").read_text(encoding="utf-8")
    assert "South, random" in html and "seat 0" not in html  # the record's players by place, never a number
    # a match still being played: the deals so far, the rest of the sheet left blank
    part = tmp_path / "part.jsonl"
    part.write_text("".join(rec.read_text().splitlines(keepends=True)[:400]))
    out = barbu("replay", str(part), "--sheet", str(tmp_path / "part.txt"))
    assert out.returncode == 0, out.stderr
    text = (tmp_path / "part.txt").read_text(encoding="utf-8")
    assert "In progress:" in text and "_____" in text and "Standings" not in text


def test_replay_sheet_of_scottish_and_besigue_records(tmp_path):
    for rules in ("scottish", "besigue"):
        rec = tmp_path / f"{rules}.jsonl"
        assert barbu("selfplay", "--rules", rules, "--seed", "4", "--out", str(rec)).returncode == 0
        out = barbu("replay", str(rec), "--sheet", str(tmp_path / f"{rules}.pdf"))
        assert out.returncode == 0, out.stderr
        count, text = pdf_text(tmp_path / f"{rules}.pdf")
        second = "West, random" if rules == "scottish" else "North, random"
        assert count >= 1 and second in text and "seat 1" not in text
        assert ("Set 1" if rules == "scottish" else "Brisques") in text
