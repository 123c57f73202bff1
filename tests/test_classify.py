"""The ImageNet classifier (scent.classify): weights read without torch, labels on real photos."""
import sys

import numpy as np
import pytest
from PIL import Image

from scent import classify
from scent.describe import describe

skimage_data = pytest.importorskip("skimage.data")


@pytest.fixture(scope="module")
def state():
    return classify.read_state_dict(classify.weights_path())


def test_weights_are_read_without_torch(state):
    assert "torch" not in sys.modules
    assert len(state) == 296
    assert state["_conv_stem.weight"].shape == (32, 3, 3, 3)
    assert state["_blocks.0._depthwise_conv.weight"].shape == (32, 1, 3, 3)
    assert state["_blocks.1._expand_conv.weight"].shape == (96, 16, 1, 1)
    assert state["_blocks.15._project_conv.weight"].shape == (320, 1152, 1, 1)
    assert state["_conv_head.weight"].shape == (1280, 320, 1, 1)
    assert state["_fc.weight"].shape == (1000, 1280)
    assert state["_fc.bias"].shape == (1000,)
    assert {a.dtype for k, a in state.items() if not k.endswith("num_batches_tracked")} == {np.dtype(np.float32)}
    # Values as torch.load gives them (the stem's storage is not in NCHW order: strides matter).
    assert state["_conv_stem.weight"][0, 0, 0, 0] == pytest.approx(-1.1103360652923584)
    assert state["_fc.bias"][0] == pytest.approx(0.032053910195827484)
    var = state["_bn0.running_var"]
    assert (var >= 0).all() and var.max() > 1


def test_unpickler_refuses_code(tmp_path):
    import pickle

    class Evil:
        def __reduce__(self):
            return (print, ("boom",))

    path = tmp_path / "evil.pth"
    with open(path, "wb") as f:
        for part in (0x1950A86A20F9469CFC6C, 1001, {"little_endian": True}, {"x": Evil()}):
            pickle.dump(part, f, protocol=2)
    with pytest.raises(pickle.UnpicklingError):
        classify.read_state_dict(path)


def test_class_names():
    names = classify.class_names()
    assert len(names) == 1000 and len(set(names)) == 1000
    assert names[281] == "tabby" and names[967] == "espresso"
    assert classify.plain_words("Chihuahua") == ["dog"]
    assert "lighthouse" in classify.plain_words("beacon")


def test_wordnet_words_for_classes():
    # ImageNet class ids are WordNet 3.0 noun offsets: n02417914 is data.noun's line 02417914.
    ibex = classify.synset("ibex")
    assert ibex.id == "n02417914" and ibex.words == ("ibex", "Capra ibex")
    assert ibex.gloss == "wild goat of mountain areas of Eurasia and northern Africa having large recurved horns"
    assert ibex.hypernyms[:2] == ("wild goat", "goat")
    # The class names alone are ambiguous: the id list says which synset (the seed, not the tree).
    buckeye = classify.synset("buckeye")
    assert buckeye.id == "n12768682" and "horse chestnut" in buckeye.words
    assert classify.synset("tabby").gloss == "a cat with a grey or tawny coat mottled with black"
    assert classify.synset("crane bird").hypernyms[0] == "wading bird"
    assert classify.synset("not a class") is None
    # Every class has one, in class order; usage examples are cut from glosses.
    entries = [classify.synset(n) for n in classify.class_names()]
    assert [e.id for e in entries] == sorted(e.id for e in entries)
    assert all(e.gloss and '"' not in e.gloss for e in entries)


def test_description_says_wordnet_words(monkeypatch):
    from scent import describe as d
    monkeypatch.setattr(classify, "labels", lambda image, top, min_prob: [("buckeye", 0.6), ("ibex", 0.2)])
    monkeypatch.setattr(d, "WORDNET_GLOSSES", 1)
    monkeypatch.setattr(d, "WORDNET_HYPERNYMS", 1)
    assert d._objects(Image.new("RGB", (8, 8)), 0.15, "a photo of ") == [
        "a photo of a buckeye", "ibex", "horse chestnut", "conker", "the inedible nutlike seed of the horse chestnut",
        "seed", "Capra ibex"]  # ibex at 0.2: its synonym, not its gloss or hypernyms (WORDNET_MIN_PROB)


def _top(array: np.ndarray) -> list[str]:
    return [name for name, _ in classify.labels(Image.fromarray(array), top=3, min_prob=0.0)]


def test_cat_photo():
    assert {"tabby", "tiger cat", "Egyptian cat"} & set(_top(skimage_data.chelsea()))


def test_coffee_photo():
    assert {"espresso", "cup", "coffee mug"} & set(_top(skimage_data.coffee()))


def test_labels_are_probabilities_most_likely_first():
    found = classify.labels(Image.fromarray(skimage_data.coffee()), top=5, min_prob=0.01)
    probs = [p for _, p in found]
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.0001
    assert found[0][0] == "espresso" and found[0][1] > 0.5


