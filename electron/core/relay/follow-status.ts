/**
 * What a joined desktop's log says about following the relay's event log.
 */
import type { ConsumerMessages } from '@nats-io/jetstream';
import { createLogger } from '../log/logger.ts';

const log = createLogger('relay-events');

/**
 * Logs what the client says went wrong with following the log: missed heartbeats (the desktop may be
 * deaf until the consumer is made again), the consumer made again, the server's refusals. A desktop
 * whose live events lag can then be told from one whose log lags. Heartbeats, pulls and expired pulls
 * are the normal course and are not logged.
 */
export async function watchFollowing(messages: ConsumerMessages): Promise<void> {
  for await (const status of messages.status()) {
    switch (status.type) {
      case 'heartbeats_missed':
        log.warn("missed the event log's heartbeats", { count: status.count });
        break;
      case 'reset':
      case 'ordered_consumer_recreated':
        log.warn('following the event log again', { event: status.type, consumer: status.name });
        break;
      case 'consumer_not_found':
      case 'stream_not_found':
        log.warn('the event log is not there', { event: status.type, name: status.name });
        break;
      case 'consumer_deleted':
      case 'exceeded_limits':
      case 'no_responders':
      case 'debug':
        // 408: a pull expired, as every pull does after the pull's expiry; the client pulls again.
        if (status.type === 'debug' && status.code === 408) break;
        log.warn('the event log answered', {
          event: status.type,
          code: status.code,
          ...('description' in status ? { description: status.description } : {}),
        });
        break;
    }
  }
}
