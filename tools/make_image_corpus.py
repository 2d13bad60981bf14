"""Odd images of the real world, made small, and what Pillow + timm make of them,
for tests/test_images.c (transparency, orientation, 16-bit, RLE,
plain PNM, hostile headers).

    python3 tools/make_image_corpus.py   # writes tests/data/images/

For every file PIL decodes, manifest.txt has `ok <file> <w> <h>` and beside the
file: <file>.rgb (h, w, 3) uint8, Image.open(f).convert('RGB'); <file>.pad40.u8
(3, 40, 40) timm's eval transform of that image (the `pad40` config of
tests/data/preprocess: bicubic, crop_pct 1.2, zero padding) before
ToTensor/Normalize; <file>.gray28.u8 (1, 28, 28) the `gray28` config's of
convert('L'). Files vit.h refuses: `refuse <file> <vit status> <what PIL does>`. WebP files
(`hook <file> <w> <h>`, with <file>.pad40.u8) are checked by examples/webp_hook.c.
Deterministic; the BMP, PNM, GIF and TGA variants PIL cannot write are
written byte by byte here.
"""
import io, os, struct, zlib
import numpy as np
from PIL import Image
import timm.data
from torchvision import transforms

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "images")
W, H = 13, 9
rng = np.random.default_rng(21)
RGB = rng.integers(0, 256, (H, W, 3), dtype=np.uint8)
IDX = rng.integers(0, 16, (H, W), dtype=np.uint8)
PAL16 = [tuple(int(v) for v in rng.integers(0, 256, 3)) for _ in range(16)]
files = {}  # name -> (bytes, expected: "ok" or "refuse <STATUS> <pil>")


def add(name, data, expect="ok"):
    files[name] = (bytes(data), expect)


# ---- PNG: 16-bit (PIL: I;16 clipped at 255 by convert, RGB/LA/RGBA high byte), palettes
def png(w, h, ct, bd, rows, extra=b""):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    raw = b"".join(b"\0" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bd, ct, 0, 0, 0)) + extra
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


g16 = rng.integers(0, 65536, (H, W)).astype(np.uint16)
g16[:, :4] = rng.integers(0, 300, (H, 4))  # values PIL keeps (< 255) and clips (>= 255)
add("gray16.png", png(W, H, 0, 16, [r.astype(">u2").tobytes() for r in g16]))
add("rgb16.png", png(W, H, 2, 16, [r.astype(">u2").tobytes() for r in rng.integers(0, 65536, (H, W * 3)).astype(np.uint16)]))
add("la16.png", png(W, H, 4, 16, [r.astype(">u2").tobytes() for r in rng.integers(0, 65536, (H, W * 2)).astype(np.uint16)]))
add("rgba16.png", png(W, H, 6, 16, [r.astype(">u2").tobytes() for r in rng.integers(0, 65536, (H, W * 4)).astype(np.uint16)]))
add("gray2.png", png(W, H, 0, 2, [np.packbits(np.unpackbits(IDX[y:y + 1] % 4, axis=0)[-2:].T.reshape(-1)).tobytes() for y in range(H)]))
d = bytearray(files["gray2.png"][0]); i = d.index(b"IDAT") - 4; d[i:i + 4] = (0x70000000).to_bytes(4, "big")
add("idat_past_end.png", d, "refuse IMAGE_DECODE refuses")  # stb_image would first grow a buffer to 2 GB
# a broken checksum: in a chunk before the image data PIL refuses the file, after it PIL does not look
def with_bad_crc(data, ctype):
    d = bytearray(data); i = d.index(ctype); n = int.from_bytes(d[i - 4:i], "big"); d[i + 4 + n] ^= 1
    return bytes(d)
text = png(W, H, 2, 8, [r.tobytes() for r in RGB], extra=struct.pack(">I", 3) + b"tEXtk\0v" + struct.pack(">I", zlib.crc32(b"tEXtk\0v")))
add("bad_crc_ihdr.png", with_bad_crc(text, b"IHDR"), "refuse IMAGE_DECODE refuses")
add("bad_crc_text.png", with_bad_crc(text, b"tEXt"), "refuse IMAGE_DECODE refuses")
# the zlib stream: its Adler-32 (stb_image does not check it, zlib does), stored/fixed/dynamic blocks from
# several flushes with a small window, the stream cut into 7-byte IDAT chunks
def png_z(w, h, ct, rows, z, idat_size=None):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    idat_size = idat_size or max(1, len(z))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ct, 0, 0, 0))
            + b"".join(chunk(b"IDAT", z[i:i + idat_size]) for i in range(0, len(z), idat_size)) + chunk(b"IEND", b""))
