"""The CPU standing in for an accelerator: the JAX engines take their device for one (a GPU's
or a TPU's), so their accelerator paths (rows of values, stored levels crossing, bands,
overlapped batches) run and are checked on any machine."""


def take_the_cpu_for_an_accelerator(monkeypatch) -> None:
    """From now until the test ends, every JAX engine's question "is this device an
    accelerator?" is answered yes: in the runtime (what crosses, jax_runtime.to_move), the
    calls every engine makes (jax_calls: bands) and JAX-jit's and JAX Pallas's own programs and
    batches."""
    from blurapp.core.engines import jax_calls, jax_engine, jax_runtime, pallas_engine

    for module in (jax_runtime, jax_calls, jax_engine, pallas_engine):
        monkeypatch.setattr(module, "on_accelerator", lambda device: True)
