"""The parties: their names and defined short names from the preamble, and partyName where the contract
calls a party by a role name it never gave it ("Licensor" in an agreement between "Supplier" and
"Customer")."""

from __future__ import annotations

import re

from .definitions import definitions_in
from .words import capital_runs, run_in_heading_end

ROLES = frozenset("""Licensor Licensee Licensors Licensees Supplier Customer Vendor Buyer Seller Purchaser Provider
Client Contractor Subcontractor Consultant Employer Employee Lender Borrower Landlord Tenant Lessor Lessee Discloser
Recipient Distributor Reseller Manufacturer Franchisor Franchisee Guarantor Assignor Assignee Subscriber Investor
Issuer Grantor Grantee Owner Developer Publisher Agent Principal Contributor Sponsor Servicer Obligor Pledgor
Pledgee Mortgagor Mortgagee Transferor Transferee Holder Trustee Beneficiary Partner""".split())
_TWO_WORD = ("Disclosing Party", "Receiving Party", "Service Provider", "General Partner", "Limited Partner")
_PREAMBLE_END = re.compile(r"^\s*(?:WHEREAS|RECITALS|BACKGROUND|NOW,? THEREFORE|W I T N E S S E T H|WITNESSETH)", re.I)
_BRACKETED = re.compile(r"\[[^\[\]]{0,60}\]")  # a blank, not a whole optional clause
_AFTER_ACRONYM = re.compile(r"\b[A-Z]{2,}\s+$")
_ROLE_USE = re.compile(r"(?<![\w“\"])(" + "|".join(sorted([*_TWO_WORD, *ROLES], key=len, reverse=True))
                       + r")(?:s|es)?(?:['’]s?)?(?![\w”\"])")


def preamble_parties(units) -> set[str]:
    """Short names defined in the body's opening paragraphs, before the recitals or the first numbered clause."""
    names: set[str] = set()
    for unit in units:
        if unit.story != "main":
            continue
        if unit.label or _PREAMBLE_END.match(unit.text) or unit.index > 80:
            break
        names.update(d.term for d in definitions_in(unit.text))
    return names


def _in_a_name(text: str, m) -> bool:
    """Is the role word part of a longer capitalised name ("Client Software", "Internet Service Provider")?"""
    if m.group().endswith(("'s", "’s")):
        return False  # "Licensee’s Confidential Information": the possessive ends the role word
    for run in capital_runs(text):
        if run[0][1] <= m.start() < run[-1][2]:
            # "If the Borrower": a run joined by "the" starts a new name after it
            after_the = text[max(0, m.start() - 4):m.start()] == "the "
            return (run[0][1] < m.start() and not after_the) or run[-1][2] > m.end()
    return False


def check_parties(units, emit, defined: set[str], covered) -> set[str]:
    """Emit partyName findings; returns the parties' names. `covered(unit)`: the spans defined terms cover."""
    named = preamble_parties(units)
    lowered = {t.lower() for t in defined}
    uses: dict[str, list] = {}
    for unit in units:
        spans = covered(unit)
        heading = run_in_heading_end(unit.text)
        # a role word inside a blank to fill ("[name of Investor's counsel]") or after an acronym ("OLE DB
        # Provider") names no party
        spans = [*spans, *(b.span() for b in _BRACKETED.finditer(unit.text))]
        for m in _ROLE_USE.finditer(unit.text):
            after = re.match(r"\s+([a-z]+)", unit.text[m.end():m.end() + 30])
            if after and f"{m.group(1)} {after.group(1)}".lower() in lowered:
                continue  # "Client software": the defined Client Software in another case
            if m.start() < heading or any(s <= m.start() < e for s, e in spans) or _in_a_name(unit.text, m) \
                    or _AFTER_ACRONYM.search(unit.text, max(0, m.start() - 12), m.start()):
                continue
            uses.setdefault(m.group(1), []).append((unit, m.start()))
    names = named | {t for t in defined if t in ROLES or t in _TWO_WORD}
    # whoever the contract names often is a party (a cover page's "PROVIDER:" and "CUSTOMER:" name
    # none in a preamble); with no preamble, three times is often
    names |= {role for role, places in uses.items() if len(places) >= (10 if named else 3)}
    if not names:
        return names
    said = " and ".join(f"“{n}”" for n in sorted(names)[:4])
    for role, places in uses.items():
        if role in names or role.rstrip("s") in names:
            continue
        unit, start = places[0]
        emit("partyName", role, unit, start,
             f"“{role}” names a party the contract never defines (its parties are {said}).")
    return names
