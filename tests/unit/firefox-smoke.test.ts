// The Firefox smoke's own judgements (tests/firefox): which lines of Firefox's output fail the run,
// and when a measured layout does not fit the popup.
import { describe, expect, it } from 'vitest';
import { isPageProblem } from '../firefox/firefox';
import { type LayoutReport, layoutProblems } from '../firefox/layout';

describe('isPageProblem', () => {
  it('fails on a page console error or warning and on an uncaught error in an extension or web page', () => {
    expect(isPageProblem('console.error: "Swaplane could not start"')).toBe(true);
    expect(isPageProblem('console.warn: "slow"')).toBe(true);
    expect(
      isPageProblem(
        'JavaScript error: moz-extension://5c0ffee0-5a1e-4a9e-8d2c-0123456789ab/popup.html, line 1: Error: x',
      ),
    ).toBe(true);
    expect(isPageProblem('JavaScript error: https://etherscan.io/token/0xa0b8, line 3: TypeError: y')).toBe(
      true,
    );
    expect(isPageProblem('JavaScript error: http://127.0.0.1:41635/, line 2: ReferenceError: z')).toBe(true);
  });

  it("ignores Firefox's own chrome code and plain logs", () => {
    expect(isPageProblem('console.error: RSLoader: ')).toBe(false);
    expect(
      isPageProblem(
        'JavaScript error: resource://gre/modules/PrivateBrowsingUtils.sys.mjs, line 50: TypeError',
      ),
    ).toBe(false);
    expect(isPageProblem('console.log: "quote received"')).toBe(false);
  });
});

describe('layoutProblems', () => {
  const size = { width: 360, height: 480 };
  const fits: LayoutReport = {
    scrollWidth: 360,
    overflowing: [],
    action: { top: 400, bottom: 440 },
    scrollY: 0,
  };

  it('passes a page that fits with its primary action in view', () => {
    expect(layoutProblems(fits, size)).toEqual([]);
  });

  it('names a sheet wider than the popup, sideways scroll, and an action out of view or missing', () => {
    expect(layoutProblems({ ...fits, overflowing: ['div.sheet: 16..410'] }, size)).toEqual([
      'wider than 360px: div.sheet: 16..410',
    ]);
    expect(layoutProblems({ ...fits, scrollWidth: 394 }, size)).toEqual(['scrolls sideways: 394px wide']);
    expect(layoutProblems({ ...fits, action: { top: 470, bottom: 510 } }, size)).toEqual([
      'primary action out of view (470..510)',
    ]);
    expect(layoutProblems({ ...fits, action: null }, size)).toEqual(['no primary action']);
    expect(layoutProblems({ ...fits, scrollY: 12 }, size)).toEqual(['scrolled by 12px']);
  });
});
