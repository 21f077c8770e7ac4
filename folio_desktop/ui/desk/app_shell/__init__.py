"""What surrounds the document in any desktop app: printing, the Help menu (keyboard shortcuts, About),
the toolbar's icons, the system's light or dark palette, the first run's question for the author name,
and the dialog that chooses two versions to compare."""
