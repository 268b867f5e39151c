"""The window's application logic without Qt: what the user has open and asked for, what is out
of date and why, and the words shown for it. The Qt layer (blurapp.ui) renders it."""
