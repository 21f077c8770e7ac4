"""Resolved paragraph and run formatting (docx/model/formatting.py), as Word resolves it.

Real documents supply the expectations where they state them (docx4j's NumberingIndents.docx writes
the indent Word shows into each paragraph's text); small built packages pin one feature each.
"""

import io
import re
import zipfile

import pytest
from conftest import ALL_GOOD, CORPUS
from docbuilder import REL, build_docx, p
from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.formatting import Formatter
from folio_desktop.docx.model.properties import ParagraphFormat, RunFormat, TabStop
from folio_desktop.docx.model.tables import conditions
from folio_desktop.docx.package.ooxml import W_PPR, w

W_R = w("r")


def open_doc(name):
    return DocxReviewer.open(CORPUS / name).document


def built(body, **parts):
    return DocxReviewer.from_bytes(build_docx(body, **parts)).document


def with_parts(data: bytes, extra: dict[str, tuple[str, str, str]]) -> bytes:
    """Add parts to a built package: name -> (xml, content type, relationship type suffix)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            raw = src.read(info.filename)
            if info.filename == "word/_rels/document.xml.rels":
                rels = "".join(
                    f'<Relationship Id="rX{i}" Type="{REL}/{rel}" Target="{name.split("/", 1)[1]}"/>'
                    for i, (name, (_, _, rel)) in enumerate(extra.items()))
                raw = raw.replace(b"</Relationships>", rels.encode() + b"</Relationships>")
            elif info.filename == "[Content_Types].xml":
                types = "".join(f'<Override PartName="/{name}" ContentType="{ctype}"/>'
                                for name, (_, ctype, _) in extra.items())
                raw = raw.replace(b"</Types>", types.encode() + b"</Types>")
            z.writestr(info.filename, raw)
        for name, (xml, _, _) in extra.items():
            z.writestr(name, xml)
    return out.getvalue()


A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
THEME = (f'<a:theme {A} name="T"><a:themeElements>'
         '<a:clrScheme name="C"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1>'
         '<a:accent1><a:srgbClr val="4472C4"/></a:accent1></a:clrScheme>'
         '<a:fontScheme name="F"><a:majorFont><a:latin typeface="Georgia"/><a:ea typeface=""/><a:cs typeface=""/>'
         '</a:majorFont><a:minorFont><a:latin typeface="Verdana"/><a:ea typeface="MS Mincho"/>'
         '<a:cs typeface="Arial"/></a:minorFont></a:fontScheme></a:themeElements></a:theme>')
THEME_PART = ("word/theme/theme1.xml",
              (THEME, "application/vnd.openxmlformats-officedocument.theme+xml", "theme"))
SETTINGS_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"
WNS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def formats(doc):
    """(paragraph element, ParagraphFormat, [RunFormat]) for every body paragraph."""
    fm = Formatter(doc)
    out = []
    for par in doc.body.iter(w("p")):
        pf = fm.paragraph(par)
        out.append((par, pf, [fm.run(r, par, pf) for r in par.iter(W_R)]))
    return out


def text_of(par):
    return "".join(t.text or "" for t in par.iter(w("t")))


# -- theme fonts ---------------------------------------------------------------------------------------


def test_theme_minor_font_resolves_on_a_word_2010_document():
    # docDefaults name asciiTheme/hAnsiTheme="minorHAnsi"; theme1.xml's minor Latin face is Calibri
    doc = open_doc("openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx")
    fm = Formatter(doc)
    par = next(x for x in doc.body.iter(w("p")) if text_of(x).startswith("On the Insert tab"))
    pf = fm.paragraph(par)
    run = fm.run(par.find(W_R), par, pf)
    assert (run.font_family, run.size_pt) == ("Calibri", 11.0)
    assert pf.mark.font_family == "Calibri"
    # Word 2010's docDefaults paragraph spacing: after 10 pt, 1.15 lines
    assert (pf.space_after, pf.line, pf.line_rule) == (200, 276, "auto")


def test_word_365_body_uses_minor_and_headings_major_theme_font():
    doc = open_doc("docling_numbered_headings.docx")
    fm = Formatter(doc)
    blocks = doc.snapshot().blocks
    body = next(b for b in blocks if b.text == "Paragraph 1.1")
    heading = next(b for b in blocks if b.text == "Section 1")
    body_run = fm.run(body.element.find(W_R), body.element, fm.paragraph(body.element))
    hp = fm.paragraph(heading.element)
    head_run = fm.run(heading.element.find(W_R), heading.element, hp)
    assert (body_run.font_family, body_run.size_pt) == ("Aptos", 12.0)
    assert (head_run.font_family, head_run.size_pt) == ("Aptos Display", 20.0)
    assert head_run.color == "0F4761" and not head_run.bold  # Word 365 headings are not bold
    assert hp.keep_next and hp.keep_lines and (hp.space_before, hp.space_after) == (360, 80)


def test_theme_slots_and_theme_colour_from_the_theme_part():
    styles = ('<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi" '
              'w:eastAsiaTheme="minorEastAsia" w:cstheme="minorBidi"/></w:rPr></w:rPrDefault></w:docDefaults>'
              '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:rPr>'
              '<w:rFonts w:asciiTheme="majorHAnsi" w:hAnsiTheme="majorHAnsi" w:eastAsiaTheme="majorEastAsia"/>'
              '<w:color w:themeColor="accent1"/></w:rPr></w:style>')
    data = with_parts(build_docx(p("body") + p("title", ppr='<w:pStyle w:val="Title"/>')
                                 + p("direct", rpr='<w:rFonts w:ascii="Courier New"/>'), styles=styles),
                      dict([THEME_PART]))
    (_, _, (body,)), (_, _, (title,)), (_, _, (direct,)) = formats(DocxReviewer.from_bytes(data).document)
    assert (body.font_family, body.east_asian_font, body.complex_font) == ("Verdana", "MS Mincho", "Arial")
    assert (title.font_family, title.east_asian_font, title.complex_font) == ("Georgia", None, "Arial")
    assert title.color == "4472C4"
    # a plain face stated over an inherited theme slot wins (the slot is replaced as a whole)
    assert direct.font_family == "Courier New"


def test_theme_fonts_fall_back_to_office_defaults_without_a_theme_part():
    styles = ('<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:asciiTheme="minorHAnsi"/></w:rPr></w:rPrDefault>'
              '</w:docDefaults>')
    ((_, pf, (run,)),) = formats(built(p("x"), styles=styles))
    assert run.font_family == "Calibri"


def test_defaults_when_nothing_is_said():
    doc = built(p("plain"))
    fm = Formatter(doc)
    ((_, pf, (run,)),) = formats(doc)
    assert fm.default_tab_stop == 720
    assert (run.font_family, run.size_pt, run.bold, run.color, run.underline) == ("Times New Roman", 10.0, False,
                                                                                   None, None)
    assert (pf.alignment, pf.line, pf.line_rule, pf.space_before, pf.space_after) == ("left", 240, "auto", 0, 0)
    assert pf.widow_control is True  # Word's default is on
    assert pf.tabs == () and pf.number_format is None and pf.number_suffix == "nothing"
    assert isinstance(pf, ParagraphFormat) and isinstance(run, RunFormat)


def test_widow_control_and_other_switches_resolve_through_defaults_styles_and_direct():
    styles = ('<w:docDefaults><w:pPrDefault><w:pPr><w:widowControl w:val="0"/></w:pPr></w:pPrDefault></w:docDefaults>'
              '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="Keep"><w:name w:val="Keep"/><w:pPr><w:keepNext/>'
              '<w:widowControl/><w:contextualSpacing/></w:pPr></w:style>')
    body = (p("a") + p("b", ppr='<w:pStyle w:val="Keep"/>')
            + p("c", ppr='<w:pStyle w:val="Keep"/><w:keepNext w:val="0"/><w:pageBreakBefore/>'))
    (_, a, _), (_, b, _), (_, c, _) = formats(built(body, styles=styles))
    assert not a.widow_control and b.widow_control and c.widow_control
    assert b.keep_next and not c.keep_next and c.page_break_before
    assert b.contextual_spacing and not a.contextual_spacing


# -- styles, direct formatting, toggles ---------------------------------------------------------------


def test_heading_styles_sizes_and_bold_from_styles_xml():
    doc = open_doc("powertools_HC012_hebrew_rtl_numbering.docx")
    found = {}
    for _par, pf, runs in formats(doc):
        if pf.style_id in ("Heading1", "Heading2") and runs and pf.style_id not in found:
            found[pf.style_id] = runs[0]
    # Heading 1: sz/szCs 48, b/bCs; Heading 2: 36 (runs are w:rtl, so the Cs values apply)
    assert (found["Heading1"].size_pt, found["Heading1"].bold) == (24.0, True)
    assert (found["Heading2"].size_pt, found["Heading2"].bold) == (18.0, True)
    assert found["Heading1"].rtl and found["Heading1"].color == "FF0000"


STYLES = (
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="22"/></w:rPr>'
    '</w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr>'
    '</w:pPrDefault></w:docDefaults>'
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="BoldPara"><w:name w:val="Bold Para"/><w:basedOn w:val="Normal"/>'
    '<w:pPr><w:jc w:val="center"/><w:spacing w:before="120"/></w:pPr>'
    '<w:rPr><w:b/><w:i w:val="0"/><w:sz w:val="28"/><w:u w:val="double"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="NotBold"><w:name w:val="Not Bold"/><w:basedOn w:val="BoldPara"/>'
    '<w:rPr><w:b w:val="0"/></w:rPr></w:style>'
    '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/>'
    '</w:style>'
    '<w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/><w:caps/></w:rPr></w:style>'
    '<w:style w:type="character" w:styleId="StrongEm"><w:name w:val="Strong Em"/><w:basedOn w:val="Strong"/>'
    '<w:rPr><w:i/><w:color w:val="ff0000"/></w:rPr></w:style>'
    '<w:style w:type="character" w:styleId="Hidden"><w:name w:val="Hidden"/><w:rPr><w:vanish/></w:rPr></w:style>'
)


def run_xml(text, rpr=""):
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t>{text}</w:t></w:r>'


def para_runs(doc):
    """run text -> RunFormat for every run of the body."""
    out = {}
    fm = Formatter(doc)
    for par in doc.body.iter(w("p")):
        pf = fm.paragraph(par)
        for r in par.iter(W_R):
            out[text_of(r)] = fm.run(r, par, pf)
    return out


def test_style_chain_and_direct_formatting_win_in_order():
    body = ('<w:p><w:pPr><w:pStyle w:val="BoldPara"/><w:jc w:val="right"/></w:pPr>'
            + run_xml("styled") + run_xml("direct", '<w:b w:val="0"/><w:sz w:val="30"/><w:u w:val="none"/>'
                                          '<w:color w:val="00ff00"/><w:highlight w:val="yellow"/>'
                                          '<w:shd w:val="clear" w:color="auto" w:fill="ffff00"/>'
                                          '<w:vertAlign w:val="superscript"/><w:position w:val="-4"/>'
                                          '<w:spacing w:val="10"/><w:rFonts w:ascii="Georgia"/>')
            + '</w:p>')
    doc = built(body, styles=STYLES)
    (par, pf, _), = formats(doc)
    runs = para_runs(doc)
    assert pf.style_id == "BoldPara" and pf.alignment == "right"  # direct jc over the style's center
    assert (pf.space_before, pf.space_after, pf.line) == (120, 160, 259)  # style over docDefaults, per attribute
    styled, direct = runs["styled"], runs["direct"]
    assert (styled.bold, styled.size_pt, styled.underline, styled.font_family) == (True, 14.0, "double", "Arial")
    assert (direct.bold, direct.size_pt, direct.underline, direct.font_family) == (False, 15.0, None, "Georgia")
    assert (direct.color, direct.highlight, direct.shading, direct.vert_align) == ("00FF00", "yellow", "FFFF00",
                                                                                   "superscript")
    assert (direct.position_half_pts, direct.spacing_twips) == (-4, 10)


def test_toggle_properties_flip_per_style_level_and_direct_is_absolute():
    body = ('<w:p><w:pPr><w:pStyle w:val="BoldPara"/></w:pPr>'
            + run_xml("plain") + run_xml("strong", '<w:rStyle w:val="Strong"/>')
            + run_xml("strong-direct", '<w:rStyle w:val="Strong"/><w:b/>')
            + run_xml("strong-em", '<w:rStyle w:val="StrongEm"/>')
            + '</w:p>'
            + '<w:p>' + run_xml("normal-strong", '<w:rStyle w:val="Strong"/>') + '</w:p>'
            + '<w:p><w:pPr><w:pStyle w:val="NotBold"/></w:pPr>' + run_xml("based-off") + '</w:p>'
            + '<w:p>' + run_xml("hidden", '<w:rStyle w:val="Hidden"/>')
            + run_xml("unhidden", '<w:rStyle w:val="Hidden"/><w:vanish w:val="0"/>') + '</w:p>')
    runs = para_runs(built(body, styles=STYLES))
    assert runs["plain"].bold
    # a bold character style on a bold paragraph style is not bold (the toggle flips twice)
    assert not runs["strong"].bold and runs["strong"].caps
    assert runs["strong-direct"].bold  # direct formatting sets the state absolutely
    # basedOn inside one style level is plain inheritance: StrongEm is bold (from Strong) -> flips to off
    assert not runs["strong-em"].bold and runs["strong-em"].italic and runs["strong-em"].color == "FF0000"
    assert runs["normal-strong"].bold
    # a derived paragraph style that says b=0 is not bold (nearest in the chain wins)
    assert not runs["based-off"].bold and runs["based-off"].size_pt == 14.0
    assert runs["hidden"].hidden and not runs["unhidden"].hidden


def test_complex_script_runs_use_the_cs_size_bold_and_italic():
    body = ('<w:p>' + run_xml("latin", '<w:b/><w:sz w:val="24"/><w:szCs w:val="32"/>')
            + run_xml("rtl", '<w:b/><w:iCs/><w:sz w:val="24"/><w:szCs w:val="32"/><w:rtl/>')
            + run_xml("cs", '<w:bCs/><w:sz w:val="24"/><w:szCs w:val="32"/><w:cs/>') + '</w:p>')
    runs = para_runs(built(body))
    assert (runs["latin"].size_pt, runs["latin"].bold, runs["latin"].rtl) == (12.0, True, False)
    assert (runs["rtl"].size_pt, runs["rtl"].bold, runs["rtl"].italic, runs["rtl"].rtl) == (16.0, False, True, True)
    assert (runs["cs"].size_pt, runs["cs"].bold, runs["cs"].rtl) == (16.0, True, False)


def test_paragraph_mark_sizes_an_empty_paragraph_and_run_none_is_the_mark():
    body = ('<w:p><w:pPr><w:pStyle w:val="BoldPara"/><w:rPr><w:sz w:val="40"/><w:rStyle w:val="Strong"/></w:rPr>'
            '</w:pPr></w:p>')
    doc = built(body, styles=STYLES)
    fm = Formatter(doc)
    par = next(doc.body.iter(w("p")))
    pf = fm.paragraph(par)
    assert pf.mark.size_pt == 20.0 and not pf.mark.bold  # Strong flips the style's bold off
    assert fm.run(None, par, pf) is pf.mark


def test_unknown_paragraph_style_falls_back_to_the_default_style():
    styles = ('<w:style w:type="paragraph" w:default="1" w:styleId="Body"><w:name w:val="Normal"/>'
              '<w:rPr><w:sz w:val="26"/></w:rPr></w:style>')
    (_, a, (ra,)), (_, b, (rb,)) = formats(built(p("a") + p("b", ppr='<w:pStyle w:val="Missing"/>'), styles=styles))
    assert a.style_id == b.style_id == "Body" and ra.size_pt == rb.size_pt == 13.0


# -- numbering ------------------------------------------------------------------------------------------


def test_numbering_indents_match_the_values_the_document_states():
    """Each numbered paragraph of docx4j's NumberingIndents.docx says, in its text, the indent Word
    gives it: level indents, direct overrides, and a list level over List Paragraph's own indent."""
    doc = open_doc("docx4j_numbering_indents_pages.docx")
    fm = Formatter(doc)
    checked = 0
    for block in doc.snapshot().blocks:
        expected = dict(re.findall(r'\[expect\]w:(\w+)="(-?\d+)"', block.text))
        if not expected:
            continue
        pf = fm.paragraph(block.element)
        assert pf.indent_left == int(expected["left"]), block.text
        first = int(expected["firstLine"]) if "firstLine" in expected else -int(expected["hanging"])
        assert pf.first_line == first, block.text
        assert pf.number_format is not None and pf.number_suffix == "tab"
        checked += 1
    assert checked == 8


