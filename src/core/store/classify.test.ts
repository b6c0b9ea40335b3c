import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyEntry, classifyTeamPath } from './classify.js';

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

  it("maps an agent's spawn request and review comments, and nothing else in its directory", () => {
    expect(classifyTeamPath(root, at('agents', 'bob', 'spawn.json'))).toEqual({ kind: 'spawn', key: 'spawn:bob', agent: 'bob' });
    expect(classifyTeamPath(root, at('agents', 'bob', 'review.json'))).toEqual({ kind: 'review', key: 'review:bob', agent: 'bob' });
    for (const name of ['answers.json', 'status.json.tmp', 'output.log.1', '']) expect(classifyEntry({ agent: 'bob' }, name), name).toBeNull();
  });

  it('refuses names that are not agents or task ids, and files that are not .json', () => {
    for (const [dir, name] of [
      ['inboxes', '-x.json'],
      ['inboxes', '.json'],
      ['inboxes', 'alice.jsonl'],
      ['inboxes', 'alice'],
      ['tasks', 'abc.json'],
      ['tasks', '12.jsonx'],
      ['tasks', '12'],
      ['agents', '-x'],
      ['agents', '.tmp'],
      ['root', 'config.json.lock'],
      ['root', 'team.log.1'],
      ['root', 'inboxes'],
      ['inboxes', 'alice-json'],
      ['tasks', '12-json'],
    ] as const) expect(classifyEntry(dir, name), `${dir}/${name}`).toBeNull();
  });

  it('only the fixed directories, one agent level deep, count', () => {
    expect(classifyEntry('inboxes', 'carol1.json')).toEqual({ kind: 'inbox', key: 'inbox:carol1', agent: 'carol1' });
    expect(classifyEntry('inboxes', 'bo.json')).toEqual({ kind: 'inbox', key: 'inbox:bo', agent: 'bo' });
    for (const p of [at('agents', 'bob', 'status.json', 'x'), at('tasks', 'bob', 'status.json'), at('inboxes', 'bob', 'output.log'), at('other', 'alice.json'), at('agents', 'bob', 'sub', 'status.json'), at('inboxes', 'x', 'alice.json'), at('tasks', '1', 'x.json'), at('..x', 'a')]) {
      expect(classifyTeamPath(root, p), p).toBeNull();
    }
  });

  it('accepts `\\` separators in a relative path (as chokidar reports on Windows)', () => {
    expect(classifyTeamPath('/t', '/t/agents\\bob\\status.json')).toEqual({ kind: 'status', key: 'status:bob', agent: 'bob' });
    expect(classifyTeamPath('/t', '/t/inboxes\\\\alice.json')).toEqual({ kind: 'inbox', key: 'inbox:alice', agent: 'alice' });
  });
});
