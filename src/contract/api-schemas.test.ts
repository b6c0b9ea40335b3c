/**
 * The parts of the API contract api-contract.test.ts does not send: each enum value in the edit schemas, the
 * budgets and spend events, the settings event's model list, the host socket's hello and welcome, the branch
 * overview. Written against the survivors of a mutation run of api.ts and review-views.ts (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import * as A from './api.js';

describe('member specs: every enum value, in the spec and in the edit', () => {
  it('accepts each isolation and permission mode given explicitly', () => {
    const spec = { role: 'r', prompt: 'p', model: null, isolation: 'shared', plan_mode: false, permission_mode: 'ask', host: null };
    expect(A.parseRequest({ id: 1, type: 'member_add', name: 'alice', spec })).toEqual({ ok: true, request: { id: 1, type: 'member_add', name: 'alice', spec } });
    const edit = { isolation: 'worktree', permission_mode: 'auto' };
    expect(A.parseRequest({ id: 2, type: 'member_edit', name: 'alice', spec: edit })).toEqual({ ok: true, request: { id: 2, type: 'member_edit', name: 'alice', spec: edit } });
  });
});

describe('requests and events the contract file does not send', () => {
  it('merges several branches in one run', () => {
    expect(A.parseRequest({ id: 3, type: 'merge_run', agents: ['alice', 'bob'] })).toMatchObject({ ok: true, request: { agents: ['alice', 'bob'] } });
  });

  it('budgets and spend events keep every field', () => {
    const limit = { usd: 2, tokens: 1000 };
    const budgets = { type: 'budgets', stored: { team: limit, roles: { reviewer: limit }, teammates: {} }, settings: { roles: {}, teammates: { alice: limit } } };
    expect(A.parseEvent(budgets)).toEqual({ ok: true, event: budgets });
    const spend = { type: 'spend', agent: 'alice', calls: [{ at: 1, tokens: 10, usd: 0.5 }, { at: 2, tokens: 3, usd: null }] };
    expect(A.parseEvent(spend)).toEqual({ ok: true, event: spend });
    expect(A.parseEvent({ ...spend, calls: Array.from({ length: 501 }, () => ({ at: 1, tokens: 1, usd: null })) })).toMatchObject({ ok: false, error: expect.stringMatching(/^invalid event: calls:/) });
  });

  it('a refused event says why, in zod\'s words', () => {
    expect(A.parseEvent({ type: 'output', agent: 'a b', seq: 0, data: '' })).toEqual({ ok: false, error: 'invalid event: agent: invalid agent name' });
  });

  it('the settings event may carry the models a field offers', () => {
    const settings = { teamEnabled: true, teammateMode: 'host', model: 'm', roleModels: {}, maxLiveTeammates: 4, autoAllowSandboxedBash: false, checks: [], worktree: { portBase: 4100, reuse: ['node_modules', '.venv', 'target', 'vendor/bundle'] } };
    const ev = { type: 'settings', settings, restart_needed: false, models: ['opus', 'work/gpt'] };
    expect(A.parseEvent(ev)).toEqual({ ok: true, event: ev });
  });
});

describe('the host socket: hello, welcome, refused', () => {
  it('accepts a hello and refuses one without a client or with a client name over 64', () => {
    expect(A.HostHelloSchema.parse({ type: 'hello', protocol: A.HOST_PROTOCOL, client: 'dashboard', stop: true })).toEqual({ type: 'hello', protocol: 1, client: 'dashboard', stop: true });
    expect(A.HostHelloSchema.safeParse({ type: 'hello', protocol: 1, client: 'c'.repeat(64) }).success).toBe(true);
    expect(A.HostHelloSchema.safeParse({ type: 'hello', protocol: 1, client: '' }).success).toBe(false);
    expect(A.HostHelloSchema.safeParse({ type: 'hello', protocol: 1, client: 'c'.repeat(65) }).success).toBe(false);
    expect(A.HostHelloSchema.safeParse({ type: 'welcome', protocol: 1, client: 'cli' }).success).toBe(false);
    expect(A.HostHelloSchema.parse({ type: 'hello', protocol: 1, client: 'cli', stop: true, force: true })).toEqual({ type: 'hello', protocol: 1, client: 'cli', stop: true, force: true });
    expect(A.HostHelloSchema.safeParse({ type: 'hello', protocol: 1, client: 'cli', force: 'yes' }).success).toBe(false);
  });

  it('accepts a welcome or a refusal, each with its own fields', () => {
    const welcome = { type: 'welcome', protocol: 1, pid: 42, workspace: '/w' };
    expect(A.HostWelcomeSchema.parse(welcome)).toEqual(welcome);
    expect(A.HostWelcomeSchema.parse({ type: 'refused', error: 'another host' })).toEqual({ type: 'refused', error: 'another host' });
    // A host stopping its team says so in a code the client acts on (it starts no other host); no other code.
    expect(A.HostWelcomeSchema.parse({ type: 'refused', error: 'the team is stopping', code: 'stopping' })).toEqual({ type: 'refused', error: 'the team is stopping', code: 'stopping' });
    expect(A.HostWelcomeSchema.safeParse({ type: 'refused', error: 'x', code: 'other' }).success).toBe(false);
    expect(A.HostWelcomeSchema.safeParse({ ...welcome, workspace: 'w'.repeat(4097) }).success).toBe(false);
    expect(A.HostWelcomeSchema.safeParse({ type: 'refused', protocol: 1, pid: 42, workspace: '/w' }).success).toBe(false);
  });
});

describe('the merge panel: a branch overview', () => {
  it('keeps every field, its completed tasks included', () => {
    const overview = {
      agent: 'alice', branch: 'team/alice', ahead: 2, behind: 0, last_commit: { sha: 'abc', subject: 'c', at: 3 },
      completed_tasks: [{ id: '4', subject: 'docs' }], open_comments: 1, uncommitted: ['a.ts'], state: 'idle',
    };
    expect(A.BranchOverviewSchema.parse(overview)).toEqual(overview);
    expect(A.BranchOverviewSchema.safeParse({ ...overview, completed_tasks: [{ id: 'x', subject: 'docs' }] }).success).toBe(false);
  });
});
