/**
 * A teammate process that gives up during its boot: it writes `stopped` with its own spawn id and pid (what
 * the runtime does when it cannot start), then lingers, so only that status can tell the spawner it failed.
 */
import { TeamStore } from '../../src/core/store/index.js';

const env = process.env;
const store = new TeamStore(env.THCLAWS_TEAM_DIR!);
// Printed first (stdout is output.log, written synchronously): the spawner quotes it once it sees the status.
process.stdout.write(`boot: gave up (pid ${process.pid})\n`);
await store.statuses.write(env.THCLAWS_TEAM_AGENT!, { status: 'stopped', spawn_id: env.THCLAWS_SPAWN_ID, pid: process.pid, last_error: 'gave up at boot' } as never);
setInterval(() => {}, 1000);
