"""A sharded Hugging Face model written by transformers itself, for test_errors:
tests/data/ref/hf_dinov2 (a Dinov2Model) loaded and saved again with
save_pretrained(max_shard_size="10KB"), which writes
model-0000K-of-0000N.safetensors and model.safetensors.index.json. vit.h must
load the folder and give the same output, bit for bit, as hf_dinov2's single
model.safetensors.

    python3 tools/make_sharded_reference.py   # writes tests/data/sharded/hf_dinov2_sharded/
"""
import os, shutil
import transformers

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "tests", "data", "ref", "hf_dinov2")
OUT = os.path.join(HERE, "..", "tests", "data", "sharded", "hf_dinov2_sharded")


def main():
    model = transformers.Dinov2Model.from_pretrained(SRC)
    shutil.rmtree(OUT, ignore_errors=True)
    model.save_pretrained(OUT, max_shard_size="10KB", safe_serialization=True)
    shutil.copy(os.path.join(SRC, "preprocessor_config.json"), OUT)
    names = sorted(os.listdir(OUT))
    assert "model.safetensors.index.json" in names and not os.path.exists(os.path.join(OUT, "model.safetensors")), names
    print("wrote", OUT, names, "transformers", transformers.__version__)


if __name__ == "__main__":
    main()
