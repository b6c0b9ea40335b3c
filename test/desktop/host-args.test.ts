/**
 * `thclaws host` refuses a timing it cannot use (negative, not a whole number of ms) in one line with exit 2,
 * before it takes the workspace's lease or starts a lead: nothing is left running for a typo.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, scrubbedEnv } from '../agent/helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-args-'));
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-args-home-'));
const rt = fs.mkdtempSync(path.join(os.tmpdir(), 'host-args-rt-'));
afterAll(() => {
  for (const d of [dir, home, rt]) fs.rmSync(d, { recursive: true, force: true });
});

describe('thclaws host, bad timings', () => {
  for (const [flag, value] of [['--exit-unused-ms', '-5'], ['--exit-unused-ms', 'abc'], ['--exit-unused-ms', '1.5'], ['--idle-ms', '-1'], ['--idle-ms', 'x']] as const) {
    it(`${flag} ${value}: one line, exit 2, no host`, async () => {
      const r = await runCli(['host', '--dir', dir, '--no-lead', flag, value], { cwd: dir, env: scrubbedEnv(home, { XDG_RUNTIME_DIR: rt }), timeoutMs: 20_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`thclaws: invalid ${flag} ${JSON.stringify(value)}\n`);
      // No host came up: nothing listens in the runtime dir.
      const files = fs.readdirSync(rt, { recursive: true }).map(String);
      expect(files.filter((f) => f.endsWith('.sock'))).toEqual([]);
    });
  }
});
