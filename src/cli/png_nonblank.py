#!/usr/bin/env python3
"""png_nonblank.py FILE.png [MIN_FRACTION]: exit 0 when at least MIN_FRACTION
(default 0.01) of the pixels are not white and there are several colours; 1
otherwise (a blank or failed render). Standard library only: decodes 8-bit
RGB/RGBA/grey PNGs (what chromium's --screenshot writes)."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or interlace != 0 or ctype not in (0, 2, 4, 6):
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path = sys.argv[1]
    need = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    width, height, bpp, rows = pixels(path)
    colours, nonwhite = set(), 0
    channels = min(bpp, 3)
    for line in rows:
        for x in range(0, width * bpp, bpp):
            px = line[x:x + channels]
            if px != b"\xff" * channels:
                nonwhite += 1
            if len(colours) < 64:
                colours.add(px)
    frac = nonwhite / float(width * height)
    print(f"{path}: {width}x{height}, {frac:.1%} non-white, {len(colours)}+ colours")
    return 0 if frac >= need and len(colours) >= 4 else 1


if __name__ == "__main__":
    sys.exit(main())
