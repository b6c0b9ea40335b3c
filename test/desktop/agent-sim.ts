/**
 * A stand-in teammate process for dashboard tests: a real process that takes its lease, heartbeats, claims
 * and completes tasks through the store, prints what it does, and answers typed lines.
 * argv: <name> [--own-output] [--work-ms N] [--lines N] [--stream N]; team dir from THCLAWS_TEAM_DIR.
 * A typed `spend <tokens> <usd|?>` accounts one model call of that size in its status (`?`: unknown price).
 * A typed `status <json>` merges those fields into the status it heartbeats (`{"status":"error","error":"…"}`).
 * `--stream N` prints N frames of screen work (colours, a spinner redrawn in place, screen clears) after ready.
 */
import { createInterface } from 'node:readline';
import { startHeartbeat, TeamStore } from '../../src/core/store/index.js';

const [name, ...rest] = process.argv.slice(2);
if (!name) throw new Error('usage: agent-sim <name>');
const opt = (flag: string, dflt: number) => {
  const i = rest.indexOf(flag);
  return i >= 0 ? Number(rest[i + 1]) : dflt;
};
const store = new TeamStore(process.env.THCLAWS_TEAM_DIR!);
const log = rest.includes('--own-output') ? store.outputs.append(name) : null;
const print = (line: string) => {
  process.stdout.write(line + '\r\n');
  log?.write(line + '\r\n');
};

const lease = await store.acquireLease(name);
const hb = await startHeartbeat(store.statuses, lease, opt('--hb-ms', 500));
print(`[${name}] ready (pid ${process.pid})`);

const frames = opt('--stream', 0);
for (let i = 0; i < frames; i++) {
  const f = `\x1b[1;3${i % 7}m● ${name} step ${i}\x1b[0m reading src/file-${i}.ts ${'·'.repeat(i % 40)}\r\n\x1b[2K⠋ working ${i}\r` + (i % 50 === 49 ? '\x1b[2J\x1b[H' : '');
  process.stdout.write(f);
  log?.write(f);
  await new Promise((r) => setTimeout(r, 4));
}
if (frames) print(`[${name}] stream done`);

let stopping = false;
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const text = line.trim();
  if (text === 'quit') void finish(0);
  else if (text === 'die') process.exit(3);
  else if (text.startsWith('spend ')) {
    const [, tokens, usd] = text.split(' ');
    const usage = { input_tokens: Number(tokens), output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    void store.statuses.account(name, usage, usd === '?' ? null : Number(usd)).then(() => print(`[${name}] spent ${tokens}`));
  }
  else if (text.startsWith('status ')) void hb.patch(JSON.parse(text.slice('status '.length)) as Record<string, unknown>).then(() => print(`[${name}] status set`));
  else print(`[${name}] got: ${text}`);
});

async function finish(code: number) {
  stopping = true;
  await hb.stop();
  await lease.release();
  await log?.close();
  process.exit(code);
}

const workMs = opt('--work-ms', 300);
const lines = opt('--lines', 3);
for (;;) {
  if (stopping) break;
  const task = await store.tasks.claimNext(name).catch(() => null);
  if (!task) {
    await new Promise((r) => setTimeout(r, 200));
    continue;
  }
  await hb.set('working', task.id);
  for (let i = 1; i <= lines; i++) print(`[${name}] #${task.id} ${task.subject}: step ${i}/${lines}`);
  await new Promise((r) => setTimeout(r, workMs));
  await store.tasks.complete(task.id, name, 'done by sim');
  await hb.set('idle', null);
  print(`[${name}] completed #${task.id}`);
}
