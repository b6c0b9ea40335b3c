import headlessPkg from '@xterm/headless';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../contract/api.js';
import { OutputScheduler } from './scheduler.js';
import { bufferText, ScreenMirror } from './screen-mirror.js';
import { AgentTerminal } from './terminal.js';

const { Terminal } = headlessPkg;
type Term = InstanceType<typeof Terminal>;

const newTerm = (cols = 120, rows = 32): Term => new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
const written = (t: Term, data: string) => new Promise<void>((r) => t.write(data, r));

/** A view with its own terminal, written as the renderer writes it: a replay resets it. */
class TermView {
  readonly term: Term;
  readonly events: HostEvent[] = [];
  private chain = Promise.resolve();
  constructor(cols?: number, rows?: number) {
    this.term = newTerm(cols, rows);
  }
  send(ev: HostEvent): void {
    this.events.push(ev);
    if (ev.type !== 'output' && ev.type !== 'replay') return;
    this.chain = this.chain.then(() => {
      if (ev.type === 'replay') this.term.reset();
      return written(this.term, ev.data);
    });
  }
  /** Stream offsets the view was sent (replay = where the screen stands, output = its characters). */
  get spans(): Array<[number, number]> {
    return this.events.flatMap((e) => (e.type === 'output' ? [[e.seq, e.seq + e.data.length] as [number, number]] : e.type === 'replay' ? [[e.seq, e.seq] as [number, number]] : []));
  }
  settled(): Promise<void> {
    return this.chain;
  }
}

/** A screenful of an agent's work: colours, a spinner redrawn in place, a status line cleared and rewritten. */
function frame(i: number): string {
  return `\x1b[1;3${i % 7}m● step ${i}\x1b[0m reading src/file-${i}.ts ${'·'.repeat(i % 40)}\r\n` + `\x1b[2K⠋ working ${i}\r` + (i % 10 === 9 ? '\x1b[2J\x1b[H' : '');
}

const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error(`timed out: ${what}`);
};

