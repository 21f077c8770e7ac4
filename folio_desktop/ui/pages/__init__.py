"""The pages: the page view, its painting, geometry, input, typing, text flow, redline marks and balloons."""
