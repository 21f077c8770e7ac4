"""Small pieces of wording shared by the pages, the panels and the desk: a date as the lawyer's locale
writes it, a list of names as a sentence."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import QDateTime, QLocale, Qt


def short_date(iso: str | None) -> str:
    """An OOXML date (ISO 8601, usually UTC) in the user's local time and short locale form."""
    if not iso:
        return ""
    moment = QDateTime.fromString(iso, Qt.ISODateWithMs)
    if not moment.isValid():
        moment = QDateTime.fromString(iso, Qt.ISODate)
    if not moment.isValid():
        return iso
    local, locale = moment.toLocalTime(), QLocale()
    return f"{locale.toString(local.date(), medium_date_format(locale))}, " \
           f"{locale.toString(local.time(), locale.timeFormat(QLocale.ShortFormat))}"


def medium_date_format(locale: QLocale) -> str:
    """The locale's long date without the weekday and with the month abbreviated: "d MMM yyyy" ("2 Dec
    2026") in Britain, "MMM d, yyyy" ("Dec 2, 2026") in the United States. Its short date is all digits
    ("2 12 2026", "12/2/26"), which a lawyer reads wrongly across borders."""
    pattern = locale.dateFormat(QLocale.LongFormat)
    pattern = re.sub(r"^\s*dddd[,.\s]*|[,\s]*dddd\s*$", "", pattern)
    return pattern.replace("MMMM", "MMM")


def listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """"1 page", "2 pages", "0 pages": the number and the noun agreeing with it."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"
