/**
 * A real OS process acting on the team store, for the multi-process suites and the bench.
 * Usage: node --import tsx worker.ts <mode> <teamDir> [args…]; prints one JSON line per result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TeamStore } from '../../src/core/store/index.js';
import { withLock } from '../../src/core/store/lock.js';
import { answerApproval } from '../../src/core/teams/approvals.js';

const [mode, dir, ...args] = process.argv.slice(2);
const store = new TeamStore(dir!);
const out = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => process.hrtime.bigint().toString(); // CLOCK_MONOTONIC: comparable across processes

/**
 * Resolves once `file` exists. A watch on its directory wakes every waiting process together when it appears
 * (what a race start needs) without polling: eight processes each polling every millisecond took the CPU the
 * test itself needed on a loaded machine. A slow poll covers a missed event. The directory going away means
 * the test that made it is gone: the worker exits rather than wait for ever.
 */
function untilExists(file: string): Promise<void> {
  if (fs.existsSync(file)) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!fs.existsSync(file)) return;
      watcher.close();
      clearInterval(poll);
      resolve();
    };
    const watcher = fs.watch(path.dirname(file), check).on('error', () => process.exit(3));
    const poll = setInterval(() => (fs.existsSync(path.dirname(file)) ? check() : process.exit(3)), 50);
    check();
  });
}

/** Start barrier for benchmarks: wait until THCLAWS_BENCH_GO (a file path) exists, if set. */
async function barrier(): Promise<void> {
  const go = process.env.THCLAWS_BENCH_GO;
  if (!go) return;
  out({ ready: true });
  await untilExists(go);
}

/** Runs `fn`; an error becomes `{ ok: false, code, error }` so the parent sees refusals as data. */
async function settle<T extends object>(fn: () => Promise<T>): Promise<({ ok: true } & T) | { ok: false; code?: string; error: string }> {
  try {
    return { ok: true, ...(await fn()) };
  } catch (err) {
    return { ok: false, code: (err as { code?: string }).code, error: (err as Error).message };
  }
}

/**
 * A stall at the worst moment: inside the lock, after reading, just before the commit's rename. The process
 * stops itself (SIGSTOP) and goes on when the test sends SIGCONT. Works on any store that commits by rename.
 */
function stopBeforeRenameOnto(target: string): void {
  const rename = fs.renameSync;
  let armed = true;
  fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
    if (armed && String(to) === target) {
      armed = false;
      out({ stalled: true, pid: process.pid });
      process.kill(process.pid, 'SIGSTOP');
    }
    return rename(from, to);
  }) as typeof fs.renameSync;
}

