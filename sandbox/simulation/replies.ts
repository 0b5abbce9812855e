/**
 * What simulated customers say. Replies are keyword-matched canned answers: crude, but they relate
 * to what the agent sent, which is what makes a demo or a manual test feel like a conversation.
 */
import type { ReactionType } from '../domain/model.ts';
import type { Random } from '../random.ts';

interface Rule {
  test: RegExp;
  replies: ReadonlyArray<string | ((match: RegExpExecArray) => string)>;
}

const RULES: readonly Rule[] = [
  {
    test: /\b(\d{1,2}(?::\d{2})?\s?(?:am|pm))\b/i,
    replies: [
      (m) => `${m[1]} works for me 👍`,
      (m) => `${m[1]} is perfect, thanks`,
      (m) => `Could we do a little later than ${m[1]}?`,
      () => 'That time works. See you then!',
    ],
  },
  {
    test: /\b(price|quote|estimate|cost|fee|deposit)\b|\$\d/i,
    replies: [
      "That's a bit more than I expected — is there any flexibility?",
      "Sounds fair, let's go ahead.",
      "Thanks, I'll look it over tonight and get back to you",
      'Does that include parts and labor?',
    ],
  },
  {
    test: /\b(invoice|payment|pay|paid|bill|receipt|refund)\b/i,
    replies: [
      'Just paid it, thanks',
      'Can I pay by card over the phone?',
      'Got it, thank you!',
      "I'll take care of it today",
    ],
  },
  {
    test: /on the way|on his way|on her way|arriv|\beta\b|running late|behind|minutes away/i,
    replies: [
      "Great, I'm home",
      'Ok, see you soon',
      'Thanks for the heads up! Gate code is 4417',
      'Perfect, the side door is open',
    ],
  },
  {
    test: /\b(tomorrow|today|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|appointment|schedul|book|reschedul)/i,
    replies: [
      'That works for me',
      'Perfect, see you then!',
      'What time should I expect you?',
      'Could we do the afternoon instead?',
    ],
  },
  {
    test: /\bthank/i,
    replies: ['Thank you!', 'Of course 😊', 'Thanks again for the help', '🙏'],
  },
  {
    test: /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b[^?]*$/i,
    replies: ['Hi! What can I do for you?', 'Hey! Yes?', 'Hello 👋'],
  },
  {
    test: /\?/,
    replies: [
      'Yes, that works',
      'Not sure, let me check and get back to you',
      'Yes please',
      "No, I think we're all set",
    ],
  },
];

const FOR_ATTACHMENTS = [
  "Got it, thanks — I'll take a look",
  'Thanks for sending that over',
  'Received, thank you!',
];
const GENERIC = ['Ok, sounds good', 'Got it, thanks!', '👍', 'Thanks for the update', 'Great, thank you'];

/** A customer's answer to `text` (sent by the organization). */
export function replyTo(random: Random, text: string, hasAttachments: boolean): string {
  for (const rule of RULES) {
    const match = rule.test.exec(text);
    if (!match) continue;
    const reply = random.pick(rule.replies);
    return typeof reply === 'string' ? reply : reply(match);
  }
  return random.pick(hasAttachments ? FOR_ATTACHMENTS : GENERIC);
}

/** The tapback a customer would leave on `text`. */
export function reactionFor(random: Random, text: string): ReactionType {
  if (/haha|lol|😂|😄/i.test(text)) return 'laugh';
  if (/thank|great|all set|booked|see you|done/i.test(text)) return random.pick(['love', 'like'] as const);
  if (/\?$/.test(text.trim()) && random.chance(0.3)) return 'question';
  return random.pick(['like', 'like', 'emphasize', 'love'] as const);
}

/** Things customers text out of the blue (ambient activity in demo organizations). */
export const UNPROMPTED: readonly string[] = [
  'Hi! Quick question — do you also service tankless water heaters?',
  'Running about 10 minutes late, sorry!',
  'Are we still on for tomorrow?',
  "Can you resend the invoice? I can't find the email",
  'The faucet is dripping again 😕',
  "Just wanted to say thanks again, everything's working great",
  'Do you have any openings this week?',
  "What's the earliest you could come out?",
  'Is it normal for the new water heater to make a ticking sound?',
  'Can I add one more thing to the visit? The bathroom fan is noisy',
  'My husband will be home instead of me, is that ok?',
  'Do you take Venmo?',
  'How long will the install take?',
  'Gate code is 4417 btw',
];

export const UNPROMPTED_WITH_PHOTO: readonly string[] = [
  "Here's a photo of the spot I mentioned",
  'This is what it looks like now',
  'Is this the part you need?',
];
