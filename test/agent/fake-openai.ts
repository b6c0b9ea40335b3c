/**
 * A local fake of an OpenAI-compatible chat completions server (POST /v1/chat/completions, streamed as SSE
 * `data:` chunks ending in `data: [DONE]`) for tests and the bench: replies are queued; every request is
 * recorded. It streams the way real servers do: text in word pieces, each tool call's arguments split over
 * several chunks (the id and name only in the first), usage in a last chunk with no choices when the request
 * asked for it (`stream_options.include_usage`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAIToolCall {
  id?: string;
  name: string;
  /** Object (sent as JSON) or a raw arguments string (invalid JSON, cut-off arguments). */
  arguments: unknown;
}

export type FakeOpenAIReply =
  | {
      kind?: 'message';
      text?: string;
      /** Streamed as `reasoning_content` deltas before the text (vLLM, DeepSeek, Ollama). */
      reasoning?: string;
      toolCalls?: FakeOpenAIToolCall[];
      /** Default: `tool_calls` with tool calls, else `stop`; `null` ends the stream without one. */
      finishReason?: string | null;
      usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
      /** Leave usage out even when asked for (servers that ignore include_usage). */
      noUsage?: boolean;
      /** Pause before each text chunk (abort tests, token pacing in demos). */
      chunkDelayMs?: number;
    }
  | { kind: 'error'; status: number; message?: string; headers?: Record<string, string> }
  /** A 200 stream that carries an `error` object (as OpenRouter and proxies send), after any text given. */
  | { kind: 'stream-error'; text?: string; error: { message: string; code?: number | string } }
  /** A 200 stream whose connection is cut before its first chunk. */
  | { kind: 'cut' }
  /** A 200 stream whose `data:` line is not JSON (a broken proxy), then the end of the stream. */
  | { kind: 'bad-json'; data: string };

export interface RecordedOpenAIRequest {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export class FakeOpenAI {
  readonly requests: RecordedOpenAIRequest[] = [];
  private readonly queue: FakeOpenAIReply[] = [];
  private server?: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  private counter = 0;
  /** Asked when the queue is empty (a reply computed from the request, e.g. a script's rules); else `fallback`. */
  respond?: (body: any) => Promise<FakeOpenAIReply | undefined> | FakeOpenAIReply | undefined;
  fallback: FakeOpenAIReply = { text: '(fake: no reply queued)' };
  /** When set, requests without `Authorization: Bearer <key>` get a 401. */
  requiredKey?: string;

  /** The base URL a client is given (ends in /v1, as real servers expect). */
  get url(): string {
    const addr = this.server?.address() as AddressInfo | undefined;
    if (!addr) throw new Error('fake server not started');
    return `http://127.0.0.1:${addr.port}/v1`;
  }

  enqueue(...replies: FakeOpenAIReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    } catch {
      body = null;
    }
    this.requests.push({ url: req.url ?? '', headers: req.headers, body });
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return this.sendError(res, { kind: 'error', status: 404, message: `no route ${req.url}` });
    if (this.requiredKey !== undefined && req.headers.authorization !== `Bearer ${this.requiredKey}`) {
      return this.sendError(res, { kind: 'error', status: 401, message: 'Incorrect API key provided' });
    }
    const reply = this.queue.shift() ?? (await this.respond?.(body)) ?? this.fallback;
    if (reply.kind === 'error') return this.sendError(res, reply);
    if (reply.kind === 'cut') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      res.socket?.destroy();
      return;
    }
    if (reply.kind === 'bad-json') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${reply.data}\n\n`);
      return;
    }
    if (reply.kind === 'stream-error') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const base = { id: `chatcmpl-${++this.counter}`, object: 'chat.completion.chunk', created: 1, model: body?.model ?? 'fake' };
      if (reply.text) res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: reply.text }, finish_reason: null }] })}\n\n`);
      res.end(`data: ${JSON.stringify({ error: reply.error })}\n\n`);
      return;
    }
    await this.stream(res, body, reply);
  }

  private sendError(res: http.ServerResponse, r: Extract<FakeOpenAIReply, { kind: 'error' }>): void {
    res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
    res.end(JSON.stringify({ error: { message: r.message ?? `fake error ${r.status}`, type: 'fake_error', code: null } }));
  }

  private async stream(res: http.ServerResponse, body: any, r: Extract<FakeOpenAIReply, { kind?: 'message' }>): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let closed = false;
    res.on('close', () => (closed = true));
    const id = `chatcmpl-${++this.counter}`;
    const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body?.model ?? 'fake' };
    const send = (delta: Record<string, unknown>, finish: string | null = null) => {
      if (!closed) res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    };
    send({ role: 'assistant', content: '' });
    for (const piece of r.reasoning?.match(/\S+\s*|\s+/g) ?? []) send({ reasoning_content: piece });
    for (const piece of r.text?.match(/\S+\s*|\s+/g) ?? []) {
      if (r.chunkDelayMs) await new Promise((f) => setTimeout(f, r.chunkDelayMs));
      if (closed) return;
      send({ content: piece });
    }
    (r.toolCalls ?? []).forEach((t, index) => {
      const args = typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments);
      const third = Math.ceil(args.length / 3);
      // First chunk: id, type and name with no arguments yet; then the arguments in three pieces.
      send({ tool_calls: [{ index, id: t.id ?? `call_fake_${this.counter}_${index}`, type: 'function', function: { name: t.name, arguments: '' } }] });
      for (let at = 0; at < args.length; at += third) send({ tool_calls: [{ index, function: { arguments: args.slice(at, at + third) } }] });
    });
    const finish = r.finishReason === undefined ? (r.toolCalls?.length ? 'tool_calls' : 'stop') : r.finishReason;
    if (finish !== null) send({}, finish);
    if (body?.stream_options?.include_usage && !r.noUsage) {
      const u = r.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
      const usage = { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens, prompt_tokens_details: { cached_tokens: u.cached_tokens ?? 0 } };
      if (!closed) res.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
    }
    if (!closed) res.write('data: [DONE]\n\n');
    res.end();
  }
}
