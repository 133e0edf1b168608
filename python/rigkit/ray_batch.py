"""Rig a catalog on a Ray cluster.

    python -m rigkit.ray_batch CATALOG OUT_DIR [--address ADDRESS] [--template auto] ...

CATALOG is a folder (every .glb, .gltf, .vrm, .fbx, .dae and .obj under it) or a manifest: a
text file of paths, one per line, relative to the manifest's folder. Each asset is one Ray task
running :func:`rigkit.rig` (retried when its worker dies) that writes ``OUT_DIR/REL.glb``
(REL: the asset's path relative to the catalog, extension ``.glb``). ``OUT_DIR/rigkit-batch.jsonl``
gets one JSON record per asset — the same records as ``rigkit batch`` — and rerunning skips
every asset recorded as rigged whose GLB is there, so an interrupted batch resumes with no
asset done twice and none lost. ``--address`` joins an existing cluster (``auto``: the one this
machine belongs to); without it a local cluster is started for the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Optional

import rigkit

#: The record file written beside the outputs (as ``rigkit batch`` writes it).
RECORDS = "rigkit-batch.jsonl"
#: Inputs a batch rigs (a .gltf's .bin and an .obj's .mtl are read beside them).
INPUTS = {".glb", ".gltf", ".vrm", ".fbx", ".dae", ".obj"}


def catalog(source: Path) -> list[tuple[Path, str]]:
    """Each asset of a folder or a manifest, with its path relative to the catalog (its key)."""
    if source.is_dir():
        files = sorted(p for p in source.rglob("*") if p.is_file() and p.suffix.lower() in INPUTS)
        return [(p, p.relative_to(source).as_posix()) for p in files]
    base = source.parent
    assets = []
    for line in source.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            assets.append((base / line, Path(line).as_posix()))
    return assets


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    """The records of earlier runs, the last per asset winning; a line cut short is ignored."""
    records: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and "file" in record:
                records[record["file"]] = record
    return records


def still_to_do(
    assets: list[tuple[Path, str]], done: dict[str, dict[str, Any]], out: Path, retry_errors: bool
) -> list[tuple[Path, str]]:
    """The assets not yet rigged: no record, an error (with ``retry_errors``), or a lost GLB."""
    todo = []
    for path, rel in assets:
        record = done.get(rel)
        if record is None:
            todo.append((path, rel))
        elif record.get("status") == "ok":
            if not (out / record.get("output", "")).is_file():
                todo.append((path, rel))
        elif retry_errors:
            todo.append((path, rel))
    return todo


def rig_asset(path: str, rel: str, out: str, options: dict[str, Any]) -> dict[str, Any]:
    """Rigs one asset and writes its GLB; any rigkit error becomes the record's error."""
    started = time.perf_counter()
    out_rel = str(Path(rel).with_suffix(".glb").as_posix())
    record: dict[str, Any] = {"file": rel, "status": "error"}
    try:
        glb, report = rigkit.rig(path, **options)
        target = Path(out) / out_rel
        target.parent.mkdir(parents=True, exist_ok=True)
        # Written whole under another name first: a resume never takes half a GLB for done.
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(glb)
        os.replace(partial, target)
        record.update(status="ok", output=out_rel, vertices=report["vertices"], joints=report["joints"])
        recognised = report.get("recognised")
        if recognised:
            record.update(
                plan=recognised["plan"],
                confidence=recognised["confidence"],
                template=recognised["template"],
            )
    except (rigkit.RigkitError, OSError) as error:
        record["error"] = str(error)
    record["seconds"] = round(time.perf_counter() - started, 4)
    return record


def run(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rigkit.ray_batch",
        description="Rig every asset of a catalog (a folder or a manifest) on a Ray cluster.",
    )
    parser.add_argument("catalog", type=Path, help="a folder of characters, or a manifest of paths")
    parser.add_argument("out", type=Path, help="where the rigged GLBs and rigkit-batch.jsonl go")
    parser.add_argument("--address", help="an existing cluster ('auto', 'ray://HOST:10001'); default: a local one")
    parser.add_argument("--num-cpus", type=int, help="CPUs of the local cluster (default: all)")
    parser.add_argument("--cpus-per-task", type=float, default=1.0, help="CPUs each rig reserves (default 1)")
    parser.add_argument("--retries", type=int, default=3, help="reruns of a task whose worker died (default 3)")
    parser.add_argument("--template", default="auto")
    parser.add_argument("--method", default="best", choices=["best", "geometric", "neural"])
    parser.add_argument("--max-influences", type=int, default=4, choices=[4, 8])
    parser.add_argument("--retry-errors", action="store_true", help="rig again the assets that failed before")
    args = parser.parse_args(argv)

    try:
        import ray
    except ImportError:
        print("rigkit.ray_batch needs Ray: pip install 'ray>=2.40'", file=sys.stderr)
        return 2
    if not args.catalog.exists():
        print(f"cannot read '{args.catalog}': no such file or folder", file=sys.stderr)
        return 2

    args.out.mkdir(parents=True, exist_ok=True)
    records_path = args.out / RECORDS
    assets = catalog(args.catalog)
    todo = still_to_do(assets, read_records(records_path), args.out, args.retry_errors)
    skipped = len(assets) - len(todo)
    print(f"{len(assets)} assets in '{args.catalog}': {len(todo)} to rig, {skipped} done before", file=sys.stderr)
    if not todo:
        return 0

    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    task = ray.remote(num_cpus=args.cpus_per_task, max_retries=args.retries)(rig_asset)
    options = {"template": args.template, "method": args.method, "max_influences": args.max_influences}
    started = time.perf_counter()
    pending = {
        task.remote(str(path.resolve()), rel, str(args.out.resolve()), options): rel for path, rel in todo
    }
    times, failed = [], 0
    with records_path.open("a", encoding="utf-8") as log:
        # A line cut short by an interruption must not swallow the next record.
        if records_path.stat().st_size and not records_path.read_bytes().endswith(b"\n"):
            log.write("\n")
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            rel = pending.pop(ready[0])
            try:
                record = ray.get(ready[0])
            except Exception as error:  # a worker that died on every retry
                record = {"file": rel, "status": "error", "seconds": 0.0, "error": f"the worker died: {error}"}
            log.write(json.dumps(record) + "\n")
            log.flush()
            times.append(record["seconds"])
            if record["status"] != "ok":
                failed += 1
                what = f"error: {record['error']}"
            else:
                what = f"{record['joints']} joints, {record['seconds']:.2f} s"
            print(f"[{len(times)}/{len(todo)}] {rel}: {what}", file=sys.stderr)
    seconds = time.perf_counter() - started
    ray.shutdown()
    median = statistics.median(times) if times else 0.0
    print(
        f"{len(todo) - failed} rigged, {failed} failed, {skipped} done before; {seconds:.1f} s, "
        f"{len(todo) / seconds:.2f} assets/s, median {median:.2f} s per asset; records in {records_path}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(run())
