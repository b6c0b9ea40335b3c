/**
 * One contended run of a team store, for the side-by-side comparison in team-store.ts:
 * `node --import tsx bench/store-contended.ts <checkout>` runs 8 claimer and 8 writer processes against the
 * store of <checkout> (this repository, or an older checkout of it) and prints one JSON line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const load = (rel: string) => import(pathToFileURL(path.join(root, rel)).href);
const { TeamStore, createInboxConsumer } = await load('src/core/store/index.ts');
const { startWorker, tempDir } = await load('test/team/helpers.ts');

type Store = InstanceType<typeof TeamStore>;
interface Line {
  start: string;
  end: string;
  ids?: string[];
  log?: Array<{ id: string }>;
}

async function newTeam(members: string[]): Promise<Store> {
  const store: Store = TeamStore.forWorkspace(tempDir('thclaws-ab-'), {});
  store.init();
  await store.config.create({ name: 'ab', members: members.map((name) => ({ name })) });
  return store;
}

async function contended(mode: 'claim' | 'write', store: Store, args: (i: number) => string[]): Promise<{ seconds: number; results: Line[] }> {
  const go = path.join(path.dirname(store.dir), 'go');
  process.env.THCLAWS_BENCH_GO = go;
  const workers = Array.from({ length: 8 }, (_, i) => startWorker(mode, store.dir, ...args(i)));
  delete process.env.THCLAWS_BENCH_GO;
  for (const w of workers) await w.nextLine();
  fs.writeFileSync(go, '');
  const results = (await Promise.all(workers.map((w: { done(): Promise<unknown[]> }) => w.done()))).map((l) => l[0] as Line);
  const start = results.map((r) => BigInt(r.start)).reduce((a, b) => (a < b ? a : b));
  const end = results.map((r) => BigInt(r.end)).reduce((a, b) => (a > b ? a : b));
  return { seconds: Number(end - start) / 1e9, results };
}

const names = Array.from({ length: 8 }, (_, i) => `c${i}`);
const cStore = await newTeam(names);
for (let i = 0; i < 600; i++) await cStore.tasks.create({ subject: `t${i}`, description: '' });
const claims = await contended('claim', cStore, (i) => [names[i]!]);
const claimed = claims.results.flatMap((r) => r.log!).length;

const wStore = await newTeam(['reader', ...names]);
const consumer = createInboxConsumer(wStore, 'reader');
const feed = wStore.watch();
let acking: Promise<unknown> = Promise.resolve();
feed.onChange((e: { kind: string; agent?: string }) => {
  if (e.kind === 'inbox' && e.agent === 'reader') acking = acking.then(() => consumer.ack(consumer.take().map((m: { id: string }) => m.id)));
});
const writes = await contended('write', wStore, (i) => [names[i]!, 'reader', '100']);
feed.close();
await acking;
const written = writes.results.flatMap((r) => r.ids!).length;
for (const s of [cStore, wStore]) fs.rmSync(path.resolve(s.dir, '../../../'), { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ claims_per_s: claimed / claims.seconds, appends_per_s: written / writes.seconds })}\n`);
