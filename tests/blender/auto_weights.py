#!/usr/bin/env python3
"""Blender "automatic weights" (bone heat) reference skinning for rigkit's evaluation characters.

Offline tooling only: this runs Blender as an external program (the `bpy` wheel from PyPI, in a
virtualenv outside the repository) so that rigkit's own skinning can be compared against
Blender's. Nothing of Blender is linked into, or shipped with, rigkit. See README.md beside this
file for the exact command and the pinned version.

For every `.glb` under the input directory (recursively) it:

1. resets Blender to an empty scene and imports the GLB: vertices not merged (each glTF vertex
   stays one Blender vertex, in order), no animation, and the nodes' default pose as the rest
   pose (not a bind pose guessed from the inverse bind matrices); a joint scale, which a Blender
   rest pose cannot hold, is applied as rest; every skinned vertex is then set to where rigkit's
   importer puts it (linear blend skinning of the input at its default pose);
2. for every mesh object with an Armature modifier: deletes all its vertex groups and re-parents
   it to its armature with automatic weights (`parent_set(type='ARMATURE_AUTO')`), recording
   Blender's warnings ("Bone Heat Weighting: failed to find solution for one or more bones",
   vertices left without weight). By default this runs on a copy whose coincident vertices are
   welded (glTF splits vertices along UV seams and hard edges, and on the split mesh bone heat
   fails outright on most files); each vertex then gets the weights of its welded vertex.
   `--weld 0` runs it on the mesh as imported;
3. exports a GLB at the rest pose (skins on, animations, morph targets, normals and textures
   off, every influence kept: `JOINTS_n`/`WEIGHTS_n` sets beyond the first where a vertex has
   more than 4) to the output directory, mirroring the input's relative path. A vertex that
   bone heat left without weight is bound to an extra joint "neutral_bone" by the exporter;
4. checks the export against the input with a small GLB reader (no Blender involved): skinned
   vertices at the default pose must have the same bounding box within 1e-3 of its diagonal;
   it also reports vertex counts and order, nearest-neighbour distances both ways, and joints.

Each file runs in its own child process (with a time limit), so a crash or a hang in Blender on
one file cannot take the whole run down. Per-file lines go to stdout; `timings.json` (seconds of
the automatic-weights step per file) and `report.json` (everything measured) go to the output
directory.

Usage (with the virtualenv's python, which has `bpy`):

    python auto_weights.py [--input DIR] [--output DIR] [--timeout SECONDS] [--weld FRACTION]
"""

import argparse
import contextlib
import ctypes
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DEFAULT_INPUT = "/work/shared/data/eval"
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUTPUT = REPO_ROOT / "target" / "blender-weights"
BBOX_TOLERANCE = 1e-3  # of the input's bounding-box diagonal

# ---------------------------------------------------------------------------------------------
# A minimal GLB reader (positions, skins, node transforms), used to check the export.
# ---------------------------------------------------------------------------------------------

_COMPONENT = {
    5120: np.int8,
    5121: np.uint8,
    5122: np.int16,
    5123: np.uint16,
    5125: np.uint32,
    5126: np.float32,
}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


