/**
 * The demo business: Harborview Home Services, a plumbing/heating/electrical company with a
 * dispatch line, an estimates line and a billing line: its users, its lines, the names, places and
 * prices its conversations are filled in with, and its voicemails. What is said in each chat is
 * demo-conversations.ts, so this file stays the cast and that one the script.
 */

export const BUSINESS = 'Harborview Home Services';
export const DEMO_DOMAIN = 'harborviewhome.example';

export const DEMO_USERS = [
  { firstName: 'Maya', lastName: 'Chen' },
  { firstName: 'Luis', lastName: 'Ortega' },
  { firstName: 'Priya', lastName: 'Natarajan' },
] as const;

export type LineKind = 'dispatch' | 'estimates' | 'billing';
export const LINE_KINDS: readonly LineKind[] = ['dispatch', 'estimates', 'billing'];
/** Direct chats per line (plus the groups below): 28 + 16 + 10 + 6 groups = 60 chats. */
export const DIRECT_CHATS: Record<LineKind, number> = { dispatch: 28, estimates: 16, billing: 10 };

export const FIRST_NAMES = [
  'Olivia',
  'James',
  'Sofia',
  'Daniel',
  'Grace',
  'Ethan',
  'Hannah',
  'Marcus',
  'Chloe',
  'Nathan',
  'Aisha',
  'Ryan',
  'Emily',
  'Kevin',
  'Natalie',
  'Jorge',
  'Megan',
  'Tyler',
  'Rosa',
  'Brandon',
  'Leah',
  'Samuel',
  'Vanessa',
  'Derek',
  'Lauren',
  'Andre',
  'Julia',
  'Patrick',
  'Mei',
  'Victor',
  'Tara',
  'Oscar',
  'Bianca',
  'Howard',
  'Fatima',
  'Gavin',
  'Ingrid',
  'Caleb',
  'Nina',
  'Walter',
] as const;

export const LAST_NAMES = [
  'Whitfield',
  'Nguyen',
  'Alvarez',
  'Brooks',
  'Kowalski',
  'Patel',
  'Donovan',
  'Reyes',
  'Lindqvist',
  'Okafor',
  'Hughes',
  'Tanaka',
  'Moreno',
  'Fitzgerald',
  'Sato',
  'Castillo',
  'Bennett',
  'Yamamoto',
  'Russo',
  'Delgado',
  'Park',
  'Schneider',
  'Abbott',
  'Ferreira',
  'Kim',
  'Gallagher',
  'Haddad',
  'Marsh',
  'Ibarra',
  'Novak',
] as const;

export const CITIES = [
  'Oakland',
  'Berkeley',
  'Alameda',
  'San Leandro',
  'Piedmont',
  'Emeryville',
  'Walnut Creek',
  'Castro Valley',
] as const;
export const STREETS = [
  'Alder Ct',
  'Grand Ave',
  'Lakeshore Blvd',
  'Park St',
  'Oak St',
  'Hillcrest Rd',
  'Vernon St',
  'Bay Farm Rd',
] as const;
export const TECHS = [
  { firstName: 'Marcus', lastName: 'Bell' },
  { firstName: 'Jorge', lastName: 'Salas' },
  { firstName: 'Kenji', lastName: 'Mori' },
] as const;
export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const TIMES = [
  '8:30am',
  '9:00am',
  '10:30am',
  '11:00am',
  '1:00pm',
  '2:30pm',
  '3:00pm',
  '4:30pm',
] as const;
export const WINDOWS = ['8–10am', '10am–noon', '12–2pm', '1–3pm', '3–5pm'] as const;
export const PRICES = ['$1,850', '$2,400', '$2,890', '$3,450', '$4,150', '$6,200'] as const;
export const SMALL_PRICES = ['$95', '$145', '$185', '$240', '$315', '$485'] as const;
export const APPLIANCES = [
  'water heater',
  'furnace',
  'garbage disposal',
  'sump pump',
  'kitchen faucet',
  'AC condenser',
] as const;

export const VOICEMAILS: ReadonlyArray<{ transcription: string; summary: string }> = [
  {
    transcription:
      "Hi, this is {name} over on {addr}. Our water heater is making a loud banging noise and there's a little water on the floor around it. Could someone call or text me back when you can come out? Thanks.",
    summary:
      '{name} reports a banging water heater with minor leaking at {addr}; asks for a callback or text to schedule a visit.',
  },
  {
    transcription:
      "Hey, it's {name}. I had an appointment for tomorrow morning but I need to push it to later in the week. Just text me a few options. Thank you.",
    summary:
      '{name} wants to move tomorrow morning’s appointment later in the week; prefers options by text.',
  },
  {
    transcription:
      'Hello, this is {name}. I got the quote you sent and I have a couple of questions about the permit and the timeline. Give me a call back when you get a chance.',
    summary: '{name} has questions about the permit and timeline on their quote; requests a callback.',
  },
];
