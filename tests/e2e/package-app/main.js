// A marketplace-style app as a user of the npm package writes it: rig a character, add a walk,
// turn it into three.js objects, skin it again and export it as FBX. The test reads
// `window.result` (or `window.failure`).
import * as THREE from 'three';
import { Rigger } from 'rigkit';
import { skinnedMeshes, toThree } from 'rigkit/three';

async function run() {
  const bytes = new Uint8Array(await (await fetch('./character.glb')).arrayBuffer());
  const rigger = new Rigger({ backend: 'cpu' });
  const stages = [];
  const rig = await rigger.rig(bytes, { name: 'character.glb' }, (stage) => stages.push(stage));
  const walking = await rigger.animate(rig, 'walk');
  const group = await toThree(walking);
  const meshes = skinnedMeshes(group);
  const mixer = new THREE.AnimationMixer(group);
  mixer.clipAction(group.animations[0]).play();
  mixer.update(0.25);
  const reskinned = await rigger.skin(walking.toGlb(), { name: 'walking.glb', method: 'geometric' });
  const fbx = await rigger.export(walking, 'fbx');
  let refused = null;
  try {
    await rigger.rig(new Uint8Array([1, 2, 3]), { name: 'broken.glb' });
  } catch (e) {
    refused = e.message;
  }
  const cancelled = new AbortController();
  const pending = rigger.rig(bytes, { name: 'character.glb' }, () => {}, cancelled.signal);
  cancelled.abort();
  const abort = await pending.then(() => 'finished', (e) => e.name);
  return {
    stages,
    jointCount: rig.jointCount,
    names: rig.names,
    recognised: rig.recognised,
    vertexCount: rig.vertexCount,
    clips: walking.clips.map((c) => c.name),
    threeBones: meshes.length ? meshes[0].skeleton.bones.length : 0,
    threeVertices: meshes.reduce((n, m) => n + m.geometry.attributes.position.count, 0),
    threeClips: group.animations.map((c) => c.name),
    reskinnedJoints: reskinned.jointCount,
    reskinnedClips: reskinned.clips.map((c) => c.name),
    fbxHeader: new TextDecoder().decode(fbx.slice(0, 18)),
    fbxBytes: fbx.length,
    refused,
    abort,
  };
}

run().then((result) => { window.result = result; }, (e) => { window.failure = String(e && e.stack || e); });