class Glb:
    def __init__(self, path):
        data = Path(path).read_bytes()
        magic, _version, length = struct.unpack_from("<III", data, 0)
        if magic != 0x46546C67:
            raise ValueError(f"{path}: not a GLB file")
        self.json, self.bin = None, b""
        offset = 12
        while offset + 8 <= length:
            chunk_length, chunk_type = struct.unpack_from("<II", data, offset)
            chunk = data[offset + 8 : offset + 8 + chunk_length]
            offset += 8 + chunk_length
            if chunk_type == 0x4E4F534A:
                self.json = json.loads(chunk)
            elif chunk_type == 0x004E4942:
                self.bin = chunk
        if self.json is None:
            raise ValueError(f"{path}: no JSON chunk")
        used = set(self.json.get("extensionsUsed", []))
        if used & {"KHR_draco_mesh_compression", "EXT_meshopt_compression"}:
            raise ValueError(f"{path}: compressed geometry is not supported by this checker")

    def _view(self, view_index, byte_offset, dtype, width, count):
        view = self.json["bufferViews"][view_index]
        if view.get("buffer", 0) != 0 or self.json["buffers"][0].get("uri"):
            raise ValueError("only the GLB's own binary chunk is supported")
        start = view.get("byteOffset", 0) + byte_offset
        stride = view.get("byteStride") or dtype.itemsize * width
        return np.ndarray(
            (count, width), dtype=dtype, buffer=self.bin, offset=start,
            strides=(stride, dtype.itemsize),
        ).copy()

    def accessor(self, index, normalize=True):
        a = self.json["accessors"][index]
        dtype = np.dtype(_COMPONENT[a["componentType"]]).newbyteorder("<")
        width, count = _WIDTH[a["type"]], a["count"]
        if "bufferView" in a:
            values = self._view(a["bufferView"], a.get("byteOffset", 0), dtype, width, count)
        else:
            values = np.zeros((count, width), dtype)
        sparse = a.get("sparse")
        if sparse:
            idx = sparse["indices"]
            idx_dtype = np.dtype(_COMPONENT[idx["componentType"]]).newbyteorder("<")
            rows = self._view(idx["bufferView"], idx.get("byteOffset", 0), idx_dtype, 1,
                              sparse["count"])[:, 0]
            val = sparse["values"]
            values[rows] = self._view(val["bufferView"], val.get("byteOffset", 0), dtype, width,
                                      sparse["count"])
        if not normalize or dtype.kind == "f":
            return values
        out = values.astype(np.float64)
        if a.get("normalized"):
            out /= np.iinfo(dtype).max
            if dtype.kind == "i":
                out = np.maximum(out, -1.0)
        return out

    def node_worlds(self):
        nodes = self.json.get("nodes", [])
        local = [_node_matrix(n) for n in nodes]
        parent = [None] * len(nodes)
        for i, n in enumerate(nodes):
            for c in n.get("children", []):
                parent[c] = i
        world = [None] * len(nodes)

        def resolve(i):
            if world[i] is None:
                world[i] = local[i] if parent[i] is None else resolve(parent[i]) @ local[i]
            return world[i]

        for i in range(len(nodes)):
            resolve(i)
        return world

    def mesh_vertices(self, also_named=()):
        """Rest-pose world positions of the skinned meshes' vertices, posed as rigkit's importer
        poses them (linear blend skinning at the nodes' default pose, primitives concatenated
        in order), and the vertex counts of the unskinned mesh nodes named in also_named
        (Blender exports a mesh that ended up with no weight at all without a skin).

        Returns ({mesh node name: positions (N, 3) or None when unskinned}, {name: vertex
        count}, unweighted vertex count, joint names of the skins used)."""
        nodes = self.json.get("nodes", [])
        world = self.node_worlds()
        chunks, counts, unweighted, joint_names = {}, {}, 0, set()
        for index, node in enumerate(nodes):
            if "mesh" not in node:
                continue
            # Blender's object name for a mesh node: the node's, else the mesh's, else Mesh_<i>.
            mesh = self.json["meshes"][node["mesh"]]
            name = node.get("name") or mesh.get("name") or f"Mesh_{node['mesh']}"
            if "skin" not in node:
                if name not in also_named:
                    continue
                chunks[name] = None
                for prim in self.json["meshes"][node["mesh"]]["primitives"]:
                    count = self.json["accessors"][prim["attributes"]["POSITION"]]["count"]
                    counts[name] = counts.get(name, 0) + count
                continue
            skin = self.json["skins"][node["skin"]]
            joints = skin["joints"]
            # Blender names an unnamed node "Node_<index>" (rigkit: "joint<index>").
            joint_names.update(nodes[j].get("name") or f"Node_{j}" for j in joints)
            if "inverseBindMatrices" in skin:
                ibm = self.accessor(skin["inverseBindMatrices"]).reshape(-1, 4, 4)
                ibm = ibm.transpose(0, 2, 1).astype(np.float64)  # column-major
            else:
                ibm = np.repeat(np.eye(4)[None], len(joints), axis=0)
            mats = np.stack([world[j] @ ibm[k] for k, j in enumerate(joints)])
            for prim in self.json["meshes"][node["mesh"]]["primitives"]:
                attrs = prim["attributes"]
                pos = self.accessor(attrs["POSITION"]).astype(np.float64)
                blend = np.zeros((len(pos), 4, 4))
                total = np.zeros(len(pos))
                s = 0
                while f"JOINTS_{s}" in attrs and f"WEIGHTS_{s}" in attrs:
                    j = self.accessor(attrs[f"JOINTS_{s}"], normalize=False).astype(np.int64)
                    w = self.accessor(attrs[f"WEIGHTS_{s}"]).astype(np.float64)
                    for k in range(4):
                        blend += w[:, k, None, None] * mats[j[:, k]]
                        total += w[:, k]
                    s += 1
                ok = total > 1e-8
                unweighted += int((~ok).sum())
                blend[ok] /= total[ok, None, None]
                # No usable weight: at a rest pose where every joint's (world x inverse bind)
                # is the same matrix, use it; otherwise leave the vertex where it is (as
                # rigkit's importer does).
                same = np.abs(mats - mats[0]).max() <= 1e-5 * max(1.0, np.abs(mats[0]).max())
                blend[~ok] = mats[0] if same else np.eye(4)
                homo = np.concatenate([pos, np.ones((len(pos), 1))], axis=1)
                chunks.setdefault(name, []).append(np.einsum("nij,nj->ni", blend, homo)[:, :3])
                counts[name] = counts.get(name, 0) + len(pos)
        positions = {k: None if v is None else np.concatenate(v) for k, v in chunks.items()}
        return positions, counts, unweighted, sorted(joint_names)


