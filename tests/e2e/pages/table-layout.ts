// What a table must look like in a 1280-pixel window, for the page objects to check: the page does
// not scroll sideways, no column reaches past the table's edge (a `.table` clips what overflows, so
// a column would silently vanish), and every button in it lies inside the viewport.

import type { Locator } from 'playwright-core';

/** The window the layout is checked in: a laptop's 1280 pixels. */
export const NARROW_WINDOW = { width: 1280, height: 800 };

/** What the check reads of the page's window (this file is typed for Node, not the DOM). */
type PageGlobals = { innerWidth: number; document: { documentElement: { scrollWidth: number } } };

/** Each way the tables fail to fit, in words; empty when they fit. */
export async function tableLayoutProblems(tables: Locator): Promise<string[]> {
  const problems = await tables.evaluateAll((list) => {
    const found: string[] = [];
    const { innerWidth, document } = globalThis as unknown as PageGlobals;
    const page = document.documentElement;
    if (page.scrollWidth > innerWidth + 1) found.push(`the page scrolls sideways: ${page.scrollWidth} px wide in ${innerWidth} px`);
    for (const table of list) {
      const name = table.getAttribute('data-testid') ?? 'a table';
      const box = table.getBoundingClientRect();
      if (box.right > innerWidth + 1) found.push(`${name} ends at ${Math.round(box.right)} px, past the ${innerWidth} px window`);
      const parent = table.parentElement;
      if (parent && table.scrollWidth > parent.clientWidth + 1) found.push(`${name} is ${table.scrollWidth} px wide in ${parent.clientWidth} px`);
      for (const cell of table.querySelectorAll('th, td')) {
        const right = cell.getBoundingClientRect().right;
        if (right > box.right + 1) found.push(`${name}: the column "${(cell.textContent ?? '').trim().slice(0, 30)}" is cut off at the table's edge`);
      }
      for (const button of table.querySelectorAll('button, select')) {
        const rect = button.getBoundingClientRect();
        if (rect.width === 0) continue; // inside a closed menu
        if (rect.left < 0 || rect.right > innerWidth + 1) found.push(`${name}: the button "${(button.textContent ?? '').trim().slice(0, 30)}" is outside the window`);
      }
    }
    return found;
  });
  return [...new Set(problems)];
}
