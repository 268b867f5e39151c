"""BlurApp: the same Gaussian blur with NumPy and with JAX-jit, side by side."""

__version__ = "0.1.0"
