/**
 * Add member's Where, as the dashboard sends it to a real host: it offers only the user's hosts a member can run
 * on (never a project's, never the reserved name "local"), and "local" from the form places the member on this
 * machine as SpawnTeammate's "local" does — its config names no host, so the form does not describe a clone elsewhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { openHostView, type HostView } from '../host-view.js';
import { makeTeamWorkspace } from './helpers.js';

let view: HostView | undefined;
const homes: string[] = [];
afterEach(async () => {
  await view?.close();
  view = undefined;
  for (const d of homes.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const host = { ssh: 'nobody@127.0.0.1', dir: '~/w', maxTeammates: 1 };

describe("Add member's Where", () => {
  it("offers the user's hosts but not a project's nor one named local, and stores local as this machine", async () => {
    const ws = makeTeamWorkspace(['bob']);
    fs.mkdirSync(path.join(ws, '.thclaws'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.thclaws/settings.json'), JSON.stringify({ teamEnabled: true, hosts: { theirs: host } }));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'member-where-'));
    homes.push(home, ws);
    fs.mkdirSync(path.join(home, 'cfg/thclaws'), { recursive: true });
    fs.writeFileSync(path.join(home, 'cfg/thclaws/settings.json'), JSON.stringify({ hosts: { local: host, m1: host } }));
    view = await openHostView(ws, { home });
    const hosts = [...view.events].reverse().find((e) => e.type === 'settings');
    expect(hosts && 'hosts' in hosts ? hosts.hosts : null).toEqual(['m1']);
    const added = await view.call({ type: 'member_add', name: 'gil', spec: { role: 'builder', host: 'local' } });
    expect(added.ok, String(added.error)).toBe(true);
    const gil = (await new TeamStore(view.host.store.dir).config.require()).members.find((m) => m.name === 'gil');
    expect(gil?.host ?? null).toBeNull();
  });
});
