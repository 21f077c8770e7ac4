"""The side panels and bars: changes, comments, outline, find, the info bars and the status indicators."""
