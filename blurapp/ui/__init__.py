"""BlurApp's window: a Qt view over blurapp.core. Only this package imports PySide6."""
