"""A measurement shown: the figures as rows and the timing chart's bars."""
