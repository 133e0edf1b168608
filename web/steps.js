// The four steps a user goes through — Rig, Check, Animate, Download — as tabs over one panel
// beside the viewport. Arrow keys move between tabs (the WAI-ARIA tabs pattern); other
// modules move the user on with `ctx.showStep` (a finished rig opens Check).

import { $ } from './ui.js';

export const STEPS = ['rig', 'check', 'animate', 'download'];

export function setupSteps(ctx) {
  const tabs = STEPS.map((step) => $(`tab-${step}`));

  // Shows `step`'s panel; `focus` moves the keyboard focus to its tab.
  function showStep(step, { focus = false } = {}) {
    const index = STEPS.indexOf(step);
    if (index < 0) throw new Error(`no step '${step}': the steps are ${STEPS.join(', ')}`);
    tabs.forEach((tab, i) => {
      const selected = i === index;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      $(`panel-${STEPS[i]}`).hidden = !selected;
    });
    if (focus) tabs[index].focus();
    ctx.step = step;
    return step;
  }

  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => showStep(STEPS[i]));
    tab.addEventListener('keydown', (e) => {
      const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      let next = null;
      if (e.key in moves) next = (i + moves[e.key] + STEPS.length) % STEPS.length;
      else if (e.key === 'Home') next = 0;
      else if (e.key === 'End') next = STEPS.length - 1;
      if (next === null) return;
      e.preventDefault();
      showStep(STEPS[next], { focus: true });
    });
  });

  ctx.showStep = showStep;
  showStep('rig');
}
