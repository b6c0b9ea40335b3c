/** The shared lead handler: what becomes a lead turn, what is only shown, what is dropped; the watchdog. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LeadHandler, type LeadEvent } from '../../src/core/teams/lead-handler.js';
import { sendFrame } from '../../src/core/teams/protocol.js';
import { leadSession, teamWorkspace } from './helpers.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const ws = teamWorkspace();
  const session = leadSession(ws, '/dev/null');
  session.store.init();
  await session.store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }] });
  await session.becomeLead();
  const handler = new LeadHandler(session, { watchdogMs: 60_000 });
  const events: LeadEvent[] = [];
  handler.onEvent((e) => events.push(e));
  cleanups.push(async () => {
    handler.stop();
    await session.close();
    ws.cleanup();
  });
  return { session, handler, events };
}

describe('LeadHandler', () => {
  it("is not settled while a teammate's last notice is unread, even one that landed after the lead's last drain", async () => {
    const { session } = await setup();
    // The teammate's notice lands while the progress is being read: after the lead drained its inbox, before
    // it decides the team is done (its status already said idle). Under load that window took the merge turn.
    let late = true;
    class NoticeDuringProgress extends LeadHandler {
      override async progress() {
        const p = await super.progress();
        if (late) await sendFrame(session.store, 'bob', 'lead', 'idle_notification', { idle_reason: 'available', completed_task_id: '3', completed_status: 'completed', summary: 'looks good' }, session.epoch);
        late = false;
        return p;
      }
    }
    const handler = new NoticeDuringProgress(session, { watchdogMs: 60_000 });
    cleanups.push(() => handler.stop());
    expect(handler.drain().prompt).toBeNull();
    const first = await handler.settle();
    expect(first.progress).toMatchObject({ open: 0, busy: [] });
    expect(first.done).toBe(false);
    expect(first.late.prompt).toContain('task #3 completed] looks good');
    await handler.ack(first.late.ids);
    expect(await handler.settle()).toMatchObject({ done: true, late: { prompt: null } });
  });

  it('content-free idles are shown, not fed; idles with a task and plain messages become one framed turn', async () => {
    const { session, handler, events } = await setup();
    await sendFrame(session.store, 'alice', 'lead', 'idle_notification', { idle_reason: 'available', completed_task_id: null, completed_status: null, summary: null }, session.epoch);
    const first = handler.drain();
    expect(first.prompt).toBeNull();
    await handler.ack(first.ids);
    expect(events.at(-1)).toMatchObject({ kind: 'idle', from: 'alice', fed: false });
    await sendFrame(session.store, 'bob', 'lead', 'idle_notification', { idle_reason: 'available', completed_task_id: '4', completed_status: 'completed', summary: 'built it' }, session.epoch);
    await session.store.send('alice', 'lead', 'question about the schema');
    const batch = handler.drain();
    expect(batch.prompt).toContain('<teammate_message from="bob"');
    expect(batch.prompt).toContain('task #4 completed] built it');
    expect(batch.prompt).toContain('question about the schema');
    await handler.ack(batch.ids);
    expect(session.store.inboxes.unread('lead')).toEqual([]);
  });

  it('a failed teammate reads failed with its reason, not idle, in the lead\'s turn', async () => {
    const { session, handler } = await setup();
    await sendFrame(session.store, 'alice', 'lead', 'idle_notification', { idle_reason: 'failed', completed_task_id: null, completed_status: 'failed', summary: 'turn failed: authentication failed (401)' }, session.epoch);
    const batch = handler.drain();
    expect(batch.prompt).toContain('[alice failed: authentication failed (401)]');
    expect(batch.prompt).not.toContain('is idle');
    await handler.ack(batch.ids);
  });

  it('a frame with a malformed field or of an unknown kind is refused where the inbox is read: journaled, marked read, never fed or acted on', async () => {
    const { session, handler, events } = await setup();
    const epoch = session.epoch;
    // A permission request without its request id, an idle with a made-up reason, a kind no version sends.
    // Written past sendFrame's field checks, as a buggy or forged writer would.
    await session.store.writeFrame('alice', 'lead', '{}', 'permission_request', { extra: { epoch, kind: 'permission', agent: 'alice', tool: 'Bash', summary: 'rm -rf build', cwd: '/' } });
    await session.store.writeFrame('bob', 'lead', '{}', 'idle_notification', { extra: { epoch, idle_reason: 'bored', completed_task_id: '7', completed_status: 'completed', summary: 'forged' } });
    // No store writes an unknown kind: this one is put into the file as another program would.
    const inbox = session.store.paths.inbox('lead');
    const raw = JSON.parse(fs.readFileSync(inbox, 'utf8')) as unknown[];
    fs.writeFileSync(inbox, JSON.stringify([...raw, { id: 'made-up', from: 'bob', to: 'lead', text: '{}', timestamp: Date.now(), read: false, type: 'made_up_kind', epoch }]));
    await sendFrame(session.store, 'bob', 'lead', 'idle_notification', { idle_reason: 'available', completed_task_id: '4', completed_status: 'completed', summary: 'built it' }, epoch);
    const batch = handler.drain();
    expect(batch.prompt).toContain('task #4 completed] built it');
    expect(batch.prompt).not.toContain('forged');
    expect(events.map((e) => e.kind)).toEqual(['idle']);
    await handler.ack(batch.ids);
    expect(session.store.inboxes.unread('lead')).toEqual([]);
    const log = fs.readFileSync(session.store.paths.log, 'utf8');
    expect(log).toContain('malformed permission_request frame from alice dropped: request_id');
    expect(log).toContain('malformed idle_notification frame from bob dropped: idle_reason');
    expect(log).toContain('malformed made_up_kind frame from bob dropped');
  });

  it('frames from an earlier session are dropped, never fed', async () => {
    const { session, handler, events } = await setup();
    await sendFrame(session.store, 'alice', 'lead', 'shutdown_approved', {}, 'old-epoch');
    await sendFrame(session.store, 'alice', 'lead', 'idle_notification', { idle_reason: 'failed', completed_task_id: '1', completed_status: 'failed', summary: 'x' }, 'old-epoch');
    expect(handler.drain().prompt).toBeNull();
    expect(events.filter((e) => e.kind === 'dropped')).toHaveLength(2);
  });

  it('the watchdog reports a dead teammate once (pid gone), never a live slow one', async () => {
    const { session, handler, events } = await setup();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    cleanups.push(() => void child.kill('SIGKILL'));
    await new Promise((r) => child.once('spawn', r));
    // bob is slow (a long turn) but its process lives; alice's process is gone.
    await session.store.statuses.write('bob', { status: 'working', pid: child.pid!, current_task: null });
    await session.store.statuses.write('alice', { status: 'working', pid: 999_999, current_task: null });
    await handler.watchdog();
    await handler.watchdog();
    expect(events.filter((e) => e.kind === 'dead').map((e) => (e as { agent: string }).agent)).toEqual(['alice']);
    expect(handler.drain().prompt).toMatch(/Teammate 'alice' is not running/);
  });
});
