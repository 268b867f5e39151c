"""Choosing the window's language: BlurApp's own translations and Qt's, for one locale."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from blurapp.core.wording import FileProblem, display_path

# The .ts sources and the compiled .qm files live in the package, so a wheel carries them.
TRANSLATIONS = Path(str(resources.files("blurapp").joinpath("i18n")))


def install_translations(app: QCoreApplication, language: str | None = None) -> list[QTranslator]:
    """Translate the window into `language` (e.g. "zh_CN"), or the system's language if None.

    Returns the translators installed (keep them alive; remove them to go back to English).
    """
    locale = QLocale(language) if language else QLocale.system()
    installed = []
    own = QTranslator(app)
    if own.load(locale, "blurapp", "_", str(TRANSLATIONS)):
        app.installTranslator(own)
        installed.append(own)
        # Qt's own words too: the buttons of message boxes and file dialogs.
        qt = QTranslator(app)
        qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if qt.load(locale, "qtbase", "_", qt_folder):
            app.installTranslator(qt)
            installed.append(qt)
    return installed


def translated_problem(error: FileProblem) -> str:
    """A file problem's message in the user's language (the core words it in English)."""
    return display_path(
        error.translated(lambda text: QCoreApplication.translate(FileProblem.CONTEXT, text))
    )
