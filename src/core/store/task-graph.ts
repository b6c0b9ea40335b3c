/** Dependency checks over `blocked_by` edges. */

/** A cycle reachable from `start` as a path of ids (first = last), or null. Iterative: no stack overflow. */
export function findCycle(edges: (id: string) => readonly string[], start: readonly string[]): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  for (const root of start) {
    if (state.get(root) === 'done') continue;
    const stack: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    const pathIds: string[] = [root];
    state.set(root, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const deps = edges(top.id);
      if (top.next < deps.length) {
        const dep = deps[top.next++]!;
        const s = state.get(dep);
        if (s === 'open') return [...pathIds.slice(pathIds.indexOf(dep)), dep];
        if (s === undefined) {
          state.set(dep, 'open');
          stack.push({ id: dep, next: 0 });
          pathIds.push(dep);
        }
      } else {
        state.set(top.id, 'done');
        stack.pop();
        pathIds.pop();
      }
    }
  }
  return null;
}
