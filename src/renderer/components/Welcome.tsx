import { useState } from 'react';
import { act, client } from '../context';
import { saveKey } from './KeyCheck';
import { useDashboard } from '../store';

/** Paste a model key; the host checks its shape, stores it in the person's config directory (never here), then asks the provider. */
export function KeyForm({ onSaved }: { onSaved?: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      // Not through `act`: the refusal is shown here, next to the field, as the sentence the host wrote.
      // Then checked with one model-list call (KeyCheck.tsx says the result above the panes).
      await saveKey(key);
      setKey('');
      onSaved?.();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="key-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <input type="password" autoComplete="off" spellCheck={false} placeholder="sk-ant-…" aria-label="Anthropic API key" value={key} onChange={(e) => setKey(e.target.value)} />
      <button type="submit" disabled={busy || !key}>
        Save key
      </button>
      {error && (
        <p className="key-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * The provider and the key as Settings shows them: where the key comes from and its last 4 characters (the key
 * never reaches the page). A stored key can be replaced or removed; a key from the environment wins over a
 * stored one, so it is only shown (change it where it is set).
 */
export function KeySetting() {
  const setup = useDashboard((s) => s.setup);
  const [changing, setChanging] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!setup) return null;
  const remove = async () => {
    setError(null);
    try {
      await client.request({ type: 'key_remove' });
      setChanging(false);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const fromEnv = setup.key?.source === 'env';
  return (
    <>
      <div className="setting">
        <span>Provider</span>
        <span data-testid="provider">{setup.scripted ? 'Scripted (the built-in demo model: no key needed)' : 'Anthropic'}</span>
      </div>
      <div className="setting key-setting">
        <span>Anthropic API key</span>
        <span data-testid="key-status">
          {setup.key ? `…${setup.key.last4} (${fromEnv ? 'from ANTHROPIC_API_KEY in the environment: change it there' : 'stored in your config directory'})` : 'none'}
        </span>
        {setup.problem && <p className="key-error">{setup.problem}</p>}
        {error && (
          <p className="key-error" role="alert">
            {error}
          </p>
        )}
        {/* A stored key that cannot be used here (the desktop's encrypted one, a file others can read): removable. */}
        {!fromEnv && !setup.key && setup.problem && (
          <span className="key-actions">
            <button onClick={() => void remove()}>Remove</button>
          </span>
        )}
        {!fromEnv && (changing || !setup.key ? (
          <KeyForm onSaved={() => setChanging(false)} />
        ) : (
          <span className="key-actions">
            <button onClick={() => setChanging(true)}>Replace</button>
            <button onClick={() => void remove()}>Remove</button>
          </span>
        ))}
      </div>
    </>
  );
}

/**
 * First run without a key: says what is missing and offers the two ways on — the demo team in a throw-away
 * workspace (no key), or a key. Nothing is written into the open folder until the person picks one.
 */
export function Welcome() {
  const setup = useDashboard((s) => s.setup);
  const [adding, setAdding] = useState(false);
  const [starting, setStarting] = useState(false);
  if (!setup?.needs_key) return null;
  return (
    <section className="welcome" aria-labelledby="welcome-title" data-testid="welcome">
      <h2 id="welcome-title">Welcome to thClaws Agent Teams</h2>
      <p>
        The lead agent is <strong>not configured</strong>: it needs an Anthropic API key to run in this folder. You can watch a whole team work first, on
        the built-in scripted model, without a key.
      </p>
      {setup.problem && <p className="key-error">{setup.problem}</p>}
      <div className="welcome-actions">
        <button
          className="primary"
          disabled={starting}
          onClick={() => {
            setStarting(true);
            void act({ type: 'demo_start' }).finally(() => setStarting(false));
          }}
        >
          {starting ? 'Starting the demo team…' : 'Try the demo team here (no key)'}
        </button>
        <button onClick={() => setAdding(true)} aria-expanded={adding}>
          Add an API key
        </button>
      </div>
      {adding && (
        <>
          <p>The key is kept in your own config directory (readable only by you), never in this folder, and the dashboard only ever shows its last 4 characters.</p>
          <KeyForm />
        </>
      )}
      <p className="muted">The demo runs in a throw-away git workspace; this folder stays untouched.</p>
    </section>
  );
}