def _node_matrix(node):
    if "matrix" in node:
        return np.array(node["matrix"], dtype=np.float64).reshape(4, 4).T
    t = np.array(node.get("translation", [0, 0, 0]), dtype=np.float64)
    x, y, z, w = node.get("rotation", [0, 0, 0, 1])
    s = np.array(node.get("scale", [1, 1, 1]), dtype=np.float64)
    r = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])
    m = np.eye(4)
    m[:3, :3] = r * s[None, :]
    m[:3, 3] = t
    return m


def _nearest_distances(a, b, chunk=2048):
    """For every point of a, the distance to the nearest point of b (brute force, chunked)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(len(a))
    out = np.empty(len(a))
    b2 = (b * b).sum(axis=1)
    for start in range(0, len(a), chunk):
        part = a[start : start + chunk]
        d2 = (part * part).sum(axis=1)[:, None] - 2 * part @ b.T + b2[None, :]
        out[start : start + chunk] = np.sqrt(np.maximum(d2.min(axis=1), 0.0))
    return out


def compare(input_path, output_path):
    src, dst = Glb(input_path), Glb(output_path)
    mesh_in, counts_in, unweighted_in, joints_in = src.mesh_vertices()
    mesh_out, counts_out, unweighted_out, joints_out = dst.mesh_vertices(also_named=counts_in)
    common = [n for n in mesh_in if mesh_out.get(n) is not None]
    p_in = np.concatenate([mesh_in[n] for n in common]) if common else np.zeros((0, 3))
    p_out = np.concatenate([mesh_out[n] for n in common]) if common else np.zeros((0, 3))
    if len(p_in) == 0:
        raise RuntimeError("no skinned mesh of the input came out skinned")
    lo_in, hi_in = p_in.min(axis=0), p_in.max(axis=0)
    lo_out, hi_out = p_out.min(axis=0), p_out.max(axis=0)
    diagonal = float(np.linalg.norm(hi_in - lo_in))
    bbox_error = float(max(np.abs(lo_in - lo_out).max(), np.abs(hi_in - hi_out).max()))
    nn_out_to_in = _nearest_distances(p_out, p_in)
    nn_in_to_out = _nearest_distances(p_in, p_out)
    # Same vertex order: same count and the i-th vertices coincide, mesh by mesh.
    same_order = {
        n: bool(len(mesh_in[n]) == len(mesh_out[n])
                and np.abs(mesh_in[n] - mesh_out[n]).max() <= 1e-5 * diagonal)
        for n in common
    }
    return {
        "vertices_in": int(sum(counts_in.values())),
        "vertices_out": int(sum(counts_out.get(n, 0) for n in counts_in)),
        "same_vertex_order": same_order,
        "meshes_without_skin_out": sorted(n for n in counts_in if n in counts_out
                                          and mesh_out.get(n) is None),
        "meshes_missing_out": sorted(n for n in counts_in if n not in counts_out),
        "vertices_per_mesh_in": counts_in,
        "vertices_per_mesh_out": counts_out,
        "bbox_in": [lo_in.tolist(), hi_in.tolist()],
        "bbox_out": [lo_out.tolist(), hi_out.tolist()],
        "bbox_diagonal": diagonal,
        "bbox_error_rel": bbox_error / diagonal if diagonal > 0 else 0.0,
        "bbox_ok": bbox_error <= BBOX_TOLERANCE * diagonal,
        "nearest_out_to_in_max_rel": float(nn_out_to_in.max() / diagonal) if diagonal else 0.0,
        "nearest_in_to_out_max_rel": float(nn_in_to_out.max() / diagonal) if diagonal else 0.0,
        "unweighted_in": unweighted_in,
        "unweighted_out": unweighted_out,
        "joints_in": len(joints_in),
        "joints_out": len(joints_out),
        "joints_missing_in_out": sorted(set(joints_in) - set(joints_out)),
        "joints_extra_in_out": sorted(set(joints_out) - set(joints_in)),
    }


# ---------------------------------------------------------------------------------------------
# The Blender part (child process, one file).
# ---------------------------------------------------------------------------------------------

@contextlib.contextmanager
def captured_output():
    """Capture everything written to fds 1 and 2 (Blender's C code and Python alike)."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    sys.stderr.flush()
    libc.fflush(None)
    saved = os.dup(1), os.dup(2)
    box = {"text": ""}
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        os.dup2(tmp.fileno(), 2)
        try:
            yield box
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            libc.fflush(None)
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            tmp.seek(0)
            box["text"] = tmp.read().decode("utf-8", errors="replace")


def _problems(text):
    """The warning and error lines of a captured log, without the glTF add-on's timestamps."""
    keys = ("warning", "error", "failed", "cannot", "can't")
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if len(line) > 11 and line[2] == ":" and line[5] == ":" and line[8:11] == " | ":
            line = line[11:]
        if line and any(k in line.lower() for k in keys) and line not in lines:
            lines.append(line)
    return lines


# The exporter runs Mesh.validate(), which clamps the bone-heat weights that come out a few
# 1e-6 above 1.0, and then says the mesh "is not valid": harmless here.
_BENIGN = ("is not valid, and may be exported wrongly",)


def _set_rest_positions(ob, gltf_world):
    """Set ob's vertices to gltf_world (glTF's Y-up world frame, in Blender's vertex order,
    which merge_vertices=False keeps). Returns the largest move as a fraction of the mesh's
    bounding-box diagonal, or None when the vertices do not pair up."""
    if gltf_world is None or len(gltf_world) != len(ob.data.vertices):
        return None
    blender_world = np.stack(
        [gltf_world[:, 0], -gltf_world[:, 2], gltf_world[:, 1]], axis=1)  # Y-up -> Z-up
    to_local = np.array(ob.matrix_world.inverted_safe())
    local = blender_world @ to_local[:3, :3].T + to_local[:3, 3]
    old = np.empty(len(local) * 3)
    ob.data.vertices.foreach_get("co", old)
    old = old.reshape(-1, 3)
    diagonal = float(np.linalg.norm(local.max(axis=0) - local.min(axis=0))) or 1.0
    moved = float(np.linalg.norm(local - old, axis=1).max()) / diagonal
    if moved > 0.05:  # not the same vertices in the same order: leave them alone
        return None
    ob.data.vertices.foreach_set("co", local.ravel())
    ob.data.update()
    return moved


def _welded_copy(ob, relative_distance):
    """A copy of ob (same parent, transform and modifiers) whose coincident vertices (closer
    than relative_distance x its bounding-box diagonal) are welded. Returns (copy, vertices)."""
    import bmesh
    import bpy

    work = ob.copy()
    work.data = ob.data.copy()
    work.name = ob.name + ".welded"
    for collection in ob.users_collection:
        collection.objects.link(work)
    work.vertex_groups.clear()
    if work.data.shape_keys:
        work.shape_key_clear()
    co = np.empty(len(work.data.vertices) * 3)
    work.data.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    diagonal = float(np.linalg.norm(co.max(axis=0) - co.min(axis=0))) if len(co) else 0.0
    bm = bmesh.new()
    bm.from_mesh(work.data)
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=relative_distance * diagonal)
    bm.to_mesh(work.data)
    bm.free()
    bpy.context.view_layer.update()
    return work, len(work.data.vertices)


