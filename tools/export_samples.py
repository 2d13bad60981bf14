#!/usr/bin/env python3
"""Export one Fashion-MNIST test image per class as a 28x28 8-bit grayscale PNG.

For each class 0..9 takes the first test-set image of that class and writes
<out>/<test index, 4 digits>_<label slug>.png, e.g. 0003_dress.png, plus <out>/labels.txt with
one line per image, sorted by file name:

    <file> <class id> <label name>

(the label name is the rest of the line and may contain spaces, e.g. "Ankle boot").
The PNG pixels are the raw dataset bytes (lossless), so pixel / 255 reproduces the model input.

Usage: python3 tools/export_samples.py [--data DIR] [--out examples/images]
"""

import argparse
import os
import re
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_fashion_mnist import FILES, LABEL_NAMES, read_idx  # noqa: E402


def slug(name):
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist",
                    help="folder with the Fashion-MNIST idx .gz files")
    ap.add_argument("--out", default="examples/images")
    args = ap.parse_args()

    images = read_idx(os.path.join(args.data, FILES["test_images"]))
    labels = read_idx(os.path.join(args.data, FILES["test_labels"]))
    assert images.shape == (10000, 28, 28) and labels.shape == (10000,)

    os.makedirs(args.out, exist_ok=True)
    rows = []
    for k, name in enumerate(LABEL_NAMES):
        idx = int(np.flatnonzero(labels == k)[0])
        fname = f"{idx:04d}_{slug(name)}.png"
        path = os.path.join(args.out, fname)
        Image.fromarray(np.ascontiguousarray(images[idx])).save(path, optimize=True)
        # verify the round trip is lossless
        back = np.asarray(Image.open(path))
        assert back.shape == (28, 28) and back.dtype == np.uint8 and np.array_equal(back, images[idx]), path
        rows.append((fname, k, name))
    rows.sort()
    with open(os.path.join(args.out, "labels.txt"), "w") as f:
        for fname, k, name in rows:
            f.write(f"{fname} {k} {name}\n")
    for fname, k, name in rows:
        print(f"{fname} {k} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