raw = b"".join(b"\0" + r.tobytes() for r in RGB)
z = bytearray(zlib.compress(raw)); z[-1] ^= 1
add("bad_adler.png", png_z(W, H, 2, RGB, bytes(z)), "refuse IMAGE_DECODE refuses")
c = zlib.compressobj(9, zlib.DEFLATED, 9)
z = c.compress(raw[:40]) + c.flush(zlib.Z_FULL_FLUSH)
c2 = zlib.compressobj(0, zlib.DEFLATED, -9)  # a stored block in the middle, raw deflate spliced in
mid = c2.compress(raw[40:100]) + c2.flush(zlib.Z_SYNC_FLUSH)
c3 = zlib.compressobj(9, zlib.DEFLATED, -9, 9, zlib.Z_FIXED)
tail = c3.compress(raw[100:]) + c3.flush()
adler = struct.pack(">I", zlib.adler32(raw))
add("zlib_blocks.png", png_z(W, H, 2, RGB, z + mid + tail + adler, 7))
add("bad_crc_idat.png", with_bad_crc(text, b"IDAT"))
pal_img = Image.fromarray(IDX, "P")
pal_img.putpalette([c for p in PAL16 for c in p])
b = io.BytesIO(); pal_img.save(b, "PNG", transparency=3); add("pal_trns.png", b.getvalue())

# ---- PNM: plain (P1-P3) with comments, raw with odd maxvals, 1-bit PBM
def pnm_plain(magic, maxval, vals, w=W, h=H, sep=b" "):
    head = b"%s\n# a comment\n%d %d\n" % (magic, w, h) + (b"%d\n" % maxval if maxval else b"")
    body = b""
    for i, v in enumerate(vals):
        body += b"%d" % v + (b"\n" if i % 17 == 16 else sep)
    return head + body


