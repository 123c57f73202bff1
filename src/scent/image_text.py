"""Image-text models (CLIP-style): pictures and queries embedded in one space, so a query meets a
picture's pixels, not only the words scent wrote about them (scent.describe).

None ships with scent, and nothing is downloaded. A model is a package of the user's own that
registers it under the entry-point group `scent.image_text_models`, e.g. in its pyproject.toml:

    [project.entry-points."scent.image_text_models"]
    clip = "my_clip:LocalClip"     # a class, or a function of no arguments, returning the model

and `image_text_model = "clip"` (the setting) then indexes every picture unit with it too.
"""
from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Protocol

import numpy as np
from PIL import Image

from .errors import ScentError, UsageError

GROUP = "scent.image_text_models"
# Pictures reach the model with their longest side at most this: CLIP-family models look at
# 224-448 px, so more only costs memory (a batch of embed_batch pictures is held at once).
MAX_SIDE = 512


class ImageTextModel(Protocol):
    model_id: str  # stored beside the picture vectors; an index refuses another model's
    dim: int

    def embed_images(self, images: list[Image.Image]) -> np.ndarray: ...  # (n, dim), L2-normalised
    def embed_texts(self, texts: list[str]) -> np.ndarray: ...


def installed() -> dict[str, EntryPoint]:
    """The models installed here, by name."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def check_name(name: str) -> None:
    """Raise UsageError, in one line that lists what is installed, unless `name` is installed ("" is none)."""
    if name and name not in installed():
        names = ", ".join(sorted(installed())) or f"none (a package registers one under the entry-point group {GROUP})"
        raise UsageError(f"unknown image_text_model {name!r}; installed: {names}")


def load(name: str) -> ImageTextModel:
    check_name(name)
    if not name:
        raise UsageError("no image_text_model named; set image_text_model to one that is installed")
    target = installed()[name].load()
    # The entry point names a class or factory; an instance made at import time is used as it is.
    return target if hasattr(target, "embed_images") and not isinstance(target, type) else target()


def prepared(image: Image.Image, side: int = MAX_SIDE) -> Image.Image:
    """The picture as RGB with its longest side at most `side`: what every model is given."""
    image = image.convert("RGB") if image.mode != "RGB" else image
    image.thumbnail((side, side))  # in place; never enlarges
    return image


def checked(model: ImageTextModel, vectors, n: int) -> np.ndarray:
    """The model's output as an (n, dim) float32 matrix, rows L2-normalised; a wrong shape is
    the model's fault and says so."""
    m = np.asarray(vectors, dtype=np.float32)
    if m.shape != (n, model.dim):
        raise ScentError(f"image_text_model {model.model_id} returned vectors of shape {m.shape}, "
                         f"expected ({n}, {model.dim})")
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1, norms)
