# Writes a GLB as COLLADA the way a Blender user exports one (tests/data/dae):
# blender -b -P tests/blender/to_dae.py -- IN.glb OUT.dae   (or through the bpy wheel, as
# tests/blender/to_fbx.py says). Only the armature and its meshes: the glTF importer's
# bone-shape icosphere stays behind.
import sys

import bpy

argv = sys.argv[sys.argv.index('--') + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=argv[0])
bpy.ops.object.select_all(action='DESELECT')
for o in bpy.context.scene.objects:
    if o.type == 'ARMATURE' or (o.type == 'MESH' and o.parent is not None):
        o.select_set(True)
bpy.ops.wm.collada_export(filepath=argv[1], selected=True)
