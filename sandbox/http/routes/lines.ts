import type { FastifyInstance } from 'fastify';
import { presentLine } from '../../domain/present.ts';
import { strictPhone } from '../../domain/phone.ts';
import { type SandboxServices, V2 } from '../context.ts';
import { forbidden, invalidRequest, missingParam } from '../errors.ts';
import { asObject } from '../params.ts';

export function registerLineRoutes(app: FastifyInstance, _services: SandboxServices): void {
  app.get(`${V2}/phone_numbers`, async (request) => ({
    phone_numbers: request.org.lines.map((line) => presentLine(request.org, line)),
  }));

  /** Unwrapped Phone number; an empty string or null clears; 403 for a line that is not the org's. */
  app.put(`${V2}/phone_numbers/:id`, async (request) => {
    const org = request.org;
    const raw = (request.params as { id: string }).id;
    const line = /^\d{1,15}$/.test(raw) ? org.lines.find((l) => l.id === Number(raw)) : undefined;
    if (!line) throw forbidden(`Phone number ${raw} does not belong to your organization`);
    const body = asObject(request.body ?? {}, 'body');
    if (!('forwarding_number' in body)) throw missingParam('forwarding_number');
    const value = body.forwarding_number;
    if (value !== null && typeof value !== 'string')
      throw invalidRequest('forwarding_number must be a string');
    if (value === null || value.trim() === '') {
      line.forwardingNumber = null;
    } else {
      const number = strictPhone(value);
      if (!number) throw invalidRequest(`forwarding_number ${value} is not a valid E.164 phone number`);
      if (number === line.phoneNumber) throw invalidRequest('forwarding_number cannot be the line itself');
      line.forwardingNumber = number;
    }
    return presentLine(org, line);
  });
}