def test_msdn_eula_list_levels_give_their_indents_and_list_tabs():
    doc = open_doc("contract_msdn_eula_legal_numbering.docx")
    fm = Formatter(doc)
    blocks = doc.snapshot().blocks

    def fmt(prefix):
        return fm.paragraph(next(b for b in blocks if b.text.startswith(prefix)).element)

    one = fmt("Applicability Of License.")  # numId 1 level 0: left 420 hanging 360, list tab at 420
    assert (one.indent_left, one.first_line, one.tabs) == (420, -360, (TabStop(420, "left", "none"),))
    sub = fmt("to install the Product on ")  # level 2: left 2625 hanging 945
    assert (sub.indent_left, sub.first_line) == (2625, -945)
    # direct w:ind left=360 keeps the level's hanging; the direct tabs clear the list tab at 420
    two = fmt("General Grant Of License.")
    assert (two.indent_left, two.first_line, two.tabs) == (360, -360, (TabStop(360, "left", "none"),))
    # direct numbering over a paragraph style with its own indent: the level wins, direct hanging on top
    mixed = fmt("For all COMPONENTS include")
    assert mixed.style_id == "BodyTextIndent" and (mixed.indent_left, mixed.first_line) == (1140, -420)
    assert fmt("Capitalized terms shall h").number_format is None


