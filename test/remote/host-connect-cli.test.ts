/**
 * `thclaws host connect` as a person meets it on the remote: listed and described in the help, and bad input is
 * one line with a non-zero exit, before anything starts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { THCLAWS } from '../desktop/helpers.js';

const cli = (args: string[]) => spawnSync(THCLAWS, args, { encoding: 'utf8', input: '', timeout: 30_000 });

describe('thclaws host connect', () => {
  it('is listed under thclaws host and says what it is for; --stdio is described', () => {
    const host = cli(['host', '--help']);
    expect(host.stdout.replace(/\s+/g, ' ')).toContain("connect [options] bridge the workspace's host (started when none runs) to stdin/stdout");
    const connect = cli(['host', 'connect', '--help']);
    expect(connect.stdout).toMatch(/--stdio\s+over stdin\/stdout \(the only transport\)/);
    expect(connect.stdout).toContain('--no-lead');
  });

  it('bad input is one line and a non-zero exit: no --stdio, a missing folder, a bad --idle-ms', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thcr-cli-'));
    try {
      const runs = [cli(['host', 'connect', '--dir', ws]), cli(['host', 'connect', '--stdio', '--dir', path.join(ws, 'nope')]), cli(['host', 'connect', '--stdio', '--dir', ws, '--idle-ms', 'soon'])];
      expect(runs.map((r) => [r.status, r.stderr])).toEqual([
        [2, 'thclaws: thclaws host connect needs --stdio (the only transport)\n'],
        [1, `thclaws: no folder ${path.join(ws, 'nope')} on ${os.hostname()}\n`],
        [2, 'thclaws: invalid --idle-ms "soon"\n'],
      ]);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
