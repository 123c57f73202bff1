"""How scent runs its ONNX models (ImageNet classifier, COCO detector, page layout): onnxruntime on
the CPU, one thread each, so indexing keeps one core per process and the numbers in the module
docs (ms per picture) hold."""
from __future__ import annotations


def session(model):
    """An onnxruntime session for `model` (a path or the serialised ONNX bytes), on one thread."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
