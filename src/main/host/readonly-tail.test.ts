/**
 * The read-only tail of a teammate this host did not start: the host re-states its reason on every push of
 * the member (each CPU sample, each heartbeat). A reason that did not change must leave the terminal alone —
 * each re-set told every view the pty's size again (200 teammates: 50 `pty_size` events a second, the page
 * busy re-fitting) — while a new reason, or a terminal left without input by a pty that ended, is taken.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../contract/api.js';
import { TeamStore } from '../../core/store/index.js';
import { OutputTail } from './readonly-tail.js';
import { OutputScheduler } from './scheduler.js';
import { AgentTerminal } from './terminal.js';

describe('OutputTail.setReason', () => {
  it('the same reason again sends no view anything; a new reason, or one after a pty ended, is the terminal’s mode', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tail-reason-'));
    try {
      const store = new TeamStore(path.join(dir, 'team'));
      const t = new AgentTerminal('alice', new OutputScheduler());
      const events: HostEvent[] = [];
      const view = { send: (e: HostEvent) => void events.push(e) };
      const tail = new OutputTail(store, t, 'not started by this dashboard');
      t.attach(view);
      t.resize(view, 80, 24);
      const sizes = () => events.filter((e) => e.type === 'pty_size').length;
      const before = sizes();
      expect(before).toBeGreaterThan(0);
      for (let i = 0; i < 50; i++) tail.setReason('not started by this dashboard');
      expect(sizes()).toBe(before);
      expect(t.mode).toEqual({ kind: 'readonly', reason: 'not started by this dashboard' });

      tail.setReason('stopped');
      expect(t.mode).toEqual({ kind: 'readonly', reason: 'stopped' });
      // A pty of this host's ran in this terminal and ended (its launcher leaves no input): the tail takes over again.
      t.setInput({ mode: { kind: 'pty', pid: 1 }, pause: () => {}, resume: () => {} });
      t.setInput(null);
      tail.setReason('stopped');
      expect(t.mode).toEqual({ kind: 'readonly', reason: 'stopped' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
