/**
 * Team store benchmark: delivery latency (watch vs 500/1000 ms polling), contended claims and appends with
 * 8 real processes, idle watcher CPU, inbox append cost at 10 vs 10,000 messages, and what the spend history
 * adds to accounting one model call.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../src/core/store/fsio.js';
import { createInboxConsumer, MAX_SPEND_CALLS, TeamStore } from '../src/core/store/index.js';
import { Statuses } from '../src/core/store/status.js';
import { startWorker, tempDir } from '../test/team/helpers.js';
import { round, summarize } from './stats.js';
import type { BenchSection } from './types.js';

const dirs: string[] = [];
async function newTeam(members: string[]): Promise<TeamStore> {
  const ws = tempDir('thclaws-bench-');
  dirs.push(ws);
  const store = TeamStore.forWorkspace(ws, {});
  store.init();
  await store.config.create({ name: 'bench', members: members.map((name) => ({ name })) });
  return store;
}
const hr = () => process.hrtime.bigint();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Latency from just before the sender's append to the reader holding the message. */
async function delivery(mode: 'watch' | 'chokidar' | 500 | 1000, count: number): Promise<number[]> {
  const store = await newTeam(['reader', 'sender']);
  const consumer = createInboxConsumer(store, 'reader');
  const latencies: number[] = [];
  const collect = () => {
    const t = hr();
    for (const m of consumer.take()) latencies.push(Number(t - BigInt(String(m.sent_ns))) / 1e6);
  };
  let stop: () => void;
  if (mode === 'watch') {
    const w = store.watch();
    w.onChange((e) => e.kind === 'inbox' && e.agent === 'reader' && collect());
    stop = () => w.close();
  } else if (mode === 'chokidar') {
    // The library alternative to our fs.watch feed, for comparison (it stats each event and throttles `change`).
    const { watch } = await import('chokidar');
    const w = watch(store.paths.inboxesDir, { ignoreInitial: true });
    w.on('all', (_ev, file) => file.endsWith('reader.json') && collect());
    await new Promise<void>((r) => w.once('ready', () => r()));
    stop = () => void w.close();
  } else {
    const t = setInterval(collect, mode);
    stop = () => clearInterval(t);
  }
  await startWorker('send-timed', store.dir, 'sender', 'reader', String(count), '20', '120').done();
  await sleep(typeof mode === 'number' ? mode + 50 : 100);
  collect();
  stop();
  return latencies;
}

/** Milliseconds from re-creating the tasks dir (rm -rf + mkdir + a task file) to the feed's event for it. */
async function recreatedDirLatency(rounds: number): Promise<number[]> {
  const store = await newTeam(['a']);
  const w = store.watch({ safetyPollMs: 0 });
  const out: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      fs.rmSync(store.paths.tasksDir, { recursive: true, force: true });
      await sleep(5);
      const got = new Promise<number>((resolve) => {
        const off = w.onChange((e) => {
          if (e.key === `task:${i + 1}`) {
            off();
            resolve(performance.now());
          }
        });
      });
      fs.mkdirSync(store.paths.tasksDir);
      const t0 = performance.now();
      fs.writeFileSync(path.join(store.paths.tasksDir, `${i + 1}.json`), '{}');
      out.push((await Promise.race([got, sleep(5000).then(() => Infinity)])) - t0);
    }
  } finally {
    w.close();
  }
  return out;
}

/** Runs `n` workers behind a start barrier so process start-up is not timed. */
async function contended(mode: 'claim' | 'write', store: TeamStore, n: number, args: (i: number) => string[]) {
  const go = path.join(path.dirname(store.dir), 'go');
  process.env.THCLAWS_BENCH_GO = go;
  const workers = Array.from({ length: n }, (_, i) => startWorker(mode, store.dir, ...args(i)));
  delete process.env.THCLAWS_BENCH_GO;
  for (const w of workers) await w.nextLine();
  fs.writeFileSync(go, '');
  const results = (await Promise.all(workers.map((w) => w.done()))).map((l) => l[0] as { start: string; end: string; ids?: string[]; log?: Array<{ id: string }> });
  const start = results.map((r) => BigInt(r.start)).reduce((a, b) => (a < b ? a : b));
  const end = results.map((r) => BigInt(r.end)).reduce((a, b) => (a > b ? a : b));
  return { seconds: Number(end - start) / 1e9, results };
}

