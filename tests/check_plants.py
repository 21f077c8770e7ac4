"""Seeded plants of the defects the contract checks look for, in real corpus contracts, and the recall and
precision the checks reach on them (a plant is found; no finding appears that the plant does not explain).

Each plant edits the accepted view the checks read (a paragraph's text or its displayed number), as an
edit of the document would leave it: a definition deleted or renamed or given twice, a defined term
misspelt, a reference to a clause that does not exist, a placeholder, a number skipped or repeated or
typed by hand, a party called by a name the contract never gave it."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from folio_desktop.checks.engine import CheckSession
from folio_desktop.checks.parties import ROLES
from folio_desktop.checks.references import Targets, normal
from folio_desktop.checks.terms import build_index
from folio_desktop.checks.view import read_units
from folio_desktop.docx import DocxReviewer

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
DOCUMENTS = ("contract_ilpa_model_lpa_whole_of_fund_75p.docx", "contract_nvca_stock_purchase_agreement_27p.docx",
             "contract_commonpaper_pilot_agreement.docx", "contract_msdn_eula_legal_numbering.docx",
             "contract_commonpaper_csa_with_ai_gdocs.docx")
KINDS = ("undefinedTerm", "unusedDefinition", "duplicateDefinition", "inconsistentTerm", "brokenCrossReference",
         "placeholder", "numberingGap", "duplicateNumber", "manualNumber", "partyName")
PLACEHOLDERS = ("[●]", "[•]", "[___]", "$[_____]", "[insert name of bank]", "[Date]", "[NAME]", "TBD", "[__]",
                "{notice_email}")
FRESH_TERMS = ("Holdback Escrow Amount", "Reserved Collateral Pool", "Interim Settlement Ledger", "Bridge Cure Period",
               "Qualified Offset Notice")
WRONG_ROLES = ("Licensor", "Licensee", "Landlord", "Tenant", "Franchisor", "Borrower", "Lessor", "Mortgagee")


class Doc:
    def __init__(self, name: str):
        self.name = name
        self.units = read_units(DocxReviewer.open(CORPUS / name))
        self.session = CheckSession()
        self.baseline = {f.key for f in self.session.findings(self.units)}
        self.index = build_index(self.units, {})
        self.targets = Targets(self.units)

    def findings(self, units):
        return self.session.findings(units)


def _mid(text: str, start: int) -> bool:
    return bool(re.search(r"[a-z][a-z,]*\s$", text[max(0, start - 20):start]))


def _sentence_spot(rng, doc: Doc):
    """A body paragraph of running text, and a place between two words in it."""
    body = [u for u in doc.units if u.story == "main" and len(u.text.split()) > 25 and not u.in_table
            and re.search(r"(?<=[a-z]) (?=[a-z])", u.text)]
    unit = rng.choice(body)
    spaces = [m.start() for m in re.finditer(r"(?<=[a-z]) (?=[a-z])", unit.text)]
    return unit, rng.choice(spaces)


def _set(units, unit, **changes):
    out = list(units)
    out[unit.index] = replace(unit, **changes)
    return out


def plant(kind: str, rng: random.Random, doc: Doc):
    """(units with the defect, [(kind, text)] it should produce) or None when the document offers no spot."""
    units, index = doc.units, doc.index
    terms = [t for t, defs in index.definitions.items() if len(defs) == 1 and " " in t and t[0].isupper()
             and not t.isupper() and sum(_mid(u.text, s) for u, s, _e in index.uses.get(t, ())) >= 2]
    if kind in ("undefinedTerm", "unusedDefinition") and terms:
        term = rng.choice(terms)
        unit, d = index.definitions[term][0]
        if kind == "undefinedTerm":  # the definition deleted: its quotes and its "means"
            text = unit.text[:d.start] + term + " (deleted)" + unit.text[d.end:]
            return _set(units, unit, text=text), [("undefinedTerm", term)]
        fresh = rng.choice([t for t in FRESH_TERMS if t not in unit.text])
        text = unit.text[:d.start] + f"“{fresh}”" + unit.text[d.end:]  # renamed: the old name is left undefined
        return _set(units, unit, text=text), [("unusedDefinition", fresh), ("undefinedTerm", term)]
    if kind == "duplicateDefinition" and terms:
        term = rng.choice(terms)
        unit, pos = _sentence_spot(rng, doc)
        text = unit.text[:pos] + f" (the “{term}”)" + unit.text[pos:]
        return _set(units, unit, text=text), [("duplicateDefinition", term)]
    if kind == "inconsistentTerm" and terms:
        term = rng.choice(terms)
        uses = [(u, s, e) for u, s, e in index.uses[term] if _mid(u.text, s) and u.text[s:e] == term]
        if not uses:
            return None
        unit, s, e = rng.choice(uses)
        words = term.split()
        last = words[-1]
        if len(last) > 4 and rng.random() < 0.6:
            cut = rng.randrange(1, len(last) - 1)
            words[-1] = last[:cut] + last[cut + 1:]  # a letter dropped: "Confidential Informaton"
        else:
            words[-1] = last.lower() if rng.random() < 0.5 else last.upper()  # another case
        variant = " ".join(words)
        if variant == term:
            return None  # "Rule 506" has no other case
        return _set(units, unit, text=unit.text[:s] + variant + unit.text[e:]), [("inconsistentTerm", variant)]
    if kind == "brokenCrossReference":
        if not doc.targets.numbers:
            return None
        tops = [int(n) for n in doc.targets.numbers if n.isdigit()]
        missing = f"{max(tops, default=1) + rng.randrange(3, 9)}.{rng.randrange(1, 6)}"
        unit, pos = _sentence_spot(rng, doc)
        said = f"Section {missing}"
        return _set(units, unit, text=unit.text[:pos] + f" (subject to {said})" + unit.text[pos:]), \
            [("brokenCrossReference", said)]
    if kind == "placeholder":
        mark = rng.choice(PLACEHOLDERS)
        unit, pos = _sentence_spot(rng, doc)
        return _set(units, unit, text=unit.text[:pos] + f" {mark}" + unit.text[pos:]), [("placeholder", mark)]
    if kind in ("numberingGap", "duplicateNumber", "manualNumber"):
        return _plant_number(kind, rng, doc)
    if kind == "partyName":
        parties = [r for r in ROLES if r in index.definitions or sum(r in u.text for u in units) > 5]
        spots = [(u, m.start()) for u in units if u.story == "main" and not u.in_table
                 for m in re.finditer(r"(?:(?<=\bthe )|(?<=\bby )|(?<=\bto )|(?<=\bof ))(?:" + "|".join(parties)
                                     + r")\b(?![ -]?[A-Z])", u.text)
                 if not re.search(r"\[[^\]]*$", u.text[:m.start()])] if parties else []  # not inside a blank
        wrong = [r for r in WRONG_ROLES if not any(r in u.text for u in units)]
        if not spots or not wrong:
            return None
        unit, s = rng.choice(spots)
        old = re.match(r"\w+", unit.text[s:]).group()
        role = rng.choice(wrong)
        return _set(units, unit, text=unit.text[:s] + role + unit.text[s + len(old):]), [("partyName", role)]
    return None


def _siblings(doc: Doc):
    """The numbered paragraphs of one list level under one parent, numbered 1, 2, 3 ... (three or more)."""
    groups = defaultdict(list)
    for u in doc.units:
        m = re.fullmatch(r"(\d+(?:\.\d+)*\.)?(\d+)\.?", u.label or "")
        if m and u.story == "main" and not u.in_table:
            groups[(m.group(1), u.label.endswith("."), u.num_id)].append((u, (m.group(1), int(m.group(2)))))
    return [g for g in groups.values() if len(g) >= 3 and [k for _u, (_p, k) in g] == list(range(1, len(g) + 1))]


def _reindexed(units):
    return [replace(u, index=i) for i, u in enumerate(units)]


def _plant_number(kind, rng, doc: Doc):
    runs = [r for r in _siblings(doc) if all(not u.typed_number for u, _ in r)]
    if not runs:
        return None
    run = rng.choice(runs)
    at = rng.randrange(1, len(run) - 1)
    units = list(doc.units)
    unit, (prefix, n) = run[at]
    if kind == "manualNumber":
        units[unit.index] = replace(unit, label=None, text=f"{unit.label} {unit.text}")
        return units, [("manualNumber", unit.label)]
    if kind == "duplicateNumber":  # a paragraph numbered again as the one before it (typed, or a restart)
        extra = replace(unit, block_id="PLANTED1", text="The parties acknowledge the foregoing.", heading=False)
        return _reindexed(units[:unit.index + 1] + [extra] + units[unit.index + 1:]), [("duplicateNumber", unit.label)]
    # a gap: this clause and the ones after it numbered one higher
    for u, (p, k) in run[at:]:
        units[u.index] = replace(u, label=f"{p or ''}{k + 1}" + ("." if u.label.endswith(".") else ""))
    return units, [(kind, units[unit.index].label)]


def measure(count: int, seed: int = 30) -> dict:
    """Plant `count` defects spread over the documents and kinds; returns {kind: (recall, precision, plants)}."""
    rng = random.Random(seed)
    docs = [Doc(name) for name in DOCUMENTS]
    found, planted, true_new, false_new = (defaultdict(int) for _ in range(4))
    made = 0
    attempts = 0
    while made < count and attempts < count * 20:
        attempts += 1
        kind = KINDS[made % len(KINDS)]
        doc = rng.choice(docs)
        result = plant(kind, rng, doc)
        if result is None:
            continue
        units, expected = result
        made += 1
        new = [f for f in doc.findings(units) if f.key not in doc.baseline]
        wanted = set(expected)
        planted[kind] += 1
        if any((f.kind, f.text) == expected[0] or _follows(f, expected[:1]) for f in new):
            found[kind] += 1
        for f in new:
            if (f.kind, f.text) in wanted or _follows(f, expected):
                true_new[f.kind] += 1
            else:
                false_new[f.kind] += 1
    out = {}
    for kind in KINDS:
        tp, fp = true_new[kind], false_new[kind]
        out[kind] = (found[kind] / planted[kind] if planted[kind] else None,
                     tp / (tp + fp) if tp + fp else 1.0, planted[kind])
    return out


def _follows(finding, expected) -> bool:
    """A finding the plant explains though it names it another way: the renumbered clause's own sub-numbers,
    a term's plural."""
    for kind, text in expected:
        if kind == "numberingGap" and finding.kind == "brokenCrossReference":
            return True  # the renumbered clauses' old numbers are gone: a reference to the last one now misses
        if kind == "numberingGap" and finding.kind == "numberingGap" and finding.display_label == text:
            return True
        if finding.kind == kind and normal(finding.text).rstrip("s") == normal(text).rstrip("s"):
            return True
        if kind == finding.kind == "undefinedTerm" and normal(text) in normal(finding.text):
            return True  # the term left undefined, named inside a longer one ("Customer Covered Claim")
        if finding.kind == "placeholder" and text in finding.text:
            return True  # the plant changed words inside a drafting note or a blank: the same placeholder
    return False


if __name__ == "__main__":
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for kind, (recall, precision, plants) in measure(n).items():
        print(f"{kind:22s} plants={plants:4d} recall={recall if recall is None else round(recall, 3)} "
              f"precision={precision:.3f}")
