import type { Readable, Writable } from 'node:stream';
import { HOST_PROTOCOL, HostWelcomeSchema, parseEvent, type HostEvent } from '../../contract/api.js';
import { LineReader } from './lines.js';

export interface HostConnection {
  pid: number;
  workspace: string;
  /** Sends one request (validated by the host, where it enters that process). */
  send(request: unknown): void;
  /** Sends one request already serialised (JSON.stringify's text: never a newline in it). */
  sendLine(json: string): void;
  /** Each event, parsed (for a client that acts on events: `--stop`, tests). */
  onEvent(cb: (event: HostEvent) => void): void;
  /** Each event as the host's line (JSON text), not parsed here: for a client that only forwards it to a view. */
  onLine(cb: (line: string) => void): void;
  onClose(cb: () => void): void;
  close(): void;
}

/** The code of the error a host that is stopping its team refuses with: no client starts another host because of it. */
export const HOST_STOPPING = 'EHOSTSTOPPING';

/** Events from the host are larger than requests: a whole screen restored on attach. */
const MAX_EVENT_LINE = 64 * 1024 * 1024;

/**
 * A byte stream to a host: its socket, or a child's stdio whose far end is bridged to one (`ssh … host connect
 * --stdio`). `gone` fires once, when the stream is over (for a child: once it exited and its pipes closed).
 */
export interface HostStream {
  input: Readable;
  output: Writable;
  /** Ends the stream (the client is done). */
  end(): void;
  /** Drops it at once (a failed handshake). */
  destroy(): void;
  onGone(cb: () => void): void;
  onError(cb: (err: Error) => void): void;
}

export interface HelloOptions {
  client: string;
  stop?: boolean;
  force?: boolean;
  timeoutMs?: number;
  protocol?: number;
}

export interface HandshakeOptions extends HelloOptions {
  /** Who answers, for the messages: `the host for /ws`, `the host on me@box`. */
  what: string;
  /** A reason to refuse the welcome (another workspace at the socket), or null. */
  check?(welcome: { pid: number; workspace: string }): string | null;
  /**
   * Lines before the welcome that are not JSON are skipped rather than fatal: a remote login shell may print
   * a banner on stdout before the bridge starts.
   */
  skipNoise?: boolean;
}

const parseJson = (line: string): unknown => {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * The host's message in a line that may carry a login banner: the host's lines are objects with a `type`; a
 * banner may be JSON of another shape (`echo 2026`) or lack its newline, the host's line then glued to its end.
 */
function hostLineIn(line: string): unknown {
  for (let at = line.indexOf('{"type":'); at >= 0; at = line.indexOf('{"type":', at + 1)) {
    const raw = parseJson(line.slice(at));
    if (raw !== undefined) return raw;
  }
  return undefined;
}

/**
 * Says hello over the stream and waits for the welcome: the one handshake every client makes, whatever carries
 * it. Rejects with the host's one-line reason when it refuses (another protocol version), with `ECONNRESET`
 * when the stream ends before an answer, `ETIMEDOUT` after `timeoutMs`; never hangs.
 */
export function helloOver(stream: HostStream, opts: HandshakeOptions): Promise<HostConnection> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const events: Array<(e: HostEvent) => void> = [];
    const lines: Array<(line: string) => void> = [];
    // Events read in the same chunk as the welcome come before anyone could listen: kept for the first listener.
    let early: string[] | null = [];
    const closes: Array<() => void> = [];
    let welcomed = false;
    let ended = false;
    // ETIMEDOUT: a host that is there but stalled (stopped, swapped out), unlike one that is not there at all.
    const timer = setTimeout(() => fail(Object.assign(new Error(`${opts.what} did not answer in ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      if (!ended) stream.destroy();
      ended = true;
      reject(err);
    };
    // Parsed (JSON, then the contract) only for onEvent listeners: a forwarding client never parses an event.
    const deliver = (line: string) => {
      for (const cb of lines) cb(line);
      if (!events.length) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        return;
      }
      const ev = parseEvent(raw);
      if (ev.ok) for (const cb of events) cb(ev.event);
    };
    const first = (add: () => void) => {
      add();
      for (const l of early?.splice(0) ?? []) deliver(l);
      early = null;
    };
    const write = (json: string) => void (ended || stream.output.destroyed || stream.output.write(`${json}\n`));
    const reader = new LineReader(MAX_EVENT_LINE, (line) => {
      if (welcomed) return early ? void early.push(line) : deliver(line);
      const raw = opts.skipNoise ? hostLineIn(line) : parseJson(line);
      if (raw === undefined) return opts.skipNoise ? undefined : fail(new Error(`${opts.what} sent something that is not JSON`));
      const w = HostWelcomeSchema.safeParse(raw);
      if (!w.success) return fail(new Error(`${opts.what} did not answer the hello`));
      if (w.data.type === 'refused') return fail(Object.assign(new Error(w.data.error), w.data.code === 'stopping' ? { code: HOST_STOPPING } : {}));
      const refusal = opts.check?.(w.data);
      if (refusal) return fail(new Error(refusal));
      welcomed = true;
      clearTimeout(timer);
      resolve({
        pid: w.data.pid,
        workspace: w.data.workspace,
        send: (r) => write(JSON.stringify(r)),
        sendLine: write,
        onEvent: (cb) => first(() => events.push(cb)),
        onLine: (cb) => first(() => lines.push(cb)),
        onClose: (cb) => void closes.push(cb),
        close: () => {
          if (ended) return;
          ended = true;
          stream.end();
        },
      });
    }, () => fail(new Error(`${opts.what} sent a message over the size limit`)));
    stream.output.on('error', () => {}); // a closed far end: reported by `gone`, not as a write error
    write(JSON.stringify({ type: 'hello', protocol: opts.protocol ?? HOST_PROTOCOL, client: opts.client, ...(opts.stop ? { stop: true } : {}), ...(opts.force ? { force: true } : {}) }));
    stream.input.on('data', (d: Buffer) => reader.push(d));
    stream.onError((err) => (welcomed ? undefined : fail(err)));
    stream.onGone(() => {
      ended = true;
      if (!welcomed) fail(Object.assign(new Error(`${opts.what} closed the connection before answering`), { code: 'ECONNRESET' }));
      for (const cb of closes.splice(0)) cb();
    });
  });
}
