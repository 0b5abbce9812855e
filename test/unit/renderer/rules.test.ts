import { describe, expect, it } from 'vitest';
import {
  attachmentKind,
  attachmentTypeOf,
  isInlineImage,
  MAX_ATTACHMENT_BYTES,
  partitionFiles,
  rejectionOf,
  stagingFailureText,
} from '../../../renderer/lib/attachment-rules.ts';
import { methods } from '../../../shared/contract/methods.ts';
import { isSendable } from '../../../shared/message-rules.ts';

describe('attachment rules (the core’s types and size)', () => {
  it('accepts the service’s types by extension, case-insensitively', () => {
    for (const name of [
      'a.jpg',
      'b.JPEG',
      'c.png',
      'd.gif',
      'e.heic',
      'f.mp4',
      'g.MOV',
      'h.pdf',
      'i.vcf',
      'j.txt',
    ])
      expect(attachmentTypeOf(name), name).not.toBeNull();
    expect(attachmentTypeOf('setup.exe')).toBeNull();
    expect(attachmentTypeOf('noextension')).toBeNull();
  });

  it('explains refusals: type, empty, over 100 MB', () => {
    expect(rejectionOf({ name: 'x.exe', size: 10 })).toMatch(/can’t be sent.*JPEG/);
    expect(rejectionOf({ name: 'x.png', size: 0 })).toMatch(/empty/);
    expect(rejectionOf({ name: 'x.mp4', size: MAX_ATTACHMENT_BYTES + 1 })).toMatch(/100 MB/);
    expect(rejectionOf({ name: 'x.mp4', size: MAX_ATTACHMENT_BYTES })).toBeNull();
  });

  it('partitions a batch and caps files per message', () => {
    const files = [
      { name: 'a.png', size: 1 },
      { name: 'b.zip', size: 1 },
      { name: 'c.png', size: 1 },
    ];
    const { accepted, rejected } = partitionFiles(files, 19);
    expect(accepted.map((f) => f.name)).toEqual(['a.png']);
    expect(rejected).toHaveLength(2);
  });

  it('classifies for display', () => {
    expect(attachmentKind('application/pdf')).toBe('pdf');
    expect(attachmentKind('text/x-vcard')).toBe('contact');
    expect(isInlineImage('image/png')).toBe(true);
    expect(isInlineImage('image/heic')).toBe(false);
  });
});

describe('staging failures', () => {
  it('name the file when the reason does not', () => {
    expect(stagingFailureText('site.png', 'Files can be at most 1 MB')).toBe(
      '“site.png” was not attached: Files can be at most 1 MB',
    );
    expect(stagingFailureText('site.png', '"site.png" is larger than 1 MB')).toBe(
      '"site.png" is larger than 1 MB',
    );
  });
});

describe('the empty-message rule (one rule for the Send button and the contract)', () => {
  const UUID = '0b8e5c1e-7f43-4c1a-9d55-3f1c2b7a9e10';
  const send = methods['messages.send'].input;

  it('needs text that is not only whitespace, or an attachment', () => {
    expect(isSendable({ text: 'On my way', attachmentCount: 0 })).toBe(true);
    expect(isSendable({ text: '', attachmentCount: 1 })).toBe(true);
    expect(isSendable({ text: ' \n\t ', attachmentCount: 0 })).toBe(false);
  });

  it('is what the contract refuses messages.send by, naming the text', () => {
    const empty = send.safeParse({ chatId: 1, text: '   ' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.path).toEqual(['text']);
    expect(
      send.safeParse({ chatId: 1, text: '', attachmentUrls: ['https://example.com/a.png'] }).success,
    ).toBe(true);
  });

  it('takes a client key only as a UUID', () => {
    expect(send.safeParse({ chatId: 1, text: 'hi', clientKey: UUID }).success).toBe(true);
    expect(send.safeParse({ chatId: 1, text: 'hi', clientKey: 'local-1' }).success).toBe(false);
  });
});
