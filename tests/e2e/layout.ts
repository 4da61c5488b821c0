// "Nothing wider than the popup", element by element: the popup's body hides horizontal overflow,
// so document.scrollWidth alone cannot see a sheet that grows past the edge and is cut off (what
// Firefox did to the review sheet). The Firefox smoke makes the same check (tests/firefox/layout.ts).
import { expect, type Page } from '@playwright/test';

export async function expectNothingWiderThanViewport(page: Page, name: string): Promise<void> {
  const overflowing = await page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      // Visually hidden text (sr-only: clipped to a pixel) takes no room.
      if (box.width <= 1 || box.height <= 1 || getComputedStyle(element).visibility === 'hidden') continue;
      if (box.right > width + 0.5 || box.left < -0.5)
        found.push(
          `${element.tagName.toLowerCase()}.${element.classList[0] ?? ''}: ${Math.round(box.left)}..${Math.round(box.right)}`,
        );
    }
    return found;
  });
  expect(overflowing, `${name}: elements past the popup's edge`).toEqual([]);
}

/** The popup's two sizes: every screen fits both. */
export const POPUP_SIZES = [
  { width: 360, height: 480 },
  { width: 360, height: 600 },
] as const;

export type PopupSize = (typeof POPUP_SIZES)[number];

/**
 * `check` at each popup size on the screen as it stands (resized, not reopened: one journey covers
 * both sizes instead of a browser each), then back to 360x480 for what follows.
 */
export async function atEverySize(page: Page, check: (size: PopupSize) => Promise<void>): Promise<void> {
  for (const size of POPUP_SIZES) {
    await page.setViewportSize(size);
    await check(size);
  }
  await page.setViewportSize(POPUP_SIZES[0]);
}
