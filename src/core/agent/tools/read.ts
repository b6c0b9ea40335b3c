/**
 * Read: numbered lines (cat -n style), paged with offset/limit. A partial result always ends with the
 * paging line (what was shown, the total, the next offset, the limits), which output capping never cuts.
 * Binary files are described, not dumped; FIFOs, sockets and devices are refused (reading one can block
 * forever).
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import readline from 'node:readline';
import { z } from 'zod';
import type { PromptBlock } from '../providers/types.js';
import type { Tool, ToolResult } from '../types.js';
import { fsErrorText, limitsOf, looksBinary, notRegularFile, resolvePath, toolError } from './common.js';

const Input = z
  .object({
    file_path: z.string().min(1).describe('File path, relative to the working directory or absolute'),
    offset: z.number().int().min(1).optional().describe('First line to read, 1-based'),
    limit: z.number().int().min(1).optional().describe('Number of lines to read'),
  })
  .strict();

/** Files up to this size are read whole (total line count known); bigger ones are streamed to the page. */
const WHOLE_READ_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;
/** Room kept under the output cap for the paging line. */
const HINT_ROOM = 300;

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'PNG image'],
  [[0xff, 0xd8, 0xff], 'JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'zip archive (or docx/xlsx/jar)'],
  [[0x1f, 0x8b], 'gzip data'],
  [[0x7f, 0x45, 0x4c, 0x46], 'ELF executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'WebAssembly module'],
];

/** Files the model sees as they are (as Claude Code's Read): images as image blocks, PDFs as documents. */
const MEDIA: Array<[number[], 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'application/pdf']> = [
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
];
/** The Messages API's limits: 5 MB an image, 32 MB a PDF. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_PDF_BYTES = 32 * 1024 * 1024;

function mediaTypeOf(buf: Buffer): (typeof MEDIA)[number][1] | undefined {
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return MEDIA.find(([sig]) => sig.every((b, i) => buf[i] === b))?.[1];
}

async function readMedia(file: string, shown: string, size: number, type: NonNullable<ReturnType<typeof mediaTypeOf>>): Promise<ToolResult> {
  const max = type === 'application/pdf' ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
  if (size > max) return toolError(`${shown}: ${type} of ${size} bytes is over the ${max / 1024 / 1024} MB the model accepts`);
  const data = (await readFile(file)).toString('base64');
  const content = `${shown}: ${type}, ${size} bytes (sent to the model as ${type === 'application/pdf' ? 'a document' : 'an image'})`;
  const blocks: PromptBlock[] =
    type === 'application/pdf'
      ? [{ type: 'document', source: { type: 'base64', media_type: type, data } }]
      : [{ type: 'image', source: { type: 'base64', media_type: type, data } }];
  return { content, blocks };
}

function describeBinary(buf: Buffer, size: number): string {
  const kind = MAGIC.find(([sig]) => sig.every((b, i) => buf[i] === b))?.[1] ?? 'binary data';
  return `binary file: ${kind}, ${size} bytes; not shown (Read shows text files only)`;
}

export const readTool: Tool<z.infer<typeof Input>> = {
  name: 'Read',
  description:
    'Read a file. Text comes as numbered lines (cat -n style); long files come in pages: the last line says which lines were shown and the offset to continue from. PNG, JPEG, GIF and WebP images come as images, PDFs as documents.',
  inputSchema: Input,
  needsPermission: false,
  legacyFields: { path: 'file_path' },
  readOnly: true,
  async run(input, ctx) {
    const r = resolvePath(ctx, input.file_path, 'read');
    if ('error' in r) return r.error;
    const limits = limitsOf(ctx);
    const count = input.limit ?? limits.readDefaultLines;
    const start = (input.offset ?? 1) - 1;
    let st;
    try {
      st = await stat(r.path);
    } catch (err) {
      return toolError(fsErrorText(err, input.file_path));
    }
    if (st.isDirectory()) return toolError(`${input.file_path} is a directory; use Glob to list it`);
    const special = await notRegularFile(r.path, input.file_path);
    if (special) return special;

    let head: Buffer;
    let all: string[] | undefined;
    try {
      const fh = await open(r.path, 'r');
      try {
        const size = Math.min(st.size, WHOLE_READ_BYTES);
        head = Buffer.alloc(size);
        await fh.read(head, 0, size, 0);
      } finally {
        await fh.close();
      }
    } catch (err) {
      return toolError(fsErrorText(err, input.file_path));
    }
    const media = mediaTypeOf(head);
    if (media) return readMedia(r.path, input.file_path, st.size, media);
    if (looksBinary(head)) return toolError(describeBinary(head, st.size));
    if (st.size <= WHOLE_READ_BYTES) {
      all = head.toString('utf8').split('\n');
      if (all.length > 1 && all[all.length - 1] === '') all.pop();
      if (all.length === 1 && all[0] === '') return { content: '(empty file)' };
      if (start >= all.length) return toolError(`offset ${start + 1} is past the end of the file (${all.length} lines)`);
    }

    // Lines of the page, stopping early when the output budget is spent so the paging line always fits.
    const budget = limits.toolOutputMaxChars - HINT_ROOM;
    const out: string[] = [];
    let used = 0;
    const take = (l: string, n: number): boolean => {
      const text = l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]` : l;
      const row = `${String(n).padStart(6)}\t${text}`;
      if (out.length > 0 && used + row.length + 1 > budget) return false;
      out.push(row);
      used += row.length + 1;
      return out.length < count;
    };
    if (all) {
      for (let i = start; i < all.length && take(all[i]!, i + 1); i++);
    } else {
      const rl = readline.createInterface({ input: createReadStream(r.path), crlfDelay: Infinity });
      let n = 0;
      for await (const line of rl) {
        if (ctx.signal.aborted) break;
        if (n++ < start) continue;
        if (!take(line, n)) break;
      }
      rl.close();
      if (out.length === 0) return toolError(`offset ${start + 1} is past the end of the file`);
    }
    const end = start + out.length;
    const total = all ? `${all.length}` : `? (a ${(st.size / 1e6).toFixed(0)} MB file, not counted)`;
    if (!all || end < all.length || start > 0) {
      const more = !all || end < all.length ? `; continue with offset=${end + 1}` : '';
      out.push(`[lines ${start + 1}-${end} of ${total}${more}; Read returns at most ${count} lines and ${limits.toolOutputMaxChars} characters per call]`);
    }
    return { content: out.join('\n') };
  },
};
