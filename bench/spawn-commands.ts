/**
 * The bench's spawn commands on stdin, for a process that holds a TeamHost (dashboard-server.ts,
 * dashboard-host.ts): `spawn <agent> <json argv>` (re)starts the agent in a host pty and prints
 * `SPAWNED <agent>` (or `ERROR <message>`); `close` runs when stdin ends.
 */
import { createInterface } from 'node:readline';
import type { TeamHost } from '../src/main/host/team-host.js';

export function serveSpawnCommands(host: () => TeamHost, close: () => Promise<unknown>): void {
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const m = /^spawn (\S+) (.+)$/.exec(line);
    if (!m) return;
    const run = async () => {
      const running = host().launcher.get(m[1]!);
      if (running) {
        running.kill('SIGKILL');
        await running.exited;
      }
      await host().spawn(m[1]!, JSON.parse(m[2]!) as string[]);
      process.stdout.write(`SPAWNED ${m[1]}\n`);
    };
    void run().catch((err: Error) => process.stdout.write(`ERROR ${err.message}\n`));
  });
  rl.on('close', () => void close().then(() => process.exit(0)));
}
