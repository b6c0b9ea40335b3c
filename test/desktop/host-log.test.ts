/**
 * The host's log in the user's runtime dir (one per workspace, `host-<hash>.log`), with real detached hosts:
 * bounded while it runs (rotated past 1 MiB, one previous part kept), rotated at start when an earlier one grew
 * past the cap (a smaller one is appended to), removed when the host exits cleanly, kept when the host is killed so
 * a person can read why.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { connectOrStartHost } from '../../src/main/daemon/host-client.js';
import { MAX_HOST_LOG } from '../../src/main/daemon/host-log.js';
import { hostPaths } from '../../src/main/daemon/runtime-dir.js';
import { HOST_PROTOCOL } from '../../src/contract/api.js';
import { THCLAWS, waitFor } from './helpers.js';
import { pidAlive } from '../../src/core/store/holder.js';

const execFileP = promisify(execFile);
describe("the host's log in the runtime dir", () => {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-hostlog-')));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-hostlog-rt-')) };
  const paths = hostPaths(ws, env);
  const pids: number[] = [];
  const start = async () => {
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead'], { client: 'test', env, timeoutMs: 60_000 });
    c.close();
    pids.push(c.pid);
    return c.pid;
  };
  const size = (f: string) => fs.statSync(f, { throwIfNoEntry: false })?.size ?? -1;

  afterAll(async () => {
    await execFileP(THCLAWS, ['host', '--stop', '--dir', ws], { env }).catch(() => undefined);
    for (const pid of pids) if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
  }, 60_000);

  it('an earlier log past the cap is rotated at start; a running host keeps its log under the cap; a clean exit removes it', async () => {
    fs.writeFileSync(paths.log, `${'an old host wrote this\n'.repeat(Math.ceil((MAX_HOST_LOG * 2) / 23))}`);
    const pid = await start();
    expect(fs.readFileSync(`${paths.log}.1`, 'utf8')).toMatch(/^an old host wrote this\n/);
    expect(fs.readFileSync(paths.log, 'utf8')).toContain(`thclaws host ready (pid ${pid})`);

    // A client that sends 3 MiB of lines that are not JSON: each is refused and logged (80 characters of it).
    const lines = 20_000;
    const sock = net.connect(paths.socket);
    let replies = 0;
    // One line back per line sent (after the welcome): a reply saying it is not JSON.
    sock.on('data', (d: Buffer) => (replies += d.toString().split('\n').length - 1));
    sock.write(`${JSON.stringify({ type: 'hello', protocol: HOST_PROTOCOL, client: 'test' })}\n`);
    sock.write(`${'x'.repeat(150)}\n`.repeat(lines));
    await waitFor(() => replies >= lines + 1, 'every line refused', 120_000);
    sock.destroy();
    // Both parts bounded (a line may pass the cap before it is checked); the newest lines are in the log.
    expect(size(paths.log)).toBeLessThanOrEqual(MAX_HOST_LOG + 1024);
    expect(size(`${paths.log}.1`)).toBeGreaterThan(MAX_HOST_LOG);
    expect(size(`${paths.log}.1`)).toBeLessThanOrEqual(MAX_HOST_LOG + 1024);
    expect(fs.readFileSync(paths.log, 'utf8')).toMatch(/refused a malformed message \(not JSON\) from a client: x{80}\n$/);

    await execFileP(THCLAWS, ['host', '--stop', '--dir', ws], { env });
    await waitFor(() => !pidAlive(pid), 'the host gone', 60_000);
    await waitFor(() => !fs.existsSync(paths.log) && !fs.existsSync(`${paths.log}.1`), 'the log removed after the clean exit', 30_000);
  }, 240_000);

  it('a killed host leaves its log for a person to read, still in that file after the next host started', async () => {
    const pid = await start();
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !pidAlive(pid), 'the host gone', 30_000);
    expect(fs.readFileSync(paths.log, 'utf8')).toContain(`thclaws host ready (pid ${pid})`);
    // A page reconnecting starts the next host: a log under the cap is appended to, not rotated away, so the
    // file a failed start names (`see <log>`) still says what happened to the one before.
    const next = await start();
    const log = fs.readFileSync(paths.log, 'utf8');
    expect(log.indexOf(`thclaws host ready (pid ${pid})`)).toBeGreaterThanOrEqual(0);
    expect(log.indexOf(`thclaws host ready (pid ${next})`)).toBeGreaterThan(log.indexOf(`thclaws host ready (pid ${pid})`));
    expect(fs.existsSync(`${paths.log}.1`)).toBe(false);
  }, 120_000);
});
