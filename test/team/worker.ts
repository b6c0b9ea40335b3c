/**
 * A real OS process acting on the team store, for the multi-process suites and the bench.
 * Usage: node --import tsx worker.ts <mode> <teamDir> [args…]; prints one JSON line per result.
 */
import { TeamStore } from '../../src/core/team/index.js';
import { withLock } from '../../src/core/team/lock.js';

const [mode, dir, ...args] = process.argv.slice(2);
const store = new TeamStore(dir!);
const out = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);

async function main(): Promise<void> {
  switch (mode) {
    case 'write': {
      // write <from> <to> <count>: appends and reports every id it wrote
      const [from, to, count] = args;
      const ids: string[] = [];
      const t0 = performance.now();
      for (let i = 0; i < Number(count); i++) {
        const [m] = await store.send(from!, to!, `message ${i} from ${from}`);
        ids.push(m!.id);
      }
      out({ ids, ms: performance.now() - t0 });
      break;
    }
    case 'claim': {
      // claim <agent>: claim-next and complete until every task is completed
      const agent = args[0]!;
      const log: Array<{ id: string; claimedAt: number; blockers: string[] }> = [];
      const t0 = performance.now();
      for (;;) {
        const t = await store.tasks.claimNext(agent);
        if (t) {
          log.push({ id: t.id, claimedAt: t.updated_at, blockers: t.blocked_by });
          await store.tasks.complete(t.id, agent, `done by ${agent}`);
          continue;
        }
        const all = await store.tasks.list();
        if (all.every((x) => x.status === 'completed')) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      out({ agent, log, ms: performance.now() - t0 });
      break;
    }
    case 'hold-lock': {
      // hold-lock <file>: takes the lock, says so, and never lets go (the test SIGKILLs us)
      await withLock(args[0]!, async () => {
        out({ locked: true, pid: process.pid });
        await new Promise(() => setInterval(() => {}, 1000));
      });
      break;
    }
    case 'lease': {
      // lease <agent>: holds the agent lease until killed, or reports the refusal
      try {
        const lease = await store.acquireLease(args[0]!);
        out({ leased: true, pid: process.pid, boot_id: lease.boot_id });
        setInterval(() => {}, 1000);
      } catch (err) {
        out({ leased: false, error: (err as Error).message });
      }
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
