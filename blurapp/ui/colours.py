"""The window's colours that carry a meaning, each named once."""

WARNING_COLOUR = "#c0392b"  # red: a difference outside the tolerance
NOTE_COLOUR = "#b35c00"  # amber: out of date, or a parameter used differently from how typed
SELECTED_COLOUR = "#3d8ee6"  # the border of the selected pane
