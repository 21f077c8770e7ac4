"""assistant layer (see ARCHITECTURE.md)."""
