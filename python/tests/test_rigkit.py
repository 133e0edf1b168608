"""The Python package as a pipeline engineer uses it: rig, skin, animate, convert and info on
paths and bytes, errors as RigkitError, the GIL released while rigging, and a small catalog
rigged on a local Ray cluster with one bad file in it, resumed without redoing any work."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

import rigkit

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
HUMAN = DATA / "eval" / "CesiumMan.glb"
FOX = DATA / "eval" / "Fox.glb"


class Api(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.glb, cls.report = rigkit.rig(HUMAN)

    def test_rig_gives_a_template_skeleton_and_a_report(self):
        self.assertEqual(self.glb[:4], b"glTF")
        report = self.report
        self.assertEqual(report["recognised"]["template"], "rig-human", report["recognised"])
        self.assertGreaterEqual(report["joints"], 20)
        self.assertEqual(len(report["names"]), report["joints"])
        self.assertIn("pelvis", report["names"])
        self.assertEqual(report["vertices"], 3273)
        self.assertEqual(
            set(report["seconds"]), {"parse", "voxelise", "skeleton", "skin", "export"}
        )
        described = rigkit.info(self.glb, name="rigged.glb")
        self.assertEqual(described["joints"], report["joints"])
        self.assertEqual(described["skinned_vertices"], described["vertices"])

    def test_bytes_and_options(self):
        glb, report = rigkit.rig(FOX.read_bytes(), name="Fox.glb", template="free", method="geometric")
        self.assertEqual(glb[:4], b"glTF")
        self.assertIsNone(report["recognised"])
        self.assertGreaterEqual(report["joints"], 5)

    def test_animate_convert_and_skin(self):
        walking = rigkit.animate(self.glb, "walk")
        clips = rigkit.info(walking)["clips"]
        self.assertEqual([c["name"] for c in clips], ["walk"])
        fbx = rigkit.convert(walking, "fbx", bone_names="mixamo")
        self.assertEqual(fbx[:18], b"Kaydara FBX Binary")
        corrected = rigkit.info(rigkit.convert(walking, correctives=True))
        targets = corrected["morph_targets"]
        self.assertTrue(targets and all(t.startswith("corrective_") for t in targets), targets)
        reskinned = rigkit.skin(walking, method="geometric")
        described = rigkit.info(reskinned)
        self.assertEqual(described["joints"], self.report["joints"])
        self.assertEqual([c["name"] for c in described["clips"]], ["walk"])

    def test_errors_name_the_problem(self):
        with self.assertRaisesRegex(rigkit.RigkitError, "'broken.glb' is not a valid glTF/GLB"):
            rigkit.rig(b"not a model", name="broken.glb")
        with self.assertRaisesRegex(rigkit.RigkitError, "cannot read '/no/such/file.glb'"):
            rigkit.rig("/no/such/file.glb")
        with self.assertRaisesRegex(rigkit.RigkitError, "'dance' is not a motion"):
            rigkit.animate(self.glb, "dance")
        with self.assertRaisesRegex(rigkit.RigkitError, "max_influences must be 4 or 8"):
            rigkit.rig(HUMAN, max_influences=5)
        with self.assertRaisesRegex(rigkit.RigkitError, "unknown template"):
            rigkit.rig(HUMAN, template="octopus")
        with self.assertRaises(TypeError):
            rigkit.rig(42)

    def test_the_gil_is_released_while_rigging(self):
        # While another thread rigs (about a second), this one keeps waking up and running
        # Python; were the GIL held, it could only run before the rig starts and after it ends.
        done = threading.Event()
        woke = 0

        def work():
            rigkit.rig(HUMAN)
            done.set()

        thread = threading.Thread(target=work)
        thread.start()
        while not done.wait(0.001):
            woke += 1
        thread.join()
        self.assertGreater(woke, 50)


class RayBatch(unittest.TestCase):
    def test_a_catalog_with_a_bad_file_and_a_resume(self):
        work = Path(tempfile.mkdtemp(prefix="rigkit-ray-"))
        try:
            catalog = work / "catalog"
            (catalog / "animals").mkdir(parents=True)
            shutil.copy(HUMAN, catalog / "human.glb")
            shutil.copy(FOX, catalog / "animals" / "fox.glb")
            (catalog / "broken.fbx").write_bytes(b"Kaydara FBX Binary  \x00\x1a\x00 truncated")
            out = work / "out"
            command = [sys.executable, "-m", "rigkit.ray_batch", str(catalog), str(out), "--num-cpus", "2"]
            env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
            first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(first.returncode, 0, first.stderr)
            records = [json.loads(line) for line in (out / "rigkit-batch.jsonl").read_text().splitlines()]
            by_file = {r["file"]: r for r in records}
            self.assertEqual(sorted(by_file), ["animals/fox.glb", "broken.fbx", "human.glb"])
            self.assertEqual(by_file["broken.fbx"]["status"], "error")
            self.assertIn("broken.fbx", by_file["broken.fbx"]["error"])
            for rel in ["animals/fox.glb", "human.glb"]:
                self.assertEqual(by_file[rel]["status"], "ok", by_file[rel])
                self.assertEqual((out / by_file[rel]["output"]).read_bytes()[:4], b"glTF")
            self.assertEqual(by_file["animals/fox.glb"]["template"], "rig-fox")
            self.assertIn("2 rigged, 1 failed", first.stderr)

            before = (out / "rigkit-batch.jsonl").read_bytes()
            again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(again.returncode, 0, again.stderr)
            self.assertIn("0 to rig, 3 done before", again.stderr)
            self.assertEqual((out / "rigkit-batch.jsonl").read_bytes(), before)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
