/** Shared by the specs that check views for accessibility and photograph them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { goTo } from './screen.ts';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Axe-core's serious and critical findings on what is on screen, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Only violations are read: axe then keeps no nodes for passes and incomplete checks. Legacy mode
  // runs axe.run in the page itself; the default opens a blank page to finish every run, which took
  // 2.6 of each run's 4 s here (the app has one frame, so nothing is lost).
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(WCAG)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary}`));
}

/**
 * A picture of the page as a test artifact; with PARLEY_DOCS_SCREENSHOTS=1 (and `forDocs`) also
 * docs/screenshots/<name>.png.
 */
export async function photograph(
  page: Page,
  testInfo: TestInfo,
  name: string,
  forDocs = true,
): Promise<void> {
  // The caret is noise in a picture.
  const body = await page.screenshot({ caret: 'hide', animations: 'disabled' });
  await testInfo.attach(name, { body, contentType: 'image/png' });
  if (process.env['PARLEY_DOCS_SCREENSHOTS'] === '1' && forDocs) {
    mkdirSync(DOCS, { recursive: true });
    writeFileSync(join(DOCS, `${name}.png`), body);
  }
}

/** Picks the theme in Settings, as an agent does (Settings stays open). */
export async function chooseTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await goTo(page, 'Settings');
  await page
    .getByRole('radiogroup', { name: 'Theme' })
    .getByRole('radio', { name: theme === 'light' ? 'Light' : 'Dark' })
    .click();
}
