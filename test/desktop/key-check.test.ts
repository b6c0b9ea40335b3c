/**
 * The key check through the real SDK against the local fake API: one GET /v1/models (no Messages call, no
 * spend); an accepted key reads as accepted, a refused one as the provider's refusal in the agents' words.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkKey } from '../../src/main/host/key-check.js';
import { FakeAnthropic } from '../agent/fake-anthropic.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('checking a model key', () => {
  it('an accepted key: ok, with one model-list call and no message sent', async () => {
    fake = await new FakeAnthropic().start();
    fake.acceptKey = (k) => k === 'sk-ant-good';
    expect(await checkKey({ apiKey: 'sk-ant-good' }, fake.url)).toEqual({ ok: true, text: 'Anthropic accepted it' });
    expect(fake.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /v1/models']);
  });

  it("a refused key: the provider's refusal, in the words an agent's failure uses", async () => {
    fake = await new FakeAnthropic().start();
    fake.acceptKey = () => false;
    expect(await checkKey({ apiKey: 'sk-ant-bad' }, fake.url)).toEqual({ ok: false, text: 'API key refused (401): invalid x-api-key' });
    expect(fake.requests).toHaveLength(1); // no retry: one call
  });

  it('an endpoint nobody answers: says which and why', async () => {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`;
    await new Promise<void>((r) => s.close(() => r()));
    expect(await checkKey({ apiKey: 'sk-ant-x' }, base)).toEqual({ ok: false, text: `cannot reach ${base}: ECONNREFUSED` });
  });
});
