// Page object of the Export ▾ menu (renderer/src/features/sessions/ExportMenu.tsx) on the Sessions
// and Compare pages: picks a format and collects the files the browser downloads.

import { readFile } from 'node:fs/promises';
import type { Download, Locator, Page } from 'playwright-core';
import { until } from '../../support/until.ts';

export type ExportFormat = 'json' | 'csv' | 'hdr-log';

export interface DownloadedFile {
  fileName: string;
  content: string;
}

export class ExportMenu {
  readonly page: Page;
  readonly scope: Locator;
  readonly testId: string;
  /** Brings the menu into view first (a session row's sits in its ⋯ menu). */
  readonly reveal: () => Promise<void>;

  /** The menu with this test id inside `scope` (a session row, or the Compare page's actions). */
  constructor(page: Page, scope: Locator, testId: string, reveal: () => Promise<void> = async () => undefined) {
    this.page = page;
    this.scope = scope;
    this.testId = testId;
    this.reveal = reveal;
  }

  /** Picks a format and waits for the `count` files it downloads (one per session). */
  async download(format: ExportFormat, count = 1): Promise<DownloadedFile[]> {
    const select = this.scope.getByTestId(`${this.testId}-select`);
    const downloads: Download[] = [];
    const collect = (download: Download) => downloads.push(download);
    this.page.on('download', collect);
    try {
      await this.reveal();
      await select.selectOption(format);
      await until(() => downloads.length >= count, `${count} download(s) of ${format}`, 15_000);
    } finally {
      this.page.off('download', collect);
    }
    return Promise.all(downloads.map(async (download) => ({ fileName: download.suggestedFilename(), content: await readFile(await download.path(), 'utf8') })));
  }
}
