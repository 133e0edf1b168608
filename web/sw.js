// Offline support: after the first visit the page, its wasm module and the sample character
// come from this cache, so rigkit opens and rigs without a network. Same-origin GETs only;
// each is answered from the cache and refreshed in the background when the network is there.

const CACHE = 'rigkit-v4';
const SHELL = [
  './', 'index.html', 'rigkit.js', 'rigkit_bg.wasm', 'web/app.js', 'web/style.css',
  'web/rig-worker.js', 'web/carry-helper.js', 'web/gpu.js', 'web/frames.js', 'web/ui.js', 'web/api.js',
  'web/input.js', 'web/rig-client.js', 'web/playback.js', 'web/edit-tools.js', 'web/steps.js', 'web/paint-tools.js', 'web/manifest.webmanifest', 'web/samples/human-zombie.glb',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const cached = await cache.match(request, { ignoreSearch: true });
    const fresh = fetch(request)
      .then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      })
      .catch(() => cached || Response.error());
    return cached || fresh;
  }));
});
