/**
 * Claude Code's tmux panes as live terminals, through tmux control mode: one `tmux -C attach-session -f
 * ignore-size,read-only` client per tmux server streams every pane's output (`%output %<pane> <octal-escaped
 * bytes>`), and `capture-pane -e -p` rebuilds a pane's screen when a view attaches. Control mode rather than
 * `pipe-pane`: a pane has one pipe, which the person (or another dashboard) may be using, and control mode
 * changes nothing in their tmux — the client is read-only and does not size their windows. Keys go in with
 * `send-keys -l`, only when the person turned typing on for the pane (the renderer's "Type here").
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** The tmux server a Claude Code process runs in: the socket in its `TMUX` variable (Linux /proc), else tmux's default. */
export async function tmuxSocketOf(pid: number | undefined): Promise<string | undefined> {
  if (!pid) return undefined;
  const env = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  const tmux = env.split('\0').find((kv) => kv.startsWith('TMUX='));
  return tmux ? tmux.slice(5).split(',')[0] || undefined : undefined;
}

/** Bytes of a `%output` value: `\ooo` octal escapes (control characters and backslash), the rest as sent. */
export function unescapeOutput(value: Buffer): Buffer {
  const out = Buffer.alloc(value.length);
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === 0x5c && i + 3 < value.length && /^[0-7]{3}$/.test(value.toString('latin1', i + 1, i + 4))) {
      out[n++] = parseInt(value.toString('latin1', i + 1, i + 4), 8);
      i += 3;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

export interface PaneScreen {
  data: string;
  cols: number;
  rows: number;
}

/** One tmux server: its control-mode client (started on the first watch) and the commands to it. */
export class TmuxServer {
  private client: ChildProcess | null = null;
  private readonly watchers = new Map<string, Set<(data: string) => void>>();
  private readonly decoders = new Map<string, StringDecoder>();
  private rest = Buffer.alloc(0);

  constructor(readonly socket: string | undefined) {}

  private args(...a: string[]): string[] {
    return this.socket ? ['-S', this.socket, ...a] : a;
  }

  run(...a: string[]): Promise<string> {
    return new Promise((resolve, reject) =>
      execFile('tmux', this.args(...a), { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => (err ? reject(new Error(`tmux ${a[0]}: ${(stderr || err.message).trim().split('\n')[0]}`)) : resolve(stdout))),
    );
  }

  /** The pane's screen (scrollback included) as escape sequences, and its size: what a view starts from. */
  async screen(pane: string): Promise<PaneScreen> {
    const [info, text] = await Promise.all([this.run('display-message', '-p', '-t', pane, '#{pane_width} #{pane_height} #{cursor_x} #{cursor_y}'), this.run('capture-pane', '-e', '-p', '-J', '-t', pane, '-S', '-1000')]);
    const [cols, rows, x, y] = info.trim().split(' ').map(Number) as [number, number, number, number];
    const lines = text.replace(/\n$/, '').split('\n');
    // The last `rows` lines are the screen; the cursor is placed where tmux has it.
    return { data: `\x1b[0m\x1b[H\x1b[2J${lines.join('\r\n')}\x1b[${y + 1};${x + 1}H`, cols, rows };
  }

  /** Keys in the order typed: each keystroke is its own request, so sends queue (and what waits goes as one). */
  private readonly typing = new Map<string, { queued: string; done: Promise<void> }>();

  sendKeys(pane: string, data: string): Promise<void> {
    const q = this.typing.get(pane);
    if (q) {
      q.queued += data;
      return q.done;
    }
    const entry = { queued: data, done: Promise.resolve() };
    this.typing.set(pane, entry);
    entry.done = (async () => {
      try {
        while (entry.queued) {
          const keys = entry.queued;
          entry.queued = '';
          await this.run('send-keys', '-t', pane, '-l', '--', keys);
        }
      } finally {
        this.typing.delete(pane);
      }
    })();
    return entry.done;
  }

  /** Calls `fn` with the pane's output as it comes; returns the way to stop. */
  watch(pane: string, session: string, fn: (data: string) => void): () => void {
    const set = this.watchers.get(pane) ?? new Set();
    this.watchers.set(pane, set);
    set.add(fn);
    if (!this.client) this.start(session);
    return () => {
      set.delete(fn);
      if (!set.size) this.watchers.delete(pane);
      if (!this.watchers.size) this.stop();
    };
  }

  private start(session: string): void {
    // stdin stays open: a control client detaches when its input ends.
    const c = spawn('tmux', this.args('-C', 'attach-session', '-t', session, '-f', 'ignore-size,read-only'), { stdio: ['pipe', 'pipe', 'ignore'] });
    this.client = c;
    c.stdout!.on('data', (chunk: Buffer) => this.lines(chunk));
    c.on('error', () => undefined);
    c.on('exit', () => {
      if (this.client === c) this.client = null;
    });
  }

  private lines(chunk: Buffer): void {
    let buf = Buffer.concat([this.rest, chunk]);
    for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a)) {
      const line = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      if (!line.subarray(0, 9).equals(Buffer.from('%output %'))) continue;
      const space = line.indexOf(0x20, 8);
      if (space < 0) continue;
      const pane = line.toString('latin1', 8, space);
      const set = this.watchers.get(pane);
      if (!set?.size) continue;
      const dec = this.decoders.get(pane) ?? new StringDecoder('utf8');
      this.decoders.set(pane, dec);
      const text = dec.write(unescapeOutput(line.subarray(space + 1)));
      if (text) for (const fn of set) fn(text);
    }
    this.rest = Buffer.from(buf);
  }

  stop(): void {
    const c = this.client;
    this.client = null;
    this.rest = Buffer.alloc(0);
    this.decoders.clear();
    if (c && c.exitCode === null) {
      c.stdin?.end();
      c.kill();
    }
  }
}
