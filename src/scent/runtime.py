"""How scent runs its ONNX models (ImageNet classifier, COCO detector, page layout): onnxruntime on
the CPU, one thread each, so indexing keeps one core per process and the numbers in the module
docs (ms per picture) hold."""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable, Sequence

from . import cache
from .progress import stage

log = logging.getLogger(__name__)


def session(model):
    """An onnxruntime session for `model` (a path or the serialised ONNX bytes), on one thread."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def converted_session(name: str, sources: Sequence[Path], convert: Callable[[], bytes]):
    """A session for a model scent converts to ONNX itself (the detector's TF.js graph, the
    classifier's PyTorch weights). Converting needs the `onnx` package, whose import alone takes
    ~0.4 s, and every process that describes pictures (each reader of an indexing run) paid it:
    so the converted model is kept under $SCENT_HOME/cache/models, named by a checksum of
    `sources` (the weights and the converting code), and later processes load that."""
    path = converted_path(name, sources)
    if path.is_file():
        try:
            return session(str(path))
        except Exception as e:  # noqa: BLE001 - onnxruntime's own error types; converted again below
            log.warning("the cached %s model %s did not load (%s); converting it again", name, path, e)
    model = convert()
    cache.keep(path, lambda f: f.write(model))
    return session(model)


def converted_path(name: str, sources: Sequence[Path]) -> Path:
    return cache.path_for(sources, f"models/{name}.onnx")


class OptionalModel:
    """A picture model made once, on first use, by whichever thread asks first. A missing optional
    part must not stop indexing: when it cannot be made, `get()` is None from then on and the loss
    is said once as a warning ("pictures are described without ...")."""

    def __init__(self, make: Callable[[], object], without: str, logger: logging.Logger):
        self._make, self._without, self._log = make, without, logger
        self._lock = threading.Lock()
        self._value = None  # None: not tried yet; False: could not be made

    def get(self):
        with self._lock:
            if self._value is None:
                try:
                    with stage("models loading"):
                        self._value = self._make()
                except Exception as e:  # noqa: BLE001 - see the class doc
                    self._log.warning("pictures are described without %s could not be loaded (%s: %s)",
                                      self._without, type(e).__name__, e)
                    self._value = False
        return self._value or None

    def forget(self) -> None:
        """Try again on the next `get()` (a test that has just fetched the weights)."""
        with self._lock:
            self._value = None
