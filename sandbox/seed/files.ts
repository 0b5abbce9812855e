/**
 * Small but real files generated in code (no binary fixtures in the repository): seeded and
 * simulated attachments and call recordings are served by the sandbox like uploaded ones, so a
 * client can download, cache and open them.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Attachment } from '../domain/model.ts';
import type { StoredFile, World } from '../domain/world.ts';

/** Stores a file and returns the attachment pointing at the sandbox's file route. */
export function storeFile(world: World, id: string, file: StoredFile): Attachment {
  world.files.set(id, file);
  return {
    id,
    url: fileUrl(world, id, file.filename),
    filename: file.filename,
    mimeType: file.mimeType,
    fileSize: file.data.length,
  };
}

export function fileUrl(world: World, id: string, filename: string): string {
  return `${world.baseUrl}/files/${id}/${encodeURIComponent(filename)}`;
}

function pngChunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * An RGB PNG: a soft diagonal gradient between two colours with a darker band, so thumbnails of
 * different "photos" look different.
 */
export function png(
  width: number,
  height: number,
  from: [number, number, number],
  to: [number, number, number],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    rows[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const band = Math.abs(y - height * 0.6) < height * 0.08 ? 0.7 : 1;
      for (let c = 0; c < 3; c++) {
        rows[row + 1 + x * 3 + c] = Math.round((from[c]! + (to[c]! - from[c]!) * t) * band);
      }
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const pdfEscape = (text: string): string =>
  text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');

/** A one-page PDF with the given lines in Helvetica; cross-reference offsets are computed, so it is valid. */
export function pdf(lines: readonly string[]): Buffer {
  const content = [
    'BT',
    '/F1 12 Tf',
    '16 TL',
    '56 760 Td',
    ...lines.map((line, i) => (i === 0 ? `(${pdfEscape(line)}) Tj` : `T* (${pdfEscape(line)}) Tj`)),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export function vcard(card: {
  firstName: string;
  lastName: string;
  phone: string;
  email?: string;
  org?: string;
  title?: string;
}): Buffer {
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${card.lastName};${card.firstName};;;`,
    `FN:${card.firstName} ${card.lastName}`,
    ...(card.org ? [`ORG:${card.org}`] : []),
    ...(card.title ? [`TITLE:${card.title}`] : []),
    `TEL;TYPE=CELL:${card.phone}`,
    ...(card.email ? [`EMAIL:${card.email}`] : []),
    'END:VCARD',
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

/**
 * A mono 8 kHz 8-bit WAV of `seconds` length: a short soft beep, then near silence, so a player
 * shows the right duration without the sandbox carrying real recordings.
 */
export function wav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.max(1, Math.round(seconds * rate));
  const data = Buffer.alloc(samples, 128);
  for (let i = 0; i < Math.min(samples, rate / 2); i++) {
    data[i] = 128 + Math.round(24 * Math.sin((2 * Math.PI * 440 * i) / rate));
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, data]);
}
