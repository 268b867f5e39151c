"""The engines measured: a photo's comparison, a clip's, the scaling sweep, a busy machine."""
