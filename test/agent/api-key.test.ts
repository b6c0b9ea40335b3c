/**
 * The person's stored model key: kept in their config dir with mode 0600, refused when it has the wrong
 * shape or others can read its file (one sentence saying what to do), encrypted at rest through a cipher
 * (the desktop app's safeStorage; here a real AES cipher from node:crypto), and read by `thclaws` itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyError, ApiKeyStore, credentialsPath, keyShapeProblem, resolveApiKey } from '../../src/core/agent/api-key.js';
import { aesTestCipher } from '../aes-cipher.js';
import { FakeAnthropic } from './fake-anthropic.js';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from './helpers.js';

const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-wxyz';

let home: { dir: string; cleanup(): void };
beforeEach(() => {
  home = tempDir('thclaws-key-');
});
afterEach(() => home.cleanup());

const env = () => ({ HOME: home.dir, XDG_CONFIG_HOME: path.join(home.dir, 'cfg') });

describe('ApiKeyStore', () => {
  it('writes the key into the config dir only, mode 0600, and reads it back', () => {
    const store = new ApiKeyStore({ env: env() });
    expect(store.file).toBe(path.join(home.dir, 'cfg', 'thclaws', 'credentials.json'));
    expect(store.write(KEY)).toEqual({ last4: 'wxyz' });
    expect(fs.statSync(store.file).mode & 0o777).toBe(0o600);
    expect(store.read()).toBe(KEY);
    expect(resolveApiKey(env(), store)).toEqual({ key: KEY, source: 'file' });
    // The environment wins over the file.
    expect(resolveApiKey({ ...env(), ANTHROPIC_API_KEY: 'from-env' }, store)).toEqual({ key: 'from-env', source: 'env' });
  });

  it('the file is 0600 whatever the umask, even over a leftover temp file that others could read', () => {
    const old = process.umask(0o000);
    try {
      const store = new ApiKeyStore({ env: env() });
      fs.mkdirSync(path.dirname(store.file), { recursive: true });
      fs.writeFileSync(`${store.file}.${process.pid}.tmp`, 'old', { mode: 0o644 });
      store.write(KEY);
      expect(fs.statSync(store.file).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  it('refuses a key of the wrong shape with one sentence, and writes nothing', () => {
    const store = new ApiKeyStore({ env: env() });
    for (const bad of ['hello', 'sk-proj-1234567890abcdefghijklmn', `${KEY} extra`, 'sk-ant-api03-short']) {
      expect(() => store.write(bad)).toThrow(ApiKeyError);
      expect(keyShapeProblem(bad)).toMatch(/^[A-Z].*\.$/);
      expect(keyShapeProblem(bad)!.split('\n')).toHaveLength(1);
    }
    expect(fs.existsSync(store.file)).toBe(false);
  });

  it('refuses a key file that others can read, saying how to fix it', () => {
    const store = new ApiKeyStore({ env: env() });
    store.write(KEY);
    fs.chmodSync(store.file, 0o644);
    expect(() => store.read()).toThrow(`run chmod 600 ${store.file}`);
    fs.chmodSync(store.file, 0o600);
    expect(store.read()).toBe(KEY);
  });

  it('a key file holding JSON that is not an object, or a key of the wrong shape, is refused with one sentence', () => {
    const store = new ApiKeyStore({ env: env() });
    fs.mkdirSync(path.dirname(store.file), { recursive: true });
    for (const body of ['null', '[]', '"sk"', JSON.stringify({ anthropic_api_key: `${KEY}\n` }), JSON.stringify({ anthropic_api_key: 42 })]) {
      fs.writeFileSync(store.file, body, { mode: 0o600 });
      expect(() => store.read(), body).toThrow(ApiKeyError);
      try {
        store.read();
      } catch (err) {
        expect((err as Error).message.split('\n'), body).toHaveLength(1);
        expect((err as Error).message).not.toContain(KEY.slice(8));
      }
    }
  });

  it('with a cipher (the desktop keychain) the file never holds the key in clear', () => {
    const cipher = aesTestCipher('test-aes');
    const store = new ApiKeyStore({ env: env(), cipher });
    store.write(KEY);
    expect(fs.readFileSync(store.file, 'utf8')).not.toContain(KEY.slice(10));
    expect(store.read()).toBe(KEY);
    // Without the keychain (the CLI in a terminal) it says what to do instead of failing obscurely.
    expect(() => new ApiKeyStore({ env: env() }).read()).toThrow(/encrypted by the desktop app's keychain: set ANTHROPIC_API_KEY/);
    // Its advice is one a browser dashboard follows: it refuses a key over the encrypted one until that is removed.
    expect(() => new ApiKeyStore({ env: env() }).read()).toThrow(/press Remove beside the key in Settings, then add the key again/);
  });
});

describe('thclaws reads the stored key', () => {
  let fake: FakeAnthropic;
  beforeAll(async () => {
    await ensureBuilt();
    fake = await new FakeAnthropic().start();
  }, 120_000);
  afterAll(() => fake.close());

  it('`thclaws -p` with no ANTHROPIC_API_KEY uses the key from the config dir', async () => {
    new ApiKeyStore({ env: env() }).write(KEY);
    fake.enqueue({ text: 'hi from the fake' });
    const r = await runCli(['-p', 'hello'], { cwd: home.dir, env: scrubbedEnv(home.dir, { XDG_CONFIG_HOME: env().XDG_CONFIG_HOME, ANTHROPIC_BASE_URL: fake.url }) });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('hi from the fake');
    // The SDK sends the key as `x-api-key` or a bearer token, depending on its version.
    expect(fake.requests.map((q) => String(q.headers['x-api-key'] ?? q.headers.authorization).replace(/^Bearer /, ''))).toContain(KEY);
    expect(credentialsPath(env())).toBe(path.join(env().XDG_CONFIG_HOME, 'thclaws', 'credentials.json'));
  });

  it('a key file others can read is refused: one line, exit 2, no request made', async () => {
    const store = new ApiKeyStore({ env: env() });
    store.write(KEY);
    fs.chmodSync(store.file, 0o640);
    const before = fake.requests.length;
    const r = await runCli(['-p', 'hello'], { cwd: home.dir, env: scrubbedEnv(home.dir, { XDG_CONFIG_HOME: env().XDG_CONFIG_HOME, ANTHROPIC_BASE_URL: fake.url }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`thclaws: The key file ${store.file} can be read by other users: run chmod 600 ${store.file}, or delete it and add the key again.\n`);
    expect(fake.requests.length).toBe(before);
  });
});
