/**
 * The dashboard under bench, as its own process (so its CPU is measured alone): opens a workspace in a
 * TeamHost, serves it, and spawns teammates in host ptys on command lines read from stdin:
 *   spawn <agent> <json argv>
 * Prints `URL <url>` once serving and `SPAWNED <agent>` after each spawn. With `--via-host` it is instead a
 * client of the workspace's running host (dashboard-host.ts, which takes the spawn commands), as the default
 * `thclaws dashboard` is, and serves until stdin closes.
 */
import { createInterface } from 'node:readline';
import { runDashboard, runDashboardViaHost } from '../src/main/web/run.js';
import { serveSpawnCommands } from './spawn-commands.js';

const workspace = process.argv[2]!;
if (process.argv[4] === '--via-host') {
  const client = await runDashboardViaHost({ workspace, startLead: false, rendererDir: process.argv[3] });
  process.stdout.write(`URL ${client.url}\n`);
  createInterface({ input: process.stdin }).on('close', () => void client.close().then(() => process.exit(0)));
} else {
  const server = await runDashboard({ workspace, startLead: false, rendererDir: process.argv[3] });
  process.stdout.write(`URL ${server.url}\n`);
  serveSpawnCommands(() => server.manager.host, () => server.close());
}