async function main(): Promise<void> {
  switch (mode) {
    case 'write': {
      // write <from> <to> <count>: appends and reports every id it wrote
      const [from, to, count] = args;
      const ids: string[] = [];
      await barrier();
      const start = now();
      const t0 = performance.now();
      for (let i = 0; i < Number(count); i++) {
        const [m] = await store.send(from!, to!, `message ${i} from ${from}`);
        ids.push(m!.id);
      }
      out({ ids, ms: performance.now() - t0, start, end: now() });
      break;
    }
    case 'claim': {
      // claim <agent>: as a teammate would — hold the agent's lease, then claim-next and complete until done
      const agent = args[0]!;
      await store.acquireLease(agent);
      const log: Array<{ id: string; claimedAt: number; blockers: string[] }> = [];
      await barrier();
      const cpu0 = process.cpuUsage();
      let idleLoops = 0;
      const start = now();
      const t0 = performance.now();
      for (;;) {
        const t = await store.tasks.claimNext(agent);
        if (t) {
          log.push({ id: t.id, claimedAt: t.updated_at, blockers: t.blocked_by });
          await store.tasks.complete(t.id, agent, `done by ${agent}`);
          continue;
        }
        idleLoops++;
        const all = await store.tasks.list();
        if (all.every((x) => x.status === 'completed')) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      const cpu = process.cpuUsage(cpu0);
      out({ agent, log, ms: performance.now() - t0, start, end: now(), cpu_us: cpu.user + cpu.system, sys_us: cpu.system, idleLoops });
      break;
    }
    case 'send-timed': {
      // send-timed <from> <to> <count> <minGapMs> <maxGapMs>: stamps each message with its send time
      const [from, to, count, minGap, maxGap] = args;
      for (let i = 0; i < Number(count); i++) {
        await sleep(Number(minGap) + Math.random() * (Number(maxGap) - Number(minGap)));
        await store.send(from!, to!, `timed ${i}`, { extra: { sent_ns: now() } });
      }
      out({ sent: Number(count) });
      break;
    }
    case 'idle': {
      // idle <watch|poll500|poll1000> <ms> [warmupMs]: CPU used by a reader waiting on an idle team.
      // The warm-up lets V8's one-off post-start-up GC (memory reducer, ~10-40 ms) pass before measuring.
      const [how, ms, warmup] = args;
      let stop: () => void;
      if (how === 'watch') {
        const w = store.watch();
        w.onChange(() => store.inboxes.unread('reader'));
        stop = () => w.close();
      } else {
        const t = setInterval(() => store.inboxes.unread('reader'), how === 'poll500' ? 500 : 1000);
        stop = () => clearInterval(t);
      }
      await sleep(Number(warmup ?? 0));
      const before = process.cpuUsage();
      await sleep(Number(ms));
      const used = process.cpuUsage(before);
      stop();
      out({ how, cpu_us: used.user + used.system });
      break;
    }
    case 'hold-lock': {
      // hold-lock <file>: takes the lock, says so, and never lets go (the test SIGKILLs us)
      await withLock(args[0]!, async () => {
        out({ locked: true, pid: process.pid });
        await new Promise(() => setInterval(() => {}, 1000));
      }, { journal: store.journal });
      break;
    }
    case 'lease': {
      // lease <agent>: holds the agent lease until killed, or reports the refusal
      await barrier();
      try {
        const lease = await store.acquireLease(args[0]!);
        lease.onLost?.((reason) => out({ lost: true, reason }));
        out({ leased: true, pid: process.pid, boot_id: lease.boot_id });
        setInterval(() => {}, 1000);
      } catch (err) {
        out({ leased: false, error: (err as Error).message });
      }
      break;
    }
    case 'send-once': {
      // send-once <from> <to> [stallAt]: one send, reported as acknowledged or refused (never thrown);
      // with stallAt, the process stops itself (SIGSTOP) just before its first rename onto that path.
      const [from, to, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ id: (await store.send(from!, to!, `from ${from} pid ${process.pid}`))[0]!.id })));
      break;
    }
    case 'claim-once': {
      // claim-once <agent> <taskId> [stallAt] [complete]: a one-shot claim (no lease of its own), optionally
      // stopping itself before the rename onto stallAt, then optionally completing the task.
      const [agent, id, stallAt, complete] = args;
      if (stallAt && stallAt !== '-') stopBeforeRenameOnto(stallAt);
      await barrier();
      const r = await settle(async () => ({ owner: (await store.tasks.claim(id!, agent!)).owner }));
      out(r);
      if (r.ok && complete) out(await settle(async () => ({ status: (await store.tasks.complete(id!, agent!)).status })));
      break;
    }
    // The one-shot operations below each take [stallAt] last: the process stops itself (SIGSTOP) just
    // before its first rename onto that path, i.e. inside the operation's lock, after it read the file.
    case 'answer-once': {
      // answer-once <from> <requestId> <allow|deny> [stallAt]: answers a pending approval once
      const [from, id, verdict, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ to: (await answerApproval(store, from!, id!, { allow: verdict === 'allow' })).message.to })));
      break;
    }
    case 'complete-once': {
      // complete-once <agent> <taskId> [stallAt]: completes the task as the agent (no lease of its own)
      const [agent, id, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ status: (await store.tasks.complete(id!, agent!, `done by pid ${process.pid}`)).status })));
      break;
    }
    case 'create-once': {
      // create-once <subject> [stallAt]: creates one task and reports its id
      const [subject, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ id: (await store.tasks.create({ subject: subject!, description: '' })).id })));
      break;
    }
    case 'mark-read-once': {
      // mark-read-once <agent> <messageId> [stallAt]: consumes one message; reports how many it marked read
      const [agent, id, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ marked: await store.inboxes.markRead(agent!, [id!]) })));
      break;
    }
    case 'serve-once': {
      // serve-once <agent> <spawnId> [stallAt]: claims a spawn request for this host; reports whether it got it
      const [agent, spawnId, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ served: await store.spawnRequests.claim(agent!, spawnId!, `host pid ${process.pid}`) })));
      break;
    }
    case 'account-once': {
      // account-once <agent> [stallAt]: adds one call's usage (1 input token, $0.001)
      const [agent, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      const usage = { input_tokens: 1, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      out(await settle(async () => ({ tokens: (await store.statuses.account(agent!, usage, 0.001)).usage?.input_tokens })));
      break;
    }
    case 'status-once': {
      // status-once <agent> <json> [stallAt]: one status write (a booting teammate's first status)
      const [agent, json, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ status: (await store.statuses.write(agent!, JSON.parse(json!))).status })));
      break;
    }
    case 'add-member-once': {
      // add-member-once <name> [stallAt]: adds one member to the team config
      const [name, stallAt] = args;
      if (stallAt) stopBeforeRenameOnto(stallAt);
      out(await settle(async () => ({ members: (await store.config.addMember({ name: name!, role: '', prompt: '' })).members.length })));
      break;
    }
    case 'append-rounds': {
      // append-rounds <from> <to> <rounds> <goDir>: in round r, waits for <goDir>/<r>, sends once, reports
      const [from, to, rounds, goDir] = args;
      for (let r = 0; r < Number(rounds); r++) {
        const go = `${goDir}/${r}`;
        await untilExists(go);
        out({ round: r, ...(await settle(async () => ({ id: (await store.send(from!, to!, `round ${r} from ${from}`))[0]!.id }))) });
      }
      break;
    }
    case 'lease-claim': {
      // lease-claim <agent> <taskId> [goFile]: as a teammate — hold the lease, say "working", claim the task;
      // with goFile, wait for it to exist, then complete the task and report the outcome. Stays alive.
      const [agent, id, go] = args;
      const lease = await store.acquireLease(agent!);
      lease.onLost((reason) => out({ lost: true, reason }));
      await store.statuses.write(agent!, { status: 'working', pid: process.pid, current_task: id! });
      out(await settle(async () => ({ owner: (await store.tasks.claim(id!, agent!)).owner, pid: process.pid })));
      if (go) {
        await untilExists(go);
        out(await settle(async () => ({ status: (await store.tasks.complete(id!, agent!, `done by pid ${process.pid}`)).status })));
      }
      setInterval(() => {}, 1000);
      break;
    }
    case 'account': {
      // account <agent> <calls>: adds one call's usage (1/2/3/4 tokens, $0.001) <calls> times, with a heartbeat-style
      // status write between calls (the merges must never drop a count)
      const [agent, calls] = args;
      for (let i = 0; i < Number(calls); i++) {
        await store.statuses.account(agent!, { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 3, cache_read_input_tokens: 4 }, 0.001);
        if (i % 5 === 0) await store.statuses.write(agent!, { status: 'working', pid: process.pid }, { durable: false });
      }
      out({ done: true });
      break;
    }
    case 'lock-wait': {
      // lock-wait <file>: says it is about to wait, then reports when (CLOCK_MONOTONIC) it got the lock
      out({ waiting: true });
      await withLock(args[0]!, () => out({ acquired_ns: now() }), { journal: store.journal });
      break;
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
