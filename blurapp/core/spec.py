"""What the user asked for, as one value: the kernel size setting, sigma, the algorithm and
whether a colour photo is blurred in colour. Checked once, when it is made (by the kernel's own
rules), then passed whole from the slider or the command line to the engines, the words shown,
the file names and the description saved into each file."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from blurapp._version import __version__
from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    Algorithm,
    KernelSize,
    check_algorithm,
    check_kernel_size,
    check_sigma,
    effective_kernel_size,
    kernel_for,
)
from blurapp.core.wording import QT_TRANSLATE_NOOP, TranslateText, english


@dataclass(frozen=True)
class BlurSpec:
    """One blur request, checked when it is made.

    Parameters
    ----------
    kernel_size : int or "auto", default 9
        The kernel's side, an odd number of pixels, or "auto" for the size that reaches
        3 sigma from the centre. `size` is the size a blur uses.
    sigma : float, default 2.5
        The Gaussian's standard deviation, in pixels (positive).
    algorithm : {"2d", "separable"}, default "2d"
        "2d" applies the size × size kernel one tap at a time (the tutorial's way);
        "separable" the same weights as one 1-D kernel along the rows, then the columns.
    color : bool, default False
        Blur a colour photo's red, green and blue each; False blurs its grey (as the
        tutorial did). A grey photo stays grey either way.

    Raises
    ------
    InvalidKernelError
        A size, sigma or algorithm that no Gaussian kernel can be made from; the message
        says which and why.
    """

    kernel_size: KernelSize = DEFAULT_KERNEL_SIZE
    sigma: float = DEFAULT_SIGMA
    algorithm: Algorithm = DEFAULT_ALGORITHM
    color: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kernel_size", check_kernel_size(self.kernel_size))
        object.__setattr__(self, "sigma", check_sigma(self.sigma))
        object.__setattr__(self, "algorithm", check_algorithm(self.algorithm))
        object.__setattr__(self, "color", bool(self.color))

    @property
    def size(self) -> int:
        """The kernel size a blur uses, the size set or the automatic size for sigma."""
        return effective_kernel_size(self.kernel_size, self.sigma)

    @property
    def kernel(self) -> np.ndarray:
        """The weights the engines take, size × size for 2-D or the 1-D taps for separable."""
        return kernel_for(self.algorithm, self.kernel_size, self.sigma)

    def same_blur(self, other: BlurSpec, *, in_colour: bool = True) -> bool:
        """Whether both give the same blur (auto and the size it picks are the same). With
        `in_colour` False (a grey photo) the Colour switch changes nothing."""
        colour = (self.color, other.color) if in_colour else (False, False)
        return (self.size, self.sigma, self.algorithm, colour[0]) == (
            other.size,
            other.sigma,
            other.algorithm,
            colour[1],
        )

    def words(self, translate: TranslateText = english) -> str:
        """'9 × 9, sigma 2.5', with how a separable kernel is applied."""
        return describe_kernel(self.size, self.sigma, self.algorithm, translate)

    def file_tag(self, *, in_colour: bool = False) -> str:
        """What made a result, in a file name: '9x9-s2.5', '-separable' and '-colour' added
        when they apply."""
        tag = f"{self.size}x{self.size}-s{self.sigma:g}"
        if self.algorithm != DEFAULT_ALGORITHM:
            tag += f"-{self.algorithm}"
        if in_colour:
            tag += "-colour"
        return tag

    def result_name(self, photo_stem: str, engine: str, *, in_colour: bool = False) -> str:
        """The one name of a result file, without its extension: the photo's name, the engine
        and what made it, e.g. 'coffee-numpy-9x9-s2.5' (`jax@gpu` as 'jax-gpu')."""
        return f"{photo_stem}-{engine.replace('@', '-')}-{self.file_tag(in_colour=in_colour)}"

    def description(self, engine: str, *, channels: int | None = None) -> dict[str, str]:
        """What made a result, written into the file beside its pixels (save_output's
        `description`). `engine` is the engine's name, as the command line takes it (never
        its title); `channels` is added when known (1 grey, 3 colour)."""
        description = {
            "Software": f"BlurApp {__version__}",
            "engine": engine,
            "kernel size": str(self.size),
            "sigma": f"{self.sigma:g}",
            "algorithm": self.algorithm,
        }
        if channels is not None:
            description["channels"] = str(channels)
        return description


def describe_kernel(
    size: int, sigma: float, algorithm: Algorithm, translate: TranslateText = english
) -> str:
    """'9 × 9, sigma 2.5' for the 2-D algorithm; separable adds how it is applied."""
    text = translate(QT_TRANSLATE_NOOP("Figures", "{size} × {size}, sigma {sigma}")).format(
        size=size, sigma=f"{sigma:g}"
    )
    if algorithm == "2d":
        return text
    separable = translate(QT_TRANSLATE_NOOP("Figures", "separable ({size} + {size} taps)"))
    return f"{text}, {separable.format(size=size)}"
