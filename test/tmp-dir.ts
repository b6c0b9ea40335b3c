import fs from 'node:fs';
import os from 'node:os';

/**
 * Where the multi-process store tests make their team dirs: tmpfs (/dev/shm) when there is one. The store
 * fsyncs every durable write, and on the shared disk those flushes, taken inside the lock, were most of these
 * tests' time (8 writers × 250 messages: 35 s on ext4, 7 s on tmpfs) while the waiters spun beside them. No
 * test can cut the power, so a flush proves nothing here; locks, renames, symlinks and inotify are the same.
 */
export const FAST_TMP = ((): string => {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    // Not a small one (a container's 64 MB default): Chromium needs it in the Playwright run after these tests.
    const { bavail, bsize } = fs.statfsSync('/dev/shm');
    if (bavail * bsize < 1024 ** 3) return os.tmpdir();
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
})();