NUMBERING = (
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/><w:suff w:val="space"/><w:pPr><w:tabs><w:tab w:val="num" w:pos="1080"/></w:tabs>'
    '<w:ind w:left="1080" w:hanging="360"/></w:pPr><w:rPr><w:b/><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr>'
    '</w:lvl></w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    '<w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:lvl w:ilvl="0">'
    '<w:numFmt w:val="decimal"/><w:lvlText w:val="(%1)"/><w:pPr><w:ind w:left="2000" w:hanging="500"/></w:pPr>'
    '</w:lvl></w:lvlOverride></w:num>'
)
NUM_STYLES = (
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Numbered"><w:name w:val="Numbered"/><w:pPr>'
    '<w:numPr><w:numId w:val="1"/></w:numPr><w:ind w:left="720"/></w:pPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Indented"><w:name w:val="Indented"/><w:pPr><w:ind w:left="720"/>'
    '</w:pPr></w:style>'
)


def test_level_indent_precedence_depends_on_where_the_numbering_comes_from():
    body = (p("via style", ppr='<w:pStyle w:val="Numbered"/>')
            + p("direct", ppr='<w:pStyle w:val="Indented"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>')
            + p("override", ppr='<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>')
            + p("off", ppr='<w:pStyle w:val="Numbered"/><w:numPr><w:numId w:val="0"/></w:numPr>'))
    (_, style_num, _), (_, direct, _), (_, override, _), (_, off, _) = formats(
        built(body, styles=NUM_STYLES, numbering=NUMBERING))
    # numbering from the style: the style's own left indent wins, the level's hanging still applies
    assert (style_num.indent_left, style_num.first_line) == (720, -360)
    # numbering stated on the paragraph: the level's indents win over the style's
    assert (direct.indent_left, direct.first_line) == (1080, -360)
    # a w:lvlOverride level replaces the abstract level (its indents, and no list tab)
    assert (override.indent_left, override.first_line, override.tabs) == (2000, -500, ())
    assert override.number_suffix == "tab" and not override.number_format.bold
    # numId 0 switches the style's numbering off, and with it the level's indents and the ones the
    # numbered style set (LibreOffice's PDF of the ILPA LPA: such clauses start at the margin)
    assert (off.indent_left, off.first_line, off.number_format) == (0, 0, None)


