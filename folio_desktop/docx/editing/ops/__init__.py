"""The operations themselves, one module per kind (blocks, text, tables), and the context they share."""
