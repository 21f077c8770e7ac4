"""Capitalised words a contract uses without defining them: places, months, institutions, statutes'
usual names and the ordinary capitalised words of legal drafting. None of them is an undefined term."""

from __future__ import annotations

import re
from functools import lru_cache

_PLACES = """Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho
Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri
Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Rhode Tennessee Texas Utah Vermont Virginia Washington
Wisconsin Wyoming York Jersey Carolina Dakota Hampshire Mexico Columbia America American Americas United States Kingdom
England Wales Scotland Ireland Britain British European Europe Union Canada Canadian Cayman Islands Luxembourg
Germany France Japan China India Australia Singapore Hong Kong Switzerland Swiss Netherlands Guernsey Jersey Bermuda
Virgin Island London Paris Tokyo Chicago Boston Francisco Angeles Wilmington Manhattan Redmond Puerto Rico Latin
Asia Africa Pacific Atlantic Middle East West North South Eastern Western Northern Southern Federal Republic
Delaware's Ontario Quebec Brussels Geneva Zurich Berlin Dublin State Commonwealth"""
_TIME = """January February March April May June July August September October November December Monday Tuesday
Wednesday Thursday Friday Saturday Sunday Christmas Day"""
_INSTITUTIONS = """Microsoft Windows Google Apple Amazon Oracle Linux Internet Web Office Server Corporation Inc LLC LLP Ltd
Limited Company Bank Court Courts Supreme Chancery Congress Senate Commission Securities Exchange Internal Revenue
Service Treasury Department Labor Justice Commerce Nations Convention Organization Regulation Regulations Rule Rules
Code Act Acts Law Laws Treaty Directive GDPR Commonwealth State Government Secretary Attorney General Board
Financial Industry Authority Conduct Reserve System Association Institute Standards Nasdaq Stock Market Visa
Mastercard Common Paper Creative Commons License Inc. Corp. L.P. N.A. ERISA Investment Advisers Company Bankruptcy
Bureau Office Council Parliament Majesty Crown Federal Agreement Amendment Contract Deed"""
# a phrase that starts with one of these is a proper name (a product, a firm), not a term
_BRANDS = frozenset("Microsoft Windows Google Apple Amazon Oracle Visual BackOffice Adobe IBM SAP Salesforce".split())
_DRAFTING = """Section Sections Article Articles Schedule Schedules Exhibit Exhibits Annex Annexes Appendix Appendices
Clause Clauses Paragraph Paragraphs Part Parts Recital Recitals Preamble Chapter Title Subsection Subsections Table
Attachment Attachments Addendum Item Items Page Note Notes Form Forms Signature Signatures Name Date Address Email By
Mr Mrs Ms Dr Esq No Nos Inc Ltd Co Corp Sr Jr Vice President Chief Executive Officer Financial Operating Director
Directors Managing Member Manager Chairman Treasurer Secretary Notary Public Witness Whereof Whereas Now Therefore
Hereby Hereto Hereof Herein Dollars Dollar Euro Euros Pounds Sterling Cents I II III IV V VI VII VIII IX X Mr.
Ms. Dr. Ref Re Attn Attention Tel Fax Phone Telephone Facsimile Yes OK NA Counsel Esquire Annual Quarterly"""

_WORDS = frozenset((_PLACES + " " + _TIME + " " + _INSTITUTIONS + " " + _DRAFTING).split())
_PLACE_WORDS = frozenset((_PLACES + " " + _TIME).split())


def is_known_name(phrase: str) -> bool:
    """Is every capitalised word of the phrase a place, a date word, an institution or drafting vocabulary?"""
    words = [w.rstrip(".,") for w in phrase.split() if w[:1].isupper()]
    # a name of several words is known when it is a place or a date ("New York", "United States") or a
    # brand's; "Securities Act" is a term a contract defines
    known = _WORDS if len(words) == 1 else _PLACE_WORDS
    return bool(words) and (words[0] in _BRANDS or all(w in known for w in words))