def test_a_numbered_style_keeps_its_indents_under_a_direct_list_and_a_direct_indent():
    """Two ILPA clauses in style Article5L6 (numbered through its basedOn chain, with w:ind left=900 on
    Article5L3), each with a direct numPr into another list. LibreOffice's PDF gives the expectations.
    (b) under "Gross Asset Value" also has a direct firstLine=720 over its level's left=0: the label
    sits at 81 pt and the later lines at 45 pt past the margin, so left=900 comes from the style.
    (a) under "Removal Conduct" has no direct w:ind: its later lines start at the margin, so the
    level's left=0 stands."""
    doc = open_doc("contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    fm = Formatter(doc)
    blocks = doc.snapshot().blocks

    def fmt(start):
        (block,) = [b for b in blocks if b.text.startswith(start)]
        return fm.paragraph(block.element)

    gross = fmt("the Gross Asset Value of all Fund assets")
    removal = fmt("with respect to the General Partner, Fund Manager, any of the Key Persons")
    assert gross.style_id == removal.style_id == "Article5L6"
    assert (gross.indent_left, gross.first_line) == (900, 720)
    assert (removal.indent_left, removal.first_line) == (0, 720)


def test_number_format_is_the_level_rpr_over_the_paragraph_mark():
    body = p("item", ppr='<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
                         '<w:rPr><w:sz w:val="28"/><w:i/></w:rPr>', rpr='<w:sz w:val="20"/>')
    ((_, pf, (run,)),) = formats(built(body, styles=NUM_STYLES, numbering=NUMBERING))
    label = pf.number_format
    assert (label.size_pt, label.italic, label.bold, label.font_family) == (14.0, True, True, "Symbol")
    assert pf.number_suffix == "space"
    assert (run.size_pt, run.bold) == (10.0, False)
    assert pf.tabs == (TabStop(1080, "left", "none"),)  # the level's w:tab val="num" is a left stop


def test_formatter_and_snapshot_agree_on_list_membership():
    doc = open_doc("contract_nvca_stock_purchase_agreement_27p.docx")
    fm = Formatter(doc)
    numbering = doc.numbering
    for block in doc.snapshot().blocks:
        if block.element is None:
            continue
        ref = block.list_reference
        in_list = bool(ref) and numbering.is_defined(str(ref["numId"])) and ref["level"] is not None \
            and numbering.level(str(ref["numId"]), ref["level"]) is not None
        assert (fm.paragraph(block.element).number_format is not None) == in_list, block.text[:40]


# -- tab stops ------------------------------------------------------------------------------------------


def test_tab_stops_merge_through_the_style_chain_and_clear():
    styles = ('<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:tabs>'
              '<w:tab w:val="left" w:pos="720"/><w:tab w:val="end" w:leader="dot" w:pos="9360"/></w:tabs></w:pPr>'
              '</w:style><w:style w:type="paragraph" w:styleId="Toc"><w:name w:val="Toc"/><w:basedOn w:val="Normal"/>'
              '<w:pPr><w:tabs><w:tab w:val="clear" w:pos="720"/><w:tab w:val="decimal" w:pos="5040"/></w:tabs>'
              '</w:pPr></w:style>')
    body = (p("normal") + p("toc", ppr='<w:pStyle w:val="Toc"/>')
            + p("direct", ppr='<w:pStyle w:val="Toc"/><w:tabs><w:tab w:val="clear" w:pos="9360"/>'
                              '<w:tab w:val="center" w:leader="middleDot" w:pos="4320"/>'
                              '<w:tab w:val="clear" w:pos="1234"/></w:tabs>'))
    (_, normal, _), (_, toc, _), (_, direct, _) = formats(built(body, styles=styles))
    assert normal.tabs == (TabStop(720, "left", "none"), TabStop(9360, "right", "dot"))
    assert toc.tabs == (TabStop(5040, "decimal", "none"), TabStop(9360, "right", "dot"))
    assert direct.tabs == (TabStop(4320, "center", "middleDot"), TabStop(5040, "decimal", "none"))


# -- tables ---------------------------------------------------------------------------------------------


def test_table_style_first_row_bold_and_white_on_a_real_grid_table():
    doc = open_doc("powertools_HC031_complicated_document.docx")
    fm = Formatter(doc)
    seen = set()
    for block in doc.snapshot().blocks:
        if block.table is None or not block.text:
            continue
        pf = fm.paragraph(block.element)
        run = fm.run(block.element.find(f".//{W_R}"), block.element, pf)
        row, cell = block.table.row_index, block.table.cell_index
        # GridTable4-Accent5: firstRow b + white text, firstCol b; tblLook enables both
        assert run.bold == (row == 0 or cell == 0), block.text
        assert (run.color == "FFFFFF") == (row == 0)
        assert (pf.space_after, pf.line) == (0, 240)  # the table style's pPr over docDefaults (160/259)
        seen.add((row, cell))
    assert (0, 1) in seen and (2, 2) in seen


TABLE_STYLES = (
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/></w:style>'
    '<w:style w:type="table" w:styleId="Fancy"><w:name w:val="Fancy"/><w:pPr><w:jc w:val="center"/></w:pPr>'
    '<w:rPr><w:sz w:val="18"/></w:rPr>'
    '<w:tblStylePr w:type="firstRow"><w:rPr><w:b/></w:rPr></w:tblStylePr>'
    '<w:tblStylePr w:type="lastRow"><w:rPr><w:i/></w:rPr></w:tblStylePr>'
    '<w:tblStylePr w:type="band1Horz"><w:rPr><w:color w:val="00FF00"/></w:rPr></w:tblStylePr>'
    '<w:tblStylePr w:type="band2Horz"><w:rPr><w:color w:val="0000FF"/></w:rPr></w:tblStylePr>'
    '</w:style>'
)


def table(style, look, rows=4):
    trs = "".join(f'<w:tr><w:tc><w:p><w:r><w:t>r{i}</w:t></w:r></w:p></w:tc></w:tr>' for i in range(rows))
    return f'<w:tbl><w:tblPr><w:tblStyle w:val="{style}"/>{look}</w:tblPr>{trs}</w:tbl>'


def test_table_style_conditionals_follow_the_table_look():
    look_on = '<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="1" w:noHBand="0"/>'
    look_off = '<w:tblLook w:val="0000" w:firstRow="0" w:lastRow="0" w:noHBand="1"/>'
    doc = built(table("Fancy", look_on) + table("Fancy", look_off) + p("outside"), styles=TABLE_STYLES)
    result = [(text_of(par), pf, runs[0]) for par, pf, runs in formats(doc)]
    on, off, outside = result[:4], result[4:8], result[8]
    assert [r.bold for _, _, r in on] == [True, False, False, False]
    assert [r.italic for _, _, r in on] == [False, False, False, True]
    # bands count from the first row after the header; the total row is not banded
    assert [r.color for _, _, r in on] == [None, "00FF00", "0000FF", None]
    assert all(pf.alignment == "center" and r.size_pt == 9.0 for _, pf, r in on + off)
    assert not any(r.bold or r.italic or r.color for _, _, r in off)
    assert outside[1].alignment == "left" and outside[2].size_pt == 10.0


def test_explicit_table_style_and_cell_position_override_what_the_tree_says():
    doc = built(table("TableNormal", '<w:tblLook w:firstRow="1" w:lastRow="1"/>', rows=1), styles=TABLE_STYLES)
    fm = Formatter(doc)
    par = next(doc.body.iter(w("p")))
    plain = fm.paragraph(par)
    assert plain.alignment == "left"
    forced = fm.paragraph(par, table_style_id="Fancy", cell_position=(0, 0, 3, 1))
    assert forced.alignment == "center"
    assert fm.run(par.find(W_R), par, forced).bold  # the run follows its paragraph's table context
    last = fm.paragraph(par, table_style_id="Fancy", cell_position=(2, 0, 3, 1))
    assert fm.run(par.find(W_R), par, last).italic  # the table's tblLook enables the last row


def test_conditions_order_and_banding():
    look = 0x0020 | 0x0080 | 0x0040  # first row, first column, last row; bands on
    assert conditions((0, 0, 4, 3), look) == ("wholeTable", "firstCol", "firstRow", "nwCell")
    assert conditions((1, 1, 4, 3), look) == ("wholeTable", "band1Vert", "band1Horz")
    assert conditions((2, 2, 4, 3), look) == ("wholeTable", "band2Vert", "band2Horz")
    assert conditions((3, 0, 4, 3), look) == ("wholeTable", "firstCol", "lastRow", "swCell")
    assert conditions((3, 1, 6, 3), look, row_band=2) == ("wholeTable", "band1Vert", "band2Horz")


# -- units, settings, edits -----------------------------------------------------------------------------


def test_character_unit_indents_on_a_cjk_document():
    doc = open_doc("openxmlsdk_cjk_tables_merged_two_page_sizes.docx")
    fm = Formatter(doc)
    checked = 0
    for par in doc.body.iter(w("p")):
        ind = par.find(f"{W_PPR}/{w('ind')}")
        if ind is None or ind.get(w("firstLineChars")) != "200" or ind.get(w("firstLine")) != "616":
            continue
        pf = fm.paragraph(par)
        if pf.mark.spacing_twips == 4 and pf.mark.size_pt == 15.0:
            assert pf.first_line == 616  # 2 characters of 15 pt with 0.2 pt spacing
            checked += 1
    assert checked > 0


def test_default_tab_stop_comes_from_settings():
    assert Formatter(open_doc("openxmlsdk_cjk_text_direction_sections.docx")).default_tab_stop == 420
    assert Formatter(open_doc("contract_nvca_stock_purchase_agreement_27p.docx")).default_tab_stop == 720
    settings = f'<w:settings {WNS}><w:defaultTabStop w:val="567"/></w:settings>'
    data = with_parts(build_docx(p("x")), {"word/settings.xml": (settings, SETTINGS_CT, "settings")})
    assert Formatter(DocxReviewer.from_bytes(data).document).default_tab_stop == 567


def test_formatter_follows_direct_edits_and_reloads():
    doc = built(p("x"), styles=STYLES)
    fm = Formatter(doc)
    par = next(doc.body.iter(w("p")))
    assert fm.paragraph(par).alignment == "left"
    ppr = etree.Element(W_PPR)
    par.insert(0, ppr)
    etree.SubElement(ppr, w("jc")).set(w("val"), "end")
    pf = fm.paragraph(par)
    assert pf.alignment == "right"
    doc.reload()
    assert fm.paragraph(par).alignment == "right"
    assert fm.run(par.find(W_R), par, pf).size_pt == 11.0


@pytest.mark.parametrize("path", ALL_GOOD, ids=lambda f: f.name)
def test_every_paragraph_and_run_of_the_corpus_formats(path):
    rev = DocxReviewer.open(path)
    doc = rev.document
    fm = Formatter(doc)
    for story in doc.stories():
        container = doc.story_container(story)
        for par in container.iter(w("p")):
            pf = fm.paragraph(par)
            assert pf.mark.size_pt > 0 and pf.line_rule in ("auto", "exact", "atLeast")
            assert pf.alignment in ("left", "center", "right", "both", "distribute")
            assert list(pf.tabs) == sorted(pf.tabs, key=lambda t: t.position)
            for run in par.iter(W_R):
                fmt = fm.run(run, par, pf)
                assert fmt.font_family and fmt.size_pt > 0
