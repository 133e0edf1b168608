// Types of web/rigkit-three.js: rigkit rigs as three.js objects.
import type { Group, SkinnedMesh } from 'three';
import type { Rig } from './rigkit-embed.js';

/** A rig (or rigged GLB bytes) as a THREE.Group with its SkinnedMesh and bones; the rig's
 * clips are `group.animations` (THREE.AnimationClip[]). */
export function toThree(rig: Rig | Uint8Array): Promise<Group>;

/** The skinned meshes under `group`, each bound to the rig's skeleton. */
export function skinnedMeshes(group: Group): SkinnedMesh[];
