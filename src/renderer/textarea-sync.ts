import type { Terminal } from '@xterm/xterm';

/**
 * xterm moves its hidden textarea to the cursor (for an IME's popup) on every cursor move, in the task that parsed
 * the output: the style it dirties there makes the next frame lay the page out twice (once for its hover hit test,
 * again after the rows are drawn). Done in the frame that draws the rows instead, before either. xterm 6.0.0's
 * private `_syncTextArea`: if a later version renames it, the textarea simply moves at once again. A terminal
 * disposed before that frame (its pane taken off the page: Max, another view) drops it: xterm's renderer is gone.
 */
export function deferTextareaSync(term: Terminal): void {
  const core = (term as unknown as { _core?: { _syncTextArea?: () => void } })._core;
  const sync = core?._syncTextArea;
  if (!core || typeof sync !== 'function') return;
  let queued = 0;
  core._syncTextArea = () => {
    queued ||= requestAnimationFrame(() => {
      queued = 0;
      sync.call(core);
    });
  };
  // Addons are disposed with the terminal.
  term.loadAddon({ activate: () => {}, dispose: () => cancelAnimationFrame(queued) });
}
