"""Remake the app's icons (the web app manifest's and the home screen's) from the site's own favicon.

    python tools/make_icons.py

The favicon (``src/barbu/web/static/favicon.svg``: a spade on the felt's green) is drawn by ``rsvg-convert``
(librsvg2-bin, offline) at each size into ``src/barbu/web/static/icons/``:

    icon-192.png, icon-512.png    the favicon as it is (rounded corners), for the manifest's "any" purpose
    maskable-512.png              the green to the edges (the spade already lies well within the middle circle
                                  of 80 %), so that a phone may cut it to a circle or a squircle ("maskable")
    apple-touch-icon.png          180 px, the green to the edges (iOS rounds the corners itself and shows
                                  transparency as black)

The PNGs are committed; run this again only when the favicon changes.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "barbu" / "web" / "static"
FAVICON = STATIC / "favicon.svg"
ICONS = STATIC / "icons"


def full_bleed(svg: str) -> str:
    """The favicon with square corners: the green to the edges."""
    return re.sub(r'\s+rx="[^"]*"', "", svg, count=1)


def render(svg: str, size: int, out: Path) -> None:
    """``svg`` drawn at ``size`` x ``size`` pixels into ``out``."""
    with tempfile.NamedTemporaryFile("w", suffix=".svg", encoding="utf-8") as f:
        f.write(svg)
        f.flush()
        subprocess.run(["rsvg-convert", "-w", str(size), "-h", str(size), "-o", str(out), f.name], check=True)
    print(out.relative_to(ROOT))


def main() -> None:
    svg = FAVICON.read_text(encoding="utf-8")
    ICONS.mkdir(exist_ok=True)
    render(svg, 192, ICONS / "icon-192.png")
    render(svg, 512, ICONS / "icon-512.png")
    render(full_bleed(svg), 512, ICONS / "maskable-512.png")
    render(full_bleed(svg), 180, ICONS / "apple-touch-icon.png")


if __name__ == "__main__":
    main()
