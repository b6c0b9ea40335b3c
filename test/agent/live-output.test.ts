/**
 * A long Bash in the REPL, in a real pseudo-terminal (issue 32, item 4): its last lines show and update while
 * it runs (inside the OS sandbox), the result names the saved whole output, Ctrl-O shows it, and a command
 * killed by Ctrl-C stops its tail.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeApiWorkspace } from './harness.js';
import { scrubbedEnv } from './helpers.js';
import { PtySession } from './pty.js';

const PROMPT = 'thclaws> ';
const ROWS = 40;

describe('live output of a running command (REPL in a pty)', () => {
  let dir: string;
  const sessions: PtySession[] = [];
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir } = w) });
  afterEach(() => {
    for (const s of sessions.splice(0)) s.kill();
  });

  const start = (turns: unknown[]) => {
    const script = path.join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ rules: [{ match: 'go', turns }] }));
    const s = new PtySession(['--script', script, '--permission-mode', 'bypassPermissions'], { cwd: dir, env: scrubbedEnv(dir) });
    sessions.push(s);
    return s;
  };

  it('shows the tail while the command runs, then the first lines, the saved whole and Ctrl-O', async () => {
    // The command prints its rows, then waits for the test: what the pane shows before the end is checked then.
    const command =
      `(touch .thclaws/escape 2>/dev/null && echo sandbox-off) || echo in-sandbox; ` +
      `for i in $(seq 1 ${ROWS}); do echo "row $i"; done; while [ ! -e release ]; do sleep 0.05; done; echo fin''ished`;
    const s = start([{ tool_calls: [{ name: 'Bash', input: { command } }] }, { text: 'all done' }]);
    await s.waitFor(PROMPT);
    s.type('go\r');
    await s.waitFor('● Bash');
    await s.waitFor('running ·');
    await s.waitFor(`row ${ROWS}`);
    // Still running: the result is not printed, and the tail holds the last rows only.
    expect(s.pending()).not.toContain('⎿');
    expect(s.output).not.toContain('finished');
    expect(s.output).toContain(`│ row ${ROWS - 1}`);
    writeFileSync(path.join(dir, 'release'), '');
    await s.waitFor('⎿ in-sandbox');
    await s.waitFor(`… ${ROWS + 2 - 6 + 1} more lines (Ctrl-O shows them · all in `);
    const saved = /all in (\S+\.txt)\)/.exec(s.pending() + s.output.slice(-400))?.[1];
    expect(saved, s.output.slice(-400)).toBeDefined();
    expect(saved!).toMatch(/^\.thclaws\/sessions\/[^/]+\.outputs\/Bash-.+\.txt$/);
    const whole = readFileSync(path.join(dir, saved!), 'utf8');
    expect(whole).toContain('row 1\nrow 2\n');
    expect(whole).toContain(`row ${ROWS}\nfinished\n[exit code 0]`);
    await s.waitFor('all done');
    await s.waitFor(PROMPT);
    expect(existsSync(path.join(dir, '.thclaws/escape'))).toBe(false);
    s.type('\x0f'); // Ctrl-O at the prompt
    await s.waitFor('── Bash output, whole ──');
    await s.waitFor('row 1\r\n');
    await s.waitFor(`row ${ROWS}`);
    await s.waitFor('── end of Bash output ──');
    await s.waitFor(PROMPT);
    // Ctrl-O typed nothing into the line: the next prompt runs as typed.
    s.type('/quit\r');
    expect((await s.exited).exitCode).toBe(0);
  }, 60_000);

  it('a command killed by Ctrl-C stops its tail', async () => {
    const command = `i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.05; done`;
    const s = start([{ tool_calls: [{ name: 'Bash', input: { command } }] }, { text: 'never' }]);
    await s.waitFor(PROMPT);
    s.type('go\r');
    await s.waitFor('running ·');
    await s.waitFor('│ tick 3');
    s.type('\x03');
    await s.waitFor('[command aborted by the user]');
    await s.waitFor(PROMPT);
    // Nothing of the tail is painted after the prompt, though the command printed every 50 ms.
    s.type('/help\r');
    await s.waitFor('/quit');
    await s.waitFor(PROMPT);
    const afterAbort = s.output.slice(s.output.lastIndexOf('[command aborted by the user]'));
    expect(afterAbort).not.toMatch(/running ·|│ tick/);
    s.type('/quit\r');
    expect((await s.exited).exitCode).toBe(0);
  }, 60_000);
});
