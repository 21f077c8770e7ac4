"""The editing engine: the operation contract, skip reasons, the operation engine, paragraph edits, accept and reject, comments written, checkpoints."""