def _transfer_weights(source, target):
    """Give each vertex of target all the weights of the nearest vertex of source (its welded
    self). Returns the largest distance between the vertices so paired."""
    from mathutils.kdtree import KDTree

    tree = KDTree(len(source.data.vertices))
    for v in source.data.vertices:
        tree.insert(v.co, v.index)
    tree.balance()
    names = {g.index: g.name for g in source.vertex_groups}
    groups = {g.name: target.vertex_groups.new(name=g.name) for g in source.vertex_groups}
    weights = [[(names[g.group], g.weight) for g in v.groups] for v in source.data.vertices]
    largest = 0.0
    for v in target.data.vertices:
        _, j, distance = tree.find(v.co)
        largest = max(largest, distance)
        for name, weight in weights[j]:
            groups[name].add([v.index], weight, "REPLACE")
    return largest


def blender_one(input_path, output_path, weld=1e-5):
    import bpy
    from mathutils import Matrix

    result = {"warnings": [], "meshes": []}
    bpy.ops.wm.read_factory_settings(use_empty=True)
    # Import no animation: otherwise the importer leaves the armature in the first frame of
    # the first animation, where we want the nodes' default pose.
    animations_skipped = True
    try:
        from io_scene_gltf2.blender.imp.scene import BlenderScene

        BlenderScene.create_animations = staticmethod(lambda gltf: None)
    except (ImportError, AttributeError) as error:  # another add-on version: see below
        animations_skipped = False
        result["warnings"].append(f"could not skip the animations on import: {error!r}")
    with captured_output() as log:
        bpy.ops.import_scene.gltf(
            filepath=str(input_path),
            merge_vertices=False,  # keep every glTF vertex a Blender vertex
            bone_heuristic="BLENDER",  # only bone tails/rolls; joint (head) positions are kept
            # Blender's rest pose = the nodes' default pose (what rigkit rigs and skins), not
            # a bind pose guessed from the inverse bind matrices: the importer skins the
            # vertices into that pose, so they sit where rigkit's importer puts them.
            guess_original_bind_pose=False,
        )
    result["import_messages"] = _problems(log["text"])

    # No animation: only the bind pose and the weights matter.
    for ob in bpy.data.objects:
        ob.animation_data_clear()
        if ob.type == "MESH" and ob.data.shape_keys:
            ob.data.shape_keys.animation_data_clear()
    for action in list(bpy.data.actions):
        bpy.data.actions.remove(action)

    scene = bpy.context.scene
    view_layer = bpy.context.view_layer
    scene.frame_set(scene.frame_start)
    if bpy.context.object is not None and bpy.context.object.mode != "OBJECT":
        bpy.ops.object.mode_set(mode="OBJECT")

    skinned = []
    for ob in scene.objects:
        if ob.type != "MESH":
            continue
        mods = [m for m in ob.modifiers if m.type == "ARMATURE" and m.object is not None]
        if mods:
            skinned.append((ob, mods[0].object))
    if not skinned:
        raise RuntimeError("no mesh with an Armature modifier")
    for ob, _ in skinned:
        if ob.data.shape_keys:  # not exported; and they would keep the mesh from being posed
            ob.shape_key_clear()

    # The importer made the nodes' default pose the rest pose (guess_original_bind_pose off)
    # except for joint scale, which a Blender rest pose cannot hold: a scaled joint (Spider's
    # "Abdomen", 0.88) keeps its scale as a pose. Where there is such a pose it becomes the
    # rest pose (Apply Pose as Rest Pose), and the meshes take the shape the input shows at
    # its default pose, so that bone heat sees the character as rigkit does.
    identity = Matrix.Identity(4)
    armatures = [ob for ob in scene.objects if ob.type == "ARMATURE"]
    posed = []
    for arm in armatures:
        arm.data.pose_position = "POSE"
        if not animations_skipped:  # the pose is an animation frame: back to rest (loses scale)
            for pb in arm.pose.bones:
                pb.matrix_basis = identity
        for pb in arm.pose.bones:
            offset = max(abs(pb.matrix_basis[i][j] - identity[i][j])
                         for i in range(4) for j in range(4))
            if offset > 1e-6:
                posed.append(f"{arm.name}/{pb.name} ({offset:.3g})")
    result["posed_bones_applied_as_rest"] = posed
    if posed:
        for arm in armatures:
            bpy.ops.object.select_all(action="DESELECT")
            arm.hide_set(False)
            arm.select_set(True)
            view_layer.objects.active = arm
            bpy.ops.object.mode_set(mode="POSE")
            bpy.ops.pose.armature_apply(selected=False)
            bpy.ops.object.mode_set(mode="OBJECT")
    view_layer.update()

    # Put every vertex exactly where rigkit's importer puts it: linear blend skinning of the
    # input at its default pose, which _rest_positions computes from the GLB itself. The
    # importer's own placement agrees to float precision, except (a) under a scaled joint,
    # where it skins into a scale-less rest pose, and (b) for vertices without any weight in
    # the input, which it moves with the first joint where rigkit leaves them in place.
    exact, _, _, _ = Glb(input_path).mesh_vertices()
    for ob, _ in skinned:
        result.setdefault("rest_position_moved", {})[ob.name] = _set_rest_positions(
            ob, exact.get(ob.name))
        if result["rest_position_moved"][ob.name] is None:
            result["warnings"].append(
                f"{ob.name}: could not pair its vertices with the input's; left as imported")
    view_layer.update()

    seconds = 0.0
    for ob, arm in skinned:
        ob.vertex_groups.clear()
        for o in (ob, arm):
            o.hide_set(False)
            o.hide_viewport = False
            o.hide_select = False
        # Bone heat on the mesh as imported fails on most files: glTF splits vertices along
        # UV seams and hard edges, and islands that see no bone make the heat system singular
        # ("failed to find solution"), which zeroes every weight. So, as one would do in
        # Blender (Merge by Distance), weld coincident vertices on a copy, compute there,
        # and give each vertex of the original the weights of the welded vertex it became.
        target, welded = ob, None
        if weld > 0:
            target, welded = _welded_copy(ob, weld)
            target.hide_set(False)
        bpy.ops.object.select_all(action="DESELECT")
        target.select_set(True)
        arm.select_set(True)
        view_layer.objects.active = arm
        world_before = target.matrix_world.copy()
        with captured_output() as log:
            t0 = time.perf_counter()
            # keep_transform: the mesh may hang under another object (e.g. a Z-up root); without
            # it, parent_set keeps the local matrix and the mesh moves.
            bpy.ops.object.parent_set(type="ARMATURE_AUTO", keep_transform=True)
            dt = time.perf_counter() - t0
        seconds += dt
        view_layer.update()
        if not _matrices_close(world_before, target.matrix_world):
            result["warnings"].append(f"{ob.name}: world transform changed by parent_set")
        for line in _problems(log["text"]):
            result["warnings"].append(f"{ob.name}: {line}")
        transfer_distance = 0.0
        if welded is not None:
            transfer_distance = _transfer_weights(target, ob)
            mesh = target.data
            bpy.data.objects.remove(target)
            bpy.data.meshes.remove(mesh)
        unweighted = sum(
            1 for v in ob.data.vertices if not any(g.weight > 0 for g in v.groups)
        )
        deform = [b.name for b in arm.data.bones if b.use_deform]
        result["meshes"].append({
            "mesh": ob.name,
            "armature": arm.name,
            "vertices": len(ob.data.vertices),
            "welded_vertices": welded,
            "weight_transfer_max_distance": transfer_distance,
            "deform_bones": len(deform),
            "vertex_groups": len(ob.vertex_groups),
            "unweighted_vertices": unweighted,
            "seconds": dt,
        })
        if unweighted:
            result["warnings"].append(f"{ob.name}: {unweighted} vertices got no weight")
    result["auto_weights_seconds"] = seconds

    output_path.parent.mkdir(parents=True, exist_ok=True)
    with captured_output() as log:
        bpy.ops.export_scene.gltf(
            filepath=str(output_path),
            check_existing=False,
            export_format="GLB",
            export_skins=True,
            export_all_influences=True,  # keep every weight, not only the 4 largest
            export_animations=False,
            export_rest_position_armature=True,
            export_morph=False,
            # No normals, tangents or colours: a glTF vertex is split wherever the corners of a
            # Blender vertex differ in an exported attribute (custom normals do, by rounding),
            # so without them each Blender vertex (= each input vertex, as nothing was merged)
            # comes out as exactly one vertex, in the same order.
            export_normals=False,
            export_vertex_color="NONE",
            export_materials="PLACEHOLDER",  # keep the primitive split, drop the textures
            export_apply=False,  # the Armature modifier must not be applied
            export_yup=True,
        )
    result["export_messages"] = _problems(log["text"])
    for line in result["import_messages"]:
        result["warnings"].append(f"import: {line}")
    for line in result["export_messages"]:
        if not any(b in line for b in _BENIGN):
            result["warnings"].append(f"export: {line}")
    return result


