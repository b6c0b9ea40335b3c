import type { Message } from '../../contract/store-schemas.js';
import type { TeammateStore } from './teammate-store.js';

export interface InboxConsumer {
  /** New unread messages not yet handed out by this consumer, oldest first. */
  take(): Message[];
  /** Marks handed-out messages read. */
  ack(ids: string[]): Promise<void>;
}

/**
 * At-least-once delivery, exactly-once handling: a message stays unread until acked, and a message already
 * handed out (even if its ack was lost or raced) is never handed out twice by the same consumer.
 */
export function createInboxConsumer(store: Pick<TeammateStore, 'inboxes'>, agent: string, memory = 10_000): InboxConsumer {
  const seen = new Set<string>();
  return {
    take() {
      const fresh: Message[] = [];
      for (const m of store.inboxes.unread(agent)) {
        if (seen.has(m.id)) continue;
        seen.add(m.id);
        fresh.push(m);
      }
      // Bounded memory: forget the oldest ids (Sets iterate in insertion order).
      if (seen.size > memory) {
        let drop = seen.size - memory;
        for (const id of seen) {
          if (drop-- <= 0) break;
          seen.delete(id);
        }
      }
      return fresh;
    },
    async ack(ids) {
      if (ids.length) await store.inboxes.markRead(agent, ids);
    },
  };
}
