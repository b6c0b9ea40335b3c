import { describe, expect, it } from 'vitest';
import { CallbackApprover, DenyApprover, SessionPermissionChecker } from './permissions.js';
import type { ApproverAnswer } from './types.js';

const req = (tool: string) => ({ tool, input: {}, summary: `${tool} something` });
const signal = new AbortController().signal;

describe('permission checker', () => {
  it('asks each time, remembers "always" per tool for the session', async () => {
    const answers: ApproverAnswer[] = ['deny', 'always', 'allow'];
    const asked: string[] = [];
    const c = new SessionPermissionChecker('ask', new CallbackApprover(async (r) => (asked.push(r.tool), answers.shift()!)));
    expect(await c.check(req('Bash'), signal)).toEqual({ allowed: false, reason: 'the user denied this action' });
    expect(await c.check(req('Bash'), signal)).toEqual({ allowed: true });
    expect(await c.check(req('Bash'), signal)).toEqual({ allowed: true });
    expect(await c.check(req('Write'), signal)).toEqual({ allowed: true });
    expect(asked).toEqual(['Bash', 'Bash', 'Write']);
    expect(c.allowedTools()).toEqual(['Bash']);
  });

  it('auto never asks', async () => {
    let asked = 0;
    const c = new SessionPermissionChecker('auto', new CallbackApprover(async () => (asked++, 'deny')));
    expect(await c.check(req('Bash'), signal)).toEqual({ allowed: true });
    expect(asked).toBe(0);
  });

  it('a failing or absent approver denies with a reason', async () => {
    const c = new SessionPermissionChecker('ask', new DenyApprover());
    expect(await c.check(req('Edit'), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/--accept-all/) });
    const broken = new SessionPermissionChecker('ask', new CallbackApprover(async () => { throw new Error('inbox unreachable'); }));
    expect(await broken.check(req('Edit'), signal)).toEqual({ allowed: false, reason: 'approval failed: inbox unreachable' });
  });
});
