import { describe, expect, it } from 'vitest';
import type { Member } from '../contract/api';
import { canResumeTeam, resumeSummary } from './resume-team';

const m = (name: string, state: Member['state']): Member => ({
  name, role: 'dev', model: null, state, alive: ['idle', 'working', 'spawning', 'error'].includes(state), current_task: null, tokens: null, cost_usd: null, queued: 0,
  terminal: { kind: 'readonly', reason: 'r' }, can_respawn: !['idle', 'working', 'spawning', 'error'].includes(state),
});

describe('Resume team button', () => {
  it('is offered when teammates ran and none is live, whatever the lead is', () => {
    expect(canResumeTeam([m('lead', 'idle'), m('a', 'dead'), m('b', 'stopped')])).toBe(true);
    expect(canResumeTeam([m('lead', 'dead'), m('a', 'dead'), m('b', 'defined')])).toBe(true);
  });

  it('is not offered with a live teammate, no teammate, or only teammates that never ran', () => {
    expect(canResumeTeam([m('lead', 'idle'), m('a', 'dead'), m('b', 'idle')])).toBe(false);
    expect(canResumeTeam([m('lead', 'dead'), m('a', 'dead'), m('b', 'spawning')])).toBe(false);
    expect(canResumeTeam([m('lead', 'dead')])).toBe(false);
    expect(canResumeTeam([m('lead', 'idle'), m('a', 'defined')])).toBe(false);
  });

  it('says who resumed, who started fresh and who failed', () => {
    expect(resumeSummary({ resumed: [{ name: 'a' }], fresh: ['b', 'c'], failed: [{ name: 'd', error: 'cap reached' }] })).toBe(
      'Resumed a where its conversation left off. Started b, c fresh (no saved conversation). d could not start: cap reached',
    );
    expect(resumeSummary({ resumed: [{ name: 'a' }, { name: 'b' }], fresh: [], failed: [] })).toBe('Resumed a, b where their conversations left off.');
  });
});
