// A helper of the rig worker: answers the template carry's jobs (a body's overlays ranked, a
// stance bent) with the same wasm module, compiled once by the rig worker and handed over,
// so a default rig spreads over the machine's cores. Each job and answer is opaque bytes.

import init, { answerCarryJob } from '../rigkit.js';

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.start) {
    ready = init({ module_or_path: data.start.module });
    return;
  }
  const { id, job } = data;
  try {
    await ready;
    const answer = answerCarryJob(job);
    self.postMessage({ id, answer }, [answer.buffer]);
  } catch (e) {
    self.postMessage({ id, error: e && e.message ? e.message : String(e) });
  }
};
