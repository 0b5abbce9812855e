/**
 * What the demo's chats say (demo-data.ts is who says it and with which names and prices): the
 * conversations of each line's direct chats, the group conversations, and which group has which.
 * Conversations are templates so the seeded history reads like real customer texting rather than
 * filler.
 *
 * Template turns: `o:` the organization, `c:` the customer (`c1:`…`c3:` a group member), optional
 * trailing `[photo]`, `[quote]`, `[invoice]` or `[vcard]` attaches a generated file. `{…}` fill-ins
 * are chosen per conversation (`fillIns` in demo-plan.ts).
 */
import type { LineKind } from './demo-data.ts';

export const DIRECT_TEMPLATES: Record<LineKind, readonly (readonly string[])[]> = {
  dispatch: [
    [
      'o:Hi {first}, this is {agent} at Harborview Home Services. Confirming your appointment {day}, {window}. Reply YES to confirm or let us know if you need to reschedule.',
      'c:YES',
      "o:Great, you're all set. {tech} will text when he's on the way.",
      'c:Thank you!',
    ],
    [
      'o:Hi {first}, {tech} is on the way and should arrive in about {eta} minutes.',
      "c:Perfect, I'm home. Side gate is unlocked.",
      "o:Thanks, I'll let him know.",
    ],
    [
      'c:Hi, water is leaking from under my kitchen sink. Can someone come today?',
      'o:Sorry to hear that! Please shut off the valve under the sink if you can. Can you send a photo?',
      'c:Here it is [photo]',
      'o:Thanks. Looks like the supply line. We can have {tech} there by {time}. Does that work?',
      'c:Yes please, that would be amazing',
      "o:Booked. He'll text when he's close.",
      'c:🙏',
    ],
    [
      "c:Hi, something came up at work. Can we move {day}'s appointment?",
      'o:No problem. We have {day2} at {time} or {time2}. Which works better?',
      'c:{time2} please',
      "o:Done — you're now booked for {day2} at {time2}. See you then!",
      'c:Thanks {agent}',
    ],
    [
      "o:Hi {first}, how's everything working since {tech}'s visit?",
      'c:All good, no more drips. He was great.',
      'o:So glad to hear it! If you have a minute, a review would mean a lot to our small team.',
      'c:Will do!',
    ],
    [
      'c:Our water heater stopped making hot water this morning 😩',
      'o:Oh no. Is it gas or electric? And is the pilot light on?',
      "c:Gas. I don't see a flame",
      'o:It may just need a relight or a new thermocouple. Earliest we can do is {day} at {time}.',
      'c:Ugh ok. Book it',
      "o:You're booked. {tech} will bring a thermocouple just in case.",
    ],
    [
      'o:Hi {first}, {tech} is at {addr} but nobody is answering the door.',
      'c:So sorry! Running 5 min late, almost there',
      "o:No worries, he'll wait.",
      'c:Here now',
    ],
    [
      "o:Hi {first}, it's been a year since your furnace tune-up. Want to schedule this fall's maintenance? We have openings {day} and {day2}.",
      'c:Sure, {day2} morning?',
      "o:{day2} at {time} works. You're on the calendar!",
      'c:Great thanks',
    ],
    [
      'c:Hi, what time is the technician coming {day}?',
      'o:Hi {first}! Your window is {window}. {tech} will text about 30 minutes before.',
      'c:Ok thanks. Should I clear out the cabinet under the sink?',
      'o:That would help, thank you!',
    ],
    [
      'c:Half the outlets in our living room stopped working. Breaker looks fine',
      'o:Could be a tripped GFCI elsewhere on the circuit — check the bathrooms and the garage for one with a reset button.',
      'c:Found it in the garage! Everything works now 😂',
      'o:Ha, the best kind of fix. Let us know if it trips again.',
      'c:Will do, thanks so much',
    ],
    [
      "o:Hi {first}, here's {tech}'s contact card in case you need to reach him directly tomorrow. [vcard]",
      'c:Got it, thanks',
    ],
    [
      'o:Hi {first}, {tech} is running about 20 minutes behind on an earlier job. Sorry for the wait!',
      "c:That's fine, thanks for the heads up",
    ],
    [
      "o:All done at your place, {first}. Here's the new shutoff valve {tech} installed. [photo]",
      'c:Looks great. Thanks!',
    ],
  ],
  estimates: [
    [
      "c:Hi, I'd like a quote to replace our {appliance}. How does that work?",
      'o:Happy to help! Can you send a photo of the current unit and its label?',
      'c:[photo]',
      "c:And here's the label [photo]",
      "o:Thanks {first}. For a comparable model installed, including haul-away, you're looking at about {price}. I'll send a formal quote.",
      "o:Here's the quote. [quote]",
      "c:That's a bit more than I expected. Is there a cheaper option?",
      'o:We could do a standard-efficiency model for around {price2} less. It just costs a little more to run.',
      'c:Let me talk it over at home and get back to you',
    ],
    [
      'o:Hi {first}, just following up on the quote we sent last week. Any questions?',
      "c:We'd like to go ahead. When can you start?",
      'o:Wonderful! The earliest install date is {day} — does that work?',
      'c:Yes, {day} works',
      "o:Perfect. I'll get the deposit invoice over to you.",
    ],
    [
      'c:Can someone come look at a bathroom remodel before giving a price?',
      'o:Absolutely, site visits are free. I can come by {day} at {time}.',
      'c:Great. Address is {addr}',
      'o:Got it, see you {day}!',
    ],
    [
      'o:Hi {first}, the replacement valve for your {appliance} has been ordered. It should arrive {day}.',
      'c:Thanks for the update. Will you call to schedule the install?',
      "o:Yes — I'll reach out as soon as it's in.",
      'o:Good news, the part arrived early! Can we install {day2} at {time}?',
      "c:Yes that's perfect",
    ],
    [
      'c:Our electrician friend says we need a panel upgrade. Do you do those?',
      'o:We do! 200A upgrades typically run {price}, permit included. Want me to come take a look?',
      'c:Yes please. Mornings are best',
      'o:How about {day} at 9:00am?',
      'c:👍',
    ],
    [
      'c:Quick question — do you charge extra for weekend calls?',
      'o:Weekend visits have a $95 after-hours fee, otherwise the same rates.',
      'c:Ok good to know',
    ],
    [
      "o:Hi {first}, we've received your deposit. You're officially on the schedule for {day}!",
      "c:Yay, can't wait to have a working shower again 😅",
    ],
    [
      'o:Hi {first}, your new {appliance} will be delivered {day}, {window}. Someone needs to be home to sign.',
      'c:My neighbor can sign for it, is that ok?',
      "o:That's fine, just let us know their name.",
      'c:Her name is Linda, she lives next door',
      'o:Noted, thanks!',
    ],
  ],
  billing: [
    [
      'o:Hi {first}, thanks for choosing Harborview! Your invoice {inv} for {price2} is attached. [invoice]',
      'c:Thanks. Can I pay by card?',
      "o:Yes — the invoice has a link to pay online, or call us and we'll take it over the phone.",
      'c:Just paid online',
      'o:Got it, thank you! Receipt is on its way.',
    ],
    [
      'o:Hi {first}, friendly reminder that invoice {inv} ({price2}) is due {day}.',
      'c:Sorry, totally forgot. Paying now',
      'o:No problem at all, thanks!',
    ],
    [
      'c:Hi, I think I was charged twice for the visit last week?',
      'o:Let me look into that for you, {first}. One moment.',
      "o:You're right — there was a duplicate charge. I've issued a refund of {price2}; it should show in 3–5 business days.",
      'c:Thank you for fixing it so quickly!',
    ],
    [
      'c:Could you send me a receipt for my records? I need it for my home warranty.',
      'o:Of course! Here you go. [invoice]',
      'c:Perfect, thanks',
    ],
    [
      'c:Is the work from last month still under warranty? The faucet is dripping again',
      "o:Yes, all our labor is covered for 12 months. I'll have dispatch reach out to schedule a free return visit.",
      'c:Great, appreciate it',
    ],
  ],
};

