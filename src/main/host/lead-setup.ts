import path from 'node:path';
import { ApiKeyError, ApiKeyStore, lastFour, type KeyCipher } from '../../core/agent/api-key.js';
import { loadSettings } from '../../core/agent/settings.js';
import type { HostEvent, SetupView } from '../../shared/api.js';
import type { HostSideInfo } from './views.js';

export type { KeyCipher };

/**
 * Whether the lead can start here: it needs a model key unless it runs on the scripted provider. Without one
 * the lead is "not configured" (never "dead") and the dashboard shows its welcome. The key itself never
 * leaves the host: views get its last 4 characters.
 */
export class LeadSetup {
  readonly keys: ApiKeyStore;

  constructor(
    private readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly leadArgv: string[] | undefined,
    cipher: KeyCipher | null | undefined,
    private readonly broadcast: (ev: HostEvent) => void,
  ) {
    this.keys = new ApiKeyStore({ env, cipher });
  }

  private scripted(): boolean {
    if (this.leadArgv?.some((a) => a === '--script' || a === 'scripted')) return true;
    try {
      // Settings as the lead will read them; an unreadable file is the lead's own error to show, not a key problem.
      return loadSettings(this.workspace, this.env).settings.provider === 'scripted';
    } catch {
      return false;
    }
  }

  /** The lead is thclaws itself (not a stand-in command a test or an embedder gave): only then can it lack a key. */
  private runsThclaws(): boolean {
    return !this.leadArgv || this.leadArgv.some((a) => path.basename(a) === 'thclaws');
  }

  view(): SetupView {
    const scripted = this.scripted() || !this.runsThclaws();
    if (this.env.ANTHROPIC_API_KEY) return { needs_key: false, scripted, key: { source: 'env', last4: lastFour(this.env.ANTHROPIC_API_KEY) }, problem: null };
    if (this.env.ANTHROPIC_AUTH_TOKEN) return { needs_key: false, scripted, key: { source: 'env', last4: lastFour(this.env.ANTHROPIC_AUTH_TOKEN) }, problem: null };
    try {
      const key = this.keys.read();
      if (key) return { needs_key: false, scripted, key: { source: 'file', last4: lastFour(key) }, problem: null };
      return { needs_key: !scripted, scripted, key: null, problem: null };
    } catch (err) {
      if (!(err instanceof ApiKeyError)) throw err;
      return { needs_key: !scripted, scripted, key: null, problem: err.message };
    }
  }

  /** Tells the views whether the lead can start; when it cannot, marks it "not configured" and says so (true). */
  blocksLead(side: Map<string, HostSideInfo>): boolean {
    const setup = this.view();
    this.broadcast({ type: 'setup', setup });
    side.set('lead', { ...(side.get('lead') ?? { pty: null, spawnedHere: false, lastExit: null }), notConfigured: setup.needs_key });
    return setup.needs_key;
  }

  /** Stores the key in the person's config directory (refused with one sentence when its shape is wrong). */
  setKey(key: string): SetupView {
    this.keys.write(key.trim());
    const setup = this.view();
    this.broadcast({ type: 'setup', setup });
    return setup;
  }

  /** Deletes the stored key; the lead keeps the key it started with until it is restarted. */
  removeKey(): SetupView {
    this.keys.remove();
    const setup = this.view();
    this.broadcast({ type: 'setup', setup });
    return setup;
  }

  /** The key for the lead's environment when only this host can read it (encrypted at rest by the desktop app). */
  envForLead(): Record<string, string> {
    if (this.env.ANTHROPIC_API_KEY || this.env.ANTHROPIC_AUTH_TOKEN) return {};
    try {
      const key = this.keys.read();
      return key ? { ANTHROPIC_API_KEY: key } : {};
    } catch {
      return {};
    }
  }
}
