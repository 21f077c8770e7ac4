"""The open document's file on disk, for the desk: recent files, crash recovery copies and the question at
start-up, the checks and messages around a save, and the watch on the file (changed, replaced or deleted by
another program, or open in Word)."""
