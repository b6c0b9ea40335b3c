import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ViewLink } from '../daemon/remote-views.js';
import { eventMessages, type ViewEvent } from '../daemon/view-event.js';
import { serveStatic } from './static.js';

export interface DashboardServerOptions {
  /** The views' way to the team: the in-process HostManager, or the workspace's host process (RemoteViews). */
  manager: { connect(out: (event: ViewEvent) => void, gone?: () => void, opts?: { noStart?: boolean }): ViewLink };
  /** Built renderer (index.html + assets). */
  rendererDir: string;
  port?: number;
  /** The port the last dashboard of this workspace served on: taken again when free, else a free one. */
  preferredPort?: number;
  host?: string;
  /** The kept token (src/main/web/endpoint.ts) or a test's; default: 32 random bytes. */
  token?: string;
}

export interface DashboardServer {
  url: string;
  port: number;
  token: string;
  /** The preferred port, found taken (this one was served instead). */
  portTaken?: number;
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Proof that a server knows the token, bound to the port it serves on: a program on the port of a dashboard
 * that died cannot make it (nor relay it from the dashboard serving elsewhere), so the page never sends it
 * the token, which the next dashboard of the workspace keeps.
 */
export const PROOF_PATH = '/proof';
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
export const tokenProof = (token: string, port: number, nonce: string): string => createHmac('sha256', token).update(`thclaws dashboard ${port} ${nonce}`).digest('base64url');

const isPing = (raw: unknown): raw is { type: 'ping'; id: number } =>
  typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ping' && Number.isInteger((raw as { id?: unknown }).id);

/**
 * The dashboard over HTTP + WebSocket. The WebSocket needs the token in its URL; a page load needs it in the
 * URL too, and sets a cookie that lets that page fetch its own static assets. A browser sends cookies for
 * 127.0.0.1 to every port, so the cookie holds a second secret good only for those files, never the token.
 * A foreign Origin or Host is refused (no cross-site or DNS-rebinding use).
 */
export async function startDashboardServer(opts: DashboardServerOptions): Promise<DashboardServer> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  // Derived from the token (one-way), so a page left open still fetches its assets from the same dashboard
  // started again with the kept token, while the cookie never carries the token itself.
  const assetKey = createHmac('sha256', token).update('thclaws dashboard assets').digest('base64url');
  const bind = opts.host ?? '127.0.0.1';
  let port = 0;
  const allowedHosts = () => new Set([`${bind}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);

  const cookieName = () => `thclaws_assets_${port}`;
  const queryToken = (req: http.IncomingMessage): string | null => new URL(req.url ?? '/', 'http://x').searchParams.get('token');
  const assetCookie = (req: http.IncomingMessage): string | null => {
    const c = (req.headers.cookie ?? '').split(';').map((x) => x.trim()).find((x) => x.startsWith(`${cookieName()}=`));
    return c ? c.slice(cookieName().length + 1) : null;
  };
  const same = (t: string | null, secret: string) => {
    if (!t) return false;
    const a = Buffer.from(t);
    const b = Buffer.from(secret);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  /** null when allowed, else the reason. */
  const refuse = (req: http.IncomingMessage, assetsToo: boolean): string | null => {
    const foreign = refuseSite(req);
    if (foreign) return foreign;
    if (!same(queryToken(req), token) && !(assetsToo && same(assetCookie(req), assetKey))) return 'missing or wrong token';
    return null;
  };
  const refuseSite = (req: http.IncomingMessage): string | null => {
    if (!allowedHosts().has(req.headers.host ?? '')) return 'unknown Host';
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let host: string;
      try {
        host = new URL(origin).host;
      } catch {
        return 'bad Origin';
      }
      if (!allowedHosts().has(host)) return 'foreign Origin';
    }
    return null;
  };

  const server = http.createServer((req, res) => {
    const proof = new URL(req.url ?? '/', 'http://x');
    // The page's question before it hands over its token (src/renderer/transport.ts): do you know it, here?
    if (proof.pathname === PROOF_PATH && !refuseSite(req) && req.method === 'GET') {
      const nonce = proof.searchParams.get('nonce') ?? '';
      if (!NONCE.test(nonce)) res.writeHead(400, { 'content-type': 'text/plain' }).end('bad nonce\n');
      else res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(tokenProof(token, port, nonce));
      return;
    }
    const why = refuse(req, true);
    if (why) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`forbidden: ${why}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.has('token')) {
      res.setHeader('set-cookie', `${cookieName()}=${assetKey}; HttpOnly; SameSite=Strict; Path=/`);
    }
    serveStatic(opts.rendererDir, url.pathname, res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const why = refuse(req, false);
    const url = new URL(req.url ?? '/', 'http://x');
    if (why || url.pathname !== '/ws') {
      socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nforbidden: ${why ?? 'not found'}\n`);
      return;
    }
    // `nostart`: a page that asked the team to stop, reconnecting: it reaches the host only if one still runs.
    const noStart = url.searchParams.has('nostart');
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, noStart));
  });

  const onSocket = (ws: WebSocket, noStart: boolean) => {
    // A host's event line is sent on as it came (the page parses it); this process's own are serialised.
    const send = eventMessages((text) => {
      if (ws.readyState === ws.OPEN) ws.send(text);
    });
    // The host went away: the page reconnects, and so reaches the next host (which offers Resume team).
    const conn = opts.manager.connect(send, () => ws.close(1012, 'the workspace host closed'), { noStart });
    ws.on('message', (data, isBinary) => {
      let raw: unknown;
      try {
        raw = JSON.parse(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
      } catch {
        send({ type: 'reply', id: -1, ok: false, error: 'invalid request: not JSON' });
        return;
      }
      // The page's probe of this server (src/renderer/transport.ts): answered here, it never reaches the host.
      if (isPing(raw)) {
        send({ type: 'reply', id: raw.id, ok: true });
        return;
      }
      conn.handle(raw).catch((err: unknown) => send({ type: 'reply', id: -1, ok: false, error: String(err).split('\n')[0]! }));
    });
    ws.on('close', () => conn.close());
    ws.on('error', () => conn.close());
  };

  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, bind, () => {
        server.off('error', reject);
        resolve();
      });
    });
  let portTaken: number | undefined;
  if (!opts.port && opts.preferredPort !== undefined) {
    await listen(opts.preferredPort).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
      portTaken = opts.preferredPort;
      await listen(0);
    });
  } else {
    await listen(opts.port ?? 0);
  }
  port = (server.address() as AddressInfo).port;
  const shownHost = bind.includes(':') ? `[${bind}]` : bind;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    ...(portTaken !== undefined ? { portTaken } : {}),
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
    },
  };
}
