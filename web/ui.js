// The page's shared bits of DOM: element lookup, generated buttons and the error banner.

export const $ = (id) => document.getElementById(id);

// A button reading `label`, explained by `title`, that calls `onClick`.
export function button(label, title, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

export const messageOf = (e) => (e && e.message ? e.message : String(e));

export function showError(message) {
  $('error-text').textContent = message;
  $('error-banner').hidden = false;
}

export function clearError() {
  $('error-banner').hidden = true;
}

// Runs `run`, clearing the banner on success; a failure is shown in the banner and rethrown
// (as a plain Error) for scripts.
export function reported(run) {
  try {
    const result = run();
    clearError();
    return result;
  } catch (e) {
    const message = messageOf(e);
    showError(message);
    throw new Error(message);
  }
}
