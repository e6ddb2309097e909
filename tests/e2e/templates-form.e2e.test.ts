// The Templates page's deploy form without a lab: with "This machine" connected, a bad port says why
// beside the field (not only in the Deploy buttons' tooltip), and the reason goes once it is fixed.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { expectText } from '../support/browser.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { TemplatesPage } from './pages/templates-page.ts';

let opened: OpenWebApp;

before(async () => {
  opened = await openWebApp();
  await new HostsPage(opened.page).addLocal();
});

after(async () => {
  await opened?.close();
});

test('a bad port says why beside the field', async () => {
  const templates = new TemplatesPage(opened.page);
  await templates.open();
  await opened.page.getByTestId('templates-port').fill('70000');
  await expectText(templates.portError(), 'must be a whole number between 1 and 65535');
  await opened.page.getByTestId('templates-port').fill('8080');
  await templates.portError().waitFor({ state: 'detached' });
  assert.deepEqual(await opened.cspViolations(), []);
});
