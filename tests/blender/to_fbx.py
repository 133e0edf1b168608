# Writes a GLB as a binary FBX the way a Blender user exports one (the test data in
# tests/data/fbx): blender -b -P tests/blender/to_fbx.py -- IN.glb OUT.fbx [anim]
# (or with the bpy wheel: python -c "import runpy,sys; sys.argv=['x','--']+sys.argv[1:]; runpy.run_path('tests/blender/to_fbx.py')" IN.glb OUT.fbx)
import bpy, sys
argv = sys.argv[sys.argv.index('--')+1:]
src, dst = argv[0], argv[1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
# The glTF importer adds a bone-shape mesh (an icosphere); export only the armature and its meshes.
bpy.ops.object.select_all(action='DESELECT')
for o in bpy.context.scene.objects:
    if o.type == 'ARMATURE' or (o.type == 'MESH' and o.parent is not None):
        o.select_set(True)
bpy.ops.export_scene.fbx(filepath=dst, use_selection=True, add_leaf_bones=False, bake_anim=len(argv) > 2,
    path_mode='COPY', embed_textures=True, axis_forward='-Z', axis_up='Y')
