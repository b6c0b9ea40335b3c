/**
 * The dashboard bench's workspace host, as its own process: `startHostDaemon` over the workspace (no lead),
 * as `thclaws host` runs it, plus the bench's spawn commands on stdin (as in dashboard-server.ts):
 *   spawn <agent> <json argv>
 * Prints `READY <pid>` once serving and `SPAWNED <agent>` after each spawn. A dashboard started with
 * `--via-host` is then a client of it, as the default `thclaws dashboard` is.
 */
import { createInterface } from 'node:readline';
import { startHostDaemon } from '../src/main/daemon/host-daemon.js';
import { openHostManager } from '../src/main/daemon/open-host.js';

const workspace = process.argv[2]!;
const daemon = await startHostDaemon({ workspace, idleMs: 0, open: (ws) => openHostManager(ws, { startLead: false, extra: { hostPid: process.pid } }) });
process.stdout.write(`READY ${process.pid}\n`);
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = /^spawn (\S+) (.+)$/.exec(line);
  if (!m) return;
  const host = daemon.manager.host;
  const run = async () => {
    const running = host.launcher.get(m[1]!);
    if (running) {
      running.kill('SIGKILL');
      await running.exited;
    }
    await host.spawn(m[1]!, JSON.parse(m[2]!) as string[]);
    process.stdout.write(`SPAWNED ${m[1]}\n`);
  };
  void run().catch((err: Error) => process.stdout.write(`ERROR ${err.message}\n`));
});
rl.on('close', () => void daemon.close('bench done').then(() => process.exit(0)));
