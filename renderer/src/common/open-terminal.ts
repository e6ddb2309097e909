// Opens an xterm terminal under the Content-Security-Policy as it is (default-src 'self': styles from
// our own files only, no 'unsafe-inline'), which refuses two things xterm's DOM renderer does, and
// reports each refusal:
// - while it opens, it writes its theme, cell dimensions and scrollbar colours into <style> elements
//   it adds under the terminal. Opened through here, xterm gets stand-ins for those elements: what it
//   writes into one goes into a constructed stylesheet adopted by the document.
// - while it draws, it gives each cell in a 24-bit (truecolour) colour a style attribute
//   (`setAttribute('style', 'color:#ff6400;')`): 16 million colours have no classes. While a
//   terminal is open, the spans of the document get a setAttribute that writes a style attribute as
//   the element's inline style declaration (`element.style.cssText`) instead.
// Both ways are CSSOM, outside what the policy governs; the policy itself is untouched, and markup
// parsed from a string still cannot carry a style attribute or a <style> in. In this app only xterm
// sets a span's style attribute (React writes styles through CSSOM already), and terminal output
// reaches the DOM as text and as its cells' colours, never as CSS.
// A canvas or WebGL renderer would draw without either, but xterm falls back to the DOM renderer
// whenever WebGL is missing or a page holds more contexts than the browser allows, so the DOM
// renderer has to be right under the policy in any case; and its rows stay text a test can read.

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

/** The element, whose `setAttribute('style', css)` now sets its inline style through CSSOM (same result, no refusal). */
function styleAttributeThroughCssom(element: HTMLElement): HTMLElement {
  const setAttribute = element.setAttribute.bind(element);
  element.setAttribute = (name: string, value: string) => {
    if (name.toLowerCase() === 'style') element.style.cssText = value;
    else setAttribute(name, value);
  };
  return element;
}

/** Per document: how many terminals opened through here are still open, and whether one is opening now. */
const documents = new WeakMap<Document, { open: number; opening: boolean }>();

/** Gives the document the createElement described above (its own property, over the prototype's). */
function standInCreateElement(document: Document, state: { opening: boolean }): void {
  const create = (tag: string, options?: ElementCreationOptions): HTMLElement => Document.prototype.createElement.call(document, tag, options);
  document.createElement = ((tag: string, options?: ElementCreationOptions) => {
    const name = tag.toLowerCase();
    if (name === 'style' && state.opening) return adoptedStyleElement(document, create);
    const element = create(tag, options);
    // xterm's DOM renderer creates its cells' spans through the page's `document`, the one terminals open in here.
    return name === 'span' ? styleAttributeThroughCssom(element) : element;
  }) as Document['createElement'];
}

/**
 * `terminal.open(parent)`, with the <style> elements xterm creates meanwhile turned into adopted
 * stylesheets and its cells' style attributes set through CSSOM. Returns the undo, to call with the
 * terminal's dispose (no frame is drawn between the two): the last one open gives the document back
 * its own createElement.
 */
export function openTerminal(terminal: Terminal, parent: HTMLElement): () => void {
  const document = parent.ownerDocument;
  let state = documents.get(document);
  if (!state) {
    state = { open: 0, opening: false };
    documents.set(document, state);
    standInCreateElement(document, state);
  }
  const opened = state;
  opened.open += 1;
  let undone = false;
  const undo = () => {
    if (undone) return;
    undone = true;
    opened.open -= 1;
    if (opened.open > 0) return;
    documents.delete(document);
    Reflect.deleteProperty(document, 'createElement');
  };
  opened.opening = true;
  try {
    terminal.open(parent);
  } catch (error) {
    undo();
    throw error;
  } finally {
    opened.opening = false;
  }
  return undo;
}
