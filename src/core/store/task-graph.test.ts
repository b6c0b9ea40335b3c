import { describe, expect, it } from 'vitest';
import { findCycle } from './task-graph.js';

/** A graph as edges; asking for an id it does not know is a bug in the walk (it only follows edges). */
function graph(g: Record<string, string[]>) {
  const calls: string[] = [];
  const edges = (id: string) => {
    calls.push(id);
    const e = g[id];
    if (!e) throw new Error(`walked to unknown id ${String(id)}`);
    return e;
  };
  return { edges, calls };
}

describe('findCycle', () => {
  it('null for a graph without cycles, diamonds included (a node reached twice is not a cycle)', () => {
    const { edges, calls } = graph({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] });
    expect(findCycle(edges, ['a'])).toBeNull();
    // d, reached again through c, is finished: it is not walked a second time.
    expect(calls.filter((id) => id === 'd')).toHaveLength(1);
    expect(findCycle(edges, [])).toBeNull();
  });

  it('a self-loop and a two-node cycle, as a path whose first id is its last', () => {
    expect(findCycle(graph({ a: ['a'] }).edges, ['a'])).toEqual(['a', 'a']);
    expect(findCycle(graph({ a: ['b'], b: ['a'] }).edges, ['a'])).toEqual(['a', 'b', 'a']);
  });

  it('a cycle further down starts at the node that closes it, not at the root', () => {
    const { edges } = graph({ x: ['y'], y: ['a'], a: ['b'], b: ['c'], c: ['a'] });
    expect(findCycle(edges, ['x'])).toEqual(['a', 'b', 'c', 'a']);
  });

  it('the path forgets finished branches: only the nodes on the way to the cycle are in it', () => {
    // b and c are finished (no cycle through them) before d closes the cycle back to a.
    const { edges } = graph({ a: ['b', 'd'], b: ['c'], c: [], d: ['a'] });
    expect(findCycle(edges, ['a'])).toEqual(['a', 'd', 'a']);
  });

  it('every start is checked: a cycle reachable only from the second start is found', () => {
    const { edges } = graph({ a: [], b: ['c'], c: ['b'] });
    expect(findCycle(edges, ['a', 'b'])).toEqual(['b', 'c', 'b']);
  });

  it('each node is expanded once however many starts reach it (linear in the graph)', () => {
    const { edges, calls } = graph({ a: ['b'], b: ['c'], c: [] });
    expect(findCycle(edges, ['a', 'b', 'c', 'a'])).toBeNull();
    // A node's edges are read once per edge followed plus once to finish it; later starts reach finished nodes.
    expect(calls).toEqual(['a', 'b', 'c', 'b', 'a']);
  });

  it('a 100 000-long chain is walked without overflowing the stack, and its closing edge is found', () => {
    const n = 100_000;
    const edges = (id: string) => {
      const i = Number(id);
      return i < n ? [String(i + 1)] : [];
    };
    expect(findCycle(edges, ['1'])).toBeNull();
    const closed = (id: string) => [String(Number(id) < n ? Number(id) + 1 : 1)];
    const cycle = findCycle(closed, ['1'])!;
    expect(cycle).toHaveLength(n + 1);
    expect([cycle[0], cycle.at(-2), cycle.at(-1)]).toEqual(['1', String(n), '1']);
  });
});