describe('screen restore on attach', () => {
  const sched = new OutputScheduler();
  const terminals: AgentTerminal[] = [];
  afterEach(() => {
    for (const t of terminals.splice(0)) t.dispose();
  });
  afterAll(() => sched.dispose());

  it('a view attaching mid-stream ends with the screen of a view that saw every byte, nothing lost or doubled', async () => {
    const t = new AgentTerminal('alice', sched);
    terminals.push(t);
    const early = new TermView();
    t.attach(early);
    const reference = newTerm();
    let all = '';
    const late: TermView[] = [];
    let caught = false;
    for (let i = 0; i < 120; i++) {
      const f = frame(i);
      all += f;
      t.push(f);
      // Views attach at every kind of seam: nothing parsed yet, a batch waiting, a batch in the parser.
      if (i === 3 || i === 40) {
        late.push(new TermView());
        t.attach(late[late.length - 1]!);
      }
      if (i > 40 && !caught) {
        // Right after the batch timer handed a batch to the parser, before the parser's own timer runs
        // (immediates usually run between the two; on a loaded machine try again with the next frame).
        for (let k = 0; k < 200 && t.mirror.inParser === 0; k++) await new Promise((r) => setImmediate(r));
        if (t.mirror.inParser > 0) {
          caught = true;
          late.push(new TermView());
          t.attach(late[late.length - 1]!);
        }
      }
      if (i % 17 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(caught).toBe(true);
    await written(reference, all);
    await until(() => t.mirror.parsed === all.length, 'the host parsed everything');
    await new Promise((r) => setTimeout(r, 20)); // the scheduler's last batch
    for (const v of [early, ...late]) {
      await v.settled();
      const spans = v.spans;
      // Contiguous from the replay's offset to the end: each character exactly once.
      for (let k = 1; k < spans.length; k++) expect(spans[k]![0]).toBe(spans[k - 1]![1]);
      expect(spans[spans.length - 1]![1]).toBe(all.length);
      expect(bufferText(v.term)).toBe(bufferText(reference));
    }
    expect(t.mirror.text()).toBe(bufferText(reference));
  });

  it('a screen serialized where a batch ended mid-sequence restores exactly: the sequence is not printed as text', async () => {
    const m = new ScreenMirror(() => {}, 120, 32, 1, 60_000);
    const a = '\x1b[1;32m● step 1\x1b[0m reading\r\n';
    const b = '\x1b[1;33m● step 2\x1b[0m reading\r\n';
    m.push(a + b.slice(0, 5)); // a pty read that ended inside `ESC [ 1 ; 3 3 m`
    await until(() => m.backlog === 0, 'parsed');
    const snap = m.snapshot(); // the first snapshot serializes at this seam
    m.push(b.slice(5));
    await until(() => m.backlog === 0, 'parsed the rest');
    const v = newTerm();
    await written(v, snap.state + snap.tail + b.slice(5));
    const ref = newTerm();
    await written(ref, a + b);
    expect(bufferText(v).split('\n').slice(0, 2)).toEqual(['● step 1 reading', '● step 2 reading']);
    expect(bufferText(v)).toBe(bufferText(ref));
    m.dispose();
  });

  it('views attaching at every kind of seam of a stream cut anywhere (mid-sequence too), past the 64 K copy, show what a view that saw every byte shows', async () => {
    const t = new AgentTerminal('erin', sched);
    terminals.push(t);
    t.attach(new TermView());
    let all = '';
    // Without the screen clears, so a line misprinted at a seam stays in the scrollback the views are compared by.
    for (let i = 0; i < 2500; i++) all += frame(i).replace('\x1b[2J\x1b[H', '');
    const late: TermView[] = [];
    // Cut points from a fixed pseudo-random sequence, and before each attach one inside `ESC [ 1 ; 3 n m`: the
    // copy is serialized anew at such a seam each time 64 K of output has passed since the last one.
    let seed = 7;
    let cuts = 0;
    for (let at = 0; at < all.length; ) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const attachHere = ++cuts % 23 === 0;
      const esc = all.indexOf('\x1b[1;3', at);
      const n = attachHere && esc >= 0 ? esc + 4 - at : 1 + (seed % 97);
      t.push(all.slice(at, at + n));
      at += n;
      if (attachHere) {
        await until(() => t.mirror.backlog === 0, 'parsed to the seam'); // the seam a fresh serialization is taken at
        late.push(new TermView());
        t.attach(late[late.length - 1]!);
      }
    }
    const reference = newTerm();
    await written(reference, all);
    await until(() => t.mirror.parsed === all.length, 'the host parsed everything');
    await new Promise((r) => setTimeout(r, 20));
    expect(late.length).toBeGreaterThan(150);
    for (const v of late) {
      await v.settled();
      expect(bufferText(v.term)).toBe(bufferText(reference));
    }
  });

  it('restores what raw bytes cannot: a full-screen view drawn once, then a megabyte of redraws in place', async () => {
    const t = new AgentTerminal('bob', sched);
    terminals.push(t);
    t.push('\x1b[?1049h\x1b[2J\x1b[H\x1b[1;32mHEADER drawn once\x1b[0m');
    for (let i = 0; i < 12_000; i++) t.push(`\x1b[5;1H\x1b[2Kprogress ${i} ${'#'.repeat(80)}`);
    await until(() => t.mirror.backlog === 0, 'parsed');
    const v = new TermView();
    t.attach(v);
    await v.settled();
    const replay = v.events.find((e) => e.type === 'replay') as { data: string } | undefined;
    expect(replay!.data.length).toBeLessThan(64 * 1024); // the screen, not a megabyte of bytes
    expect(v.term.buffer.active.type).toBe('alternate');
    expect(bufferText(v.term)).toBe(t.mirror.text());
    const lines = bufferText(v.term).split('\n');
    expect(lines[0]).toBe('HEADER drawn once');
    expect(lines[4]).toMatch(/^progress 11999 #{80}$/);
  });

  it('the parser backlog holds the source back like an unacknowledged view, and lets it go once parsed', async () => {
    const calls: string[] = [];
    const t = new AgentTerminal('carol', sched);
    terminals.push(t);
    t.setInput({ mode: { kind: 'pty', pid: 1 }, pause: () => calls.push('pause'), resume: () => calls.push('resume') });
    // No view at all: only the host's own screen parser is behind.
    t.push('z'.repeat(600 * 1024));
    expect(calls).toEqual(['pause']);
    await until(() => calls.length === 2, 'resumed once parsed');
    expect(calls).toEqual(['pause', 'resume']);
  });

  it('the screen takes the size the pty is given, and a view is told that size before the screen', () => {
    const t = new AgentTerminal('dan', sched);
    terminals.push(t);
    t.setInput({ mode: { kind: 'pty', pid: 1 }, pause: () => {}, resume: () => {}, resize: () => {} });
    const a = new TermView();
    t.attach(a);
    t.resize(a, 70, 20, true);
    expect([t.mirror.cols, t.mirror.rows]).toEqual([70, 20]);
    const b = new TermView();
    t.attach(b);
    expect(b.events.map((e) => e.type).slice(0, 2)).toEqual(['pty_size', 'replay']);
  });

  it('serializes a screen once its output pauses; a snapshot restores from that copy plus what came after (serialized anew past 64 K, or after a resize)', async () => {
    const m = new ScreenMirror(() => {}, 120, 32, 5, 20);
    const restored = async (cols: number, rows: number) => {
      const v = newTerm(cols, rows);
      const snap = m.snapshot();
      await written(v, snap.state + snap.tail);
      return bufferText(v);
    };
    for (let i = 0; i < 295; i++) m.push(frame(i)); // ends mid-screen (every tenth frame clears it)
    await until(() => m.backlog === 0, 'parsed');
    await until(() => m.serializations === 1, 'serialized while quiet');
    expect(await restored(120, 32)).toBe(m.text());
    expect(m.serializations).toBe(1); // the quiet-time copy, not a second serialization
    // A few lines after it: the copy and those lines raw, not a second serialization.
    m.push('\r\nnew line after the pause');
    await until(() => m.backlog === 0, 'parsed again');
    expect(await restored(120, 32)).toBe(m.text());
    expect(m.serializations).toBe(1);
    // More than 64 K characters after it: serialized anew.
    for (let i = 0; i < 1000; i++) m.push(frame(i));
    await until(() => m.backlog === 0, 'a flood parsed');
    expect(await restored(120, 32)).toBe(m.text());
    expect(m.serializations).toBe(2);
    m.snapshot();
    const before = m.serializations;
    m.resize(60, 20);
    // The reflowed screen is serialized anew: a copy from before the resize stands for the old geometry.
    expect(await restored(60, 20)).toBe(m.text());
    expect(m.serializations).toBe(before + 1);
    m.dispose();
  });

  it('the mirror follows the pty size and serializes its alternate screen', async () => {
    const m = new ScreenMirror(() => {}, 40, 10);
    m.push('normal text\r\n\x1b[?1049h\x1b[Hfull-screen app');
    await until(() => m.backlog === 0, 'parsed');
    m.resize(60, 12);
    expect([m.cols, m.rows]).toEqual([60, 12]);
    const v = newTerm(60, 12);
    await written(v, m.snapshot().state);
    expect(v.buffer.active.type).toBe('alternate');
    expect(bufferText(v)).toContain('full-screen app');
    m.dispose();
  });
});
