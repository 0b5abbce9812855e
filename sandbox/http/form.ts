import type { FastifyRequest } from 'fastify';
import { ApiError, invalidParams } from './errors.ts';
import type { Body } from './params.ts';

export interface UploadedFile {
  field: string;
  filename: string;
  declaredType: string;
  data: Buffer;
}

/**
 * Sets a Rails-style bracket field (`message[attachment_urls][]`) on a nested object, so multipart
 * and JSON bodies are validated by the same code.
 */
export function setBracketField(target: Body, name: string, value: unknown): void {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return;
  const keys = [
    match[1] as string,
    ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string),
  ];
  let node: Body = target;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const last = i === keys.length - 1;
    const nextIsArray = keys[i + 1] === '';
    if (key === '') return; // `[]` only appears last; handled by the parent
    if (last) {
      node[key] = value;
      return;
    }
    if (nextIsArray && i + 1 === keys.length - 1) {
      const list = Array.isArray(node[key]) ? (node[key] as unknown[]) : [];
      list.push(value);
      node[key] = list;
      return;
    }
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Body;
  }
}

/** Reads a JSON or multipart/form-data body into a nested object plus the uploaded files. */
export async function readForm(
  request: FastifyRequest,
  maxFileBytes: number,
): Promise<{ body: Body; files: UploadedFile[] }> {
  if (!request.isMultipart()) {
    const body = request.body;
    if (body === undefined || body === null) return { body: {}, files: [] };
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiError(400, 'invalid_request', 'Request body must be a JSON object');
    }
    return { body: body as Body, files: [] };
  }
  const body: Body = {};
  const files: UploadedFile[] = [];
  // Read one byte past the limit, so an oversized file is refused by name (422), not as a 413.
  for await (const part of request.parts({ limits: { fileSize: maxFileBytes + 1 } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      const filename = part.filename || 'attachment';
      if (part.file.truncated || data.length > maxFileBytes) {
        throw invalidParams(`${part.fieldname} (${filename}): file is larger than ${maxFileBytes} bytes`);
      }
      files.push({ field: part.fieldname, filename, declaredType: part.mimetype, data });
    } else {
      setBracketField(body, part.fieldname, part.value);
    }
  }
  return { body, files };
}