/** Mean ms per append into an inbox holding `existing` read messages; `bounded: false` = thClaws-style RMW of the whole array. */
async function appendCost(existing: number, bounded: boolean, samples = 200): Promise<number> {
  const store = await newTeam(['a', 'b']);
  const now = Date.now();
  const msgs = Array.from({ length: existing }, (_, i) => ({ id: `m${i}`, from: 'a', to: 'b', text: `message number ${i} with some body text`, summary: null, timestamp: now, read: true }));
  fs.writeFileSync(store.paths.inbox('b'), JSON.stringify(msgs, null, 1));
  if (bounded) await store.send('a', 'b', 'warm-up (archives the excess once)');
  const t0 = performance.now();
  for (let i = 0; i < samples; i++) {
    if (bounded) await store.send('a', 'b', `append ${i}`);
    else {
      const arr = JSON.parse(fs.readFileSync(store.paths.inbox('b'), 'utf8')) as unknown[];
      arr.push({ id: `x${i}`, from: 'a', to: 'b', text: `append ${i}`, timestamp: Date.now(), read: false });
      writeFileAtomic(store.paths.inbox('b'), JSON.stringify(arr, null, 2));
    }
  }
  return (performance.now() - t0) / samples;
}

/**
 * Side by side with an older checkout (THCLAWS_BENCH_BASELINE=<dir>, e.g. `git archive <commit> | tar -x -C
 * <dir>` plus a node_modules link): contended claims and appends, alternating old and new runs so that load
 * drift on a shared machine hits both alike. Reports medians and the median of the pairwise ratios.
 */
