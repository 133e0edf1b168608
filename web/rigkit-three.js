// rigkit for three.js: a rig as a THREE.Group holding its SkinnedMesh and bones, with the
// rig's clips on `group.animations`, ready for a THREE.AnimationMixer. three is a peer
// dependency; pages that do not use it never load this file.
//
//   import { Rigger } from 'rigkit';
//   import { toThree } from 'rigkit/three';
//   const group = await toThree(await new Rigger().animate(rig, 'walk'));
//   scene.add(group);
//   new THREE.AnimationMixer(group).clipAction(group.animations[0]).play();

import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

/** `rig` (a Rig, or rigged GLB bytes) as a THREE.Group; its clips are `group.animations`. */
export async function toThree(rig) {
  const glb = rig instanceof Uint8Array ? rig : rig.toGlb();
  const bytes = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);
  const gltf = await new GLTFLoader().parseAsync(bytes, '');
  const group = gltf.scene;
  group.name = group.name || (rig.name ?? 'rig');
  group.animations = gltf.animations;
  return group;
}

/** The skinned meshes in `group` (what `toThree` returns), each bound to the rig's skeleton. */
export function skinnedMeshes(group) {
  const meshes = [];
  group.traverse((object) => { if (object.isSkinnedMesh) meshes.push(object); });
  return meshes;
}
