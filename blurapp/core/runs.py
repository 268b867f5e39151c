"""The names a plugin written for BlurApp 0.1 imports from here, as its documentation showed
(`from blurapp.core.runs import Call, FirstCall`). They live in blurapp.core.engines.runs; a new
plugin imports them from blurapp.core.engines, beside Engine."""

from blurapp.core.engines.runs import (
    BlurCancelled,
    BlurredFrames,
    Call,
    Cancelled,
    Compilation,
    EngineRun,
    FirstCall,
    PaidFirstCall,
    Payer,
    Progress,
    check_cancelled,
)

__all__ = [
    "BlurCancelled",
    "BlurredFrames",
    "Call",
    "Cancelled",
    "Compilation",
    "EngineRun",
    "FirstCall",
    "PaidFirstCall",
    "Payer",
    "Progress",
    "check_cancelled",
]
