import { ApiKeyStore, type KeyCipher } from '../../core/agent/api-key.js';

/**
 * The desktop app's model key: encrypted at rest by Electron's safeStorage (a `KeyCipher`), which only
 * Electron's main process can use. Main encrypts a key the page saves before it reaches the disk, and hands
 * the decrypted key to each host it connects to in memory (`key_hold` on the host's socket): the host, plain
 * Node, never needs safeStorage and never writes the key.
 */
export class DesktopKeys {
  readonly store: ApiKeyStore;

  constructor(cipher: KeyCipher, env: NodeJS.ProcessEnv = process.env) {
    this.store = new ApiKeyStore({ env, cipher });
  }

  /** The stored key, decrypted; null when there is none or it cannot be used (the host's view then says why). */
  current(): string | null {
    try {
      return this.store.read();
    } catch {
      return null;
    }
  }

  /** Checks the key's shape and stores it encrypted (throws ApiKeyError with the sentence to show). */
  save(key: string): string {
    const k = key.trim();
    this.store.write(k);
    return k;
  }
}
