import headlessPkg from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { OPEN_LIMIT } from './escape-seam.js';
import { bufferText, ScreenMirror } from './screen-mirror.js';

const { Terminal } = headlessPkg;
type Term = InstanceType<typeof Terminal>;
const newTerm = (): Term => new Terminal({ cols: 80, rows: 10, scrollback: 1000, allowProposedApi: true });
const written = (t: Term, data: string) => new Promise<void>((r) => t.write(data, r));
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!cond()) throw new Error('timed out');
};

/**
 * The stream cut after `before` (the mirror parses it as one batch and is serialized there), then `after`: a view
 * written with the snapshot's state and tail, then `after`, against a terminal that saw every byte.
 */
async function restored(before: string, after: string): Promise<{ view: string; ref: string }> {
  const m = new ScreenMirror(() => {}, 80, 10, 1, 60_000);
  m.push(before);
  await until(() => m.backlog === 0);
  const snap = m.snapshot();
  m.dispose();
  const v = newTerm();
  await written(v, snap.state + snap.tail + after);
  const ref = newTerm();
  await written(ref, before + after);
  return { view: bufferText(v), ref: bufferText(ref) };
}

describe('a view restored at a cut inside or after an escape sequence shows what a view that saw every byte shows', () => {
  it.each([
    ['a C0 control inside a CSI acts once (`ESC [ 1 LF ; 2 m`)', 'a\x1b[1\n', ';2mB'],
    ['a CR inside a CSI', 'abc\x1b[3\r', '1mX'],
    ['a BS inside an ESC sequence with an intermediate', 'ab\x1b(\b', 'BX'],
    ['a C0 control right after ESC, before its final', 'a\r\nb\x1b\n', 'Mzz'],
    ['CAN aborts a CSI; the text after it is printed once', 'a\x1b[1\x18' + '12', '34'],
    ['SUB aborts an OSC; the text after it is printed once', 'a\x1b]0;title\x1a' + 'plain text', ' more'],
    ['C1 ST (U+009C) ends an OSC', 'a\x1b]0;title\x9c' + 'after', ' more'],
    ['a C1 control (U+0085) aborts a DCS', 'a\x1bP1$r\x85' + 'text', ' more'],
    ['a non-ASCII character aborts a CSI', 'a\x1b[1é' + '23', '4'],
    ['a non-ASCII character aborts an APC', 'a\x1b_x\u00e9' + 'text', ' more'],
    ['DEL after ESC is ignored, the ESC sequence goes on', 'a\r\nb\x1b\x7f', 'Mz'],
  ])('%s', async (_what, before, after) => {
    const { view, ref } = await restored(before, after);
    expect(view).toBe(ref);
  });

  it.each([
    ['OSC 52 longer than the limit, ended by BEL', '\x1b]52;c;' + 'QUFB'.repeat(OPEN_LIMIT / 4 + 10), 'QUFB'.repeat(100) + '\x07after'],
    ['OSC longer than the limit, ended by ST', '\x1b]52;c;' + 'QUFB'.repeat(OPEN_LIMIT / 4 + 10), 'QUFB\x1b\\after'],
    ['DCS longer than the limit', '\x1bP1$r' + 'x'.repeat(OPEN_LIMIT + 10), 'yyy\x1b\\after'],
  ])('%s: its rest is not printed', async (_what, before, after) => {
    const { view, ref } = await restored(before, after);
    expect(view).toBe(ref);
  });

  it.each([
    ['OSC ended by ST split as ESC | \\', 'a\x1b]0;title\x1b', '\\after'],
    ['DCS ended by ST split as ESC | \\', 'a\x1bP1$rm\x1b', '\\after'],
    ['ESC inside an OSC payload ends it', 'a\x1b]0;ti\x1b[1', 'mafter'],
    ['8-bit CSI in text (Â then U+009B)', 'xÂ\x9b1', ';2mafter'],
    ['8-bit CSI finished in text', 'xÂ\x9b1m', 'after'],
    ['a lone ESC at the end', 'abc\x1b', '7def\x1b8X'],
    ['C0 controls inside an OSC are ignored', 'a\x1b]0;t\ni', 'tle\x07after'],
    ['a C0 control inside a DCS payload', 'a\x1bP1$r\n', 'm\x1b\\after'],
    ['CSI with intermediates and a private marker', 'a\x1b[?2', '5h\x1b[ q after'],
  ])('%s (held)', async (_what, before, after) => {
    const { view, ref } = await restored(before, after);
    expect(view).toBe(ref);
  });

  it('a stream of tricky pieces cut at pseudo-random places, each restored from the cached copy or a fresh one (across resizes in the first round)', async () => {
    const pieces = ['ab', 'é', '\r\n', '\n', '\b', '\x1b[1;32m', '\x1b[0m', '\x1b[2K', '\x1b[3;5H', '\x1b]0;title\x07', '\x1b]8;;u\x1b\\', '\x1bP1$r\x1b\\',
      '\x1b_apc\x1b\\', '\x1b(B', '\x18', '\x1a', '\x9b1m', '\x9c', '\x85', '\x1b[?25l', '\x1b[1\n;2m', '\x1b[4\r3m', '\x1bM', '12', '\x1b'];
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 6; round++) {
      let all = '';
      for (let i = 0; i < 120; i++) all += pieces[rand(pieces.length)];
      // Serialized 1 ms after each batch (the quiet-time copy): most snapshots are fresh at their seam.
      const m = new ScreenMirror(() => {}, 80, 10, 1, 1);
      // What happened, in order: output, or a resize; a snapshot after each.
      const events: Array<string | number> = [];
      const cuts: Array<{ after: number; state: string; tail: string; cols: number }> = [];
      for (let at = 0; at < all.length; ) {
        const n = 1 + rand(12);
        const chunk = all.slice(at, at + n);
        at += n;
        const count = m.serializations;
        m.push(chunk);
        events.push(chunk);
        await until(() => m.backlog === 0);
        // Half the time the copy serialized at this seam, else the older copy and the output since.
        if (rand(2)) await until(() => m.serializations > count);
        if (round === 0 && rand(4) === 0) {
          const cols = m.cols === 80 ? 60 : 80;
          m.resize(cols, 10);
          events.push(cols);
        }
        // A snapshot either serializes here (no copy yet, or after a resize) or is the copy plus output since.
        const snap = m.snapshot();
        cuts.push({ after: events.length, state: snap.state, tail: snap.tail, cols: m.cols });
      }
      m.dispose();
      const replay = async (t: Term, from: number) => {
        let text = '';
        for (const e of events.slice(from)) {
          if (typeof e === 'string') text += e;
          else {
            await written(t, text);
            text = '';
            t.resize(e, 10);
          }
        }
        await written(t, text);
      };
      const ref = newTerm();
      await replay(ref, 0);
      for (const c of cuts) {
        const v = new Terminal({ cols: c.cols, rows: 10, scrollback: 1000, allowProposedApi: true });
        await written(v, c.state + c.tail);
        await replay(v, c.after);
        expect(bufferText(v), JSON.stringify(events.slice(Math.max(0, c.after - 3), c.after + 1))).toBe(bufferText(ref));
      }
    }
  });
});
