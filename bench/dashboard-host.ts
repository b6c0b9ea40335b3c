/**
 * The dashboard bench's workspace host, as its own process: `startHostDaemon` over the workspace (no lead),
 * as `thclaws host` runs it, plus the bench's spawn commands on stdin (as in dashboard-server.ts):
 *   spawn <agent> <json argv>
 * Prints `READY <pid>` once serving and `SPAWNED <agent>` after each spawn. A dashboard started with
 * `--via-host` is then a client of it, as the default `thclaws dashboard` is.
 */
import { startHostDaemon } from '../src/main/daemon/host-daemon.js';
import { openHostManager } from '../src/main/daemon/open-host.js';
import { serveSpawnCommands } from './spawn-commands.js';

const workspace = process.argv[2]!;
const daemon = await startHostDaemon({ workspace, idleMs: 0, open: (ws) => openHostManager(ws, { startLead: false, extra: { hostPid: process.pid } }) });
process.stdout.write(`READY ${process.pid}\n`);
serveSpawnCommands(() => daemon.manager.host, () => daemon.close('bench done'));
