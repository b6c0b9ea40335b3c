/**
 * The person's model API key, kept in their own config directory (`<config>/thclaws/credentials.json`, mode
 * 0600) — never in a workspace, so it is never committed and never seen by a teammate's sandbox. `thclaws`
 * reads it when `ANTHROPIC_API_KEY` is not set; the dashboard writes it and shows only its last 4 characters.
 * In Electron the file holds the key encrypted by the OS keychain (`safeStorage`) through a `KeyCipher`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Encrypts the key at rest (Electron's safeStorage); without one the file holds it in clear, mode 0600. */
export interface KeyCipher {
  readonly name: string;
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

export class ApiKeyError extends Error {
  override name = 'ApiKeyError';
}

// Anthropic keys: `sk-ant-` then the kind and a long url-safe body (`sk-ant-api03-…`, `sk-ant-oat01-…`).
const KEY_SHAPE = /^sk-ant-[a-z0-9]+-[A-Za-z0-9_-]{20,200}$/;

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'thclaws', 'credentials.json');
}

/** null when the key has the right shape, else one sentence saying what to do. */
export function keyShapeProblem(key: string): string | null {
  if (KEY_SHAPE.test(key)) return null;
  if (/\s/.test(key.trim()) || key.trim() !== key) return 'That key contains spaces or line breaks: paste only the key, which starts with "sk-ant-".';
  return 'That does not look like an Anthropic API key: it should start with "sk-ant-" (create one at console.anthropic.com, then paste it whole).';
}

export function lastFour(key: string): string {
  return key.slice(-4);
}

interface KeyFile {
  anthropic_api_key?: string;
  /** Base64 of the encrypted key, and the cipher that made it. */
  anthropic_api_key_enc?: string;
  cipher?: string;
}

export class ApiKeyStore {
  readonly file: string;

  constructor(opts: { env?: NodeJS.ProcessEnv; file?: string; cipher?: KeyCipher | null } = {}) {
    this.file = opts.file ?? credentialsPath(opts.env);
    this.cipher = opts.cipher ?? null;
  }

  private readonly cipher: KeyCipher | null;

  /** The stored key, or null when there is none. A file others can read is refused, not used. */
  read(): string | null {
    let st: fs.Stats;
    try {
      st = fs.statSync(this.file);
    } catch {
      return null;
    }
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      throw new ApiKeyError(`The key file ${this.file} can be read by other users: run chmod 600 ${this.file}, or delete it and add the key again.`);
    }
    let data: KeyFile;
    try {
      data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as KeyFile;
    } catch {
      throw new ApiKeyError(`The key file ${this.file} is not valid JSON: delete it and add the key again.`);
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ApiKeyError(`The key file ${this.file} does not hold a key: delete it and add the key again.`);
    if (data.anthropic_api_key !== undefined) {
      // Only write() makes this file, and it checks the shape: anything else was edited by hand and would fail every request.
      if (typeof data.anthropic_api_key !== 'string' || keyShapeProblem(data.anthropic_api_key)) {
        throw new ApiKeyError(`The key in ${this.file} does not look like an Anthropic API key: delete the file and add the key again.`);
      }
      return data.anthropic_api_key;
    }
    if (typeof data.anthropic_api_key_enc === 'string') {
      if (!this.cipher || this.cipher.name !== data.cipher) {
        // A browser dashboard refuses to store a key over the desktop's encrypted one: the advice says to remove it first.
        throw new ApiKeyError(`The key in ${this.file} is encrypted by the desktop app's keychain: set ANTHROPIC_API_KEY here, or in a dashboard in a browser press Remove beside the key in Settings, then add the key again (stored in clear, mode 0600, which thclaws reads).`);
      }
      return this.cipher.decrypt(Buffer.from(data.anthropic_api_key_enc, 'base64'));
    }
    return null;
  }

  /** The cipher that encrypted the stored key (the desktop app's), or null: none stored, or stored in clear. */
  encryptedBy(): string | null {
    try {
      const data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as KeyFile;
      return typeof data?.anthropic_api_key_enc === 'string' ? String(data.cipher ?? '?') : null;
    } catch {
      return null;
    }
  }

  /** Checks the key's shape, then writes it (0600 from the first byte: created with that mode, then renamed). */
  write(key: string): { last4: string } {
    const problem = keyShapeProblem(key);
    if (problem) throw new ApiKeyError(problem);
    const data: KeyFile = this.cipher
      ? { anthropic_api_key_enc: this.cipher.encrypt(key).toString('base64'), cipher: this.cipher.name }
      : { anthropic_api_key: key };
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(tmp, 0o600); // a umask never widens it, and an existing temp file gets the mode too
    fs.renameSync(tmp, this.file);
    return { last4: lastFour(key) };
  }

  remove(): void {
    fs.rmSync(this.file, { force: true });
  }
}

/** Where the agent's key comes from: the environment first, then the person's stored key. */
export function resolveApiKey(env: NodeJS.ProcessEnv = process.env, store = new ApiKeyStore({ env })): { key: string; source: 'env' | 'file' } | null {
  if (env.ANTHROPIC_API_KEY) return { key: env.ANTHROPIC_API_KEY, source: 'env' };
  const key = store.read();
  return key ? { key, source: 'file' } : null;
}
