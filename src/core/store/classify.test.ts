import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyTeamPath } from './classify.js';

const root = path.resolve('/ws/.thclaws/state/team');
const at = (...p: string[]) => path.join(root, ...p);

describe('classifyTeamPath', () => {
  it('maps every kind of team file to its event', () => {
    expect(classifyTeamPath(root, at('config.json'))).toEqual({ kind: 'config', key: 'config' });
    expect(classifyTeamPath(root, at('team.log'))).toEqual({ kind: 'log', key: 'log' });
    expect(classifyTeamPath(root, at('inboxes', 'alice.json'))).toEqual({ kind: 'inbox', key: 'inbox:alice', agent: 'alice' });
    expect(classifyTeamPath(root, at('tasks', '12.json'))).toEqual({ kind: 'task', key: 'task:12', id: '12' });
    expect(classifyTeamPath(root, at('agents', 'bob'))).toEqual({ kind: 'status', key: 'status:bob', agent: 'bob' });
    expect(classifyTeamPath(root, at('agents', 'bob', 'status.json'))).toEqual({ kind: 'status', key: 'status:bob', agent: 'bob' });
    expect(classifyTeamPath(root, at('agents', 'bob', 'output.log'))).toEqual({ kind: 'output', key: 'output:bob', agent: 'bob' });
  });

  it('ignores temp files, locks, archives, quarantined copies and paths outside the team dir', () => {
    for (const p of [
      at('inboxes', '.tmp', 'alice.json.1.abc'),
      at('inboxes', 'alice.json.lock'),
      at('inboxes', 'alice.archive.jsonl'),
      at('inboxes', 'alice.json.corrupt-1-2'),
      at('tasks', '_hwm'),
      at('tasks', '0.json'),
      at('agents', 'bob', 'lease.json'),
      at('agents', '-x', 'status.json'),
      at('inboxes', '..', 'config.json', 'x'),
      path.join(root, '..', 'config.json'),
      root,
    ]) expect(classifyTeamPath(root, p)).toBeNull();
  });
});
