// Opens an xterm terminal under the Content-Security-Policy as it is (style-src 'self', no
// 'unsafe-inline'). xterm's DOM renderer writes its theme, cell dimensions and scrollbar colours
// into <style> elements it adds under the terminal while it opens; the policy refuses those and
// reports each one, and the rules never apply. Opened through here, xterm gets stand-ins for those
// elements: whatever it writes into one goes into a constructed stylesheet adopted by the document,
// which is CSSOM, outside what the policy governs. The policy itself is untouched. Only xterm's own
// bundled code writes these rules (terminal output reaches the DOM as text), so nothing the policy
// keeps out gets in. Truecolor (24-bit) cell colours, which xterm sets as style attributes, are not
// covered: the policy still refuses those.

import type { Terminal } from '@xterm/xterm';

/** An inert element standing in for a <style>: its text is an adopted stylesheet's, dropped with it. */
function adoptedStyleElement(document: Document, create: (tag: string) => HTMLElement): HTMLElement {
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const element = create('template');
  let text = '';
  Object.defineProperty(element, 'textContent', {
    get: () => text,
    set: (value: string | null) => {
      text = value ?? '';
      sheet.replaceSync(text);
    },
  });
  const remove = element.remove.bind(element);
  element.remove = () => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    remove();
  };
  return element;
}

/** `terminal.open(parent)`, with the <style> elements xterm creates meanwhile turned into adopted stylesheets. */
export function openTerminal(terminal: Terminal, parent: HTMLElement): void {
  const document = parent.ownerDocument;
  const create = (tag: string) => Document.prototype.createElement.call(document, tag);
  document.createElement = ((tag: string, options?: ElementCreationOptions) =>
    tag.toLowerCase() === 'style' ? adoptedStyleElement(document, create) : Document.prototype.createElement.call(document, tag, options)) as Document['createElement'];
  try {
    terminal.open(parent);
  } finally {
    // Back to the prototype's: the patch lives only as long as the open.
    Reflect.deleteProperty(document, 'createElement');
  }
}
