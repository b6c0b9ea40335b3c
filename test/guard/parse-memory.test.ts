import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { leadCtx } from './fixtures.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * The GopherJS parser, reused, kept every earlier syntax tree reachable through its node slabs: about
 * 6 KB per short command and 70 KB per 1,000-character one, never freed (and the growing heap made
 * every GC slower). 3,000 checks leaked ~19 MB before the fix; now the heap stays flat.
 */
describe('parser memory', () => {
  it('does not retain syntax trees from one check to the next', () => {
    const cmd = 'git status && ls -la | grep x && echo "$(date)" > /tmp/x';
    checkCommand('lead', 'a | b', leadCtx);
    for (let i = 0; i < 200; i++) checkCommand('lead', cmd, leadCtx);
    const before = heapAfterGc();
    for (let i = 0; i < 3000; i++) checkCommand('lead', i % 2 ? cmd : `${cmd} ${i}`, leadCtx);
    const grown = heapAfterGc() - before;
    expect(grown).toBeLessThan(5_000_000);
  });
});
