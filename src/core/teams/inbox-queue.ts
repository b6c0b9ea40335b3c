import { createInboxConsumer, type InboxConsumer, type Message, type TeamStore } from '../team/index.js';

/**
 * The one reader of this process's inbox: the loops and CheckInbox draw from it, so a message is handed
 * out once per process (CheckInbox never double-delivers what the loop already queued).
 */
export class InboxQueue {
  private readonly consumer: InboxConsumer;
  private buffered: Message[] = [];

  constructor(store: TeamStore, agent: string) {
    this.consumer = createInboxConsumer(store, agent);
  }

  /** Removes and returns the buffered messages matching `pred` (after reading new ones). */
  take(pred: (m: Message) => boolean = () => true): Message[] {
    this.buffered.push(...this.consumer.take());
    const out: Message[] = [];
    const keep: Message[] = [];
    for (const m of this.buffered) (pred(m) ? out : keep).push(m);
    this.buffered = keep;
    return out;
  }

  /** Messages read but not yet taken (visible as queued). */
  peek(): readonly Message[] {
    this.buffered.push(...this.consumer.take());
    return this.buffered;
  }

  async ack(ids: string[]): Promise<void> {
    await this.consumer.ack(ids);
  }
}
