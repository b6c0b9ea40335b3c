/**
 * A member placed on a host the person later removed from their settings: the edit form sends its whole spec
 * back, host included, and refusing the host it already has blocked every other change (its role, its model)
 * — the only way out was to move it first. A new host is still checked; the old one is kept as it is.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { Membership } from '../../src/main/host/membership.js';
import { remoteTeammatesFor } from '../../src/main/remote/host-remote.js';
import { teamWorkspace } from './helpers.js';

const ws = teamWorkspace();
afterAll(() => ws.cleanup());

describe('editing a member whose host is gone from the settings', () => {
  it('keeps its host and takes the rest; a host that is not defined is still refused; moving it here works', async () => {
    const store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: [] });
    let hosts: Record<string, unknown> = { big: { ssh: 'u@big', dir: '~/w', maxTeammates: 4 } };
    const remote = remoteTeammatesFor(ws.dir, process.env, () => ({ hosts, placement: 'local' }) as never);
    const m = new Membership({ workspace: ws.dir, store, leadArgv: ['thclaws'], maxLiveTeammates: () => 4, remote });
    const spec = { role: 'api', prompt: '', model: null, isolation: 'worktree', plan_mode: false, permission_mode: 'ask', host: 'big' } as const;
    await m.add('dan', spec);
    hosts = {};
    await m.edit('dan', { ...spec, role: 'tester' });
    const dan = () => store.config.require().then((c) => c.members.find((x) => x.name === 'dan')!);
    expect((await dan()).role).toBe('tester');
    expect((await dan()).host).toBe('big');
    await expect(m.edit('dan', { ...spec, host: 'gpu' })).rejects.toThrow('unknown host "gpu": no hosts are defined (user settings "hosts")');
    expect((await dan()).host).toBe('big');
    await m.edit('dan', { ...spec, host: null });
    expect((await dan()).host ?? null).toBe(null);
  });
});
