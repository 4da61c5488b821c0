// The popup's layout checks, as the Chromium e2e makes them at 360x600 and 360x480: nothing wider
// than the popup, and the screen's primary action in view without scrolling.
import type { Page } from 'puppeteer-core';

export const POPUP_SIZES = [
  { width: 360, height: 600 },
  { width: 360, height: 480 },
] as const;

export interface LayoutReport {
  scrollWidth: number;
  /** Elements that reach past the popup's right edge (or its left), as "tag.class: left..right". */
  overflowing: string[];
  /** Where the primary action is: null when no button has that name. */
  action: { top: number; bottom: number } | null;
  scrollY: number;
}

/** Measures the page as it stands at its current size. */
export async function measureLayout(page: Page, primaryAction: string): Promise<LayoutReport> {
  return page.evaluate((actionName: string) => {
    const width = window.innerWidth;
    const overflowing: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      // Visually hidden text (sr-only: clipped to a pixel) and undisplayed elements take no room.
      if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue;
      if (box.right > width + 0.5 || box.left < -0.5) {
        const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''}`;
        overflowing.push(`${name}: ${Math.round(box.left)}..${Math.round(box.right)}`);
      }
    }
    const button = [...document.querySelectorAll('button')].find(
      (candidate) => candidate.textContent?.trim() === actionName,
    );
    const rect = button?.getBoundingClientRect();
    return {
      scrollWidth: document.documentElement.scrollWidth,
      overflowing,
      action: rect ? { top: rect.top, bottom: rect.bottom } : null,
      scrollY: window.scrollY,
    };
  }, primaryAction);
}

/** What is wrong with the layout at `size` (empty when it fits). */
export function layoutProblems(report: LayoutReport, size: { width: number; height: number }): string[] {
  const problems: string[] = [];
  if (report.scrollWidth > size.width) problems.push(`scrolls sideways: ${report.scrollWidth}px wide`);
  if (report.overflowing.length > 0)
    problems.push(`wider than ${size.width}px: ${report.overflowing.slice(0, 5).join(', ')}`);
  if (!report.action) problems.push('no primary action');
  else if (report.action.top < 0 || report.action.bottom > size.height)
    problems.push(
      `primary action out of view (${Math.round(report.action.top)}..${Math.round(report.action.bottom)})`,
    );
  if (report.scrollY !== 0) problems.push(`scrolled by ${report.scrollY}px`);
  return problems;
}

/** Checks the page at both popup sizes; throws with every problem found. */
export async function expectPopupFits(page: Page, screen: string, primaryAction: string): Promise<void> {
  const problems: string[] = [];
  for (const size of POPUP_SIZES) {
    await page.setViewport(size);
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    for (const problem of layoutProblems(await measureLayout(page, primaryAction), size))
      problems.push(`${screen} at ${size.width}x${size.height}: ${problem}`);
  }
  await page.setViewport(POPUP_SIZES[0]);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

/**
 * Checks a window Swaplane opened (the approval window) at the size Firefox gave it: at least the
 * popup's smallest size, nothing wider than it, its primary action in view.
 */
export async function expectWindowFits(page: Page, screen: string, primaryAction: string): Promise<void> {
  const size = await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
  const problems = layoutProblems(await measureLayout(page, primaryAction), size);
  if (size.width < POPUP_SIZES[0].width || size.height < POPUP_SIZES[1].height)
    problems.push(`the window is only ${size.width}x${size.height}`);
  if (problems.length > 0)
    throw new Error(`${screen} at ${size.width}x${size.height}: ${problems.join('; ')}`);
}

/**
 * Checks that every line of text in the region named `region` stays inside the page at both popup
 * sizes. Text is measured itself (a Range's line boxes), not its element: an unbreakable address
 * can run past the edge of a list item that still fits, or be cut off by an ancestor's overflow.
 */
export async function expectRegionTextFits(page: Page, region: string): Promise<void> {
  const problems: string[] = [];
  for (const size of POPUP_SIZES) {
    await page.setViewport(size);
    const lines = await page.evaluate((name: string) => {
      return new Promise<{ found: boolean; outside: string[] }>((done) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const element = document.querySelector(`section[aria-label="${name}"]`);
            if (!element) return done({ found: false, outside: [] });
            const range = document.createRange();
            range.selectNodeContents(element);
            const outside = [...range.getClientRects()]
              .filter((box) => box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5))
              .map((box) => `${Math.round(box.left)}..${Math.round(box.right)}`);
            done({ found: true, outside });
          }),
        ),
      );
    }, region);
    if (!lines.found) problems.push(`no region "${region}"`);
    for (const line of lines.outside)
      problems.push(`"${region}" at ${size.width}x${size.height}: text at ${line}px, past the edge`);
  }
  await page.setViewport(POPUP_SIZES[0]);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
