import path from 'node:path';
import { ApiKeyError, ApiKeyStore, keyShapeProblem, lastFour, type KeyCipher } from '../../core/agent/api-key.js';
import { loadSettings } from '../../core/agent/settings.js';
import type { HostEvent, KeyCheck, SetupView } from '../../contract/api.js';
import { checkKey, type KeyCredential } from './key-check.js';
import type { HostSideInfo } from './views.js';

export type { KeyCipher };

/**
 * Whether the lead can start here: it needs a model key unless it runs on the scripted provider. Without one
 * the lead is "not configured" (never "dead") and the dashboard shows its welcome. The key itself never
 * leaves the host: views get its last 4 characters.
 *
 * In the desktop app the stored key is encrypted by Electron's safeStorage, which only Electron's main process
 * can use: main decrypts it and hands it to this host in memory (`key_hold`); the host keeps it there, never on disk.
 */
export class LeadSetup {
  readonly keys: ApiKeyStore;
  /** The key handed over by the desktop app (decrypted from its keychain-encrypted file), held in memory only. */
  private held: string | null = null;

  constructor(
    private readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly leadArgv: string[] | undefined,
    cipher: KeyCipher | null | undefined,
    private readonly broadcast: (ev: HostEvent) => void,
  ) {
    this.keys = new ApiKeyStore({ env, cipher });
    this.cipherName = cipher?.name ?? null;
  }

  private readonly cipherName: string | null;

  /** The desktop app's stored key, decrypted by its main process: held in memory for the agents (refused when malformed). */
  holdKey(key: string): SetupView {
    const problem = keyShapeProblem(key);
    if (problem) throw new ApiKeyError(problem);
    this.held = key;
    // In this process's environment (not its start-time /proc listing): every agent it starts gets it, and a
    // spawn request names it for the host to copy (spawn.json never holds its value). A key given at start wins.
    if (!this.env.ANTHROPIC_API_KEY && !this.env.ANTHROPIC_AUTH_TOKEN) process.env.ANTHROPIC_API_KEY = key;
    const setup = this.view();
    this.broadcast({ type: 'setup', setup });
    return setup;
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
    if (this.held) return { needs_key: false, scripted, key: { source: 'file', last4: lastFour(this.held) }, problem: null };
    try {
      const key = this.keys.read();
      if (key) return { needs_key: false, scripted, key: { source: 'file', last4: lastFour(key) }, problem: null };
      return { needs_key: !scripted, scripted, key: null, problem: null };
    } catch (err) {
      if (!(err instanceof ApiKeyError)) throw err;
      return { needs_key: !scripted, scripted, key: null, problem: err.message };
    }
  }

  /** The key the agents get here, checked with one model-list call (the key itself never reaches a view). */
  async check(): Promise<KeyCheck> {
    let stored: string | null = null;
    try {
      stored = this.keys.read();
    } catch (err) {
      if (!(err instanceof ApiKeyError)) throw err;
      return { ok: false, text: err.message };
    }
    const cred: KeyCredential | null = this.env.ANTHROPIC_API_KEY
      ? { apiKey: this.env.ANTHROPIC_API_KEY }
      : this.env.ANTHROPIC_AUTH_TOKEN
        ? { authToken: this.env.ANTHROPIC_AUTH_TOKEN }
        : (this.held ?? stored)
          ? { apiKey: (this.held ?? stored)! }
          : null;
    if (!cred) return { ok: false, text: 'no key is set' };
    return checkKey(cred, this.env.ANTHROPIC_BASE_URL || undefined);
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
    // A key the desktop app keeps encrypted is never replaced by one in clear from a page this host serves.
    const by = this.keys.encryptedBy();
    if (by && by !== this.cipherName) throw new ApiKeyError('The stored key is kept encrypted by the desktop app: change it there (Settings), or press Remove beside the key in Settings first to store one here.');
    this.keys.write(key.trim());
    const setup = this.view();
    this.broadcast({ type: 'setup', setup });
    return setup;
  }

  /** Deletes the stored key; the lead keeps the key it started with until it is restarted. */
  removeKey(): SetupView {
    this.keys.remove();
    if (this.held && process.env.ANTHROPIC_API_KEY === this.held) delete process.env.ANTHROPIC_API_KEY;
    this.held = null;
    const setup = this.view();
    this.broadcast({ type: 'setup', setup });
    return setup;
  }

  /**
   * The key for the agents' environment, only when they cannot read it themselves and this process's
   * environment does not carry it (a held key does): stored encrypted by a cipher this host has. A key stored in
   * clear is read by each `thclaws` from the file, so it is in no process's environment listing.
   */
  envForAgents(): Record<string, string> {
    if (this.env.ANTHROPIC_API_KEY || this.env.ANTHROPIC_AUTH_TOKEN || this.held) return {};
    if (!this.cipherName || this.keys.encryptedBy() !== this.cipherName) return {};
    try {
      const key = this.keys.read();
      return key ? { ANTHROPIC_API_KEY: key } : {};
    } catch {
      return {};
    }
  }
}
