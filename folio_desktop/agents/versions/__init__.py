"""Comparing two versions: the story-by-story diff, the redline written as tracked changes, its notes and privacy, the compare CLI."""
