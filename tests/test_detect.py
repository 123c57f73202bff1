"""The COCO object detector (scent.detect): the TF.js -> ONNX converter on hand-written graphs,
the decoder and NMS on hand-made numbers, and the real model on real photos."""
import json
import logging
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scent import detect, runtime

pytest.importorskip("onnxruntime")

DARKNET = Path(os.environ.get("SCENT_DARKNET_DATA", "/usr/share/darknet/data"))  # Debian package darknet


def _attr_list(values):
    return {"list": {"i": [str(v) for v in values]}}


def _write_model(tmp_path: Path, nodes: list[dict], weights: list[tuple[str, np.ndarray, str | None]]) -> Path:
    """A TF.js graph model: model.json + one .bin shard; (name, value, quantised dtype or None)."""
    specs, data = [], b""
    for name, value, quant in weights:
        spec = {"name": name, "shape": list(value.shape), "dtype": "int32" if value.dtype.kind == "i" else "float32"}
        if quant:
            spec["quantization"] = {"dtype": quant, "original_dtype": "float32"}
            data += value.astype("<f2").tobytes()
        else:
            data += value.astype("<i4" if value.dtype.kind == "i" else "<f4").tobytes()
        specs.append(spec)
    (tmp_path / "tiny.bin").write_bytes(data)
    consts = [{"name": name, "op": "Const", "attr": {}} for name, _, _ in weights]
    model = {"format": "graph-model", "modelTopology": {"node": consts + nodes},
             "weightsManifest": [{"paths": ["tiny.bin"], "weights": specs}]}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(model))
    return path


def _placeholder(shape):
    return {"name": "x", "op": "Placeholder",
            "attr": {"dtype": {"type": "DT_FLOAT"}, "shape": {"shape": {"dim": [{"size": str(s)} for s in shape]}}}}


def _run(path: Path, x: np.ndarray, output: str) -> np.ndarray:
    nodes, weights = detect.read_graph(path)
    session = runtime.session(detect.to_onnx(nodes, weights, ["x"], [output]))
    return session.run([output], {"x": x})[0]


def test_fused_1x1_conv_with_relu6(tmp_path):
    # out[pixel, o] = min(max(sum_i x[pixel, i] * w[i, o] + b[o], 0), 6), worked out by hand.
    x = np.array([[[[1, 2, 3], [0, -1, 4]]]], dtype=np.float32)  # 1x1x2x3, NHWC
    w = np.array([[[[1, 0.5], [1, -1], [1, 2]]]], dtype=np.float32)  # 1x1x3x2, HWIO
    b = np.array([0.5, -1.0], dtype=np.float32)
    conv = {"name": "conv", "op": "_FusedConv2D", "input": ["x", "w", "b"],
            "attr": {"strides": _attr_list([1, 1, 1, 1]), "padding": {"s": "U0FNRQ=="},  # SAME
                     "data_format": {"s": "TkhXQw=="}, "num_args": {"i": "1"},  # NHWC
                     "fused_ops": {"list": {"s": ["Qmlhc0FkZA==", "UmVsdTY="]}}}}  # BiasAdd, Relu6
    # pixel 1: 1+2+3+0.5 = 6.5 -> 6;   0.5-2+6-1 = 3.5
    # pixel 2: 0-1+4+0.5 = 3.5;        0+1+8-1 = 8 -> 6
    path = _write_model(tmp_path, [_placeholder(x.shape), conv], [("w", w, None), ("b", b, "float16")])
    out = _run(path, x, "conv")
    np.testing.assert_allclose(out, [[[[6.0, 3.5], [3.5, 6.0]]]], rtol=1e-6)


def test_depthwise_conv_channel_order_and_add(tmp_path):
    # TensorFlow's depthwise output channel c * multiplier + m is x[..., c] * w[0, 0, c, m].
    x = np.array([[[[2, 3]]]], dtype=np.float32)  # 1x1x1x2
    w = np.array([[[[1, 10], [100, 1000]]]], dtype=np.float32)  # 1x1x2x2: multiplier 2
    y = np.array([1, 1, 1, 1], dtype=np.float32)
    nodes = [_placeholder(x.shape),
             {"name": "dw", "op": "DepthwiseConv2dNative", "input": ["x", "w"],
              "attr": {"strides": _attr_list([1, 1, 1, 1]), "padding": {"s": "VkFMSUQ="}}},  # VALID
             {"name": "out", "op": "AddV2", "input": ["dw", "y"]}]
    path = _write_model(tmp_path, nodes, [("w", w, None), ("y", y, None)])
    np.testing.assert_allclose(_run(path, x, "out"), [[[[3, 21, 301, 3001]]]])


