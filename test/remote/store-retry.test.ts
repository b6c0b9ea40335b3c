/**
 * The store link's failure paths, with the host's StoreServer and a teammate's HostStore in one process over a
 * link this test can cut: a write whose answer is lost with the link is sent again on the next connection with
 * its request id and applied once; a link that stays down past its bound and a stale session both end the
 * teammate's acting as its agent, with the reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRequest } from '../../src/contract/api.js';
import { HostStore } from '../../src/core/store/host-store.js';
import type { StoreLink } from '../../src/core/store/host-link.js';
import { TeamStore, TeamError } from '../../src/core/store/index.js';
import { bumpEpoch } from '../../src/core/teams/protocol.js';
import { StoreServer } from '../../src/main/host/store-server.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function team(): Promise<TeamStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-store-retry-'));
  dirs.push(dir);
  const store = new TeamStore(path.join(dir, 'team'));
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice' }] });
  return store;
}

/** A host (its StoreServer) the teammate reaches over links the test controls. */
function hostFor(store: TeamStore) {
  const server = new StoreServer(store);
  /** `halfOpen`: a cut the host does not notice (its side of the old connection stays attached). */
  /** `mute`: a host that reads nothing and closes nothing (SIGSTOP). */
  const state = { connections: 0, down: false, cutAfterApplying: null as null | string, halfOpen: false, mute: false };
  const connect = async (): Promise<StoreLink> => {
    if (state.down) throw new Error('connect ECONNREFUSED');
    state.connections++;
    const lines: Array<(l: string) => void> = [];
    const closes: Array<() => void> = [];
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      if (!state.halfOpen) void server.detach(peer);
      for (const c of closes.splice(0)) c();
    };
    const peer = { send: (e: unknown) => open && lines.forEach((l) => l(JSON.stringify(e))) };
    return {
      send(line) {
        if (state.mute) return;
        const r = parseRequest(JSON.parse(line));
        if (!r.ok || r.request.type !== 'store') throw new Error(`not a store request: ${line}`);
        const req = r.request;
        void server.serve(peer, req).then((answer) => {
          // The host applied it; the link drops before the answer gets through.
          if (state.cutAfterApplying === req.call.op) {
            state.cutAfterApplying = null;
            return close();
          }
          if (open) for (const l of lines) l(JSON.stringify({ type: 'reply', id: req.id, ok: true, result: answer }));
        });
      },
      onLine: (cb) => void lines.push(cb),
      onClose: (cb) => void closes.push(cb),
      close,
    };
  };
  return { server, state, connect };
}

describe('HostStore through a link that drops', () => {
  it('a write whose answer was lost is sent again with its request id and applied once', async () => {
    const store = await team();
    const host = hostFor(store);
    const mate = new HostStore({ agent: 'alice', connect: host.connect, downMs: 5000 });
    await mate.attach();
    host.state.cutAfterApplying = 'send';
    const sent = await mate.send('alice', 'lead', 'said once');
    expect(host.state.connections).toBe(2);
    const inLead = store.inboxes.list('lead').filter((m) => m.text === 'said once');
    expect(inLead).toHaveLength(1);
    expect(sent[0]!.id).toBe(inLead[0]!.id);
    host.state.cutAfterApplying = 'status_account';
    await mate.statuses.account('alice', { input_tokens: 7, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, null);
    expect((await store.statuses.read('alice'))?.usage?.input_tokens).toBe(7);
    await host.server.close();
  });

  it('the same run attaching again while the host still holds its old connection keeps its lease; another process is refused', async () => {
    const store = await team();
    const host = hostFor(store);
    const mate = new HostStore({ agent: 'alice', connect: host.connect, downMs: 5000 });
    const lease = await mate.attach();
    host.state.halfOpen = true;
    host.state.cutAfterApplying = 'send';
    await mate.send('alice', 'lead', 'across a half-open link');
    expect(host.state.connections).toBe(2);
    expect(lease.lost).toBe(false);
    expect(store.inboxes.list('lead').filter((m) => m.text === 'across a half-open link')).toHaveLength(1);
    const other = new HostStore({ agent: 'alice', connect: host.connect, downMs: 200 });
    await expect(other.attach()).rejects.toThrow(/already attached to this host from another process/);
    await host.server.close();
  });

  it('a link down past its bound: the lease reads lost, saying the host could not be reached', async () => {
    const store = await team();
    const host = hostFor(store);
    const mate = new HostStore({ agent: 'alice', connect: host.connect, downMs: 300 });
    const lease = await mate.attach();
    let why: string | undefined;
    lease.onLost((r) => (why = r));
    host.state.down = true;
    host.state.cutAfterApplying = 'status_write';
    await expect(mate.statuses.write('alice', { status: 'idle' })).rejects.toThrow(/could not be reached/);
    expect(lease.lost).toBe(true);
    expect(why).toMatch(/the lead's host could not be reached/);
    await host.server.close();
  });

  it('a host that reads nothing and keeps the link open (stopped): the write fails past its bound and the lease reads lost', async () => {
    const store = await team();
    const host = hostFor(store);
    const mate = new HostStore({ agent: 'alice', connect: host.connect, downMs: 5000, answerMs: 300 });
    const lease = await mate.attach();
    host.state.mute = true;
    const t0 = Date.now();
    await expect(mate.statuses.write('alice', { status: 'idle' })).rejects.toThrow(/the lead's host did not answer status_write for 0.3 s \(stopped or stalled\)/);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(lease.lost).toBe(true);
    await host.server.close();
  });

  it('a host that does not serve store requests (an older one) is one clear line at attach', async () => {
    const lines: Array<(l: string) => void> = [];
    const older: StoreLink = {
      // What an older host answers a request type it does not know (parseRequest's error).
      send: (line) => {
        const { id } = JSON.parse(line) as { id: number };
        queueMicrotask(() => lines.forEach((l) => l(JSON.stringify({ type: 'reply', id, ok: false, error: 'invalid request: type: Invalid input' }))));
      },
      onLine: (cb) => void lines.push(cb),
      onClose: () => undefined,
      close: () => undefined,
    };
    const mate = new HostStore({ agent: 'alice', connect: async () => older });
    await expect(mate.attach()).rejects.toThrow("the lead's host refused attach: invalid request: type: Invalid input");
  });

  it('a stale session: the write is refused with stale_epoch, the lease reads lost, the status says why', async () => {
    const store = await team();
    const host = hostFor(store);
    const mate = new HostStore({ agent: 'alice', connect: host.connect });
    const lease = await mate.attach();
    await mate.statuses.write('alice', { status: 'idle', boot_id: lease.boot_id });
    await bumpEpoch(store, randomUUID());
    const err = await mate.statuses.write('alice', { status: 'working' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TeamError);
    expect((err as TeamError).code).toBe('stale_epoch');
    expect(lease.lost).toBe(true);
    const st = await store.statuses.read('alice');
    expect(st?.status).toBe('stopped');
    expect(String((st as Record<string, unknown>).last_error)).toMatch(/is stale/);
    // Nothing more goes through: the next call fails at once with the same reason.
    await expect(mate.send('alice', 'lead', 'late')).rejects.toThrow(/is stale/);
    expect(store.inboxes.list('lead')).toHaveLength(0);
    await host.server.close();
  });
});
