/**
 * A teammate's store link over a Unix socket to the lead's host (or to a bridge of it: an SSH stream's local
 * end): the host protocol's hello, then whole lines each way. `THCLAWS_TEAM_VIA=host:<socket path>`.
 */
import net from 'node:net';
import { HOST_PROTOCOL, HostWelcomeSchema } from '../../contract/api.js';
import type { StoreLink } from '../../core/store/host-link.js';
import { LineReader } from './lines.js';

/** The largest line a teammate takes from the host (a board of many tasks; screens are never sent to it). */
const MAX_LINE = 64 * 1024 * 1024;

/** Where `THCLAWS_TEAM_VIA` says the host is; null when unset; one clear error when it names no transport this knows. */
export function teamVia(value: string | undefined): { socket: string } | null {
  if (!value) return null;
  const m = /^host:(.+)$/.exec(value);
  if (!m) throw new Error(`THCLAWS_TEAM_VIA="${value}": expected host:<path of the lead host's socket>`);
  return { socket: m[1]! };
}

export function connectStoreSocket(socketPath: string, timeoutMs = 10_000): Promise<StoreLink> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const lines: Array<(l: string) => void> = [];
    const closes: Array<() => void> = [];
    let welcomed = false;
    const timer = setTimeout(() => fail(new Error(`the lead's host at ${socketPath} did not answer in ${timeoutMs} ms`)), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const reader = new LineReader(MAX_LINE, (line) => {
      if (welcomed) {
        for (const cb of lines) cb(line);
        return;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        return fail(new Error(`the lead's host at ${socketPath} sent something that is not JSON`));
      }
      const w = HostWelcomeSchema.safeParse(raw);
      if (!w.success) return fail(new Error(`the lead's host at ${socketPath} did not answer the hello`));
      if (w.data.type === 'refused') return fail(new Error(w.data.error));
      welcomed = true;
      clearTimeout(timer);
      resolve({
        send: (l) => void (socket.destroyed || socket.write(`${l}\n`)),
        onLine: (cb) => void lines.push(cb),
        onClose: (cb) => void closes.push(cb),
        close: () => socket.end(),
      });
    }, () => socket.destroy());
    socket.on('connect', () => socket.write(`${JSON.stringify({ type: 'hello', protocol: HOST_PROTOCOL, client: 'teammate' })}\n`));
    socket.on('data', (d) => reader.push(d));
    socket.on('error', (err) => (welcomed ? undefined : fail(err)));
    socket.on('close', () => {
      if (!welcomed) fail(new Error(`the lead's host at ${socketPath} closed the connection before answering`));
      for (const cb of closes.splice(0)) cb();
    });
  });
}
