"""Reading surfaces: the inline walk, the block snapshot, story views, outline, search, comments, changes and moves."""
