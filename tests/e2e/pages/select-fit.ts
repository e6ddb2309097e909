// Whether select boxes show their text whole: each visible select under a root is at least as wide
// as Chromium makes the same select when it sizes it to its longest option (a hidden copy with the
// same font, padding and border, its width left to its content). Used by the page objects' layout checks.

import type { Locator } from 'playwright-core';

/** A select as the check reads it (this file is typed for Node, not the DOM). */
interface SelectLike {
  dataset: Record<string, string | undefined>;
  style: { cssText: string };
  getAttribute(name: string): string | null;
  getClientRects(): { length: number };
  getBoundingClientRect(): { width: number };
  cloneNode(deep: boolean): SelectLike;
  removeAttribute(name: string): void;
  remove(): void;
}
type Style = Record<'font' | 'padding' | 'border' | 'boxSizing' | 'letterSpacing', string>;
type PageGlobals = { getComputedStyle(element: SelectLike): Style; document: { body: { append(element: SelectLike): void } } };

/** The visible selects that cut their options' text, in words ("run-model is 214 px wide, its options need 301 px"); empty when all fit. */
export function clippedSelects(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const { getComputedStyle, document } = globalThis as unknown as PageGlobals;
    const problems: string[] = [];
    for (const select of element.querySelectorAll('select') as unknown as Iterable<SelectLike>) {
      if (select.getClientRects().length === 0) continue;
      const style = getComputedStyle(select);
      const probe = select.cloneNode(true);
      probe.removeAttribute('class');
      probe.style.cssText = `position: absolute; visibility: hidden; width: auto; min-width: 0; max-width: none; font: ${style.font}; padding: ${style.padding}; border: ${style.border}; box-sizing: ${style.boxSizing}; letter-spacing: ${style.letterSpacing}`;
      document.body.append(probe);
      const needs = probe.getBoundingClientRect().width;
      probe.remove();
      const has = select.getBoundingClientRect().width;
      if (has + 0.5 < needs) problems.push(`${select.dataset.testid ?? (select.getAttribute('aria-label') || 'a select')} is ${Math.round(has)} px wide, its options need ${Math.round(needs)} px`);
    }
    return problems;
  });
}
