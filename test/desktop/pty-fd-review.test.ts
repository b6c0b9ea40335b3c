/**
 * Hostile review of the pty wrapper: a pty's child must hold no other pane's pty master. One that does can
 * type into that pane (its agent reads it as the person's keystrokes), and keeps that master open after the
 * host dies, so the other pane's wrapper — which waits for the host without a timeout — never ends.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { PtyProcess } from '../../src/core/teams/launchers/pty-process.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() };

function collect(p: PtyProcess): { text(): string } {
  let out = '';
  p.onData((d) => (out += d));
  return { text: () => out };
}

describe.runIf(process.platform === 'linux')('a pty child holds no other pane\'s pty master', () => {
  it('the second pane\'s child has only its own terminal open (no /dev/ptmx of the first pane)', async () => {
    const first = new PtyProcess(['cat'], { cwd: os.tmpdir(), env });
    try {
      const second = new PtyProcess(['sh', '-c', 'for f in /proc/$$/fd/*; do printf "%s -> %s\\n" "$f" "$(readlink "$f")"; done'], { cwd: os.tmpdir(), env });
      const out = collect(second);
      expect(await second.exited).toEqual({ code: 0, signal: null });
      expect(out.text()).toMatch(/\/dev\/pts\//);
      expect(out.text()).not.toMatch(/ptmx/);
    } finally {
      first.kill('SIGKILL');
      await first.exited;
    }
  });

  it('a child of one pane cannot type into another pane through an inherited master', async () => {
    const victim = new PtyProcess(['cat'], { cwd: os.tmpdir(), env });
    const seen = collect(victim);
    try {
      // Writes to every inherited fd that is a pty master (the fd itself: reopening /dev/ptmx makes a new pty): what lands there is the victim's keyboard input.
      const intruder = new PtyProcess(['bash', '-c', 'for f in /proc/$$/fd/*; do case "$(readlink "$f")" in */ptmx) eval "echo INJECTED-KEYSTROKES >&${f##*/}";; esac; done; echo intruder-done'], { cwd: os.tmpdir(), env });
      const out = collect(intruder);
      await intruder.exited;
      expect(out.text()).toMatch(/intruder-done/);
      // The victim's echo of anything typed arrives before its own end marker: end it and read everything.
      victim.write('victim-end\r');
      victim.write('\x04');
      await victim.exited;
      expect(seen.text()).toMatch(/victim-end/);
      expect(seen.text()).not.toMatch(/INJECTED-KEYSTROKES/);
    } finally {
      victim.kill('SIGKILL');
    }
  });
});
