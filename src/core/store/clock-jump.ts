/**
 * Notices the wall clock jumping against the monotonic one: a laptop that slept (the monotonic clock stops
 * while the wall clock goes on), or the time set by hand or NTP. Heartbeats are wall-clock timestamps, so
 * after a jump every heartbeat on the machine looks old at once: the heartbeat is written again at once.
 */
export class ClockJump {
  private wall: number;
  private mono: number;

  constructor(
    /** A jump smaller than this is timer lateness, not a jump (ms). */
    private readonly thresholdMs: number,
    private readonly wallNow: () => number = Date.now,
    private readonly monoNow: () => number = () => performance.now(),
  ) {
    this.wall = wallNow();
    this.mono = monoNow();
  }

  /** The jump since the last sample (ms, signed: negative when the clock went back), or 0. */
  sample(): number {
    const wall = this.wallNow();
    const mono = this.monoNow();
    const drift = wall - this.wall - (mono - this.mono);
    this.wall = wall;
    this.mono = mono;
    return Math.abs(drift) >= this.thresholdMs ? drift : 0;
  }
}
