"""layout layer (see ARCHITECTURE.md)."""
