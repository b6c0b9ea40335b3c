import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptRemoteEndpoint } from './endpoint.js';

describe('keptRemoteEndpoint', () => {
  it("keeps a remote's port and token in its own 0600 file, named by a digest of the URL (never the URL's own characters)", () => {
    const env = { XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-ep-unit-')) };
    const url = 'ssh://me@box:2222/home/me/a b/../x';
    const first = keptRemoteEndpoint(url, env);
    expect(path.dirname(first.file)).toBe(path.join(env.XDG_RUNTIME_DIR, 'thclaws'));
    expect(path.basename(first.file)).toMatch(/^dashboard-remote-[0-9a-f]{24}\.json$/);
    first.save(43210);
    expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
    const again = keptRemoteEndpoint(url, env);
    expect([again.file, again.port, again.token]).toEqual([first.file, 43210, first.token]);
    // Another remote (or folder there) has its own address.
    expect(keptRemoteEndpoint('ssh://me@box:2222/home/me/y', env).file).not.toBe(first.file);
  });
});
