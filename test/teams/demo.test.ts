/** `npm run demo` stays the README's first command: it must finish a whole team and show the merged tree. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ensureBuilt, REPO } from '../agent/helpers.js';

beforeAll(ensureBuilt, 120_000);

it('the demo runs a whole team to a merged tree and exits 0', () => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'scripts/demo.mjs')], { encoding: 'utf8', timeout: 90_000, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/backend\s+completed task #1/);
  expect(r.stdout).toMatch(/qa\s+completed task #3/);
  const tree = r.stdout.slice(r.stdout.indexOf('merged tree:'));
  expect(tree).toContain('api/server.js');
  expect(tree).toContain('ui/index.html');
}, 120_000);
