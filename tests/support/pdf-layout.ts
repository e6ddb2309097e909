// Reads a printed PDF back for tests: its text page by page (poppler's pdftotext -layout), and
// the headings a page ends on — a heading whose content went to the next page ("orphan").

import { execFileSync } from 'node:child_process';

/** The PDF's text, one string per page. */
export function pdfPages(file: string): string[] {
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const pages = text.split('\f');
  // pdftotext ends the last page with a form feed too.
  return pages.at(-1)!.trim() === '' ? pages.slice(0, -1) : pages;
}

/** The report's headings (h1–h3) as text, from its HTML. */
export function headingsOf(html: string): string[] {
  return [...html.matchAll(/<h[1-3][^>]*>([^<]*)<\/h[1-3]>/g)].map((match) => match[1]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").trim());
}

/** Headings that are the last non-empty line of their page: each should have had content after it on the same page. */
export function orphanHeadings(pages: readonly string[], headings: readonly string[]): Array<{ page: number; heading: string }> {
  const wanted = new Set(headings);
  return pages.flatMap((page, i) => {
    const last = page
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1);
    return last !== undefined && wanted.has(last) ? [{ page: i + 1, heading: last }] : [];
  });
}
