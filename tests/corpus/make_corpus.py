#!/usr/bin/env python3
"""Writes the corpus of broken and unusual input files next to this script.

Each file exercises one way real files go wrong; tests/corpus.rs lists what rigkit must say
about each. Run `python3 tests/corpus/make_corpus.py` after changing this script and commit
the files it writes (they are small).
"""
import base64
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def floats(*v):
    return struct.pack("<%df" % len(v), *v)


TRIANGLE = floats(0, 0, 0, 1, 0, 0, 0, 1, 0)


def gltf(buffer, accessors, views=None, primitive=None, extra=None, uri=None):
    """A one-mesh document whose only buffer holds `buffer` (as a data URI unless `uri`)."""
    doc = {
        "asset": {"version": "2.0"},
        "buffers": [{
            "byteLength": len(buffer),
            "uri": uri or "data:application/octet-stream;base64," + base64.b64encode(buffer).decode(),
        }],
        "bufferViews": views or [{"buffer": 0, "byteLength": len(buffer)}],
        "accessors": accessors,
        "meshes": [{"primitives": [primitive or {"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0,
    }
    doc.update(extra or {})
    return json.dumps(doc, indent=1)


def positions(count, view=0, offset=0):
    return {"bufferView": view, "byteOffset": offset, "componentType": 5126, "count": count,
            "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}


def glb(json_bytes, bin_bytes=b"", version=2, length=None):
    json_bytes += b" " * (-len(json_bytes) % 4)
    body = struct.pack("<II", len(json_bytes), 0x4E4F534A) + json_bytes
    if bin_bytes:
        bin_bytes += b"\0" * (-len(bin_bytes) % 4)
        body += struct.pack("<II", len(bin_bytes), 0x004E4942) + bin_bytes
    total = 12 + len(body)
    return b"glTF" + struct.pack("<II", version, length if length is not None else total) + body


ok_doc = gltf(TRIANGLE, [positions(3)]).encode()

write("empty.glb", b"")
write("wrong-magic.glb", b"GLTF" + glb(ok_doc)[4:])
write("truncated-header.glb", glb(ok_doc)[:8])
write("length-lies.glb", glb(ok_doc, length=100000))
chunk = bytearray(glb(ok_doc))
chunk[12:16] = struct.pack("<I", 0x7FFFFFF0)
write("chunk-past-end.glb", bytes(chunk))
write("glb-version-1.glb", glb(ok_doc, version=1))
write("bad-json.gltf", '{"asset": {"version": "2.0"}, "meshes": [')
write("invalid-reference.gltf", gltf(TRIANGLE, [positions(3)], primitive={"attributes": {"POSITION": 7}}))
write("view-past-buffer.gltf", gltf(TRIANGLE, [positions(3)], views=[{"buffer": 0, "byteOffset": 12, "byteLength": 36}]))
write("accessor-past-view.gltf", gltf(TRIANGLE, [positions(4)]))
write("index-out-of-range.gltf", gltf(
    TRIANGLE + struct.pack("<3H", 0, 1, 9) + b"\0\0",
    [positions(3), {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}],
    views=[{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
    primitive={"attributes": {"POSITION": 0}, "indices": 1}))
write("nan-position.gltf", gltf(floats(0, 0, 0, float("nan"), 0, 0, 0, 1, 0), [positions(3)]))
write("infinite-position.gltf", gltf(floats(0, 0, 0, 1, 0, 0, 0, float("inf"), 0), [positions(3)]))
write("points-only.gltf", gltf(TRIANGLE, [positions(3)], primitive={"attributes": {"POSITION": 0}, "mode": 0}))
write("zero-extent.gltf", gltf(floats(*([0.5, 0.5, 0.5] * 3)), [positions(3)]))
write("missing-bin.gltf", gltf(TRIANGLE, [positions(3)], uri="missing.bin"))
write("bad-data-uri.gltf", gltf(TRIANGLE, [positions(3)], uri="data:application/octet-stream;base64,@@@@"))
write("float-joints.gltf", gltf(
    TRIANGLE + floats(*([0, 0, 0, 0] * 3)) + floats(*([1, 0, 0, 0] * 3)) + floats(*([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])),
    [positions(3),
     {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC4"},
     {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
     {"bufferView": 3, "componentType": 5126, "count": 1, "type": "MAT4"}],
    views=[{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 48},
           {"buffer": 0, "byteOffset": 84, "byteLength": 48}, {"buffer": 0, "byteOffset": 132, "byteLength": 64}],
    primitive={"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}},
    extra={"nodes": [{"mesh": 0, "skin": 0}, {"name": "root"}], "scenes": [{"nodes": [0, 1]}],
           "skins": [{"joints": [1], "inverseBindMatrices": 3}]}))
write("joint-out-of-range.gltf", gltf(
    TRIANGLE + struct.pack("<12H", *([5, 0, 0, 0] * 3)) + floats(*([1, 0, 0, 0] * 3)),
    [positions(3),
     {"bufferView": 1, "componentType": 5123, "count": 3, "type": "VEC4"},
     {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"}],
    views=[{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 24},
           {"buffer": 0, "byteOffset": 60, "byteLength": 48}],
    primitive={"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}},
    extra={"nodes": [{"mesh": 0, "skin": 0}, {"name": "root"}], "scenes": [{"nodes": [0, 1]}],
           "skins": [{"joints": [1]}]}))
write("node-cycle.gltf", gltf(TRIANGLE, [positions(3)], extra={
    "nodes": [{"mesh": 0}, {"children": [2]}, {"children": [1]}]}))
write("draco-required.gltf", gltf(TRIANGLE, [positions(3)], extra={
    "extensionsUsed": ["KHR_draco_mesh_compression"], "extensionsRequired": ["KHR_draco_mesh_compression"]}))
# A usable file with a line primitive beside the triangles: imports with a warning.
write("lines-and-triangles.gltf", json.dumps({
    **json.loads(gltf(TRIANGLE, [positions(3)])),
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}, {"attributes": {"POSITION": 0}, "mode": 1}]}],
}))
write("model.fbx", b"Kaydara FBX Binary  \0")


def fbx_node(name, values=b"", count=0, children=b"", start=27):
    """A binary FBX 7.4 node record at byte `start` (end offset, value count, value bytes)."""
    head = 13 + len(name)
    body = values + children + (b"\0" * 13 if children else b"")
    return struct.pack("<IIIB", start + head + len(body), count, len(values), len(name)) + name + body


FBX_HEADER = b"Kaydara FBX Binary  \0\x1a\0" + struct.pack("<I", 7400)
# A node whose end offset points past the end of the file.
write("node-past-end.fbx", FBX_HEADER + struct.pack("<IIIB", 100000, 0, 0, 7) + b"Objects")
# An array that says it holds 4 billion doubles.
write("huge-array.fbx", FBX_HEADER + fbx_node(b"Vertices", b"d" + struct.pack("<III", 0xFFFFFFF0, 0, 0), 1))
# Every zero byte turned into a space, as a text-mode copy does.
write("spaces-for-zeros.fbx", (FBX_HEADER + fbx_node(b"Objects")).replace(b"\0", b" "))
write("unclosed.fbx", '; FBX 7.4.0 project file\nObjects:  {\n\tModel: 1, "Model::a", "Mesh" {\n')
write("no-geometry.fbx", '; FBX 7.4.0 project file\nObjects:  {\n\tModel: 1, "Model::a", "Null" {\n\t}\n}\n')
DAE_HEAD = '<?xml version="1.0"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">\n'
write("unclosed.dae", DAE_HEAD + "<asset><up_axis>Z_UP</up_axis>\n")
write("no-scene.dae", DAE_HEAD + "<asset/></COLLADA>\n")
write("missing-source.dae", DAE_HEAD + """<library_geometries><geometry id="g"><mesh>
<vertices id="v"><input semantic="POSITION" source="#nowhere"/></vertices>
<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene></COLLADA>
""")
write("unknown-joint.dae", DAE_HEAD + """<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
<technique_common><accessor source="#pa" count="3" stride="3"/></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
</mesh></geometry></library_geometries>
<library_controllers><controller id="c"><skin source="#g">
<source id="j"><Name_array id="ja" count="1">Ghost</Name_array></source>
<source id="w"><float_array id="wa" count="1">1</float_array></source>
<joints><input semantic="JOINT" source="#j"/></joints>
<vertex_weights count="3"><input semantic="JOINT" source="#j" offset="0"/><input semantic="WEIGHT" source="#w" offset="1"/>
<vcount>1 1 1</vcount><v>0 0 0 0 0 0</v></vertex_weights>
</skin></controller></library_controllers>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_controller url="#c"/></node></visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene></COLLADA>
""")
write("empty.obj", "# nothing here\n")
write("face-out-of-range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n")
write("nan.obj", "v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n")
write("truncated.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n}\nMOTION\nFrames: 3\nFrame Time: 0.1\n0 0 0\n1 1\n")
write("bad-channel.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 1 Wrotation\n}\nMOTION\nFrames: 0\nFrame Time: 0.1\n")
