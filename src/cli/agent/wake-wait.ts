/**
 * Sleeps up to `ms`, ending early on `wake()` or when `signal` aborts. The abort listener is removed however
 * the wait ends: a lead that waits once a second for its team would otherwise add one listener per wait to
 * the run's signal (Node warns at 11, and each holds its promise until the run ends).
 */
export function waitForWake(signal: AbortSignal, ms: number, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (signal.aborted) return done();
    signal.addEventListener('abort', done, { once: true });
    onWake(done);
  });
}
