# Writes a GLB as FBX or COLLADA the way a Blender user exports one (the files in
# tests/data/fbx and tests/data/dae), the format chosen by OUT's extension.
# With Blender: blender -b -P tests/blender/export_as.py -- IN.glb OUT.fbx|OUT.dae [OPTIONS]
# With the bpy wheel: python -c "import runpy,sys; sys.argv=['x','--']+sys.argv[1:];
#   runpy.run_path('tests/blender/export_as.py')" IN.glb OUT [OPTIONS]
# OPTIONS: shape (add a blend shape "Raise": every vertex above 2 m lifted 10 cm, rest weight
# 0.25), anim (bake every clip), anim=NAME (that clip alone, the scene trimmed to it).
# The test files: fbx/human-zombie.fbx from human-zombie.glb … shape; fbx/fox-walk.fbx from
# Fox.glb … anim=Walk; dae/human-zombie.dae from human-zombie.glb; dae/fox-walk.dae from
# Fox.glb … anim=Walk.
import os
import sys

import bpy
import mathutils

argv = sys.argv[sys.argv.index('--') + 1:]
src, dst, options = argv[0], argv[1], argv[2:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
meshes = [o for o in bpy.context.scene.objects if o.type == 'MESH' and o.parent is not None]
if 'shape' in options:
    for o in meshes:
        o.shape_key_add(name='Basis')
        key = o.shape_key_add(name='Raise')
        lift = o.matrix_world.inverted().to_3x3() @ mathutils.Vector((0, 0, 0.1))
        for v, k in zip(o.data.vertices, key.data):
            if (o.matrix_world @ v.co).z > 2.0:
                k.co = v.co + lift
        key.value = 0.25
anim = [o for o in options if o.startswith('anim')]
keep = anim[0].split('=', 1)[1] if anim and '=' in anim[0] else None
if keep:
    for o in bpy.context.scene.objects:
        if o.type == 'ARMATURE':
            o.animation_data.action = bpy.data.actions[keep]
    for a in list(bpy.data.actions):
        if a.name != keep:
            bpy.data.actions.remove(a)
    start, end = bpy.data.actions[keep].frame_range
    bpy.context.scene.frame_start, bpy.context.scene.frame_end = int(start), int(round(end))
# The glTF importer adds a bone-shape mesh (an icosphere); export only the armature and its meshes.
bpy.ops.object.select_all(action='DESELECT')
for o in bpy.context.scene.objects:
    if o.type == 'ARMATURE' or o in meshes:
        o.select_set(True)
folder = os.path.dirname(os.path.abspath(dst))
before = set(os.listdir(folder))
if dst.lower().endswith('.dae'):
    bpy.ops.wm.collada_export(filepath=dst, selected=True, include_animations=bool(anim))
else:
    bpy.ops.export_scene.fbx(
        filepath=dst, use_selection=True, add_leaf_bones=False, bake_anim=bool(anim),
        bake_anim_use_all_actions=keep is None, bake_anim_use_nla_strips=False,
        path_mode='STRIP', embed_textures=False, axis_forward='-Z', axis_up='Y')
# The COLLADA exporter writes packed textures beside the file; the tests read none of them.
for name in set(os.listdir(folder)) - before:
    if name.lower().endswith(('.png', '.jpg', '.jpeg')):
        os.remove(os.path.join(folder, name))
