# The public names of `blurapp`, each imported when first used (blurapp/__init__.py).
from ._version import __version__ as __version__
from .api import Comparison as Comparison
from .api import blur as blur
from .api import compare as compare
from .api import open_photo as open_photo
from .api_clips import ClipComparison as ClipComparison
from .api_clips import compare_clip as compare_clip
from .api_clips import open_clip as open_clip
from .core.engines import Engine as Engine
from .core.engines import UnknownEngineError as UnknownEngineError
from .core.engines import engine_names as engine_names
from .core.engines import get_engine as get_engine
from .core.engines import register as register
from .core.engines.jax_runtime import JaxUnavailableError as JaxUnavailableError
from .core.kernel import InvalidKernelError as InvalidKernelError
from .core.media.clip import Clip as Clip
from .core.media.clip import ClipError as ClipError
from .core.media.photo import Photo as Photo
from .core.media.photo_checks import PhotoError as PhotoError
from .core.media.sample import sample_photo_path as sample_photo_path
from .core.report.figures import Figure as Figure
from .core.spec import BlurSpec as BlurSpec

__all__ = [
    "BlurSpec",
    "Clip",
    "ClipComparison",
    "ClipError",
    "Comparison",
    "Engine",
    "Figure",
    "InvalidKernelError",
    "JaxUnavailableError",
    "Photo",
    "PhotoError",
    "UnknownEngineError",
    "blur",
    "compare",
    "compare_clip",
    "engine_names",
    "get_engine",
    "open_clip",
    "open_photo",
    "register",
    "sample_photo_path",
]
