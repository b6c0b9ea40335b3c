import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamStore } from './index.js';

let ws: string;
let store: TeamStore;
beforeEach(() => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-config-'));
  store = TeamStore.forWorkspace(ws, {});
  store.init();
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

describe('team config', () => {
  it('a second create is refused and the first team stays as it was', async () => {
    await store.config.create({ name: 'first', members: [{ name: 'alice' }] });
    const before = fs.readFileSync(store.paths.config, 'utf8');
    await expect(store.config.create({ name: 'second', members: [] })).rejects.toMatchObject({ code: 'conflict', message: `a team "first" already exists in ${store.paths.root}` });
    expect(fs.readFileSync(store.paths.config, 'utf8')).toBe(before);
  });

  it('a corrupt config is quarantined (kept aside), not overwritten in place, when a team is created', async () => {
    fs.writeFileSync(store.paths.config, '{ torn');
    await store.config.create({ name: 'fresh', members: [] });
    expect((await store.config.require()).name).toBe('fresh');
    const aside = fs.readdirSync(path.dirname(store.paths.config)).filter((n) => n.startsWith('config.json.corrupt'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(store.paths.config), aside[0]!), 'utf8')).toBe('{ torn');
  });

  it("each member's recorded block of ports (and the lead's) is what the status view gives; none before a spawn", async () => {
    await store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }] });
    expect((await store.status()).members.map((m) => m.ports)).toEqual([null, null, null]);
    await store.config.update((c) => {
      c.lead_ports = { base: 4100, count: 10 };
      c.members[1]!.ports = { base: 4110, count: 10 };
    });
    expect(Object.fromEntries((await store.status()).members.map((m) => [m.name, m.ports]))).toEqual({ lead: { base: 4100, count: 10 }, alice: null, bob: { base: 4110, count: 10 } });
  });

  it('a member name is added once', async () => {
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    await expect(store.config.addMember({ name: 'alice' })).rejects.toMatchObject({ code: 'conflict', message: 'member "alice" already exists' });
    expect((await store.config.require()).members.map((m) => m.name)).toEqual(['alice']);
  });
});
