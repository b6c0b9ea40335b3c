import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BYTES, readSavedOutput } from './saved-output.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-saved-'));
  dirs.push(ws);
  fs.mkdirSync(path.join(ws, '.thclaws/sessions/s1.outputs'), { recursive: true });
  return ws;
}

describe('the expander reads a saved tool output of this workspace only', () => {
  it('by its two names, whether the pane wrote it relative or absolute (a worktree teammate)', () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, '.thclaws/sessions/s1.outputs/Bash-t1.txt'), 'row 1\nrow 2\n');
    expect(readSavedOutput(ws, '.thclaws/sessions/s1.outputs/Bash-t1.txt')).toEqual({ name: 'Bash-t1.txt', text: 'row 1\nrow 2\n', bytes: 12, cut: false });
    // An absolute name from another folder is read from this workspace all the same (the name is only a key).
    expect(readSavedOutput(ws, '/elsewhere/w/.thclaws/sessions/s1.outputs/Bash-t1.txt').text).toBe('row 1\nrow 2\n');
  });

  it('refuses a name that is not a saved output, a climb, a symlink, and says when it is gone', () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, 'secret.txt'), 'no');
    for (const bad of ['/etc/passwd', '.thclaws/sessions/s1.outputs/../../../secret.txt', '.thclaws/sessions/../s1.outputs/x.txt', '.thclaws/sessions/s1.outputs/x.json', 'x.outputs/a.txt'])
      expect(() => readSavedOutput(ws, bad), bad).toThrow(/^not a saved tool output: /);
    fs.symlinkSync(path.join(ws, 'secret.txt'), path.join(ws, '.thclaws/sessions/s1.outputs/link.txt'));
    expect(() => readSavedOutput(ws, '.thclaws/sessions/s1.outputs/link.txt')).toThrow(/link.txt is not a regular file/);
    expect(() => readSavedOutput(ws, '.thclaws/sessions/s1.outputs/gone.txt')).toThrow(/gone.txt is no longer in this workspace's \.thclaws\/sessions/);
  });

  it('refuses a sessions or .outputs folder turned into a symlink that leads out of the workspace', () => {
    const ws = workspace();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-outside-'));
    dirs.push(outside);
    fs.mkdirSync(path.join(outside, 's2.outputs'));
    fs.writeFileSync(path.join(outside, 's2.outputs/secret.txt'), 'the key');
    fs.symlinkSync(path.join(outside, 's2.outputs'), path.join(ws, '.thclaws/sessions/s2.outputs'));
    expect(() => readSavedOutput(ws, '.thclaws/sessions/s2.outputs/secret.txt')).toThrow(/^secret.txt is not in this workspace's \.thclaws\/sessions \(a symlink leads out\)$/);
    // The whole sessions folder a symlink to another one.
    fs.rmSync(path.join(ws, '.thclaws/sessions'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, '.thclaws/sessions'));
    expect(() => readSavedOutput(ws, '.thclaws/sessions/s2.outputs/secret.txt')).toThrow(/a symlink leads out/);
  });

  it('reads the workspace reached through a symlink, and refuses a FIFO at once (no hang waiting for a writer)', () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, '.thclaws/sessions/s1.outputs/Bash-t1.txt'), 'row 1\n');
    const via = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-via-')), 'ws');
    dirs.push(path.dirname(via));
    fs.symlinkSync(ws, via);
    expect(readSavedOutput(via, '.thclaws/sessions/s1.outputs/Bash-t1.txt').text).toBe('row 1\n');
    execFileSync('mkfifo', [path.join(ws, '.thclaws/sessions/s1.outputs/pipe.txt')]);
    expect(() => readSavedOutput(ws, '.thclaws/sessions/s1.outputs/pipe.txt')).toThrow(/pipe.txt is not a regular file/);
  });

  it('sends at most MAX_BYTES and says it cut', () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, '.thclaws/sessions/s1.outputs/big.txt'), 'a'.repeat(MAX_BYTES + 10));
    const r = readSavedOutput(ws, '.thclaws/sessions/s1.outputs/big.txt');
    expect(r).toMatchObject({ bytes: MAX_BYTES + 10, cut: true });
    expect(r.text.length).toBe(MAX_BYTES);
  });
});
