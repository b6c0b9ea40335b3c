/**
 * The memory floor of a spawn (setting `team.minFreeMemoryMb`): a teammate started on a machine short of
 * memory would be killed (or kill others) mid-task, so the spawn is refused before anything is made.
 */
import fs from 'node:fs';
import os from 'node:os';
import { TeamError } from '../store/index.js';
import { loadSettings } from '../agent/settings.js';
import type { TeamSession } from './session.js';

/** Memory the machine can still give without swapping (MemAvailable; the free memory elsewhere), in bytes. */
export function availableMemory(): number {
  try {
    const kb = /^MemAvailable:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux
  }
  return os.freemem();
}

/** Refused while MemAvailable is under the floor (0: no floor). */
export function refuseOnLowMemory(session: TeamSession, name: string): void {
  let floorMb = 256;
  try {
    floorMb = loadSettings(session.projectRoot).settings.team.minFreeMemoryMb;
  } catch {
    // a bad settings file is reported where settings are loaded; the default floor holds meanwhile
  }
  const free = availableMemory();
  if (floorMb > 0 && free < floorMb * 1024 * 1024) {
    throw new TeamError('conflict', `refusing to spawn ${name}: ${Math.round(free / 1048576)} MB of memory free, under the ${floorMb} MB floor (setting team.minFreeMemoryMb): stop a teammate or free memory`);
  }
}
