"""Capitalised words a contract uses without defining them: places, months, institutions, statutes'
usual names and the ordinary capitalised words of legal drafting. None of them is an undefined term."""

from __future__ import annotations

_PLACES = """Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho
Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri
Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Rhode Tennessee Texas Utah Vermont Virginia Washington
Wisconsin Wyoming York Jersey Carolina Dakota Hampshire Mexico Columbia America American Americas United States Kingdom
England Wales Scotland Ireland Britain British European Europe Union Canada Canadian Cayman Islands Luxembourg
Germany France Japan China India Australia Singapore Hong Kong Switzerland Swiss Netherlands Guernsey Jersey Bermuda
Virgin Island London Paris Tokyo Chicago Boston Francisco Angeles Wilmington Manhattan Redmond Puerto Rico Latin
Asia Africa Pacific Atlantic Middle East West North South Eastern Western Northern Southern Federal Republic
Delaware's Ontario Quebec Brussels Geneva Zurich Berlin Dublin"""
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
