"""Photos and clips: read from files, checked, turned into pixels and written back."""
