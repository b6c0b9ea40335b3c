/** budgets.json on real files: a hand edit's typo never lifts a limit, for this process or a later one. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamStore } from './index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function team(): { dir: string; open: () => TeamStore } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'budgets-'));
  dirs.push(dir);
  const open = () => {
    const s = new TeamStore(dir);
    s.init();
    return s;
  };
  return { dir, open };
}
const typo = '{"teammates":{"alice":{"tokens":40},},"roles":{}}';

describe('budgets.json', () => {
  it('a corrupt file is moved aside and the last valid limits restored, in a process that never read them too', async () => {
    const { dir, open } = team();
    await open().budgets.set({ agent: 'alice' }, { tokens: 40 });
    await open().budgets.set({ team: true }, { usd: 5 });
    fs.writeFileSync(path.join(dir, 'budgets.json'), typo);
    // A process started after the typo (no memory of the limits).
    const later = open();
    expect(await later.budgets.read()).toMatchObject({ team: { usd: 5 }, teammates: { alice: { tokens: 40 } } });
    expect(later.budgets.notice()).toMatch(/^budgets\.json is invalid \(.+\): moved to budgets\.json\.corrupt-\d+-\d+; the last valid limits are kept$/);
    expect(later.budgets.notice()).toBeNull();
    // The file holds them again for everyone; the person's edit is kept aside, never lost.
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'budgets.json'), 'utf8'))).toMatchObject({ team: { usd: 5 } });
    const aside = fs.readdirSync(dir).filter((f) => f.startsWith('budgets.json.corrupt-'));
    expect(aside.map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))).toEqual([typo]);
  });

  it("a running process keeps what it last read (a valid hand edit included); a set on a corrupt file keeps every other limit", async () => {
    const { dir, open } = team();
    const running = open();
    await running.budgets.set({ team: true }, { usd: 5 });
    fs.writeFileSync(path.join(dir, 'budgets.json'), JSON.stringify({ team: { usd: 5 }, teammates: { alice: { tokens: 100 } }, roles: {} }));
    expect((await running.budgets.read()).teammates.alice).toEqual({ tokens: 100 });
    fs.writeFileSync(path.join(dir, 'budgets.json'), typo);
    expect((await running.budgets.read()).teammates.alice).toEqual({ tokens: 100 });
    fs.writeFileSync(path.join(dir, 'budgets.json'), typo);
    const cli = open();
    expect(await cli.budgets.set({ agent: 'bob' }, { tokens: 50 })).toMatchObject({ team: { usd: 5 }, teammates: { alice: { tokens: 100 }, bob: { tokens: 50 } } });
    expect(cli.budgets.notice()).toMatch(/the last valid limits are kept/);
  });
});
