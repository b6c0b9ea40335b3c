/**
 * Attack: the SDK's stream-json session on a provider-profile model (OpenAI-compatible fake): partial
 * messages and the result's cost. Run: npx tsx attacks/stream-openai-profile.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeOpenAI } from '../test/agent/fake-openai.js';
import { BIN, scrubbedEnv } from '../test/agent/helpers.js';

const fake = await new FakeOpenAI().start();
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stream-openai-')));
fs.mkdirSync(path.join(dir, '.config/thclaws'), { recursive: true });
fs.writeFileSync(path.join(dir, '.config/thclaws/settings.json'), JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: fake.url, models: { unpriced: {} } } } }));
fake.enqueue({ text: 'hello from a local model', usage: { prompt_tokens: 1000, completion_tokens: 500 } });
const input = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' })}\n`;
// Run in the background of the event loop: the fake server must keep answering.
const { spawn } = await import('node:child_process');
const child = spawn(BIN, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--model', 'local/unpriced'], { cwd: dir, env: scrubbedEnv(dir) });
let out = '';
let err = '';
child.stdout.on('data', (d) => (out += d));
child.stderr.on('data', (d) => (err += d));
child.stdin.end(input);
const code = await new Promise((r) => child.on('close', r));
const lines = out.trim().split('\n').map((l) => JSON.parse(l));
const result = lines.find((l) => l.type === 'result');
console.log(`exit=${code} stderr=${JSON.stringify(err)}`);
console.log(`stream_event lines: ${lines.filter((l) => l.type === 'stream_event').length} (expect > 0 with --include-partial-messages, or the flag refused for this provider)`);
console.log(`result: total_cost_usd=${result?.total_cost_usd} modelUsage=${JSON.stringify(result?.modelUsage)} (the model has no price: 0 is a too-low number)`);
void spawnSync;
await fake.close();
fs.rmSync(dir, { recursive: true, force: true });
