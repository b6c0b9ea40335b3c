/**
 * A bad `--remote` is one line on stderr with exit 2, before any ssh runs (no sshd needed): the dashboard and the
 * doctor both name the flag and what they expected.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { THCLAWS } from '../desktop/helpers.js';

it.each([['dashboard'], ['doctor']])('thclaws %s --remote with a URL that is not ssh://: one line, exit 2', (cmd) => {
  const r = spawnSync(THCLAWS, [cmd, '--remote', 'http://devbox/srv/app'], { encoding: 'utf8', env: { ...process.env, THCLAWS_SSH: '/bin/false' } });
  expect(r.status).toBe(2);
  expect(r.stderr).toBe('thclaws: --remote: invalid remote "http://devbox/srv/app": only ssh:// is understood (expected ssh://[user@]host[:port]/path or [user@]host:path)\n');
  expect(r.stdout).toBe('');
});

it('thclaws doctor without --remote checks this machine, as before', () => {
  const r = spawnSync(THCLAWS, ['doctor'], { encoding: 'utf8' });
  expect([0, 1]).toContain(r.status);
  expect(r.stdout).toMatch(/^(ok     |MISSING)  git +/m);
  expect(r.stderr).toBe('');
});
