/** The contract's rules for files: what may show inline, and how a staged file is named. */
import { describe, expect, it } from 'vitest';
import { baseMediaType, inlineMediaType } from '../../../shared/contract/media.ts';
import {
  stagedAttachmentId,
  stagedIdOf,
  stagedResource,
  stagedView,
} from '../../../shared/contract/staged.ts';

describe('inline media', () => {
  it.each([
    ['image/png', 'image/png'],
    ['IMAGE/PNG', 'image/png'],
    [' image/jpeg ; charset=binary', 'image/jpeg'],
    ['video/quicktime', 'video/quicktime'],
  ])('%s shows inline as %s', (stated, served) => {
    expect(inlineMediaType(stated)).toBe(served);
  });

  it.each([
    'image/svg+xml',
    'image/svg+xml; charset=utf-8',
    'Image/SVG+XML',
    'application/xhtml+xml',
    'text/html',
    'text/html; charset=utf-8',
    'text/javascript',
    'application/javascript',
    'text/xml',
    'text/plain',
    'text/plain; charset=utf-8',
    'application/pdf',
    'application/octet-stream',
    'image/heic',
    '',
    ';',
  ])('%s is only ever a download', (stated) => {
    expect(inlineMediaType(stated)).toBeNull();
  });

  it('judges the base type, whatever the parameters say', () => {
    expect(baseMediaType('Text/HTML; charset="image/png"')).toBe('text/html');
    expect(baseMediaType(undefined)).toBe('');
  });
});

describe('the staged-file resource', () => {
  it('names a staged file one way as a resource and one way as an attachment id', () => {
    expect(stagedResource('abc')).toBe('parley-staged:abc');
    expect(stagedAttachmentId('abc')).toBe('staged:abc');
    expect(stagedIdOf(stagedResource('abc'))).toBe('abc');
  });

  it('finds no staged file in a received attachment’s URL', () => {
    expect(stagedIdOf('https://files.example/parley-staged:abc')).toBeNull();
    expect(stagedIdOf('parley-staged:')).toBeNull();
  });

  it('views a staged file with its resource as the preview', () => {
    expect(stagedView({ id: 'abc', filename: 'a.png', mimeType: 'image/png', size: 3 })).toEqual({
      id: 'abc',
      filename: 'a.png',
      mimeType: 'image/png',
      size: 3,
      previewUrl: 'parley-staged:abc',
    });
  });
});
