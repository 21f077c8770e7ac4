"""The sentences a comparison adds to its summary about how the redline was written: a story part
redlined as whole paragraphs and tables (result["fallbacks"]), and a style or list the later version
uses without defining it (result["referenceWarnings"]). The command line (cli.py) prints them
and the compare window shows them; both call this module, so they say the same thing."""

from __future__ import annotations

# referenceWarnings "type" -> what the lawyer knows it as, and what the inserted text lost
_REFERENCE_WORDS = {
    "style": ("the style “{ref}”", "that style"),
    "numbering": ("a numbered list (list {ref})", "that numbering"),
}


def story_name(key: str) -> str:
    """'main' -> 'the main text', 'footnote:3' -> 'footnote 3', 'header:rId7' -> 'the header (rId7)'."""
    kind, _, ref = key.partition(":")
    if kind == "main":
        return "the main text"
    if kind in ("footnote", "endnote"):
        return f"{kind} {ref}"
    return f"the {kind} ({ref})" if ref else f"the {kind}"


def describe_fallback(fallback: dict) -> str:
    """One plain sentence: where the redline is coarser than word by word, how much, and why."""
    where = story_name(fallback["story"])
    if fallback["scope"] == "table":
        n = fallback["regions"]
        return (f"Note: in {where}, {n} table{'s are' if n != 1 else ' is'} shown deleted and inserted whole, "
                f"not row by row: {fallback['reason']}.")
    if fallback["scope"] == "story":
        what = f"In {where} every paragraph and table is shown deleted and re-inserted whole"
    else:
        n, blocks = fallback["regions"], fallback["blocks"]
        what = (f"In {where}, {n} changed region{'s' if n != 1 else ''} ({blocks} paragraph{'s' if blocks != 1 else ''}"
                " and table cells) are shown as whole paragraphs and tables deleted and inserted")
    return f"Note: {what}, not word by word: the word-level redline failed its check ({fallback['reason']})."


def describe_reference_warning(warning: dict) -> str:
    """“Note: the later version uses the style “Ghost” without defining it …”. An unknown kind is
    told in the engine's own sentence rather than dropped."""
    words = _REFERENCE_WORDS.get(warning.get("type"))
    if words is None:
        return f"Note: {warning.get('message') or warning.get('reference')}"
    thing, lost = words
    thing = thing.format(ref=warning.get("reference"))
    return (f"Note: the later version uses {thing} without defining it (only the earlier version does), so "
            f"the text it inserts is shown without {lost}.")


def redline_notes(result: dict) -> list[str]:
    """Every note about a redline result, fallbacks first, one sentence each (empty when none)."""
    return [describe_fallback(f) for f in result.get("fallbacks", ())] + \
        [describe_reference_warning(w) for w in result.get("referenceWarnings", ())]
