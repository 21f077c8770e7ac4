"""The Claude chat: the panel, composer, transcript, the runner on its worker thread, the live bridge and the audit log."""
