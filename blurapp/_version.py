"""BlurApp's version: one place, read by the package, the build and the program."""

__version__ = "0.1.0"
