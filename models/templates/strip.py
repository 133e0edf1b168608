#!/usr/bin/env python3
"""Strips a template GLB down to what template fitting reads: the meshes, skins and nodes.

The library (src/skeleton/carry/library.rs) keeps each template's skeleton and skinned body and
nothing else, yet the files are compiled into the page's wasm: their clips and textures only
weighed on it. This drops animations, images, textures, samplers and material texture
references, then every accessor and buffer view left unreferenced, and writes the GLB back
with the remaining binary data packed. Geometry, skins and node transforms stay byte for byte.

    python3 models/templates/strip.py models/templates/*.glb
"""

import json
import struct
import sys


def read_glb(path):
    data = open(path, "rb").read()
    magic, version, _ = struct.unpack_from("<III", data, 0)
    if magic != 0x46546C67 or version != 2:
        raise SystemExit(f"{path}: not a binary glTF 2.0 file")
    at, doc, binary = 12, None, b""
    while at < len(data):
        length, kind = struct.unpack_from("<II", data, at)
        chunk = data[at + 8 : at + 8 + length]
        if kind == 0x4E4F534A:
            doc = json.loads(chunk)
        elif kind == 0x004E4942:
            binary = chunk
        at += 8 + length
    return doc, binary


def write_glb(path, doc, binary):
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    total = 12 + 8 + len(text) + (8 + len(binary) if binary else 0)
    out = struct.pack("<III", 0x46546C67, 2, total)
    out += struct.pack("<II", len(text), 0x4E4F534A) + text
    if binary:
        out += struct.pack("<II", len(binary), 0x004E4942) + binary
    open(path, "wb").write(out)


def accessor_uses(doc):
    """Every place an accessor index is stored, as (container, key)."""
    for mesh in doc.get("meshes", []):
        for prim in mesh["primitives"]:
            for key in prim.get("attributes", {}):
                yield prim["attributes"], key
            if "indices" in prim:
                yield prim, "indices"
            for target in prim.get("targets", []):
                for key in target:
                    yield target, key
    for skin in doc.get("skins", []):
        if "inverseBindMatrices" in skin:
            yield skin, "inverseBindMatrices"


def strip(path):
    doc, binary = read_glb(path)
    for key in ("animations", "images", "textures", "samplers"):
        doc.pop(key, None)
    for material in doc.get("materials", []):
        pbr = material.get("pbrMetallicRoughness", {})
        for key in ("baseColorTexture", "metallicRoughnessTexture"):
            pbr.pop(key, None)
        for key in ("normalTexture", "occlusionTexture", "emissiveTexture"):
            material.pop(key, None)
    if "extensionsUsed" in doc:
        doc["extensionsUsed"] = [e for e in doc["extensionsUsed"] if e != "KHR_texture_transform"]
        if not doc["extensionsUsed"]:
            del doc["extensionsUsed"]
    # Accessors still read, renumbered in order.
    uses = list(accessor_uses(doc))
    kept = sorted({c[k] for c, k in uses})
    renumber = {old: new for new, old in enumerate(kept)}
    for container, key in uses:
        container[key] = renumber[container[key]]
    doc["accessors"] = [doc["accessors"][i] for i in kept]
    # Buffer views still read, their bytes packed anew (4-byte aligned).
    views = sorted({a["bufferView"] for a in doc["accessors"] if "bufferView" in a})
    packed, moved = b"", {}
    for new, old in enumerate(views):
        view = doc["bufferViews"][old]
        if view.get("buffer", 0) != 0:
            raise SystemExit(f"{path}: data outside the GLB's own buffer")
        start = view.get("byteOffset", 0)
        packed += b"\0" * (-len(packed) % 4)
        view = dict(view, byteOffset=len(packed))
        packed += binary[start : start + view["byteLength"]]
        moved[old] = (new, view)
    doc["bufferViews"] = [moved[old][1] for old in views]
    for accessor in doc["accessors"]:
        if "bufferView" in accessor:
            accessor["bufferView"] = moved[accessor["bufferView"]][0]
    doc["buffers"] = [{"byteLength": len(packed)}]
    write_glb(path, doc, packed)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        strip(path)
