import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bundleForNode } from '../bundle-node.js';
import { FAST_TMP } from '../tmp-dir.js';

const ROUNDS = 150;
const range = (f: (i: number) => string) => Array.from({ length: ROUNDS }, (_, i) => f(i));

describe('the settings file has one writer, locked', () => {
  it('four processes (dashboard form, SDK permission update, the lead\'s and a teammate\'s "always") editing their own keys at once: every edit survives', async () => {
    const worker = bundleForNode('test/desktop/settings-writers-worker.ts');
    const dir = fs.mkdtempSync(path.join(FAST_TMP, 'settings-writers-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const children = ['dashboard', 'sdk', 'always', 'teammate'].map((w) => spawn(process.execPath, [worker, w, dir, String(ROUNDS)], { stdio: ['pipe', 'pipe', 'pipe'] }));
    for (const c of children) onTestFinished(() => void c.kill('SIGKILL'));
    const runs = children.map((c) => {
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const ready = new Promise<void>((resolve) => c.stdout.once('data', () => resolve()));
      const done = new Promise<void>((resolve, reject) => c.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}: ${out}`)))));
      return { ready, done };
    });
    await Promise.all(runs.map((r) => r.ready));
    for (const c of children) c.stdin.end('go\n');
    await Promise.all(runs.map((r) => r.done));
    const read = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, '.thclaws', name), 'utf8'));
    const project = read('settings.json');
    expect(project.checks).toEqual([`echo ${ROUNDS - 1}`]);
    expect(project.permissions.allow).toEqual(range((i) => `Read(a${i})`));
    const local = read('settings.local.json');
    expect(local.permissions.allow).toEqual(range((i) => `Bash(x${i})`));
    expect(local.teammates.alice.allow).toEqual(range((i) => `Bash(t${i})`));
  }, 90_000);
});
