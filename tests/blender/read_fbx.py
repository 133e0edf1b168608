# Imports an FBX with Blender's own importer and writes what Blender made of it as JSON: each
# bone (name, parent, head in world space, metres, Y up as glTF), each mesh vertex (world
# position, Y up) with its vertex-group weights, the shape keys, the actions, and every key of
# the actions' shape-key curves (`key_blocks["NAME"].value`: frame and weight), and each
# corner's vertex colour where the mesh has them.
# With the bpy wheel: python tests/blender/read_fbx.py IN.fbx OUT.json
import json
import sys

import bpy

src, dst = sys.argv[1], sys.argv[2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=src)


def y_up(v):
    # Blender is Z up; glTF (and rigkit) Y up, front +Z.
    return [v.x, v.z, -v.y]


out = {'bones': [], 'vertices': [], 'shape_keys': [], 'actions': sorted(a.name for a in bpy.data.actions)}
for o in bpy.context.scene.objects:
    if o.type == 'ARMATURE':
        for b in o.data.bones:
            out['bones'].append({
                'name': b.name,
                'parent': b.parent.name if b.parent else None,
                'head': y_up(o.matrix_world @ b.head_local),
            })
for o in bpy.context.scene.objects:
    if o.type != 'MESH':
        continue
    names = {g.index: g.name for g in o.vertex_groups}
    for v in o.data.vertices:
        out['vertices'].append({
            'position': y_up(o.matrix_world @ v.co),
            'weights': {names[g.group]: g.weight for g in v.groups if g.weight > 0},
        })
    # Each corner's colour (linear, as Blender holds it) where the mesh has colours.
    colors = o.data.color_attributes.active_color
    if colors is not None and colors.domain == 'CORNER':
        for loop in o.data.loops:
            out.setdefault('corner_colors', []).append({
                'position': y_up(o.matrix_world @ o.data.vertices[loop.vertex_index].co),
                'color': list(colors.data[loop.index].color),
            })
    if o.data.shape_keys:
        out['shape_keys'] += [k.name for k in o.data.shape_keys.key_blocks[1:]]
out['shape_key_curves'] = []
for a in bpy.data.actions:
    for c in a.fcurves:
        if c.data_path.startswith('key_blocks['):
            out['shape_key_curves'].append({
                'action': a.name,
                'path': c.data_path,
                'keys': [list(k.co) for k in c.keyframe_points],
            })
with open(dst, 'w') as f:
    json.dump(out, f)