# words that make a run of capitalised words the name of a body, a statute, a court, a firm, a product, an
# office or a company's charter: "Securities and Exchange Commission", "Bipartisan Budget Act of 2015",
# "Standard & Poor's Ratings Services", "Chief Executive Officer", "Certificate of Incorporation"
_NAME_WORDS = frozenset("""Commission Administration Agency Authority Court Courts
Association Committee Council Bureau Department Ministry Office Regulations Procedure Procedures
Inc Inc. Corp Corp. Corporation LLC LLP Ltd Ltd. Bank Template Guidelines Principles Officer President Secretary
Treasurer Chairman Incorporation Bylaws By-laws Formation Commonwealth District County Province Ratings University
Foundation Institute""".split())
# name words that are also words of ordinary terms ("Support Services", "Stock Exchange"): a name only in a
# run of three or more capitalised words ("Internal Revenue Service", "Moody's Investor Services")
_WEAK_NAME_WORDS = frozenset("""Service Services Server Exchange Company State City Standards Systems Board
Technologies Trust""".split())
# a statute's name has three words or more, or a year ("Federal Food, Drug, and Cosmetic Act", "Bipartisan
# Budget Act of 2015"); "Securities Act" and "Source Code" are a contract's own terms
_STATUTE_WORDS = frozenset("Act Acts".split())
# "Internal Revenue Code", "United States Bankruptcy Code"; not "Library Sample Code"
_CODE_WORDS = frozenset("Revenue Bankruptcy Commercial Civil Penal Criminal Uniform Tax".split())
_YEAR = re.compile(r"\s+of\s+\d{4}\b")
# a capitalised word, an abbreviation that ends in a dot (never a sentence's end), "&"
_CAP = r"(?:(?:Inc|Corp|Ltd|Co|No)\.|[A-Z]\.(?:[A-Z]\.)+|[A-Z][\w'’-]*|&)"
_NAME = re.compile(_CAP + r"(?:(?:,\s+(?:and\s+)?|\s+(?:and|of|on|in|for)\s+(?:the\s+)?|\s+)" + _CAP + r")*")
_PRODUCT_NOUN = re.compile(r"\s+(?:software|programs?|products?|tools?)\b")
_BRAND_PAIRS = ("Common Paper",)
_OPENERS = frozenset("The This These That Each Any All A An If In Such No Neither Either Upon".split())


@lru_cache(maxsize=65536)
def name_spans(text: str) -> tuple[tuple[int, int, bool], ...]:
    """Spans of the paragraph that name a body, a statute, a firm or a product rather than use a term: a
    run of capitalised words (joined by "and", "&", "of", "on", "in", "for" or commas) holding one of the
    name words, a brand, or followed by "software"/"programs". With each span: does a brand name it (a product
    whose name without the brand is still a name: "Microsoft Site Server")."""
    out = []
    for m in _NAME.finditer(text):
        words = [w.rstrip(",.").removesuffix("’s").removesuffix("'s") for w in m.group().split()]
        if words[0] in _OPENERS:  # "The Server Software": a sentence's first word is no part of a name
            words = words[1:]
            if not words:
                continue
        runs = re.split(r",\s+(?:and\s+)?|\s+(?:and|of|on|in|for)\s+(?:the\s+)?", " ".join(words))
        weak = any(len(r.split()) >= 3 and _WEAK_NAME_WORDS.intersection(r.split()) for r in runs)
        brand = bool(_BRANDS.intersection(words)) or any(" ".join(words).startswith(b) for b in _BRAND_PAIRS)
        statute = (_STATUTE_WORDS.intersection(words) and (len(words) >= 3 or _YEAR.match(text, m.end()))) or \
            ("Code" in words and (_YEAR.match(text, m.end()) or _CODE_WORDS.intersection(words)
                                  or _PLACE_WORDS.intersection(words)))
        if brand or _NAME_WORDS.intersection(words) or weak or statute or _PRODUCT_NOUN.match(text, m.end()):
            out.append((m.start(), m.end(), brand))
    return tuple(out)
