"""The document model: the in-memory document, styles, numbering, theme, sections, fonts, table grids, resolved formatting (and the property parsers under it) and text keys."""
