/** The spawn's memory floor reads what the machine can still give (MemAvailable) against the setting. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { availableMemory, refuseOnLowMemory } from './memory-floor.js';
import type { TeamSession } from './session.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function project(team?: Record<string, unknown>): TeamSession {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'floor-'));
  dirs.push(dir);
  if (team) {
    fs.mkdirSync(path.join(dir, '.thclaws'));
    fs.writeFileSync(path.join(dir, '.thclaws', 'settings.json'), JSON.stringify({ team }));
  }
  return { projectRoot: dir } as TeamSession;
}

describe('the memory floor', () => {
  it("is MemAvailable where the kernel says it (Linux), else the OS's free memory", () => {
    const kb = fs.existsSync('/proc/meminfo') ? /^MemAvailable:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1] : undefined;
    const expected = kb ? Number(kb) * 1024 : os.freemem();
    expect(Math.abs(availableMemory() - expected)).toBeLessThan(256 * 1024 * 1024);
  });

  it('refuses under the floor, naming the setting; the default and 0 let a spawn through', () => {
    expect(() => refuseOnLowMemory(project({ minFreeMemoryMb: 1_048_576 }), 'alice')).toThrow(/^refusing to spawn alice: \d+ MB of memory free, under the 1048576 MB floor \(setting team\.minFreeMemoryMb\): stop a teammate or free memory$/);
    expect(() => refuseOnLowMemory(project(), 'alice')).not.toThrow();
    expect(() => refuseOnLowMemory(project({ minFreeMemoryMb: 0 }), 'alice')).not.toThrow();
    // A floor just above what is free refuses: the comparison is in bytes of the same unit.
    const mb = Math.ceil(availableMemory() / 1048576) + 64;
    expect(() => refuseOnLowMemory(project({ minFreeMemoryMb: mb }), 'alice')).toThrow(`under the ${mb} MB floor`);
  });
});
