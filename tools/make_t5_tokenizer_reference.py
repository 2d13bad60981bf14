"""Reference for a T5Tokenizer folder as transformers 5 saves it (tokenizer.json +
tokenizer_config.json, no spiece.model): tests/data/tokenizers/t5_json/expected.txt,
the ids of AutoTokenizer.from_pretrained(folder)(text, truncation=True,
max_length=64) for each string of corpus.txt (the test pads them with the pad id).

    /tmp/tfenv/bin/python3 tools/make_t5_tokenizer_reference.py   # after make_openclip_tokenizer_reference.py

The folder is openclip_siglip's tokenizer files (T5TokenizerFast from siglip_a's
spiece.model, extra_ids=0, legacy=False, pad </s>) without open_clip_config.json:
transformers' own pipeline, no open_clip cleaning. The test reads them from there.
"""
import os, shutil, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_openclip_tokenizer_reference import read_corpus, OUT


def main():
    from transformers import AutoTokenizer
    tmp = "/tmp/vit_t5_json"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(os.path.join(OUT, "openclip_siglip", f), tmp)
    tok = AutoTokenizer.from_pretrained(tmp)
    assert type(tok).__name__ == "T5Tokenizer", type(tok)
    texts = read_corpus(os.path.join(OUT, "corpus.txt"))
    context, pad = 64, tok.pad_token_id
    lines = ["context %d pad %d" % (context, pad)]
    for s in texts:
        ids = tok(s, truncation=True, max_length=context)["input_ids"]
        padded = tok(s, padding="max_length", truncation=True, max_length=context)["input_ids"]
        assert padded == ids + [pad] * (context - len(ids)), s
        lines.append(" ".join(str(i) for i in ids))
    os.makedirs(os.path.join(OUT, "t5_json"), exist_ok=True)
    with open(os.path.join(OUT, "t5_json", "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("t5_json: %d strings through %s, pad %d" % (len(texts), type(tok).__name__, pad))


if __name__ == "__main__":
    main()
