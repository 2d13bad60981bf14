"""Differential check of vit.h's decoders against PIL: mutates the files of
tests/data/images (byte changes, bit flips, cuts, insertions), decodes each
with PIL (Image.open(f).convert('RGB')) and with vit.h (tools/decode_images.c),
and counts, per format: both decode and agree / both decode and DIFFER / only
one decodes / both refuse. Only "DIFFER" is a silent error.

    cc -O1 -g -fsanitize=address,undefined -I. tools/decode_images.c -o build/decode_images -lm
    python3 tools/diff_images_pil.py [seed] [count]     # files in build/diff_images/
"""
import os, sys, random, subprocess, io, glob, collections
import numpy as np
from PIL import Image
import warnings; warnings.filterwarnings("ignore")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
Image.MAX_IMAGE_PIXELS = 1 << 26
src = sorted(f for f in glob.glob(os.path.join(ROOT, 'tests/data/images/*')) if f.rsplit('.',1)[-1] in ('bmp','pbm','pgm','ppm','gif','tga','png'))
rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
d = os.path.join(ROOT, 'build/diff_images')
os.makedirs(d, exist_ok=True)
for f in glob.glob(d + '/*'): os.remove(f)
files = []
for i in range(N):
    s = rnd.choice(src); b = bytearray(open(s, 'rb').read())
    for _ in range(rnd.choice([1, 1, 2, 3, 5])):
        if not b: break
        r = rnd.random(); k = rnd.randrange(len(b))
        if r < 0.5 and k < 64 or r < 0.2: b[min(k, len(b)-1) if r > 0.1 else rnd.randrange(min(len(b), 64))] = rnd.randrange(256)
        elif r < 0.7: b[k] ^= 1 << rnd.randrange(8)
        elif r < 0.8: del b[k:k + rnd.randrange(1, 8)]
        elif r < 0.9: b = b[:k]
        else: b[k:k] = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 5)))
    if not b: b = bytearray(b'P')
    p = f'{d}/{i}.{s.rsplit(".",1)[-1]}'; open(p, 'wb').write(b); files.append(p)
open(d + '/list', 'w').write('\n'.join(files) + '\n')
out = subprocess.run([os.path.join(ROOT, 'build/decode_images'), os.path.join(ROOT, 'tests/data/preprocess/pad40/model.safetensors'), d + '/list', d], capture_output=True, text=True, errors='replace')
if out.returncode: print('dec_tool failed', out.stderr[-2000:]); sys.exit(1)
res = {}
for line in out.stdout.splitlines():
    try: i, st, w, h, *msg = line.split(' ', 4); res[int(i)] = (int(st), int(w), int(h), msg[0] if msg else '')
    except Exception: pass
stats = collections.Counter(); examples = collections.defaultdict(list)
for i, p in enumerate(files):
    ext = p.rsplit('.', 1)[-1]
    try:
        im = Image.open(p); im.load(); rgb = np.asarray(im.convert('RGB')); pil_ok = True
    except Exception as e:
        pil_ok = False; perr = type(e).__name__
    st, w, h, msg = res[i]
    if pil_ok and st == 0:
        mine = np.fromfile(f'{d}/{i}.rgb', np.uint8)
        if rgb.shape[:2] == (h, w) and mine.size == rgb.size and (mine.reshape(rgb.shape) == rgb).all(): stats[ext, 'both ok, equal'] += 1
        else:
            md = np.abs(mine.reshape(rgb.shape).astype(int) - rgb).max() if mine.size == rgb.size else -1
            stats[ext, 'both ok, DIFFER'] += 1; examples[ext, 'differ'].append((p, md, im.format, im.mode))
    elif pil_ok: stats[ext, 'PIL ok, vit refuses'] += 1; examples[ext, 'vit refuses'].append((p, msg[:90]))
    elif st == 0: stats[ext, 'vit ok, PIL refuses'] += 1; examples[ext, 'pil refuses'].append((p, perr))
    else: stats[ext, 'both refuse'] += 1
for k in sorted(stats): print(k, stats[k])
for k in sorted(examples):
    print(k, examples[k][:4])
