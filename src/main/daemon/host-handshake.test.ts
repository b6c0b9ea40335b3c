/**
 * The one handshake, over plain streams (what a socket or ssh's stdio is to it): what each answer of the far end
 * turns into for the client, and that it never hangs.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HOST_PROTOCOL } from '../../contract/api.js';
import { helloOver, HOST_STOPPING, type HandshakeOptions, type HostStream } from './host-handshake.js';

/** A far end the test plays: `said` is what the client wrote, `answer` writes to it, `gone` ends the stream. */
function pair() {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  let said = '';
  fromClient.on('data', (d: Buffer) => (said += d.toString()));
  const gone: Array<() => void> = [];
  let ended = 0;
  let destroyed = 0;
  const stream: HostStream = {
    input: toClient,
    output: fromClient,
    end: () => void ended++,
    destroy: () => void destroyed++,
    onGone: (cb) => void gone.push(cb),
    onError: (cb) => void toClient.on('error', cb),
  };
  return {
    stream,
    said: () => said,
    answer: (text: string) => toClient.write(text),
    gone: () => gone.forEach((cb) => cb()),
    counts: () => ({ ended, destroyed }),
  };
}

const welcome = (extra = '') => `${JSON.stringify({ type: 'welcome', protocol: HOST_PROTOCOL, pid: 42, workspace: '/ws' })}\n${extra}`;
const opts = (o: Partial<HandshakeOptions> = {}): HandshakeOptions => ({ client: 'test', what: 'the host on box', ...o });

describe('helloOver', () => {
  it('says hello with its protocol and client; the welcome gives pid and workspace; events sent with the welcome reach the first listener', async () => {
    const p = pair();
    const c = helloOver(p.stream, opts({ stop: true, force: true }));
    expect(JSON.parse(p.said())).toEqual({ type: 'hello', protocol: HOST_PROTOCOL, client: 'test', stop: true, force: true });
    p.answer(welcome(`${JSON.stringify({ type: 'notice', level: 'info', text: 'early' })}\n`));
    const conn = await c;
    expect([conn.pid, conn.workspace]).toEqual([42, '/ws']);
    const lines: string[] = [];
    conn.onLine((l) => lines.push(l));
    expect(lines.map((l) => JSON.parse(l).text)).toEqual(['early']);
    conn.send({ id: 1, type: 'subscribe' });
    expect(p.said().trim().split('\n').at(-1)).toBe('{"id":1,"type":"subscribe"}');
    let closed = false;
    conn.onClose(() => (closed = true));
    conn.close();
    conn.close();
    expect(p.counts()).toEqual({ ended: 1, destroyed: 0 });
    p.gone();
    expect(closed).toBe(true);
  });

  it.each([
    ['a refusal: its own words', `${JSON.stringify({ type: 'refused', error: 'this host (pid 9) speaks protocol 1, the client 2' })}\n`, {}, 'this host (pid 9) speaks protocol 1, the client 2', undefined],
    ['a stopping refusal: its code', `${JSON.stringify({ type: 'refused', error: 'the team is stopping: x', code: 'stopping' })}\n`, {}, 'the team is stopping: x', HOST_STOPPING],
    ['not JSON', 'Welcome to box\n', {}, 'the host on box sent something that is not JSON', undefined],
    ['JSON that is no welcome', '{"type":"member"}\n', {}, 'the host on box did not answer the hello', undefined],
    ['a welcome the check refuses', welcome(), { check: () => 'serves /other, not /ws' }, 'serves /other, not /ws', undefined],
  ])('%s', async (_name, text, extra, message, code) => {
    const p = pair();
    const c = helloOver(p.stream, opts(extra));
    p.answer(text);
    const err = (await c.catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect([err.message, err.code]).toEqual([message, code]);
    expect(p.counts().destroyed).toBe(1);
  });

  it('skipNoise: lines before the welcome that are not JSON (a login banner) are passed over', async () => {
    const p = pair();
    const c = helloOver(p.stream, opts({ skipNoise: true }));
    p.answer(`Welcome to box\nLast login: today\n${welcome()}`);
    expect((await c).pid).toBe(42);
  });

  it('the stream ends before an answer: ECONNRESET; no answer at all: ETIMEDOUT at the deadline, the stream dropped', async () => {
    const a = pair();
    const c = helloOver(a.stream, opts());
    a.gone();
    expect(await c.catch((e: NodeJS.ErrnoException) => [e.code, e.message])).toEqual(['ECONNRESET', 'the host on box closed the connection before answering']);
    const b = pair();
    const t0 = Date.now();
    const err = (await helloOver(b.stream, opts({ timeoutMs: 200 })).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect([err.code, err.message]).toEqual(['ETIMEDOUT', 'the host on box did not answer in 200 ms']);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(b.counts().destroyed).toBe(1);
  });

  it('a line over the size limit before the welcome: one line naming who sent it', async () => {
    const p = pair();
    const c = helloOver(p.stream, opts());
    p.answer('x'.repeat(64 * 1024 * 1024 + 1));
    expect((await c.catch((e: Error) => e.message))).toBe('the host on box sent a message over the size limit');
  });
});
