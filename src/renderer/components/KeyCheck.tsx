import { create } from 'zustand';
import type { KeyCheck } from '../../contract/api';
import { client } from '../context';

/** The last key saved from this page and what the provider said of it: one line, until closed or replaced. */
interface KeyCheckState {
  last4: string | null;
  state: 'checking' | 'ok' | 'refused';
  text: string;
}

const useKeyCheck = create<{ check: KeyCheckState | null; set: (c: KeyCheckState | null) => void }>((set) => ({ check: null, set: (check) => set({ check }) }));

/**
 * Saves a key (a refusal of its shape is thrown, for the field to show), then checks it with one model-list
 * call: "Key saved (…abcd). Checking…", then accepted or the provider's refusal.
 */
export async function saveKey(key: string): Promise<void> {
  const saved = (await client.request({ type: 'key_set', key })) as { last4: string | null } | undefined;
  const last4 = saved?.last4 ?? null;
  const { set } = useKeyCheck.getState();
  set({ last4, state: 'checking', text: 'Checking…' });
  try {
    const r = (await client.request({ type: 'key_check' })) as KeyCheck;
    set({ last4, state: r.ok ? 'ok' : 'refused', text: r.text });
  } catch (err) {
    set({ last4, state: 'refused', text: (err as Error).message });
  }
}

export function KeyCheckLine() {
  const check = useKeyCheck((s) => s.check);
  const set = useKeyCheck((s) => s.set);
  if (!check) return null;
  const saved = `Key saved${check.last4 ? ` (…${check.last4})` : ''}.`;
  const said = check.state === 'checking' ? 'Checking…' : check.state === 'ok' ? `✓ ${check.text}.` : `✗ Refused: ${check.text}. Replace it in Settings.`;
  return (
    <div className={`key-check ${check.state}`} role={check.state === 'refused' ? 'alert' : 'status'} data-testid="key-check" data-state={check.state}>
      <span>
        {saved} {said}
      </span>
      {check.state !== 'checking' && (
        <button className="notice-close" aria-label="close the key check" title="close" onClick={() => set(null)}>
          ×
        </button>
      )}
    </div>
  );
}
