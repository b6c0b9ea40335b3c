import { createInboxConsumer, type InboxConsumer } from '../store/index.js';
import type { TeammateStore } from '../store/teammate-store.js';
import { toInbound } from './protocol.js';
import type { Inbound } from '../../contract/frames.js';

/**
 * The one reader of this process's inbox: the loops and CheckInbox draw from it, so a message is handed
 * out once per process (CheckInbox never double-delivers what the loop already queued). It is also the
 * boundary where each message is parsed once: a frame of an unknown kind or with malformed fields is
 * journaled and marked read here, never handed out.
 */
export class InboxQueue {
  private readonly consumer: InboxConsumer;
  private buffered: Inbound[] = [];
  private dropped: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: TeammateStore,
    private readonly agent: string,
  ) {
    this.consumer = createInboxConsumer(store, agent);
  }

  private read(): void {
    const refused: string[] = [];
    for (const m of this.consumer.take()) {
      const r = toInbound(m);
      if (r.ok) this.buffered.push(r.message);
      else {
        this.store.journal.record({ event: 'rejected', file: this.store.paths.inbox(this.agent), reason: r.reason });
        refused.push(m.id);
      }
    }
    if (refused.length) this.dropped = this.dropped.then(() => this.consumer.ack(refused)).catch(() => {});
  }

  /** Removes and returns the buffered messages matching `pred` (after reading new ones). */
  take<T extends Inbound = Inbound>(pred: ((m: Inbound) => m is T) | ((m: Inbound) => boolean) = () => true): T[] {
    this.read();
    const out: T[] = [];
    const keep: Inbound[] = [];
    for (const m of this.buffered) {
      if (pred(m)) out.push(m as T);
      else keep.push(m);
    }
    this.buffered = keep;
    return out;
  }

  /** Messages read but not yet taken (visible as queued). */
  peek(): readonly Inbound[] {
    this.read();
    return this.buffered;
  }

  async ack(ids: string[]): Promise<void> {
    await this.dropped;
    await this.consumer.ack(ids);
  }
}
