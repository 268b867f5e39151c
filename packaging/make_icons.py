"""Render resources/icons/blurapp.svg to the PNG sizes desktops ask for.

Run from the repository root after changing the SVG: python packaging/make_icons.py
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 22, 24, 32, 48, 64, 128, 256)
ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"


def main() -> int:
    app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(ICONS / "blurapp.svg"))
    if not renderer.isValid():
        print("error: the SVG did not load", file=sys.stderr)
        return 1
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"blurapp-{size}.png"))
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