export const GROUP_TEMPLATES: readonly (readonly string[])[] = [
  [
    'c1:Hi, adding our tenant to this thread so you can coordinate directly.',
    'c2:Hi! Thanks. The bathroom fan is making a loud rattling noise.',
    'o:Hi both! We can send {tech} {day} at {time}. Does that work for you?',
    'c2:Works for me',
    'c1:Approved. Please send the invoice to me as usual.',
    'o:Will do. See you {day}!',
  ],
  [
    "o:Hi {first}, here's the updated quote for the kitchen project. [quote]",
    'c2:Can we swap the faucet for the matte black one?',
    "o:Sure, that adds about $140. I'll revise it.",
    'c1:Sounds good to us',
    'c2:👍',
  ],
  [
    'c1:Hi Harborview, the board approved the irrigation valve replacement.',
    "o:Great news! We'll schedule it for {day}.",
    'c2:Please make sure the crew parks on the street, not in the lot.',
    "o:Understood, I'll let the crew know.",
    'c3:Thanks everyone',
  ],
  [
    'c1:Our landlord said to text you about the garbage disposal',
    "c2:It's humming but not spinning",
    'o:Sounds jammed. There is a hex key slot underneath — or we can come by {day} at {time}.',
    "c1:We'll try the hex key first lol",
    'c2:It worked!!',
    'o:🎉 Great. Holler if it happens again.',
  ],
];

/** The demo's six groups: which line, service, name and conversation each one has. */
export const DEMO_GROUPS: ReadonlyArray<{
  line: LineKind;
  service: 'iMessage' | 'SMS' | 'RCS';
  displayName: string | null;
  members: number;
  template: number;
}> = [
  { line: 'dispatch', service: 'iMessage', displayName: 'Oak St Apartments #4B', members: 2, template: 0 },
  { line: 'dispatch', service: 'SMS', displayName: null, members: 2, template: 3 },
  { line: 'dispatch', service: 'RCS', displayName: 'Bayview HOA Board', members: 3, template: 2 },
  { line: 'estimates', service: 'iMessage', displayName: 'Kitchen remodel 🛠', members: 2, template: 1 },
  { line: 'estimates', service: 'RCS', displayName: null, members: 2, template: 1 },
  { line: 'billing', service: 'iMessage', displayName: 'Alder Ct Rentals', members: 3, template: 0 },
];
