"""The command line: --version, --help and the headless read commands."""

import json
import subprocess
import sys

from conftest import CORPUS

from folio_desktop import __version__
from folio_desktop.cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "folio_desktop", *args], capture_output=True, text=True, timeout=60)


def test_version_and_help():
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"folio-desktop {__version__}"
    proc = run("--help")
    assert proc.returncode == 0 and "folio-desktop read FILE" in proc.stdout


def test_read_prints_blocks(capsys):
    assert main(["read", str(CORPUS / "folio" / "authored-empty-paragraph.docx")]) == 0
    assert capsys.readouterr().out.splitlines() == ["[0304003A] Heading paragraph.", "[32560014] Trailing paragraph."]
    assert main(["read", "--json", str(CORPUS / "folio" / "authored-empty-paragraph.docx")]) == 0
    blocks = json.loads(capsys.readouterr().out)
    assert blocks[0]["id"] == "0304003A" and blocks[0]["statedNumbering"] == {"kind": "inherit"}


def test_changes_and_comments_commands(capsys):
    path = str(CORPUS / "superdoc_word_comments_replies_tracked.docx")
    assert main(["changes", path]) == 0
    assert "pending change(s)" in capsys.readouterr().out
    assert main(["comments", "--json", path]) == 0
    threads = json.loads(capsys.readouterr().out)
    assert threads and all("replies" in t for t in threads)



def test_a_move_is_listed_once_with_where_it_left_and_arrived(capsys):
    path = str(CORPUS / "pandoc_track_changes_move_macword.docx")
    assert main(["changes", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["#4 moved by Jesse Rosenthal [10138750 -> 0F5E9052] 'Here is the text to be moved.'",
                   "1 pending change(s)"]
    assert main([path, "--summary"]) == 0
    assert "1 pending change(s)" in capsys.readouterr().out
    assert main(["changes", "--json", path]) == 0  # the census itself keeps both halves, each naming the move
    halves = json.loads(capsys.readouterr().out)
    assert sorted((h["type"], h["move"]["side"]) for h in halves) == [("deletion", "from"), ("insertion", "to")]
    assert halves[0]["move"]["key"] == halves[1]["move"]["key"]

def test_bad_input_is_a_clear_message_not_a_trace():
    proc = run("read", str(CORPUS / "bad" / "poi_password_is_pass.docx"))
    assert proc.returncode == 1
    assert "password-protected" in proc.stderr and "Traceback" not in proc.stderr


def test_pdf_prints_our_pages_headless(tmp_path):
    """`folio-desktop pdf` writes our layout as a PDF, marked up (the pending deletion struck
    through, comment balloons) or clean, says how many pages, and refuses a file it cannot open without leaving a PDF behind."""
    source = str(CORPUS / "superdoc_word_comments_replies_tracked.docx")
    marked, clean = tmp_path / "marked.pdf", tmp_path / "clean.pdf"
    proc = run("pdf", source, "-o", str(marked))
    assert proc.returncode == 0, proc.stderr
    assert "with redlines and comments" in proc.stdout
    proc = run("pdf", source, "-o", str(clean), "--no-markup")
    assert proc.returncode == 0 and "every change accepted" in proc.stdout
    marked_words = subprocess.run(["pdftotext", str(marked), "-"], capture_output=True, text=True).stdout.split()
    clean_words = subprocess.run(["pdftotext", str(clean), "-"], capture_output=True, text=True).stdout.split()
    assert "deletion" in marked_words and "deletion" not in clean_words  # the pending deletion
    assert "Palmer" in marked_words and "Palmer" not in clean_words  # the comment balloon's author
    pages = run("pages", source, "--json")
    count = json.loads(pages.stdout)["pageCount"]
    assert f"{count} page(s)" in proc.stdout
    proc = run("pdf", str(CORPUS / "bad" / "poi_password_is_pass.docx"), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 1 and "password-protected" in proc.stderr
    assert not (tmp_path / "x.pdf").exists()
