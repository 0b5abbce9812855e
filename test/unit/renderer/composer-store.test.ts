/**
 * The composer's drafts hold everything about the next message — text, files, links, and the V3
 * reply target, effect and service — so sending takes all of it and a failed send gives all of it
 * back.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, givenBack, type Draft } from '../../../renderer/store/composer-slice.ts';
import { getState, resetWorkspaceData } from '../../../renderer/store/index.ts';
import { stagedView } from '../../../shared/contract/staged.ts';
import { message } from './fixtures.ts';

const CHAT = 7;
const FILE = stagedView({
  id: '4b0f6a52-3c55-4a8e-9b0e-6a1f2f6d9a11',
  filename: 'x.png',
  mimeType: 'image/png',
  size: 3,
});

/** A reply to m1 with confetti, sent as SMS, with a file and a link. */
const whole: Draft = {
  ...EMPTY_DRAFT,
  text: 'See you Thursday',
  attachments: [FILE],
  attachmentUrls: ['https://example.com/map.png'],
  replyTo: { messageKey: 'm1', quote: 'Is the crown ready?', author: 'Dana' },
  effect: { type: 'screen', name: 'confetti' },
  service: 'SMS',
  loaded: true,
};

beforeEach(() => {
  resetWorkspaceData();
});

describe('the composer draft', () => {
  it('keeps the reply, effect and service with the text, per chat', () => {
    getState().patchDraft(CHAT, whole);
    getState().patchDraft(CHAT + 1, { text: 'elsewhere' });
    expect(getState().drafts[CHAT]).toEqual(whole);
    expect(getState().drafts[CHAT + 1]).toMatchObject({ replyTo: null, effect: null, service: 'auto' });
  });

  it('empties when sent — text, files, links, reply and effect — and keeps the service for the next message', () => {
    // given a whole draft in an open conversation
    getState().patchTimeline(CHAT, { status: 'ready' });
    getState().patchDraft(CHAT, whole);
    // when it is sent
    getState().commitDraft(CHAT, message({ key: 'echo', chatId: CHAT, id: null, state: 'queued' }));
    // then the composer is empty but for the service choice, and the echo is in the timeline
    expect(getState().drafts[CHAT]).toMatchObject({
      text: '',
      attachments: [],
      attachmentUrls: [],
      replyTo: null,
      effect: null,
      service: 'SMS',
    });
    expect(getState().timelines[CHAT]?.messages.map((m) => m.key)).toEqual(['echo']);
  });

  it('gives every part back after a failed send, unless the agent has filled it since', () => {
    // nothing typed or chosen since: all of it comes back
    expect(givenBack({ ...EMPTY_DRAFT, service: 'SMS' }, whole)).toEqual({
      text: whole.text,
      attachments: whole.attachments,
      attachmentUrls: whole.attachmentUrls,
      replyTo: whole.replyTo,
      effect: whole.effect,
    });
    // a new text and a new reply target are the agent's: they stay
    const since = {
      ...EMPTY_DRAFT,
      text: 'Actually…',
      replyTo: { messageKey: 'm2', quote: 'Hi', author: 'You' },
    };
    expect(givenBack(since, whole)).toMatchObject({
      text: 'Actually…',
      replyTo: since.replyTo,
      effect: whole.effect,
    });
  });
});
