import { useEffect, useState } from 'react';
import { act } from '../context';
import { useDashboard } from '../store';
import { Dialog } from './Dialog';

interface Saved {
  name: string;
  text: string;
  bytes: number;
  cut: boolean;
}

/** The expander: a tool output a pane cut short, whole, as the host reads it from this workspace's saved outputs. */
export function SavedOutputDialog() {
  const open = useDashboard((s) => s.savedOutput);
  const close = useDashboard((s) => s.showSavedOutput);
  const [saved, setSaved] = useState<Saved | null>(null);
  useEffect(() => {
    setSaved(null);
    if (!open) return;
    let live = true;
    void act({ type: 'saved_output', file: open.file }).then((r) => {
      if (!live) return;
      if (r) setSaved(r as Saved);
      else close(null); // the notice says why
    });
    return () => {
      live = false;
    };
  }, [open, close]);
  if (!open) return null;
  const lines = saved ? saved.text.replace(/\n$/, '').split('\n').length : 0;
  return (
    <Dialog label={`whole output from ${open.agent}`} onClose={() => close(null)} className="saved-output">
      <h3>
        {open.agent}: {saved ? saved.name : 'reading…'}
      </h3>
      {saved && (
        <p className="saved-output-meta" data-testid="saved-output-meta">
          {saved.cut ? `the first ${lines} lines (${kb(new TextEncoder().encode(saved.text).length)} of ${kb(saved.bytes)}); the whole file: ${open.file}` : `${lines} lines · ${open.file}`}
        </p>
      )}
      <pre className="saved-output-text" data-testid="saved-output-text" tabIndex={0}>
        {saved?.text ?? ''}
      </pre>
      <div className="modal-actions">
        <button onClick={() => close(null)}>Close</button>
      </div>
    </Dialog>
  );
}

/** `n` bytes (the text's in UTF-8, as the file's size is: a Thai character is 3). */
const kb = (n: number) => `${Math.max(1, Math.round(n / 1024))} KB`;
