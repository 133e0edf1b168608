"""Automatic rigging of 3D characters.

Give rigkit a character (GLB, glTF, VRM, OBJ, FBX or COLLADA; a path or the file's bytes) and
it fits a skeleton inside the body — a humanoid, quadruped or bird template where it recognises
the body plan, a free-form skeleton for any other creature — computes skin weights and returns a
rigged GLB. The work runs in native code with the GIL released, so threads rig side by side.

    import rigkit
    glb, report = rigkit.rig("soldier.fbx")
    walking = rigkit.animate(glb, "walk")
    fbx = rigkit.convert(walking, "fbx", bone_names="unreal")

Every failure raises :class:`RigkitError` with a message naming the problem.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Literal, Optional, Union

from . import _rigkit
from ._rigkit import RigkitError

__version__: str = _rigkit.__version__
__all__ = ["RigkitError", "rig", "skin", "animate", "convert", "info", "__version__"]

Source = Union[str, "os.PathLike[str]", bytes, bytearray]
Template = str
Method = Literal["best", "geometric", "neural"]


def _snake(value: Any) -> Any:
    """JSON from the core (camelCase keys) as Python spells it."""
    if isinstance(value, dict):
        return {re.sub(r"(?<!^)(?=[A-Z])", "_", k).lower(): _snake(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_snake(v) for v in value]
    return value


def rig(
    source: Source,
    *,
    name: Optional[str] = None,
    template: Template = "auto",
    method: Method = "best",
    max_influences: int = 4,
    skeleton: Optional[Source] = None,
    skeleton_name: Optional[str] = None,
) -> tuple[bytes, dict[str, Any]]:
    """Rig a character: a new skeleton and skin weights.

    ``source`` is a path (a ``.gltf`` is read with its ``.bin`` files, an ``.obj`` with its
    ``.mtl``) or the file's bytes, named by ``name`` (its extension picks the format).
    ``template``: ``"auto"`` (the recognised body plan's template, else free-form), ``"free"``,
    ``"humanoid"``, ``"quadruped"``, ``"bird"``, ``"chain"`` or a library template
    (``"rig-human"``, ``"rig-fox"``, …). ``method``: ``"best"``, ``"geometric"`` or ``"neural"``.
    ``skeleton``: a rigged GLB/glTF/VRM or a BVH whose skeleton is adapted to the mesh instead.

    Returns the rigged GLB and a report: ``joints``, ``names``, ``vertices``, ``recognised``
    (``plan``, ``confidence``, ``rigged_as``, ``template``, ``bend``; ``None`` unless
    ``template="auto"``) and ``seconds`` per stage.
    """
    glb, report = _rigkit.rig(
        source, name, template, method, max_influences, skeleton, skeleton_name
    )
    return glb, json.loads(report)


def skin(
    source: Source,
    *,
    name: Optional[str] = None,
    method: Literal["neural", "geometric"] = "neural",
    max_influences: int = 4,
) -> bytes:
    """New skin weights for the skeleton a rigged file already has.

    Joints, names, bind pose and clips are kept; returns the GLB.
    """
    return _rigkit.skin(source, name, method, max_influences)


def animate(
    source: Source,
    motion: Union[str, "os.PathLike[str]", bytes],
    *,
    name: Optional[str] = None,
    motion_name: Optional[str] = None,
    max_influences: int = 4,
) -> bytes:
    """A rigged file with a motion added (a clip of the same name is replaced).

    ``motion`` is a generated motion's name — ``"idle"``, ``"look"``, ``"walk"``, ``"flap"``,
    ``"wave"`` — or a capture to retarget: a ``.bvh``, or a rigged GLB whose first clip is used
    (a path, or bytes named by ``motion_name``). Returns the GLB. Raises :class:`RigkitError`
    when the skeleton lacks what the motion moves (e.g. a walk without legs).
    """
    return _rigkit.animate(source, name, motion, motion_name, max_influences)


def convert(
    source: Source,
    format: Literal["glb", "fbx", "vrm"] = "glb",
    *,
    name: Optional[str] = None,
    bone_names: Optional[Literal["mixamo", "unity", "unreal", "vrm"]] = None,
    max_influences: int = 4,
    correctives: bool = False,
) -> bytes:
    """A rigged file written as GLB, binary FBX 7.4 or VRM, clips included.

    ``bone_names`` renames a humanoid's joints in the file. ``correctives`` adds up to 32
    corrective shapes (morph targets ``corrective_*`` that keep bent elbows and knees and
    twisted forearms from collapsing), their weights keyed in every clip.
    """
    return _rigkit.convert(source, name, format, bone_names, max_influences, correctives)


def info(source: Source, *, name: Optional[str] = None) -> dict[str, Any]:
    """What a file holds: vertices, triangles, joints, clips, materials, warnings, …"""
    return _snake(json.loads(_rigkit.info(source, name)))
