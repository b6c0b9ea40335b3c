import { describe, expect, it } from 'vitest';
import type { TeamConfig } from '../../contract/store-schemas.js';
import { pickPorts } from './ports.js';

const team = (members: Array<{ name: string; ports?: { base: number; count: number } }>): TeamConfig =>
  ({ name: 't', created_at: 0, lead: 'lead', members: members.map((m) => ({ role: '', prompt: '', is_active: false, ...m })) }) as TeamConfig;

describe('pickPorts', () => {
  it('the lowest free block after the lead\'s, kept on a respawn, freed by a removed member, never shared', () => {
    expect(pickPorts(team([{ name: 'a' }]), 'a', 4100)).toEqual({ base: 4110, count: 10 });
    // A respawn keeps its recorded block even when a lower one is free.
    expect(pickPorts(team([{ name: 'a', ports: { base: 4130, count: 10 } }]), 'a', 4100)).toEqual({ base: 4130, count: 10 });
    // b took 4110; a newcomer gets the next free block, not b's.
    expect(pickPorts(team([{ name: 'b', ports: { base: 4110, count: 10 } }, { name: 'c' }]), 'c', 4100)).toEqual({ base: 4120, count: 10 });
    // a (4110) was removed: its block is free for the next member; c keeps 4120.
    expect(pickPorts(team([{ name: 'c', ports: { base: 4120, count: 10 } }, { name: 'd' }]), 'd', 4100)).toEqual({ base: 4110, count: 10 });
  });

  it('a recorded block that collides or no longer fits the base (hand-edited, portBase changed) is replaced', () => {
    const clash = team([{ name: 'a', ports: { base: 4110, count: 10 } }, { name: 'b', ports: { base: 4110, count: 10 } }]);
    expect(pickPorts(clash, 'b', 4100)).toEqual({ base: 4120, count: 10 });
    expect(pickPorts(team([{ name: 'a', ports: { base: 4110, count: 10 } }]), 'a', 5000)).toEqual({ base: 5010, count: 10 });
    expect(pickPorts(team([{ name: 'a', ports: { base: 4100, count: 10 } }]), 'a', 4100)).toEqual({ base: 4110, count: 10 });
    expect(pickPorts(team([{ name: 'a', ports: { base: 4115, count: 10 } }]), 'a', 4100)).toEqual({ base: 4110, count: 10 });
  });

  it('a block another program listens in is never picked, the recorded one included', () => {
    expect(pickPorts(team([{ name: 'a' }]), 'a', 4100, new Set([4110, 4120]))).toEqual({ base: 4130, count: 10 });
    expect(pickPorts(team([{ name: 'a', ports: { base: 4130, count: 10 } }]), 'a', 4100, new Set([4130]))).toEqual({ base: 4110, count: 10 });
  });
});