def test_unsupported_op_is_named(tmp_path):
    nodes = [_placeholder([1, 2]), {"name": "odd", "op": "Erf", "input": ["x"]}]
    path = _write_model(tmp_path, nodes, [])
    g, w = detect.read_graph(path)
    with pytest.raises(ValueError, match="Erf"):
        detect.to_onnx(g, w, ["x"], ["odd"])


def test_decode_picks_3x3_peaks():
    heat = np.zeros((4, 4, 2), dtype=np.float32)
    heat[1, 1, 0], heat[1, 2, 0] = 0.9, 0.8  # 0.8 is beside a higher cell of its class: not a peak
    heat[1, 2, 1] = 0.5  # another class in the same cell: a peak
    wh = np.zeros((4, 4, 4), dtype=np.float32)
    wh[1, 1] = [1, 2, 3, 4]
    rows = detect.decode(heat, wh, min_score=0.3)
    # centre (x, y) = (1, 1) * STRIDE 4 = (4, 4): box (4-1, 4-2, 4+3, 4+4)
    np.testing.assert_allclose(rows, [[0.9, 0, 3, 2, 7, 8], [0.5, 1, 8, 4, 8, 4]], rtol=1e-6)


def test_nms_is_class_agnostic_greedy():
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 20, 30, 30], [0, 0, 10, 10]], dtype=float)
    scores = np.array([0.9, 0.8, 0.5, 0.1])
    # box 1 overlaps box 0 by 90/110 = 0.82 > 0.4: dropped; box 3 is under min_score
    assert detect.nms(boxes, scores, iou=0.4, min_score=0.3) == [0, 2]
    assert detect.nms(boxes, scores, iou=0.9, min_score=0.3) == [0, 1, 2]
    assert detect.nms(boxes, scores, iou=0.4, min_score=0.3, limit=1) == [0]


def test_counted():
    found = [detect.Detection("horse", 0.7, (0, 0, 1, 1)), detect.Detection("person", 0.6, (0, 0, 1, 1)),
             detect.Detection("horse", 0.5, (0, 0, 1, 1))]
    assert detect.counted(found) == [("horse", 2), ("person", 1)]


def test_missing_weights_warn_once_and_detect_nothing(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("SCENT_MODELS", str(tmp_path))
    detect._model.forget()
    image = Image.new("RGB", (64, 48), "white")
    try:
        with caplog.at_level(logging.WARNING, logger="scent.detect"):
            assert not detect.available()
            assert detect.detect(image) == []
            assert detect.detect(image) == []
    finally:
        detect._model.forget()  # the next test loads the real weights
    assert len([r for r in caplog.records if "fetch_models.sh" in r.getMessage()]) == 1


# ---- the real model on real photos ------------------------------------------------------------

@pytest.fixture(scope="module")
def real():
    if not (detect.models_dir() / f"{detect.MODEL}.json").is_file():
        pytest.skip(f"no detector weights in {detect.models_dir()} (run scripts/fetch_models.sh)")
    detect._model.forget()
    assert detect.available()
    return detect


def _labels(found):
    return [d.label for d in found]


@pytest.mark.slow
@pytest.mark.parametrize("sample, expected", [("chelsea", "cat"), ("coffee", "cup"), ("astronaut", "person")])
def test_scikit_image_samples(real, sample, expected):
    skimage_data = pytest.importorskip("skimage.data")
    image = Image.fromarray(getattr(skimage_data, sample)())
    found = real.detect(image)
    assert found and found[0].label == expected, found
    w, h = image.size
    for d in found:
        x0, y0, x1, y1 = d.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert d.score >= real.MIN_SCORE


@pytest.mark.slow
def test_nothing_in_the_rocket_photo(real):
    skimage_data = pytest.importorskip("skimage.data")
    assert real.detect(Image.fromarray(skimage_data.rocket())) == []


@pytest.mark.slow
@pytest.mark.parametrize("photo, expected", [
    ("dog", {"dog": 1, "bicycle": 1, "car": 1}), ("eagle", {"bird": 1}), ("giraffe", {"giraffe": 1, "zebra": 1}),
    ("horses", {"horse": 3}), ("kite", {"kite": 2, "person": 3}), ("person", {"person": 1, "dog": 1})])
def test_darknet_photos(real, photo, expected):
    path = DARKNET / f"{photo}.jpg"
    if not path.is_file():
        pytest.skip(f"{path} absent (Debian package darknet)")
    with Image.open(path) as image:
        counts = dict(real.counted(real.detect(image)))
    for label, at_least in expected.items():
        assert counts.get(label, 0) >= at_least, counts
