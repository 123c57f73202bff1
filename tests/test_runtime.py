"""Models scent converts to ONNX itself are converted once and kept (scent.runtime.converted_session)."""
import logging

import numpy as np
import pytest

from scent import runtime

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")


def _doubling_model() -> bytes:
    """y = x + x, for a 1x2 float input."""
    h = onnx.helper
    graph = h.make_graph([h.make_node("Add", ["x", "x"], ["y"])], "double",
                         [h.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 2])],
                         [h.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 2])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
    model.ir_version = 8
    return model.SerializeToString()


def _run(sess) -> list[float]:
    return sess.run(["y"], {"x": np.array([[1.5, -2.0]], dtype=np.float32)})[0][0].tolist()


def _never():
    raise AssertionError("converted again although a converted model was kept")


def test_converted_once_then_loaded(tmp_path):
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"v1")
    calls = []

    def convert():
        calls.append(1)
        return _doubling_model()

    assert _run(runtime.converted_session("double", [weights], convert)) == [3.0, -4.0]
    kept = runtime.converted_path("double", [weights])
    assert kept.is_file() and calls == [1]
    assert _run(runtime.converted_session("double", [weights], _never)) == [3.0, -4.0]


def test_new_weights_are_converted_and_the_old_file_goes(tmp_path):
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"v1")
    runtime.converted_session("double", [weights], _doubling_model)
    old = runtime.converted_path("double", [weights])
    weights.write_bytes(b"v2, longer")
    new = runtime.converted_path("double", [weights])
    assert new != old
    runtime.converted_session("double", [weights], _doubling_model)
    assert new.is_file() and not old.exists()


def test_a_damaged_cached_model_is_converted_again(tmp_path, caplog):
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"v1")
    kept = runtime.converted_path("double", [weights])
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"not an onnx model")
    with caplog.at_level(logging.WARNING, logger="scent.runtime"):
        assert _run(runtime.converted_session("double", [weights], _doubling_model)) == [3.0, -4.0]
    assert "converting it again" in caplog.text
    assert _run(runtime.converted_session("double", [weights], _never)) == [3.0, -4.0]


def test_a_home_that_cannot_be_written_still_gets_a_model(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SCENT_HOME", str(blocker / "home"))  # mkdir under a file fails
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"v1")
    assert _run(runtime.converted_session("double", [weights], _doubling_model)) == [3.0, -4.0]
    assert not list(tmp_path.glob("**/*.onnx"))
