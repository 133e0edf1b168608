# Types of the native module rigkit._rigkit (python/src/lib.rs); use the API in rigkit/__init__.py.
import os
from typing import Optional, Union

_Source = Union[str, os.PathLike[str], bytes, bytearray]

__version__: str

class RigkitError(Exception): ...

def rig(
    input: _Source,
    name: Optional[str],
    template: str,
    method: str,
    max_influences: int,
    skeleton: Optional[_Source],
    skeleton_name: Optional[str],
) -> tuple[bytes, str]: ...
def skin(input: _Source, name: Optional[str], method: str, max_influences: int) -> bytes: ...
def animate(
    input: _Source,
    name: Optional[str],
    motion: Union[str, os.PathLike[str], bytes],
    motion_name: Optional[str],
    max_influences: int,
) -> bytes: ...
def convert(
    input: _Source,
    name: Optional[str],
    format: str,
    bone_names: Optional[str],
    max_influences: int,
    correctives: bool,
) -> bytes: ...
def info(input: _Source, name: Optional[str]) -> str: ...
