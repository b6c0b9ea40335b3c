/**
 * A local fake of the Anthropic Messages API (POST /v1/messages, streamed as SSE) for tests: replies are
 * queued per test; every request is recorded. Reusable by later issues (teams, desktop).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolUse {
  id?: string;
  name: string;
  input: unknown;
  /** Stream only this many characters of the input JSON (a tool call cut off by max_tokens). */
  cutAt?: number;
}

/** Thinking blocks streamed before the text, as the API sends them (thinking_delta then signature_delta). */
export type FakeThinking = { thinking: string; signature: string } | { redacted: string };

/**
 * One content block in the order it is streamed (interleaved thinking and tool calls). A thinking block
 * without a signature is one cut off by max_tokens (no signature_delta); `raw` is a block of a type the
 * client does not know, streamed as-is.
 */
export type FakeBlock =
  | { thinking: string; signature?: string }
  | { redacted: string }
  | { text: string }
  | { toolUse: FakeToolUse }
  | { raw: Record<string, unknown> };

export type FakeReply =
  | {
      kind?: 'message';
      /** Every block in streaming order; when set, `thinking`, `text` and `toolUses` are ignored. */
      blocks?: FakeBlock[];
      thinking?: FakeThinking[];
      text?: string;
      toolUses?: FakeToolUse[];
      stopReason?: string;
      usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
      /** Final counts message_delta reports when they differ from message_start's (server tools add input). */
      deltaUsage?: { input_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
      /** Pause before each streamed text chunk (streaming and abort tests). */
      chunkDelayMs?: number;
      /** An SSE `error` event after the text (e.g. overloaded mid-stream); the message never completes. */
      streamError?: { type: string; message: string };
    }
  | { kind: 'error'; status: number; type?: string; message?: string; headers?: Record<string, string> };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: FakeReply[] = [];
  private server?: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  private toolCounter = 0;
  /** Asked when the queue is empty (a reply computed from the request, e.g. a script's rules); else `fallback`. */
  respond?: (body: any) => Promise<FakeReply | undefined> | FakeReply | undefined;
  /** Used when the queue is empty. */
  fallback: FakeReply = { text: '(fake: no reply queued)' };
  /** The keys the model list (GET /v1/models, a key check) accepts; the others get 401 "invalid x-api-key". */
  acceptKey: (key: string) => boolean = () => true;
  /** Awaited before the model list answers (a test holds the check open to see it in progress). */
  modelsGate?: () => Promise<void>;
  /** Called as a request arrives (before its body is read), with performance.now(): latency benches. */
  onRequestStart?: (at: number) => void;

  get url(): string {
    const addr = this.server?.address() as AddressInfo | undefined;
    if (!addr) throw new Error('fake server not started');
    return `http://127.0.0.1:${addr.port}`;
  }

  enqueue(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** `port`: a given one (an endpoint that was unreachable comes up), else any free one. */
  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.onRequestStart?.(performance.now());
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    } catch {
      body = null;
    }
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      await this.modelsGate?.();
      return this.models(req, res);
    }
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      return this.sendError(res, { kind: 'error', status: 404, type: 'not_found_error', message: `no route ${req.url}` });
    }
    if (!req.headers.authorization && !req.headers['x-api-key']) {
      return this.sendError(res, { kind: 'error', status: 401, message: 'missing credentials' });
    }
    const reply = this.queue.shift() ?? (await this.respond?.(body)) ?? this.fallback;
    if (reply.kind === 'error') return this.sendError(res, reply);
    await this.stream(res, body, reply);
  }

  /** The model list, as the API pages it: one model, for an accepted key. */
  private models(req: http.IncomingMessage, res: http.ServerResponse): void {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '') || String(req.headers['x-api-key'] ?? '');
    if (!key) return this.sendError(res, { kind: 'error', status: 401, message: 'missing credentials' });
    if (!this.acceptKey(key)) return this.sendError(res, { kind: 'error', status: 401, message: 'invalid x-api-key' });
    res.writeHead(200, { 'content-type': 'application/json' });
    const model = { type: 'model', id: 'claude-sonnet-5-5', display_name: 'Claude Sonnet 5.5', created_at: '2026-01-01T00:00:00Z' };
    res.end(JSON.stringify({ data: [model], has_more: false, first_id: model.id, last_id: model.id }));
  }

  private sendError(res: http.ServerResponse, r: Extract<FakeReply, { kind: 'error' }>): void {
    res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
    res.end(JSON.stringify({ type: 'error', error: { type: r.type ?? ERROR_TYPES[r.status] ?? 'api_error', message: r.message ?? `fake error ${r.status}` } }));
  }

  private sendToolUse(send: (event: string, data: unknown) => void, index: number, t: FakeToolUse): void {
    const id = t.id ?? `toolu_fake_${++this.toolCounter}`;
    send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: t.name, input: {} } });
    const json = JSON.stringify(t.input).slice(0, t.cutAt);
    // Split the JSON in two deltas, as the real API streams it in pieces.
    const half = Math.floor(json.length / 2);
    send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } });
    send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } });
    send('content_block_stop', { type: 'content_block_stop', index });
  }

  private async stream(res: http.ServerResponse, body: any, r: Exclude<FakeReply, { kind: 'error' }>): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let closed = false;
    res.on('close', () => (closed = true));
    const send = (event: string, data: unknown) => {
      if (!closed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const usage = { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ...r.usage };
    // Today's shapes: message_start carries the input side (with the cache_creation split and service tier)
    // and a placeholder output count; message_delta carries the cumulative totals.
    send('message_start', {
      type: 'message_start',
      message: {
        id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model: body?.model ?? 'fake', content: [], stop_reason: null, stop_sequence: null,
        usage: { ...usage, output_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 }, service_tier: 'standard' },
      },
    });
    const finalUsage = { input_tokens: usage.input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens, output_tokens: usage.output_tokens, server_tool_use: null, ...r.deltaUsage };
    let index = 0;
    if (r.blocks) {
      for (const b of r.blocks) {
        if ('toolUse' in b) this.sendToolUse(send, index, b.toolUse);
        else if ('text' in b) {
          send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
          send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
        } else if ('redacted' in b) {
          send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: b.redacted } });
        } else if ('raw' in b) {
          send('content_block_start', { type: 'content_block_start', index, content_block: b.raw });
        } else {
          send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
          if (b.thinking) send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: b.thinking } });
          if (b.signature !== undefined) send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: b.signature } });
        }
        send('content_block_stop', { type: 'content_block_stop', index });
        index++;
      }
      const stop = r.stopReason ?? (r.blocks.some((b) => 'toolUse' in b) ? 'tool_use' : 'end_turn');
      send('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: finalUsage });
      send('message_stop', { type: 'message_stop' });
      res.end();
      return;
    }
    for (const t of r.thinking ?? []) {
      if ('redacted' in t) {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: t.redacted } });
      } else {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        for (const piece of t.thinking.match(/\S+\s*|\s+/g) ?? []) {
          send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
        }
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: t.signature } });
      }
      send('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    if (r.text !== undefined) {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const piece of r.text.match(/\S+\s*|\s+/g) ?? []) {
        if (r.chunkDelayMs) await new Promise((f) => setTimeout(f, r.chunkDelayMs));
        if (closed) return;
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      }
      if (r.streamError) {
        send('error', { type: 'error', error: r.streamError });
        res.end();
        return;
      }
      send('content_block_stop', { type: 'content_block_stop', index });
      index++;
    } else if (r.streamError) {
      send('error', { type: 'error', error: r.streamError });
      res.end();
      return;
    }
    for (const t of r.toolUses ?? []) {
      this.sendToolUse(send, index, t);
      index++;
    }
    const stop = r.stopReason ?? (r.toolUses?.length ? 'tool_use' : 'end_turn');
    send('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: finalUsage });
    send('message_stop', { type: 'message_stop' });
    res.end();
  }
}
