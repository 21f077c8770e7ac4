"""The review desk: the main window and the objects that own its actions, commands, files, undo, recovery, dialogs and export."""