def test_description_of_a_photo_names_what_it_shows():
    words = describe(Image.fromarray(skimage_data.chelsea()))
    # Read as its centre and both ends (451x300 is wider than 1.2:1): Egyptian cat 0.53, tiger
    # cat 0.26, tabby 0.16 (the centre crop alone: tiger cat first, at 0.38).
    assert words.startswith("photo, ") and "a photo of an Egyptian cat" in words
    assert "tiger cat" in words.split(", ") and "cat" in words.split(", ")
    assert "tabby cat" in words.split(", ")  # WordNet's synonym of tabby
    assert "a domestic cat of Egypt" in words.split(", ")  # the gloss of a label at least 0.5 sure
    coffee = describe(Image.fromarray(skimage_data.coffee())).split(", ")
    # Sure of it (0.95): WordNet's gloss and hypernyms too.
    assert "strong black coffee brewed by forcing hot water under pressure through finely ground coffee beans" in coffee
    assert "beverage" in coffee


def test_charts_and_pages_get_no_object_words():
    page = Image.new("RGB", (600, 800), "white")
    assert "a photo of" not in describe(page) and "a drawing of" not in describe(page)


def test_describe_works_without_the_classifier(monkeypatch):
    monkeypatch.setattr(classify._model, "get", lambda: None)
    assert classify.labels(Image.fromarray(skimage_data.coffee())) == []
    words = describe(Image.fromarray(skimage_data.coffee()))
    assert words.startswith("photo, ") and "a photo of" not in words


def test_detected_things_are_said_as_a_search_would():
    from scent.describe import _say
    assert [_say("cat", 1), _say("horse", 3), _say("person", 2), _say("couch", 1), _say("bus", 2)] == [
        "a cat", "three horses", "two people, men, women or children", "a couch, sofa", "two buses"]
    assert _say("umbrella", 1) == "an umbrella" and _say("sheep", 12) == "many sheep"


def test_description_says_what_the_detector_found():
    from scent import detect
    if not detect.available():
        pytest.skip("detector weights absent (scripts/fetch_models.sh)")
    words = describe(Image.fromarray(skimage_data.astronaut())).split(", ")
    assert words[:2] == ["photo", "a person"]


def test_detected_people_and_animals_get_their_colour(monkeypatch):
    from scent import detect
    from scent.describe import _things
    # A red-shirted person (torso: the box's middle, a third down) and a dark grey dog on white.
    image = Image.new("RGB", (400, 300), "white")
    image.paste((200, 20, 20), (40, 60, 140, 160))
    image.paste((60, 60, 60), (220, 150, 380, 280))
    found = [detect.Detection("person", 0.8, (40.0, 20.0, 140.0, 280.0)),
             detect.Detection("dog", 0.6, (220.0, 150.0, 380.0, 280.0)),
             detect.Detection("cup", 0.5, (0.0, 0.0, 30.0, 30.0))]
    monkeypatch.setattr(detect, "detect", lambda image, min_score: found)
    assert _things(image, 0.3) == ["a person, a man, woman or child", "a dog", "a cup", "a man or woman in red",
                                   "a black dog"]
    # No colour is said when none covers enough of the thing: four colours, a quarter each, in the
    # middle of the dog's box (its middle half: x 260-340, y 182-248).
    quarters = Image.new("RGB", (400, 300), "white")
    for i, colour in enumerate(((20, 20, 200), (20, 200, 20), (230, 230, 20), (200, 20, 20))):
        x, y = 260 + 40 * (i % 2), 182 + 33 * (i // 2)
        quarters.paste(colour, (x, y, x + 40, y + 33))
    monkeypatch.setattr(detect, "detect", lambda image, min_score: found[1:2])
    assert _things(quarters, 0.3) == ["a dog"]


@pytest.mark.slow
def test_wordnet_words_bring_plain_queries_to_the_picture(monkeypatch):
    # The cases: a photo the classifier calls "ibex" is sought as a mountain goat, a
    # "buckeye" as horse chestnuts. With the label alone the description ranked 134th and 48th of
    # photo-captions' 400 by meaning; with WordNet's words, first (measured in docs/retrieval-tuning.md).
    from scent import describe as d
    from scent.embed import get_embedder

    embedder = get_embedder()
    for query, name in (("mountain goat with curved horns climbing rocks", "ibex"),
                        ("horse chestnuts in their spiky shells", "buckeye")):
        monkeypatch.setattr(classify, "labels", lambda image, top, min_prob: [(name, 0.6)])
        after = "photo, " + ", ".join(d._objects(Image.new("RGB", (4, 4)), 0.15, "a photo of "))
        q = embedder.embed_queries([query])[0]
        before, now = embedder.embed_passages([f"photo, a photo of a {name}", after]) @ q
        assert now > before + 0.03, (query, before, now)


def test_crops_of_wide_tall_and_square_pictures():
    # The centre crop takes 224/256 of the shorter side: 200 -> 175 pixels.
    assert classify.crops(Image.new("RGB", (400, 200))) == [
        (112.5, 12.5, 287.5, 187.5), (0, 0, 200, 200), (200, 0, 400, 200)]
    assert classify.crops(Image.new("RGB", (200, 400))) == [
        (12.5, 112.5, 187.5, 287.5), (0, 0, 200, 200), (0, 200, 200, 400)]
    assert classify.crops(Image.new("RGB", (230, 200))) == [(27.5, 12.5, 202.5, 187.5)]  # 1.15:1, one crop
