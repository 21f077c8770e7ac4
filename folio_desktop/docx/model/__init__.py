"""The document model: the in-memory document, styles, numbering, theme, sections, fonts, resolved formatting and text keys."""
