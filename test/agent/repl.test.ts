import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { scrubbedEnv } from './helpers.js';
import { PtySession } from './pty.js';

const PROMPT = 'thclaws> ';

describe('REPL in a real pseudo-terminal', () => {
  let dir: string;
  let fake: FakeAnthropic;
  const sessions: PtySession[] = [];
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });
  afterEach(async () => {
    for (const s of sessions.splice(0)) s.kill();
  });

  const start = (args: string[], env: Record<string, string> = {}) => {
    const s = new PtySession(args, { cwd: dir, env: scrubbedEnv(dir, env) });
    sessions.push(s);
    return s;
  };

  it('anthropic: prompt → streamed answer → permission question answered → tool result', async () => {
    fake.enqueue(
      { text: 'I will create the file now.', toolUses: [{ name: 'Write', input: { path: 'notes.txt', content: 'remember\n' } }], chunkDelayMs: 5 },
      { text: 'Created notes.txt for you.' },
    );
    const s = start([], { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
    await s.waitFor(PROMPT);
    s.type('please write a note\r');
    await s.waitFor('I will create the file now.');
    await s.waitFor('Allow Write: write notes.txt (9 bytes)? [y]es / [n]o / [a]lways');
    expect(existsSync(path.join(dir, 'notes.txt'))).toBe(false);
    s.type('y\r');
    await s.waitFor('wrote 9 bytes to notes.txt');
    await s.waitFor('Created notes.txt for you.');
    await s.waitFor(PROMPT);
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('remember\n');
    expect(fake.requests).toHaveLength(2);
    s.type('/model claude-haiku-4-5\r');
    await s.waitFor('model: claude-haiku-4-5 (provider anthropic)');
    await s.waitFor(PROMPT);
    fake.enqueue({ toolUses: [{ name: 'Bash', input: { command: 'echo should-not-run > ran.txt' } }] });
    s.type('again\r');
    await s.waitFor('Allow Bash: run: echo should-not-run');
    s.type('\x03'); // Ctrl-C at the question aborts the turn; nothing runs
    await s.waitFor('(turn aborted)');
    await s.waitFor(PROMPT);
    expect(existsSync(path.join(dir, 'ran.txt'))).toBe(false);
    expect(fake.requests[2]!.body.model).toBe('claude-haiku-4-5');
    s.type('/quit\r');
    expect((await s.exited).exitCode).toBe(0);
  });

  it('scripted: "no" refuses the tool; "always" stops asking for that command prefix only, and is stored', async () => {
    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        rules: [
          { match: 'first', turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'echo ran-first > first.txt' } }] }, { text: 'ok first' }] },
          { match: 'second', turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'echo ran-second' } }] }, { text: 'ok second' }] },
          { match: 'third', turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'echo ran-second ran-third' } }] }, { text: 'ok third' }] },
          { match: 'fourth', turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'printf other' } }] }, { text: 'ok fourth' }] },
        ],
      }),
    );
    const s = start(['--script', script]);
    await s.waitFor(PROMPT);
    s.type('first\r');
    await s.waitFor('Allow Bash: run: echo ran-first');
    s.type('n\r');
    await s.waitFor('permission denied: the user denied this action');
    await s.waitFor('ok first');
    expect(existsSync(path.join(dir, 'first.txt'))).toBe(false);
    await s.waitFor(PROMPT);
    s.type('second\r');
    await s.waitFor('Allow Bash: run: echo ran-second? [y]es / [n]o / [a]lways allow Bash(echo ran-second:*)');
    s.type('a\r');
    await s.waitFor('ran-second');
    await s.waitFor(PROMPT);
    s.type('third\r');
    await s.waitFor('ran-third');
    await s.waitFor('ok third');
    expect(s.output).not.toContain('Allow Bash: run: echo ran-second ran-third');
    await s.waitFor(PROMPT);
    s.type('fourth\r');
    await s.waitFor('Allow Bash: run: printf other');
    s.type('n\r');
    await s.waitFor('ok fourth');
    expect(JSON.parse(readFileSync(path.join(dir, '.thclaws/settings.local.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(echo ran-second:*)'] } });
    s.type('\x04'); // Ctrl-D exits
    expect((await s.exited).exitCode).toBe(0);
  });

  it('permissions.ask: a call an allow rule covers still asks, every time, without an "always" choice; deny refuses without asking', async () => {
    mkdirSync(path.join(dir, '.thclaws'), { recursive: true });
    writeFileSync(
      path.join(dir, '.thclaws/settings.local.json'),
      JSON.stringify({ permissions: { allow: ['Bash'], ask: ['Bash(git push:*)'], deny: ['Bash(rm:*)'] } }),
    );
    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        rules: [
          { match: 'one', turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'echo free > free.txt' } }, { name: 'Bash', input: { command: 'echo x > pushed.txt; git push origin' } }] }, { text: 'ok one' }] },
          { match: 'two', turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'rm -f free.txt' } }] }, { text: 'ok two' }] },
        ],
      }),
    );
    // The allow rule loosens, so the folder is trusted (HOME is the temp dir); ask and deny need no trust.
    mkdirSync(path.join(dir, '.config/thclaws'), { recursive: true });
    writeFileSync(path.join(dir, '.config/thclaws/trusted-folders.json'), JSON.stringify({ folders: [dir] }));
    const s = start(['--script', script]);
    await s.waitFor(PROMPT);
    s.type('one\r');
    await s.waitFor('Allow Bash: run: echo x > pushed.txt; git push origin? (the rule Bash(git push:*) asks each time) [y]es / [n]o: ');
    expect(existsSync(path.join(dir, 'free.txt'))).toBe(true);
    s.type('a\r');
    await s.waitFor('please answer y or n');
    s.type('n\r');
    await s.waitFor('ok one');
    expect(existsSync(path.join(dir, 'pushed.txt'))).toBe(false);
    await s.waitFor(PROMPT);
    s.type('two\r');
    await s.waitFor('Bash is refused by the rule Bash(rm:*) in settings permissions.deny');
    await s.waitFor('ok two');
    expect(existsSync(path.join(dir, 'free.txt'))).toBe(true);
    s.type('\x04');
    expect((await s.exited).exitCode).toBe(0);
  });

  it('thinking: a dimmed live line that collapses to a summary; /thinking shows it whole', async () => {
    fake.enqueue({ thinking: [{ thinking: 'Considering the question carefully.', signature: 'sig' }], text: 'The answer is 42.' });
    const s = start([], { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
    await s.waitFor(PROMPT);
    s.type('think\r');
    await s.waitFor('The answer is 42.');
    const ESC = '\x1b';
    expect(s.output).toContain(`${ESC}[2m✻ thinking… Considering the question carefully.${ESC}[0m`);
    expect(s.output.replace(/\r/g, '')).toContain(`${ESC}[2m✻ thought for 4 words · /thinking shows it${ESC}[0m\nThe answer is 42.`);
    await s.waitFor(PROMPT);
    s.type('/thinking\r');
    await s.waitFor('\nConsidering the question carefully.');
    s.type('/quit\r');
    await s.exited;
  });

  it('folder trust: one question before project settings may loosen permissions; the answer is stored in the user config', async () => {
    mkdirSync(path.join(dir, '.thclaws'), { recursive: true });
    writeFileSync(path.join(dir, '.thclaws/settings.json'), JSON.stringify({ permissionMode: 'auto' }));
    const trustFile = path.join(dir, '.config/thclaws/trusted-folders.json');
    const no = start(['--provider', 'scripted']);
    await no.waitFor(`Do you trust the files in ${dir}? [y/N]`);
    expect(no.output).toContain('settings.json: permissionMode');
    no.type('n\r');
    await no.waitFor('is not a trusted folder: ignoring project settings that loosen permissions');
    await no.waitFor('asks before Write/Edit/Bash');
    no.type('/quit\r');
    await no.exited;
    expect(existsSync(trustFile)).toBe(false);
    const yes = start(['--provider', 'scripted']);
    await yes.waitFor('Do you trust the files in');
    yes.type('y\r');
    await yes.waitFor('no permission prompts');
    yes.type('/quit\r');
    await yes.exited;
    expect(JSON.parse(readFileSync(trustFile, 'utf8'))).toEqual({ folders: [dir] });
    // Asked once: a trusted folder starts without the question.
    const again = start(['--provider', 'scripted']);
    await again.waitFor('no permission prompts');
    expect(again.output).not.toContain('Do you trust');
    again.type('/quit\r');
    await again.exited;
  });

  it('Ctrl-C aborts the running turn, not the process', async () => {
    const script = path.join(dir, 'slow.json');
    writeFileSync(
      script,
      JSON.stringify({
        rules: [
          { match: 'slow', turns: [{ text: 'tick '.repeat(200), delay_ms: 50 }] },
          { match: 'quick', turns: [{ text: 'still here' }] },
        ],
      }),
    );
    const s = start(['--script', script]);
    await s.waitFor(PROMPT);
    s.type('slow\r');
    await s.waitFor('tick tick ');
    s.type('\x03');
    await s.waitFor('(turn aborted)');
    await s.waitFor(PROMPT);
    s.type('quick\r');
    await s.waitFor('still here');
    await s.waitFor(PROMPT);
    const before = readdirSync(path.join(dir, '.thclaws/sessions'));
    expect(before).toHaveLength(1);
    s.type('/clear\r');
    await s.waitFor('conversation cleared; new session ');
    await s.waitFor(PROMPT);
    const after = readdirSync(path.join(dir, '.thclaws/sessions'));
    expect(after).toHaveLength(2);
    // The old transcript keeps the conversation; the new one starts empty (meta line only).
    const fresh = after.find((f) => !before.includes(f))!;
    expect(readFileSync(path.join(dir, '.thclaws/sessions', fresh), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(readFileSync(path.join(dir, '.thclaws/sessions', before[0]!), 'utf8')).toContain('still here');
    s.type('/help\r');
    await s.waitFor('/model');
    await s.waitFor(PROMPT);
    s.type('/quit\r');
    expect((await s.exited).exitCode).toBe(0);
  });
});
