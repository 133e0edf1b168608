#!/usr/bin/env python3
"""Writes the seeds of the structure-aware `glb_json` target: each GLB or glTF file given
becomes its JSON text, a zero byte and its binary chunk (a glTF's first buffer, decoded from
its data URI, moves into the binary chunk).

    python3 tests/fuzz/make_seeds.py [FILE.glb|FILE.gltf ...]

Without files it reads tests/corpus/*.glb and *.gltf. The committed seeds also hold a
low-poly figure of six boxes rigged by rigkit (`rigkit rig figure.obj --template humanoid`,
the same walking, and rigged by default with rig-human).
"""
import base64
import glob
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "seeds", "glb_json")
# libFuzzer mutates small inputs far faster; a larger file adds little a small one lacks.
MAX_BYTES = 64 * 1024


def split_glb(data):
    """The JSON and binary chunks of a GLB (None when it is not one)."""
    if len(data) < 20 or data[:4] != b"glTF":
        return None
    json_len = struct.unpack_from("<I", data, 12)[0]
    json_text = data[20 : 20 + json_len]
    rest = data[20 + json_len :]
    bin_chunk = rest[8:] if len(rest) >= 8 else b""
    return json_text.rstrip(b" "), bin_chunk


def split_gltf(text):
    """A glTF's JSON with its first data-URI buffer moved to a binary chunk."""
    doc = json.loads(text)
    buffers = doc.get("buffers") or []
    uri = buffers[0].get("uri", "") if buffers else ""
    if not uri.startswith("data:") or "," not in uri:
        return text, b""
    del buffers[0]["uri"]
    return json.dumps(doc, separators=(",", ":")).encode(), base64.b64decode(uri.split(",", 1)[1])


def main(files):
    os.makedirs(OUT, exist_ok=True)
    for path in files:
        data = open(path, "rb").read()
        parts = split_glb(data)
        if parts is None:
            try:
                parts = split_gltf(data)
            except (ValueError, UnicodeDecodeError):
                continue  # a broken glTF: the plain `glb` target has it
        seed = parts[0] + b"\0" + parts[1]
        if b"\0" in parts[0] or len(seed) > MAX_BYTES:
            continue
        name = os.path.splitext(os.path.basename(path))[0]
        open(os.path.join(OUT, name), "wb").write(seed)
        print(f"{name}: {len(seed)} bytes")


if __name__ == "__main__":
    corpus = os.path.join(HERE, "..", "corpus")
    main(sys.argv[1:] or sorted(glob.glob(os.path.join(corpus, "*.gl*"))))
