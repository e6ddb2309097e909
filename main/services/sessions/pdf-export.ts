// Exports a comparison as a PDF: renders the report page (app/sessions/comparison-report.ts) and has
// Chromium print it. Web mode and the CLI drive Debian's headless Chromium through playwright-core
// with JavaScript off and the network closed (the page is self-contained); the Electron front door
// swaps in webContents.printToPDF. Files go to <data dir>/reports unless a folder is given; then the
// PDF goes to the user as asked: its bytes for the browser to download (web mode), or wherever the
// desktop app's save dialog says (the Electron front door installs the dialog).

import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PdfExport } from '../../../app/sessions/sessions-contract.ts';
import { renderReportHtml } from '../../../app/sessions/comparison-report.ts';
import type { Comparison } from '../../../app/sessions/comparison.ts';
import { ApiError, messageOf } from '../../../app/common/errors.ts';

/** Turns a self-contained HTML page into PDF bytes (A4, backgrounds printed). */
export type PdfRenderer = (html: string) => Promise<Uint8Array>;

/** Asks the user where to save a file of this name: the chosen path, or null when cancelled. */
export type SaveDialog = (fileName: string) => Promise<string | null>;

export type PdfDelivery = 'download' | 'save-dialog';

/** Chapters another capability adds to a comparison's report (HTML), e.g. the server's CPU profiles or a study's published figures. */
export type ReportChapters = (comparison: Comparison) => string[] | Promise<string[]>;

export const CHROMIUM_PATH = process.env.BENCHLAB_CHROMIUM ?? '/usr/bin/chromium';

export const headlessChromiumRenderer: PdfRenderer = async (html) => {
  // Loaded on first use: the packaged Electron app prints with its own Chromium instead.
  const { chromium } = await import('playwright-core');
  const browser = await chromium
    .launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
    .catch((error: unknown) => {
      throw new ApiError('unavailable', `cannot start Chromium at ${CHROMIUM_PATH} to print the PDF: ${messageOf(error).split('\n')[0]}`);
    });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    const page = await context.newPage();
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html, { waitUntil: 'load' });
    const pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: true, margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' } });
    return new Uint8Array(pdf);
  } finally {
    await browser.close();
  }
};

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'comparison';
}

export class ReportExporter {
  readonly #folder: string;
  #renderer: PdfRenderer;
  #saveDialog: SaveDialog | null = null;
  readonly #chapters: ReportChapters;

  constructor(options: { folder: string; renderer?: PdfRenderer; chapters?: ReportChapters }) {
    this.#folder = options.folder;
    this.#renderer = options.renderer ?? headlessChromiumRenderer;
    this.#chapters = options.chapters ?? (() => []);
  }

  /** The Electron front door prints with its own Chromium. */
  useRenderer(renderer: PdfRenderer): void {
    this.#renderer = renderer;
  }

  /** The desktop app's save dialog; without one, `save-dialog` is refused. */
  useSaveDialog(dialog: SaveDialog): void {
    this.#saveDialog = dialog;
  }

  async export(comparison: Comparison, options: { notes?: string | undefined; now?: Date; deliver?: PdfDelivery | undefined } = {}): Promise<PdfExport> {
    if (options.deliver === 'save-dialog' && !this.#saveDialog) throw new ApiError('invalid_args', 'deliver: this Benchlab has no save dialog (web mode); ask for download');
    const now = options.now ?? new Date();
    const html = renderReportHtml(comparison, { generatedAt: now, notes: options.notes, chapters: await this.#chapters(comparison) });
    const started = performance.now();
    const pdf = await this.#renderer(html);
    const renderMs = performance.now() - started;
    mkdirSync(this.#folder, { recursive: true });
    const fileName = `${slug(comparison.title)}-${now.toISOString().replace(/[:.]/g, '-')}.pdf`;
    const file = join(this.#folder, fileName);
    // Written aside and renamed: a reader never sees half a PDF.
    writeFileSync(`${file}.part`, pdf);
    renameSync(`${file}.part`, file);
    let savedTo: string | null = null;
    if (options.deliver === 'save-dialog') {
      savedTo = await this.#saveDialog!(fileName);
      if (savedTo !== null) copyFileSync(file, savedTo);
    }
    const content = options.deliver === 'download' ? Buffer.from(pdf).toString('base64') : null;
    return { file, fileName, bytes: pdf.byteLength, renderMs: Math.round(renderMs), content, savedTo };
  }
}
