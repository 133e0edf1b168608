// Trunk's post-build hook (Trunk.toml): gives the built page a strict Content-Security-Policy
// as a <meta> at the top of its <head>. The browser then refuses any connection to another
// origin, any script that is not the page's own files or one of the inline scripts trunk
// wrote (each allowed by its SHA-256, computed here from the text as built), any plugin, and
// inline styles; wasm may be compiled ('wasm-unsafe-eval') but never eval'd JavaScript.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('csp.mjs runs as trunk\'s post_build hook (TRUNK_STAGING_DIR is not set)');
  process.exit(1);
}
const page = path.join(staging, 'index.html');
let html = fs.readFileSync(page, 'utf8');

// Every inline script (no src attribute), hashed exactly as the browser hashes its text.
const hashes = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
  .map(([, text]) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`);

const POLICY = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const meta = `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`;
html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/g, '');
if (!/<meta charset="utf-8">/i.test(html)) {
  console.error(`csp.mjs: ${page} has no <meta charset="utf-8"> to put the policy after`);
  process.exit(1);
}
html = html.replace(/<meta charset="utf-8">/i, (charset) => `${charset}\n  ${meta}`);
fs.writeFileSync(page, html);
console.log(`csp.mjs: Content-Security-Policy set (${hashes.length} inline script${hashes.length === 1 ? '' : 's'} allowed by hash)`);
