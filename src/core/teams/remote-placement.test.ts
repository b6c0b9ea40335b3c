/** Hosts and placement (docs/remote.md, "Teammates on other machines"): who defines a host, which one a spawn takes. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { loadSettings } from '../agent/settings.js';
import { trustFolder } from '../agent/trust.js';
import { RemoteHostSchema } from '../../contract/settings-schema.js';
import { placeTeammate, type RemoteTeammates } from './remote-placement.js';

const host = (ssh: string, maxTeammates = 2) => RemoteHostSchema.parse({ ssh, maxTeammates });
const remote = (hosts: Record<string, ReturnType<typeof host>>, placement: 'local' | 'spread' = 'local'): RemoteTeammates => ({
  hosts: () => hosts,
  placement: () => placement,
  prepare: () => Promise.reject(new Error('not here')),
  fetch: () => Promise.resolve(),
});

describe('hosts come from the user settings only', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => dirs.splice(0).forEach((c) => c()));
  const write = (file: string, obj: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(obj));
  };

  it("a project's hosts (trusted folder or not) are ignored and reported; the user's stay; a project may name placement", () => {
    const home = tempDir();
    const project = tempDir();
    dirs.push(home.cleanup, project.cleanup);
    const env = { HOME: home.dir };
    write(path.join(home.dir, '.config/thclaws/settings.json'), { hosts: { big: { ssh: 'me@big' } } });
    write(path.join(project.dir, '.thclaws/settings.json'), { hosts: { big: { ssh: 'evil@elsewhere', bin: '/tmp/x' }, evil: { ssh: 'evil' } }, placement: 'spread' });
    trustFolder(project.dir, env);
    const { settings, ignored } = loadSettings(project.dir, env);
    expect(settings.hosts).toEqual({ big: { ssh: 'me@big', dir: '~/thclaws/work', maxTeammates: 8, bin: 'thclaws' } });
    expect(settings.placement).toBe('spread');
    expect(ignored).toEqual([expect.stringMatching(/settings\.json: hosts \(only your user settings define hosts/)]);
  });

  it('an ssh target that ssh could read as an option or a shell could expand is refused', () => {
    for (const ssh of ['-oProxyCommand=x', 'me@big;rm -rf ~', 'me@$(id)', 'a b']) expect(RemoteHostSchema.safeParse({ ssh }).success, ssh).toBe(false);
    expect(RemoteHostSchema.safeParse({ ssh: 'ssh://me@big:2222' }).success).toBe(true);
  });
});

describe('placeTeammate', () => {
  const hosts = { big: host('me@big', 2), gpu: host('me@gpu', 1) };

  it('the named host, else the member\'s, else local; "local" is this machine', () => {
    expect(placeTeammate(remote(hosts), 'gpu', 'big', new Map())).toBe('gpu');
    expect(placeTeammate(remote(hosts), undefined, 'big', new Map())).toBe('big');
    expect(placeTeammate(remote(hosts), 'local', 'big', new Map())).toBeNull();
    expect(placeTeammate(remote(hosts), undefined, null, new Map())).toBeNull();
    expect(placeTeammate(undefined, undefined, undefined, new Map())).toBeNull();
  });

  it('an unknown name is one error naming it and the defined ones; a full host is refused', () => {
    expect(() => placeTeammate(remote(hosts), 'bigg', null, new Map())).toThrow('unknown host "bigg": the hosts defined are big, gpu (user settings "hosts")');
    expect(() => placeTeammate(remote({}), 'big', null, new Map())).toThrow('unknown host "big": no hosts are defined');
    expect(() => placeTeammate(remote(hosts), 'gpu', null, new Map([['gpu', 1]]))).toThrow('host "gpu" already runs 1 teammates (its maxTeammates)');
  });

  it('spread: the host with the fewest live teammates under its limit; none free → this machine', () => {
    const r = remote(hosts, 'spread');
    expect(placeTeammate(r, undefined, null, new Map())).toBe('big');
    expect(placeTeammate(r, undefined, null, new Map([['big', 1]]))).toBe('gpu');
    expect(placeTeammate(r, undefined, null, new Map([['big', 1], ['gpu', 1]]))).toBe('big');
    expect(placeTeammate(r, undefined, null, new Map([['big', 2], ['gpu', 1]]))).toBeNull();
  });

  it('spread never picks a host named local (that name is this machine wherever it is named)', () => {
    expect(placeTeammate(remote({ local: host('me@lan'), gpu: host('me@gpu') }, 'spread'), undefined, null, new Map())).toBe('gpu');
    expect(placeTeammate(remote({ local: host('me@lan') }, 'spread'), undefined, null, new Map())).toBeNull();
  });
});
