/**
 * Fictional phone numbers. Every number is NXX-555-01xx, the range reserved for fiction, and the
 * area codes are split so an organization's lines never collide with another organization's lines
 * nor with any seeded customer.
 */

/** Area codes for organizations' own lines: 100 numbers each. */
const LINE_AREAS = [
  415, 628, 341, 669, 707, 209, 279, 530, 559, 661, 760, 805, 820, 831, 858, 909, 916, 935, 949, 951,
] as const;

/** Area codes for the demo's customers (a Bay Area business). */
export const DEMO_CUSTOMER_AREAS = [510, 650, 925, 408] as const;

/** Lines reserved per organization (the demo uses three). */
export const LINES_PER_ORG = 3;

const fictional = (area: number, index: number): string =>
  `+1${area}55501${String(index % 100).padStart(2, '0')}`;

/** The `slot`-th line number of the organization with this index. */
export function linePhone(orgIndex: number, slot: number): string {
  const n = orgIndex * LINES_PER_ORG + slot;
  const area = LINE_AREAS[Math.floor(n / 100)];
  if (area === undefined)
    throw new Error(`no fictional line numbers left for organization index ${orgIndex}`);
  return fictional(area, n);
}

export function demoCustomerPhone(index: number): string {
  const area = DEMO_CUSTOMER_AREAS[Math.floor(index / 100)];
  if (area === undefined) throw new Error(`demo customer index ${index} out of range`);
  return fictional(area, index);
}

/** Area codes for bulk customers: every plausible US code that the lines and demo do not use. */
const BULK_AREAS: number[] = (() => {
  const taken = new Set<number>([...LINE_AREAS, ...DEMO_CUSTOMER_AREAS]);
  const areas: number[] = [];
  for (let code = 201; code <= 989; code++) {
    if (code % 100 === 11 || String(code)[1] === '9' || taken.has(code)) continue; // N11 and x9x are not assigned
    areas.push(code);
  }
  return areas;
})();

export const MAX_BULK_CUSTOMERS = BULK_AREAS.length * 100;

export function bulkCustomerPhone(index: number): string {
  const area = BULK_AREAS[Math.floor(index / 100)];
  if (area === undefined)
    throw new Error(`bulk customer index ${index} out of range (max ${MAX_BULK_CUSTOMERS})`);
  return fictional(area, index);
}
