/**
 * When the dashboard's address cannot be kept (the runtime dir is full, read-only, …), the person is told on
 * stderr that the next dashboard gets a new URL — an open tab would otherwise wait for an address that never
 * comes back. A port taken is said on stdout, and the kept address is not overwritten.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepServed } from './dashboard-command.js';

afterEach(() => vi.restoreAllMocks());

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  return { out, err };
}

describe('keepServed', () => {
  it('a save that fails says so in one line on stderr, naming the file, the cause and what it means', () => {
    const { err } = capture();
    const save = vi.fn(() => {
      throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
    });
    keepServed({ file: '/run/x/dashboard-k.json', token: 't', save }, { port: 4321 });
    expect(save).toHaveBeenCalledWith(4321);
    expect(err).toEqual(["thclaws: warning: could not keep the dashboard's address in /run/x/dashboard-k.json (ENOSPC): the next dashboard gets a new URL\n"]);
  });

  it('the kept port taken: said on stdout, and the kept address stays as it was', () => {
    const { out, err } = capture();
    const save = vi.fn();
    keepServed({ file: '/run/x/dashboard-k.json', token: 't', port: 4321, save }, { port: 5555, portTaken: 4321 });
    expect(save).not.toHaveBeenCalled();
    expect(out.join('')).toContain("port 4321, this workspace's dashboard address, is taken");
    expect(out.join('')).toContain('serving on 5555 for now');
    expect(err).toEqual([]);
  });
});
