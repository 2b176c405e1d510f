"""Kernels of a compiled module, and their launches."""


class Kernel:
    """One kernel of a ws.Module: its signature (ws.Signature), and a launch
    as ``kernel[grid](*args, stream=None)``."""

    def __init__(self, module, signature):
        self.module = module
        self.signature = signature
        self.name = signature.name

    def __repr__(self):
        s = self.signature
        return "<ws.Kernel %s: %d threads, %d bytes of shared memory, %d args>" % (
            s.name, s.block_threads, s.shared_memory_bytes, len(s.args))
