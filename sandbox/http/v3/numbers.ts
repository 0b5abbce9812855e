/** V3 phone numbers (with reputation) and the iMessage capability check. */
import type { FastifyInstance } from 'fastify';
import { fromV3Id, isUuid } from '../../domain/v3/ids.ts';
import { presentLineV3 } from '../../domain/v3/shapes.ts';
import type { SandboxServices } from '../context.ts';
import { V3Error, v3 } from './errors.ts';
import { bodyOf, handleField, lineOfNumber } from './read.ts';

const E164 = /^\+[1-9]\d{6,14}$/;

export function registerV3NumberRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  app.get('/phone_numbers', async (request) => ({
    phone_numbers: request.org.lines.map((line) => presentLineV3(request.org, line)),
  }));

  app.put('/phone_numbers/:phoneNumberId', async (request) => {
    const org = request.org;
    const raw = (request.params as { phoneNumberId: string }).phoneNumberId;
    if (!isUuid(raw)) throw v3(1005, 'phoneNumberId must be a UUID (the line, not the number)');
    const id = fromV3Id(org, 'line', raw);
    const line = org.lines.find((l) => l.id === id);
    if (!line) throw v3(2019);
    const body = bodyOf(request.body);
    if (!('forwarding_number' in body)) throw v3(1001, 'forwarding_number is required');
    const value = body.forwarding_number;
    if (value !== null && (typeof value !== 'string' || (value !== '' && !E164.test(value))))
      throw v3(1002, 'forwarding_number must be E.164 with a + prefix, or null');
    line.forwardingNumber = value === '' ? null : (value as string | null);
    return presentLineV3(org, line);
  });

  /** One check per availability interval per token, like V2's (429 code 1007 otherwise). */
  app.post('/capability/check_imessage', async (request) => {
    const org = request.org;
    const body = bodyOf(request.body);
    if (body.address === undefined || body.address === null) throw v3(1001, 'address is required');
    const address = handleField(body.address, 'address');
    if (body.from !== undefined && body.from !== null) lineOfNumber(org, body.from, 'from');
    const now = world.clock.now();
    const interval = world.config.availabilityIntervalMs;
    if (org.lastAvailabilityCheckAt !== null && now - org.lastAvailabilityCheckAt < interval) {
      const wait = Math.max(1, Math.ceil((org.lastAvailabilityCheckAt + interval - now) / 1000));
      throw new V3Error(1007, `One iMessage check per ${interval / 1000} s`, { retryAfter: wait });
    }
    org.lastAvailabilityCheckAt = now;
    return { address, available: world.persona(address).imessage };
  });
}