add("plain.pbm", pnm_plain(b"P1", 0, (IDX.reshape(-1) % 2)))
add("plain_nospace.pbm", b"P1 %d %d\n" % (W, H) + b"".join(b"%d" % v for v in IDX.reshape(-1) % 2) + b"\n#end\n")
add("plain.pgm", pnm_plain(b"P2", 255, RGB[..., 0].reshape(-1)))
add("plain_max100.pgm", pnm_plain(b"P2", 100, (RGB[..., 0].reshape(-1).astype(int) * 100) // 255))
add("plain_max1000.pgm", pnm_plain(b"P2", 1000, [0, 1, 2, 3] + [int(v) for v in rng.integers(0, 1001, W * H - 4)]))
add("plain.ppm", pnm_plain(b"P3", 255, RGB.reshape(-1)))
add("plain_max7.ppm", pnm_plain(b"P3", 7, RGB.reshape(-1) % 8))
add("raw.pbm", b"P4\n%d %d\n" % (W, H) + np.packbits(IDX % 2, axis=1).tobytes())
add("max100.pgm", b"P5\n%d %d\n100\n" % (W, H) + (RGB[..., 1] % 101).tobytes())
add("max65535.pgm", b"P5 %d %d 65535\n" % (W, H) + g16.astype(">u2").tobytes())
add("max1000.pgm", b"P5 %d %d 1000\n" % (W, H) + np.minimum(g16 // 60, 1000).astype(">u2").tobytes())
add("max65535.ppm", b"P6 %d %d 65535\n" % (W, H) + rng.integers(0, 65536, (H, W, 3)).astype(">u2").tobytes())
add("max300.ppm", b"P6 %d %d 300\n" % (W, H) + rng.integers(0, 301, (H, W, 3)).astype(">u2").tobytes())
add("max50.ppm", b"P6 #c\n%d %d 50\n" % (W, H) + (RGB % 51).tobytes())
add("over_maxval.pgm", b"P2 2 1 100\n50 101\n", "refuse IMAGE_DECODE refuses")
add("truncated.ppm", b"P6 4 4 255\n" + bytes(40), "refuse IMAGE_DECODE refuses")
add("badchar.pbm", b"P1 2 1\n0 2\n", "refuse IMAGE_DECODE refuses")
add("huge.ppm", b"P6 999999999 999999999 255\n" + bytes(16), "refuse LIMIT refuses")
add("no_space.ppm", b"P63 1 255\n" + bytes(3), "refuse IMAGE_DECODE refuses")

# ---- BMP: palettes (1/4/8-bit, OS/2, top-down, out-of-range index), RLE4/RLE8, 16/24/32-bit variants
def bmp(w, h, bits, comp, pal, data, hs=40, colors=None, topdown=False, masks=None, offset=None):
    if colors is None:
        colors = len(pal)
    if hs == 12:
        hdr = struct.pack("<IHHHH", 12, w, h, 1, bits)
        pb = b"".join(bytes([b, g, r]) for r, g, b in pal)
    else:
        hdr = struct.pack("<IiiHHIIiiII", hs, w, -h if topdown else h, 1, bits, comp, len(data), 2835, 2835, colors, 0)
        if hs > 40:
            hdr += struct.pack("<IIII", *(masks or (0, 0, 0, 0))) + bytes(hs - 56)
        elif masks:
            hdr += struct.pack("<III", *masks[:3])
        pb = b"".join(bytes([b, g, r, 0]) for r, g, b in pal)
    off = 14 + len(hdr) + len(pb) if offset is None else offset
    return b"BM" + struct.pack("<IHHI", 14 + len(hdr) + len(pb) + len(data), 0, 0, off) + hdr + pb + data


def rows(a, bits, topdown=False):
    out = b""
    for r in (a if topdown else a[::-1]):
        if bits < 8:
            r = np.packbits(np.unpackbits(r.astype(np.uint8)[:, None], axis=1)[:, 8 - bits:].reshape(-1)).tobytes()
        else:
            r = r.tobytes()
        out += r + bytes(-len(r) % 4)
    return out


add("pal8.bmp", bmp(W, H, 8, 0, PAL16, rows(IDX, 8)))
add("pal8_topdown.bmp", bmp(W, H, 8, 0, PAL16, rows(IDX, 8, True), topdown=True))
add("pal4.bmp", bmp(W, H, 4, 0, PAL16, rows(IDX, 4)))
add("pal4_topdown.bmp", bmp(W, H, 4, 0, PAL16, rows(IDX, 4, True), topdown=True))
add("pal1.bmp", bmp(W, H, 1, 0, PAL16[:2], rows(IDX % 2, 1)))
add("pal1_bw.bmp", bmp(W, H, 1, 0, [(0, 0, 0), (255, 255, 255)], rows(IDX % 2, 1)))
add("gray8_identity.bmp", bmp(W, H, 8, 0, [(i, i, i) for i in range(256)], rows(RGB[..., 0], 8)))
add("os2_pal8.bmp", bmp(W, H, 8, 0, PAL16, rows(IDX, 8), hs=12))
add("os2_pal4.bmp", bmp(W, H, 4, 0, PAL16, rows(IDX, 4), hs=12))
add("os2_24.bmp", bmp(W, H, 24, 0, [], rows(RGB[..., ::-1].reshape(H, -1), 8), hs=12))
oor = IDX.copy(); oor[0, :6] = [4, 5, 100, 200, 255, 3]
add("pal8_out_of_range.bmp", bmp(W, H, 8, 0, PAL16[:4], rows(oor, 8)))
add("pal8_short_palette_colors.bmp", bmp(W, H, 8, 0, PAL16[:5], rows(oor, 8), colors=5))
add("pal24_with_palette.bmp", bmp(W, H, 24, 0, PAL16, rows(RGB[..., ::-1].reshape(H, -1), 8), colors=16))
px16 = rng.integers(0, 65536, (H, W)).astype("<u2")
add("rgb555.bmp", bmp(W, H, 16, 0, [], rows(px16.view(np.uint8).reshape(H, -1), 8), colors=0))
add("rgb565_bitfields.bmp", bmp(W, H, 16, 3, [], rows(px16.view(np.uint8).reshape(H, -1), 8), colors=0, masks=(0xF800, 0x7E0, 0x1F)))
add("rgb555_bitfields_v4.bmp", bmp(W, H, 16, 3, [], rows(px16.view(np.uint8).reshape(H, -1), 8), colors=0, hs=108, masks=(0x7C00, 0x3E0, 0x1F, 0)))
px32 = rng.integers(0, 256, (H, W, 4), dtype=np.uint8)
add("bgrx32.bmp", bmp(W, H, 32, 0, [], rows(px32.reshape(H, -1), 8), colors=0))
add("xbgr32_bitfields.bmp", bmp(W, H, 32, 3, [], rows(px32.reshape(H, -1), 8), colors=0, masks=(0xFF000000, 0xFF0000, 0xFF00)))
add("rgba32_v5.bmp", bmp(W, H, 32, 3, [], rows(px32.reshape(H, -1), 8), colors=0, hs=124, masks=(0xFF, 0xFF00, 0xFF0000, 0xFF000000)))


def rle8(a):  # runs, an absolute run of odd length, a delta, end of lines, end of bitmap
    out = b""
    for y, r in enumerate(a[::-1]):
        r = list(r)
        if y == 2:
            out += bytes([0, 2, 3, 0])  # delta: 3 zeros
            r = r[3:]
        out += bytes([0, 5]) + bytes(r[:5]) + b"\0"  # absolute run of 5, padded
        i = 5
        while i < len(r):
            n = 1
            while i + n < len(r) and r[i + n] == r[i]:
                n += 1
            out += bytes([n, r[i]])
            i += n
        out += b"\0\0"
    return out + b"\0\1"


def rle4(a):
    out = b""
    for r in a[::-1]:
        r = list(r)
        out += bytes([0, 3, r[0] << 4 | r[1], r[2] << 4, 0])[:4]  # absolute run of 3 nibbles (2 bytes, even)
        i = 3
        while i < len(r):
            n = 2 if i + 1 < len(r) else 1
            out += bytes([n, r[i] << 4 | (r[i + 1] if n == 2 else 0)])
            i += n
        out += b"\0\0"
    return out + b"\0\1"


RUNS = np.repeat(IDX[:, ::3], 3, axis=1)[:, :W]
add("rle8.bmp", bmp(W, H, 8, 1, PAL16, rle8(RUNS)))
add("rle8_topdown.bmp", bmp(W, H, 8, 1, PAL16, rle8(RUNS[::-1]), topdown=True))
add("rle4.bmp", bmp(W, H, 4, 2, PAL16, rle4(RUNS)))
add("rle8_bw.bmp", bmp(4, 1, 8, 1, [(0, 0, 0), (255, 255, 255)], bytes([1, 0, 1, 1, 1, 2, 1, 200, 0, 1])))
add("rle8_gray.bmp", bmp(W, H, 8, 1, [(i, i, i) for i in range(256)], rle8(RUNS * 16)))
add("rle8_early_end.bmp", bmp(4, 2, 8, 1, PAL16, bytes([2, 1, 0, 1])), "refuse IMAGE_DECODE refuses")
add("truncated.bmp", bmp(W, H, 24, 0, [], rows(RGB[..., ::-1].reshape(H, -1), 8))[:-60], "refuse IMAGE_DECODE refuses")
add("jpeg_in.bmp", bmp(W, H, 24, 4, [], bytes(100)), "refuse IMAGE_DECODE refuses")
add("bits2.bmp", bmp(W, H, 2, 0, PAL16[:4], bytes(64)), "refuse IMAGE_DECODE refuses")
add("huge.bmp", bmp(1 << 30, 1 << 30, 24, 0, [], bytes(64)), "refuse LIMIT decompression-bomb")

# ---- GIF: transparency, frames smaller than the screen, disposal, palettes
def lzw(indices, mcs):
    clear, end, cs = 1 << mcs, (1 << mcs) + 1, mcs + 1
    codes, n = [clear], 0
    for i in indices:  # no compression: a clear code before the table would widen the codes
        codes.append(int(i)); n += 1
        if n == (1 << cs) - clear - 3:
            codes.append(clear); n = 0
    codes.append(end)
    acc = nb = 0
    out = bytearray()
    for c in codes:
        acc |= c << nb; nb += cs
        while nb >= 8:
            out.append(acc & 255); acc >>= 8; nb -= 8
    if nb:
        out.append(acc & 255)
    sub = b"".join(bytes([len(out[i:i + 255])]) + out[i:i + 255] for i in range(0, len(out), 255))
    return bytes([mcs]) + sub + b"\0"


def gif(sw, sh, gpal, bg, frames):
    gbits = (len(gpal) - 1).bit_length() - 1 if gpal else 0
    d = b"GIF89a" + struct.pack("<HHBBB", sw, sh, (0x80 | gbits) if gpal else 0, bg, 0) + b"".join(bytes(c) for c in (gpal or []))
    for (x, y, w, h, idx, trans, disp, lpal, mcs) in frames:
        d += b"\x21\xf9\x04" + bytes([(disp << 2) | (trans is not None)]) + b"\x0a\x00" + bytes([trans or 0]) + b"\0"
        lflags = (0x80 | ((len(lpal) - 1).bit_length() - 1)) if lpal else 0
        d += b"\x2c" + struct.pack("<HHHHB", x, y, w, h, lflags) + b"".join(bytes(c) for c in (lpal or [])) + lzw(idx, mcs)
    return d + b";"


P4 = PAL16[:4]
I4 = (IDX % 4).reshape(-1)
sub = (IDX[2:7, 3:10] % 4).reshape(-1)
add("trans.gif", gif(W, H, P4, 2, [(0, 0, W, H, I4, 1, 0, None, 2)]))
add("subframe.gif", gif(W, H, P4, 2, [(3, 2, 7, 5, sub, None, 0, None, 2)]))
add("subframe_trans.gif", gif(W, H, P4, 2, [(3, 2, 7, 5, sub, 3, 0, None, 2)]))
add("disposal_bg.gif", gif(W, H, P4, 2, [(3, 2, 7, 5, sub, 1, 2, None, 2), (0, 0, W, H, I4, None, 0, None, 2)]))
add("disposal_prev.gif", gif(W, H, P4, 1, [(3, 2, 7, 5, sub, 0, 3, None, 2), (0, 0, 2, 2, [0, 1, 2, 3], None, 1, None, 2)]))
add("local_palette.gif", gif(W, H, P4, 0, [(3, 2, 7, 5, sub, 2, 0, PAL16[4:8], 2)]))
add("gray_identity.gif", gif(W, H, [(i, i, i) for i in range(4)], 0, [(0, 0, W, H, I4, 1, 0, None, 2)]))
oor_g = I4.copy(); oor_g[:5] = [4, 9, 200, 255, 17]  # PIL (mode L): gray k past the palette too
add("gray_identity_oor.gif", gif(W, H, [(i, i, i) for i in range(4)], 0, [(0, 0, W, H, oor_g, None, 0, None, 8)]))
add("gray_identity_local_oor.gif", gif(W, H, None, 0, [(3, 2, 7, 5, [k % 5 * 50 for k in range(35)], 1, 0, [(i, i, i) for i in range(8)], 8)]))
# a local identity palette over a global one: PIL's RGB uses the global palette, its L the indices (resized as a palette): refused
add("gray_identity_local_over_global.gif", gif(W, H, P4, 0, [(3, 2, 7, 5, [k % 5 * 50 for k in range(35)], 1, 0, [(i, i, i) for i in range(8)], 8)]),
    "refuse IMAGE_DECODE decodes")
add("gray_identity_local_over_identity.gif", gif(W, H, [(i, i, i) for i in range(4)], 0, [(3, 2, 7, 5, [k % 5 * 50 for k in range(35)], 1, 0, [(i, i, i) for i in range(8)], 8)]))
add("no_global_local16.gif", gif(W, H, None, 0, [(0, 0, W, H, IDX.reshape(-1), 5, 0, PAL16, 4)]))
oor = I4.copy(); oor[:4] = [4, 9, 200, 255]
add("out_of_range.gif", gif(W, H, P4, 0, [(0, 0, W, H, oor, None, 0, None, 8)]))
im = Image.fromarray(RGB).quantize(16)
b = io.BytesIO(); im.save(b, "GIF", interlace=True, transparency=5); add("pil_interlaced_trans.gif", b.getvalue())
add("truncated.gif", gif(4, 4, P4, 0, [(0, 0, 4, 4, list(range(4)) * 4, None, 0, None, 2)])[:-6], "refuse IMAGE_DECODE refuses")  # cut inside its image data
add("frame_past_screen.gif", gif(4, 4, P4, 0, [(2, 2, 4, 4, list(range(4)) * 4, None, 0, None, 2)]))  # PIL enlarges the image
# LZW codes ending before the last pixel: the end code early, or the sub-blocks' end without one (PIL: truncated)
add("lzw_end_early.gif", gif(4, 4, P4, 0, [(0, 0, 4, 4, list(range(4)) * 3, None, 0, None, 2)]), "refuse IMAGE_DECODE refuses")
d = gif(4, 4, P4, 0, [(0, 0, 4, 4, list(range(4)) * 4, None, 0, None, 2)])
i = d.index(b"\x2c") + 10; n = d[i + 1]
cut = bytearray(lzw(list(range(4)) * 3, 2)[2:-1]); cut = cut[:-1] if len(cut) > n else cut  # codes without the end code
add("lzw_no_end.gif", d[:i + 1] + bytes([len(cut)]) + bytes(cut) + b"\0;", "refuse IMAGE_DECODE refuses")
add("descriptor_cut.gif", d[:d.index(b"\x2c") + 6], "refuse IMAGE_DECODE refuses")
add("zero_width.gif", gif(4, 4, P4, 0, [(1, 1, 0, 2, [], None, 0, None, 2)]), "refuse IMAGE_DECODE refuses")
# bytes PIL skips between blocks (stb_image: unknown code)
add("junk_before_frame.gif", d.replace(b"\x2c", b"\x07\x2c", 1))
add("junk_runs.gif", d.replace(b"\x2c", (b"\x00\x05" * 40 + b"\x21\xfe\x01x\x00") * 30 + b"\x2c", 1))  # runs of them between comments
# extensions read as PIL reads them (stb_image reads some otherwise: vit.h leaves them out of its copy): a graphic
# control block of 5 bytes, a comment whose first sub-block is empty (its other sub-blocks then stray bytes), an
# application extension whose first sub-block is empty (PIL reads on to the next empty one); a graphic control
# block of 2 bytes (too short for PIL: refused)
add("gce5.gif", d.replace(b"\x21\xf9\x04", b"\x21\xf9\x05", 1).replace(b"\x00\x2c", b"\x00\x00\x00\x2c", 1))
add("empty_comment.gif", d.replace(b"\x2c", b"\x21\xfe\x00\x03abc\x00\x2c", 1))
add("empty_first_subblock.gif", d.replace(b"\x2c", b"\x21\xff\x00\x02xy\x00\x2c", 1))
add("lzw_size1.gif", gif(4, 4, P4[:2], 0, [(0, 0, 4, 4, [0, 1] * 8, None, 0, None, 1)]), "refuse IMAGE_DECODE decodes")  # the format's least is 2
add("gce2.gif", d.replace(b"\x21\xf9\x04\x00\x0a\x00\x00\x00", b"\x21\xf9\x02\x00\x0a\x00", 1), "refuse IMAGE_DECODE refuses")

# ---- TGA: every origin, raw and RLE; palette; gray
for rle in (False, True):
    for desc, name in ((0x00, "bl"), (0x10, "br"), (0x20, "tl"), (0x30, "tr")):
        b = io.BytesIO(); Image.fromarray(RGB).save(b, "TGA", rle=rle)
        d = bytearray(b.getvalue()); d[17] = (d[17] & ~0x30) | desc
        add(f"{'rle' if rle else 'raw'}_{name}.tga", d)
b = io.BytesIO(); pal_img.save(b, "TGA", rle=True); add("pal_rle.tga", b.getvalue())
b = io.BytesIO(); Image.fromarray(RGB[..., 0]).save(b, "TGA"); d = bytearray(b.getvalue()); d[17] |= 0x10; add("gray_br.tga", d)
# RLE packets across rows: a literal goes on into the next row (and past the last one, ignored), a run is refused (PIL: buffer overrun)
def tga_rle(w, h, packets, desc=0x20):
    return struct.pack("<BBBHHBHHHHBB", 0, 0, 10, 0, 0, 0, 0, 0, w, h, 24, desc) + b"".join(packets)
px = RGB[:3, :4].reshape(-1, 3)[:, ::-1]
lit = lambda a: bytes([len(a) - 1]) + a.tobytes()
add("rle_literal_across_rows.tga", tga_rle(4, 3, [lit(px[:6]), lit(px[6:12]), lit(px[:3])]))
add("rle_run_across_rows.tga", tga_rle(4, 3, [lit(px[:2]), bytes([0x80 | 3]) + px[2].tobytes(), lit(px[6:12])]), "refuse IMAGE_DECODE refuses")
add("cmap_over_256.tga", struct.pack("<BBBHHBHHHHBB", 0, 1, 1, 250, 8, 24, 0, 0, 2, 1, 8, 0x20) + bytes(24) + bytes([250, 251]),
    "refuse IMAGE_DECODE refuses")
add("header_cut.tga", tga_rle(4, 3, [])[:12], "refuse IMAGE_DECODE refuses")
add("gray24.tga", struct.pack("<BBBHHBHHHHBB", 0, 0, 3, 0, 0, 0, 0, 0, 2, 1, 24, 0x20) + bytes(6), "refuse IMAGE_DECODE refuses")  # PIL: no mode

# ---- JPEG: CMYK with Adobe's marker (PIL: inverted CMYK, as stb_image; within the JPEG tolerance), without it (refused)
b = io.BytesIO(); Image.fromarray(np.dstack([RGB, RGB[..., :1]]), "CMYK").save(b, "JPEG", quality=95); d = b.getvalue()
add("cmyk_adobe.jpg", d)
i = d.index(b"\xff\xee")
add("cmyk_no_adobe.jpg", d[:i] + d[i + 2 + int.from_bytes(d[i + 2:i + 4], "big"):], "refuse IMAGE_DECODE decodes")

# tiny 4:2:0 JPEGs: 4 px wide refused (libjpeg-turbo replicates 2-sample chroma rows), 5 px within tolerance
for w, h, expect in ((4, 4, "refuse IMAGE_DECODE decodes"), (5, 3, "ok")):
    b = io.BytesIO(); Image.fromarray(RGB[:h, :w]).save(b, "JPEG", quality=95); add(f"tiny_{w}x{h}_420.jpg", b.getvalue(), expect)

# ---- WebP: vit.h does not decode it; examples/webp_hook.c does, through the decoder hook (`hook` lines)
hooked = {}
b = io.BytesIO(); Image.fromarray(RGB).save(b, "WEBP", lossless=True); hooked["lossless.webp"] = b.getvalue()
rgba = np.dstack([RGB, rng.integers(0, 256, (H, W), dtype=np.uint8)])
b = io.BytesIO(); Image.fromarray(rgba).save(b, "WEBP", lossless=True, exact=True); hooked["alpha_lossless.webp"] = b.getvalue()
add("webp_without_hook.webp", hooked["lossless.webp"], "refuse IMAGE_DECODE decodes")

# ---- the references
def planar(a):
    return np.ascontiguousarray((a if a.ndim == 3 else a[:, :, None]).transpose(2, 0, 1))


pad40 = timm.data.create_transform(input_size=(3, 40, 40), interpolation="bicubic", crop_pct=1.2, crop_mode="center",
                                   mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225))
gray28 = timm.data.create_transform(input_size=(1, 28, 28), interpolation="bilinear", crop_pct=1.0, crop_mode="center",
                                    mean=(0.286,), std=(0.353,))
geo40, geo28 = transforms.Compose(pad40.transforms[:-2]), transforms.Compose(gray28.transforms[:-2])

os.makedirs(OUT, exist_ok=True)
lines = []
for name, (data, expect) in sorted(files.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    try:
        im = Image.open(io.BytesIO(data)); im.load()
        rgb, l = im.convert("RGB"), im.convert("L")
    except Exception as e:  # what PIL does is in the manifest
        assert expect != "ok", (name, e)
        lines.append(f"refuse {name} {expect.split()[1]} PIL: {type(e).__name__}")
        continue
    if expect != "ok":
        lines.append(f"refuse {name} {expect.split()[1]} PIL: decodes ({expect.split()[2]})")
        continue
    np.asarray(rgb).tofile(os.path.join(OUT, name + ".rgb"))
    planar(np.asarray(geo40(rgb), dtype=np.uint8)).tofile(os.path.join(OUT, name + ".pad40.u8"))
    planar(np.asarray(geo28(l), dtype=np.uint8)).tofile(os.path.join(OUT, name + ".gray28.u8"))
    lines.append(f"ok {name} {rgb.size[0]} {rgb.size[1]} {im.mode}")
for name, data in sorted(hooked.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    rgb = Image.open(io.BytesIO(data)).convert("RGB")
    planar(np.asarray(geo40(rgb), dtype=np.uint8)).tofile(os.path.join(OUT, name + ".pad40.u8"))
    lines.append(f"hook {name} {rgb.size[0]} {rgb.size[1]}")
with open(os.path.join(OUT, "manifest.txt"), "w") as f:
    f.write("# made by tools/make_image_corpus.py (Pillow %s, timm %s)\n" % (Image.__version__ if hasattr(Image, "__version__") else __import__("PIL").__version__, timm.__version__))
    f.write("\n".join(lines) + "\n")
print(len(lines), "files")