def _matrices_close(a, b, tol=1e-5):
    scale = 1.0 + max(abs(a[i][j]) for i in range(4) for j in range(4))
    return all(abs(a[i][j] - b[i][j]) <= tol * scale for i in range(4) for j in range(4))


def child_main(args):
    t0 = time.perf_counter()
    result = blender_one(Path(args.one), Path(args.out_file), weld=args.weld)
    try:
        result["check"] = compare(args.one, args.out_file)
    except Exception as error:  # the GLB is written; say why it could not be checked
        result["check"] = None
        result["warnings"].append(f"check failed: {error!r}")
    result["total_seconds"] = time.perf_counter() - t0
    Path(args.result).write_text(json.dumps(result, indent=1))


# ---------------------------------------------------------------------------------------------
# The driver.
# ---------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", default=DEFAULT_INPUT, help="directory searched for .glb files")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="output directory")
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed per file")
    parser.add_argument(
        "--weld", type=float, default=1e-5,
        help="weld vertices closer than this fraction of the mesh's bounding-box diagonal "
             "before computing the weights (default 1e-5: coincident vertices only); "
             "0 computes on the mesh as imported, where bone heat mostly fails")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--out-file", help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return child_main(args)

    import bpy  # noqa: F401  (fail early, in the driver, if bpy is missing)

    in_dir, out_dir = Path(args.input).resolve(), Path(args.output).resolve()
    files = sorted(p for p in in_dir.rglob("*") if p.suffix.lower() == ".glb" and p.is_file())
    if not files:
        print(f"no .glb under {in_dir}", file=sys.stderr)
        return 1
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"bpy {bpy.app.version_string}; {len(files)} files from {in_dir} -> {out_dir}",
          flush=True)
    report, timings, failed = {}, {}, []
    for path in files:
        rel = path.relative_to(in_dir).as_posix()
        out_file = out_dir / rel
        out_file.parent.mkdir(parents=True, exist_ok=True)
        if out_file.exists():
            out_file.unlink()
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            result_path = Path(tmp.name)
        cmd = [sys.executable, __file__, "--one", str(path), "--out-file", str(out_file),
               "--result", str(result_path), "--weld", repr(args.weld)]
        log_file = out_dir / "logs" / (rel + ".log")
        log_file.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=args.timeout)
            log_file.write_text(proc.stdout)
            ok = (proc.returncode == 0 and result_path.stat().st_size > 0
                  and out_file.is_file())
            why = "" if ok else (proc.stdout.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        except subprocess.TimeoutExpired as error:
            log_file.write_text(error.stdout.decode(errors="replace") if error.stdout else "")
            ok, why = False, f"timed out after {args.timeout:.0f} s"
        wall = time.perf_counter() - t0
        if not ok:
            failed.append(rel)
            report[rel] = {"failed": why, "log": str(log_file)}
            print(f"FAILED {rel}: {why} ({wall:.1f} s; log: {log_file})", flush=True)
            result_path.unlink(missing_ok=True)
            continue
        result = json.loads(result_path.read_text())
        result_path.unlink()
        result["wall_seconds"] = wall
        report[rel] = result
        timings[rel] = round(result["auto_weights_seconds"], 4)
        check = result["check"] or {}
        warnings = list(result["warnings"])
        if check and not check["bbox_ok"]:
            warnings.append(f"bounding box differs by {check['bbox_error_rel']:.2e} of diagonal")
        for name in check.get("meshes_without_skin_out", []):
            warnings.append(f"{name} exported without a skin (no weight at all)")
        vertices = sum(m["vertices"] for m in result["meshes"])
        joints = max(m["deform_bones"] for m in result["meshes"])
        welded = [m["welded_vertices"] for m in result["meshes"]]
        welded = f" ({sum(welded)} welded)" if all(w is not None for w in welded) else ""
        line = (f"{rel}: {vertices} vertices{welded}, {joints} joints, "
                f"auto weights {result['auto_weights_seconds']:.2f} s (whole file {wall:.1f} s)")
        if check:
            same_count = check["vertices_in"] == check["vertices_out"]
            same_order = all(check["same_vertex_order"].values())
            line += (f", exported vertices {check['vertices_out']}/{check['vertices_in']} "
                     f"({'same count' if same_count else 'COUNT DIFFERS'}, "
                     f"{'same order' if same_order else 'ORDER DIFFERS'}), "
                     f"bbox error {check['bbox_error_rel']:.1e} of diagonal")
        line += f", warnings: {'; '.join(warnings) if warnings else 'none'}"
        print(line, flush=True)
    (out_dir / "timings.json").write_text(json.dumps(timings, indent=1) + "\n")
    (out_dir / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(f"{len(files) - len(failed)}/{len(files)} files written; "
          f"timings in {out_dir / 'timings.json'}, details in {out_dir / 'report.json'}")
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main() or 0)
