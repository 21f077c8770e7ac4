"""Write PNGs of pages as the page view paints them, for a person to look at.

    QT_QPA_PLATFORM=offscreen python tests/screenshots.py [OUT_DIR]

Writes to screenshots/ at the project root (git-ignored) unless OUT_DIR is given: page 1 of the
ILPA model LPA, the Common Paper pilot agreement and the eigenpal demo (tracked changes), page 2
of the eigenpal demo (a comment balloon) and page 2 of the bundled sample contract with a search
hit and a selection. Each is the view's viewport at 100%: the sheet on the grey canvas.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"

SHOTS = [  # (file name, document, page)
    ("ilpa_p1.png", CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx", 1),
    ("commonpaper_pilot_p1.png", CORPUS / "contract_commonpaper_pilot_agreement.docx", 1),
    ("eigenpal_redlines_p1.png", CORPUS / "eigenpal_docxjs_editor_demo.docx", 1),
    ("eigenpal_comment_p2.png", CORPUS / "eigenpal_docxjs_editor_demo.docx", 2),
    ("sample_overlays_p2.png", ROOT / "resources" / "sample_contract.docx", 2),
]


def shoot(app, view, name: str, path: Path, number: int, out: Path) -> Path:
    from folio_desktop.docx import DocxReviewer
    from folio_desktop.layout import layout_document
    from folio_desktop.ui.pages.geometry import GAP

    reviewer = DocxReviewer.open(path)
    layout = layout_document(reviewer.document)
    view.set_layout(layout, reviewer)
    page = layout.pages[number - 1]
    bar = view.verticalScrollBar().sizeHint().width()
    view.resize(int(page.width + 2 * GAP) + bar + 2, int(page.height + 2 * GAP) + 2)
    view.set_zoom(1.0)
    if path.name == "sample_contract.docx":  # show a search hit and a selection
        block = reviewer.snapshot().block("6D1E8BCA")
        start = block.text.index("Ireland")
        view.set_highlights([("6D1E8BCA", start, start + len("Ireland"))])
        view.selection.select_block("0853EFA8")
    view.scroll_to_page(number)
    app.processEvents()
    out.mkdir(parents=True, exist_ok=True)
    target = out / name
    view.viewport().grab().save(str(target))
    return target


def main(argv: list[str]) -> int:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from folio_desktop.ui.pages.view import PageView

    out = Path(argv[0]) if argv else ROOT / "screenshots"
    view = PageView()
    view.show()
    for name, path, number in SHOTS:
        print(shoot(app, view, name, path, number, out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
