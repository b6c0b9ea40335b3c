/**
 * One temporary root per test run, removed at its end: every test (and every process it starts) makes its
 * folders under `os.tmpdir()`, which reads TMPDIR — set here before the workers start, so they inherit it.
 * Used by vitest and Playwright (globalSetup). Without it a run left ~30 folders per file in /tmp, 40,000 after a day of runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-run-'));
  // As /tmp is: the remote tests' second local user reaches folders made here.
  fs.chmodSync(root, 0o1777);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