function sideBySide(baseline: string, pairs: number): { old: Array<Record<string, number>>; new: Array<Record<string, number>> } {
  const run = (root: string) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'store-contended.ts'), root], { encoding: 'utf8', cwd: path.join(import.meta.dirname, '..') });
    if (r.status !== 0) throw new Error(`store-contended ${root}: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>;
  };
  const out = { old: [] as Array<Record<string, number>>, new: [] as Array<Record<string, number>> };
  for (let i = 0; i < pairs; i++) {
    out.old.push(run(baseline));
    out.new.push(run(path.join(import.meta.dirname, '..')));
  }
  return out;
}

const median = (v: number[]) => summarize(v).p50;

/** Mean ms to account one model call: the status totals alone, or with the spend history (full: 500 calls). */
export async function accountCost(withHistory: boolean, samples = 200): Promise<number> {
  const store = await newTeam(['alice']);
  const call = { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  fs.mkdirSync(store.paths.agentDir('alice'), { recursive: true });
  fs.writeFileSync(store.paths.spend('alice'), JSON.stringify({ calls: Array.from({ length: MAX_SPEND_CALLS }, (_, i) => ({ at: Date.now() + i, tokens: 1100, usd: 0.0045 })) }));
  const statuses = withHistory ? store.statuses : new Statuses(store.paths, store.journal);
  for (let i = 0; i < 10; i++) await statuses.account('alice', call, 0.0045);
  const t = hr();
  for (let i = 0; i < samples; i++) await statuses.account('alice', call, 0.0045);
  return Number(hr() - t) / 1e6 / samples;
}

export async function runTeamStoreBench(): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  const details: Record<string, unknown> = {};
  try {
    for (const mode of ['watch', 'chokidar', 500, 1000] as const) {
      const s = summarize(await delivery(mode, typeof mode === 'number' ? 60 : 150));
      const label = mode === 'watch' ? 'watch-driven (our fs.watch feed)' : mode === 'chokidar' ? 'watch-driven via chokidar 5' : `polling ${mode} ms`;
      details[`delivery_${mode}`] = s;
      rows.push({ metric: `delivery ${label}`, value: `p50 ${round(s.p50)} ms / p99 ${round(s.p99)} ms`, n: s.n, target: mode === 'watch' ? 'p50 <= 5, p99 <= 50 ms' : 'baseline' });
    }

    const re = summarize(await recreatedDirLatency(50));
    details.recreated_dir = re;
    rows.push({ metric: 'event after the tasks dir is removed and re-created', value: `p50 ${round(re.p50)} ms / p99 ${round(re.p99)} ms`, n: re.n, target: '<= 50 ms' });

    const claimers = Array.from({ length: 8 }, (_, i) => `c${i}`);
    const cStore = await newTeam(claimers);
    // 150 claims per process, so the figure is steady state rather than JIT warm-up.
    for (let i = 0; i < 1200; i++) await cStore.tasks.create({ subject: `t${i}`, description: '' });
    const claims = await contended('claim', cStore, 8, (i) => [claimers[i]!]);
    const claimed = claims.results.flatMap((r) => r.log!.map((e) => e.id));
    const doubles = claimed.length - new Set(claimed).size;
    details.claims = { seconds: claims.seconds, claimed: claimed.length, doubles };
    rows.push({ metric: 'claims/s, 8 processes (claim+complete, 1200 tasks)', value: round(claimed.length / claims.seconds, 0), n: claimed.length, target: `>= 300, double claims: ${doubles}` });

    // A reader consumes as in real use (unread messages are never archived, so an unread backlog grows the file).
    const wStore = await newTeam(['reader', ...claimers]);
    const consumer = createInboxConsumer(wStore, 'reader');
    const feed = wStore.watch();
    let acking = Promise.resolve();
    feed.onChange((e) => {
      if (e.kind === 'inbox' && e.agent === 'reader') acking = acking.then(() => consumer.ack(consumer.take().map((m) => m.id)));
    });
    const writes = await contended('write', wStore, 8, (i) => [claimers[i]!, 'reader', '200']);
    feed.close();
    await acking;
    const written = writes.results.flatMap((r) => r.ids!).length;
    details.appends = { seconds: writes.seconds, written };
    rows.push({ metric: 'inbox appends/s, 8 writer processes + 1 reader, one inbox', value: round(written / writes.seconds, 0), n: written, target: '-' });

    const iStore = await newTeam(['reader']);
    const idle = await Promise.all((['watch', 'poll500', 'poll1000'] as const).map((how) => startWorker('idle', iStore.dir, how, '10000', '10000').done()));
    for (const [line] of idle) {
      const { how, cpu_us } = line as { how: string; cpu_us: number };
      details[`idle_${how}`] = cpu_us;
      rows.push({ metric: `idle CPU over 10 s: ${how === 'watch' ? 'watcher' : how.replace('poll', 'polling ') + ' ms'}`, value: `${round(cpu_us / 1000, 1)} ms (${round(cpu_us / 1e5, 3)} % of a core)`, n: 1, target: how === 'watch' ? '< 1 % of a core' : 'baseline' });
    }

    const small = await appendCost(10, true);
    const large = await appendCost(10_000, true);
    const naive = await appendCost(10_000, false, 50);
    details.append_cost = { small, large, naive_10k: naive };
    rows.push({ metric: 'append cost, inbox of 10 messages', value: `${round(small)} ms`, n: 200, target: '-' });
    rows.push({ metric: 'append cost, inbox of 10,000 messages (bounded)', value: `${round(large)} ms (${round(large / small)}x)`, n: 200, target: '<= 2x of 10' });
    rows.push({ metric: 'append cost, 10,000 messages, unbounded array (thClaws-style)', value: `${round(naive)} ms (${round(naive / small)}x)`, n: 50, target: 'baseline' });

    const bare = await accountCost(false);
    const withHistory = await accountCost(true);
    details.account_cost = { bare, with_history: withHistory };
    rows.push({ metric: 'account one model call: status totals only', value: `${round(bare)} ms`, n: 200, target: 'baseline' });
    rows.push({ metric: 'account one model call: + spend history of 500 calls', value: `${round(withHistory)} ms (+${round(withHistory - bare)} ms)`, n: 200, target: '< 5 ms added (a model call takes seconds)' });

    const baseline = process.env.THCLAWS_BENCH_BASELINE;
    if (baseline) {
      const ab = sideBySide(path.resolve(baseline), Number(process.env.THCLAWS_BENCH_PAIRS ?? 5));
      details.side_by_side = { baseline, ...ab };
      for (const [key, label] of [
        ['claims_per_s', 'claims/s, 8 processes, 600 tasks'],
        ['appends_per_s', 'appends/s, 8 writers + 1 reader'],
      ] as const) {
        const o = ab.old.map((r) => r[key]!);
        const n = ab.new.map((r) => r[key]!);
        const ratio = median(n.map((v, i) => v / o[i]!));
        rows.push({
          metric: `side by side, ${label}: baseline vs this (medians of ${o.length} alternating runs)`,
          value: `${round(median(o), 0)} vs ${round(median(n), 0)} (pairwise ratio ${round(ratio)})`,
          n: o.length,
          target: 'ratio >= 0.75',
        });
      }
    }
  } finally {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
  return { title: 'Team store', file: 'team-store', rows, details };
}
