import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/agent/helpers.js';
import { SessionPermissionChecker } from '../permissions.js';
import { capOutput, runToolCall } from '../tool-run.js';
import type { ToolContext } from '../types.js';
import { builtinTools } from './index.js';

describe('Read: paging, limits, binary, special files', () => {
  let root: string;
  let cleanup: () => void;
  let ctx: ToolContext;
  const read = (input: Record<string, unknown>) => runToolCall({ type: 'tool_use', id: 'r', name: 'Read', input }, builtinTools(), ctx);

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    ctx = { cwd: root, projectRoot: root, role: 'solo', signal: new AbortController().signal, permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) };
  });
  afterEach(() => cleanup());

  it('3,000 lines of 60 characters: a page within the output cap that ends with the paging line, which capping keeps', async () => {
    const line = (i: number) => `${String(i).padStart(5, '0')} ${'x'.repeat(54)}`;
    writeFileSync(path.join(root, 'big.txt'), `${Array.from({ length: 3000 }, (_, i) => line(i + 1)).join('\n')}\n`);
    const r = await read({ path: 'big.txt' });
    expect(r.content.length).toBeLessThanOrEqual(30_000);
    expect(capOutput(r.content, 30_000)).toBe(r.content);
    const last = r.content.split('\n').at(-1)!;
    const m = /^\[lines 1-(\d+) of 3000; continue with offset=(\d+); Read returns at most 2000 lines and 30000 characters per call\]$/.exec(last);
    expect(m, last).not.toBeNull();
    expect(Number(m![2])).toBe(Number(m![1]) + 1);
    const next = await read({ path: 'big.txt', offset: Number(m![2]), limit: 5 });
    expect(next.content.split('\n')[0]).toBe(`${String(Number(m![2])).padStart(6)}\t${line(Number(m![2]))}`);
  });

  it('a file over 10 MB is streamed to the page, and says its total was not counted', async () => {
    writeFileSync(path.join(root, 'huge.log'), 'y'.repeat(99) + '\n'.repeat(1) + 'z\n'.repeat(6_000_000));
    const r = await read({ path: 'huge.log', offset: 2, limit: 3 });
    expect(r.content).toBe('     2\tz\n     3\tz\n     4\tz\n[lines 2-4 of ? (a 12 MB file, not counted); continue with offset=5; Read returns at most 3 lines and 30000 characters per call]');
  });

  it('images come back as image blocks and PDFs as documents (as Claude Code); other binary files are described, not dumped', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    writeFileSync(path.join(root, 'pic.png'), png);
    const r = await read({ file_path: 'pic.png' });
    expect(r.blocks).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } }]);
    expect(r.content).toBe('pic.png: image/png, 12 bytes (sent to the model as an image)');
    writeFileSync(path.join(root, 'doc.pdf'), '%PDF-1.4\n');
    expect((await read({ file_path: 'doc.pdf' })).blocks).toEqual([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('%PDF-1.4\n').toString('base64') } }]);
    writeFileSync(path.join(root, 'a.gz'), Buffer.from([0x1f, 0x8b, 0, 0, 0]));
    expect(await read({ file_path: 'a.gz' })).toEqual({ content: 'binary file: gzip data, 5 bytes; not shown (Read shows text files only)', isError: true });
  });

  it('a FIFO is refused at once by Read, Write and Edit instead of blocking forever', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    expect((await read({ path: 'pipe' })).content).toBe('pipe is a FIFO (named pipe); only regular files can be read or written');
    const call = (name: string, input: unknown) => runToolCall({ type: 'tool_use', id: 'w', name, input }, builtinTools(), ctx);
    expect((await call('Write', { path: 'pipe', content: 'x' })).content).toBe('pipe is a FIFO (named pipe); only regular files can be read or written');
    expect((await call('Edit', { path: 'pipe', old_string: 'a', new_string: 'b' })).content).toBe('pipe is a FIFO (named pipe); only regular files can be read or written');
  });
});
