/**
 * This test process as the lead of team "t": its session on `script`, the members given, a LeadHandler that
 * drains on each wake and records its events; lead and team stopped (and the folder removed) after the test.
 */
import fs from 'node:fs';
import type { TeamStore } from '../../src/core/store/index.js';
import { LeadHandler, type LeadEvent } from '../../src/core/teams/lead-handler.js';
import type { TeamSessionOptions } from '../../src/core/teams/session.js';
import { leadSession, stopLeadAndTeam, writeScript, type Ws } from './helpers.js';

export async function leadTeam(ws: Ws, script: unknown, members: Parameters<TeamStore['config']['create']>[0]['members'], cleanups: Array<() => Promise<void> | void>, opts: Partial<TeamSessionOptions> = {}) {
  const session = leadSession(ws, writeScript(ws, script), opts);
  session.store.init();
  await session.store.config.create({ name: 't', members });
  await session.becomeLead();
  const handler = new LeadHandler(session, { watchdogMs: 500 });
  const events: LeadEvent[] = [];
  handler.onEvent((e) => events.push(e));
  handler.onWake(() => void handler.drain());
  handler.start();
  cleanups.push(() => stopLeadAndTeam(session, handler, ws));
  return { session, handler, events };
}

/** Pids of live (not zombie) processes whose command line holds `marker`. */
export function marked(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => {
      if (!/^\d+$/.test(d)) return false;
      try {
        const st = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        if (st.charAt(st.lastIndexOf(')') + 2) === 'Z') return false;
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}
