import { describe, expect, it } from 'vitest';
import { openCollapsedPanels } from './collapsed-panels.ts';
import { parseDocument } from './document.ts';
import { extractArticle } from './index.ts';
import { prose } from './test-pages.ts';

const ANSWERS = [
  'Orders placed before noon leave our warehouse the same day and arrive within two working days across the country.',
  'You can return anything unused within sixty days, and we pay for the return label whatever the reason for it.',
  'Every kettle carries a five-year warranty that covers the handle, the lid and the welded seams of the body.',
];

const ariaHeader = (i: number) => `<h3><button aria-expanded="false" aria-controls="answer-${i}">Question ${i + 1}</button></h3>`;

const faq = (panel: (answer: string, i: number) => string, header = ariaHeader) => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Questions - Example</title></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>
<main><h1>Questions we are asked</h1>${prose(2)}
${ANSWERS.map((answer, i) => `<div class="accordion-item">
  ${header(i)}
  ${panel(answer, i)}</div>`).join('\n')}
</main><footer><p>© Example Ltd.</p></footer></body></html>`;

describe('openCollapsedPanels', () => {
  it("keeps an accordion's answers, however the page hides them until a click", () => {
    const hidings = [
      (answer: string, i: number) => `<section id="answer-${i}" aria-hidden="true" inert><p>${answer}</p></section>`,
      (answer: string, i: number) => `<div id="answer-${i}" hidden><p>${answer}</p></div>`,
      (answer: string, i: number) => `<div id="answer-${i}" role="region" style="display: none;"><p>${answer}</p></div>`,
    ];
    for (const hiding of hidings) {
      const article = extractArticle(faq(hiding), { url: 'https://example.org/faq' });
      for (const answer of ANSWERS) expect(article.text).toContain(answer);
    }
  });

  it('opens each answer where a template gave every item the same id, and each under its own question', () => {
    const sameId = (i: number) => `<h3><button aria-expanded="false" aria-controls="faq-panel">Question ${i + 1}</button></h3>`;
    const article = extractArticle(faq((answer) => `<div id="faq-panel" style="display: none;"><p>${answer}</p></div>`, sameId), { url: 'https://example.org/faq' });
    ANSWERS.forEach((answer, i) => {
      expect(article.text).toContain(answer);
      expect(article.text.indexOf(`Question ${i + 1}`)).toBeLessThan(article.text.indexOf(answer));
    });
  });

  it('opens a panel whose control, not a button, says it is selected rather than expanded, as a tab does', () => {
    const selected = (i: number) => `<h3><span class="question" aria-selected="false" aria-controls="answer-${i}">Question ${i + 1}</span></h3>`;
    const article = extractArticle(faq((answer, i) => `<div id="answer-${i}" aria-expanded="false" style="display: none;"><p>${answer}</p></div>`, selected), { url: 'https://example.org/faq' });
    for (const answer of ANSWERS) expect(article.text).toContain(answer);
  });

  it("opens a panel a button names, whatever attribute keeps the button's state", () => {
    const dataState = (i: number) => `<button aria-controls="answer-${i}" data-expanded="false" id="q-${i}" type="button"><span>Question ${i + 1}</span></button>`;
    const article = extractArticle(faq((answer, i) => `<div id="answer-${i}" aria-labelledby="q-${i}" aria-hidden="true" hidden><p>${answer}</p></div>`, dataState), { url: 'https://example.org/faq' });
    for (const answer of ANSWERS) expect(article.text).toContain(answer);
  });

  it('opens the wrapper a collapse animation closes around the panel, and not a closed popover beyond it', () => {
    const wrapped = (answer: string, i: number) => `<div class="collapse" style="overflow: hidden; display: none; height: 0px"><div role="region" id="answer-${i}"><p>${answer}</p></div></div>`;
    const article = extractArticle(faq(wrapped), { url: 'https://example.org/faq' });
    for (const answer of ANSWERS) expect(article.text).toContain(answer);
    const inPopover = (answer: string, i: number) => `<div popover style="display: none"><div role="region" id="answer-${i}"><p>${answer}</p></div></div>`;
    const closed = extractArticle(faq(inPopover), { url: 'https://example.org/faq' });
    for (const answer of ANSWERS) expect(closed.text).not.toContain(answer);
  });

  it('opens a hidden section right after its heading, where nothing names the panels, and no popover nor what the frame or a closed popover holds', () => {
    const plainHeader = (i: number) => `<h3 class="faq-title">Question ${i + 1}</h3>`;
    for (const hiding of ['hidden', 'style="display: none;"', 'aria-hidden="true" hidden']) {
      const article = extractArticle(faq((answer) => `<div class="content" ${hiding}><p>${answer}</p></div>`, plainHeader), { url: 'https://example.org/faq' });
      ANSWERS.forEach((answer, i) => {
        expect(article.text).toContain(answer);
        expect(article.text.indexOf(`Question ${i + 1}`)).toBeLessThan(article.text.indexOf(answer));
      });
    }
    const document = parseDocument(`<body><footer><h4>Contact</h4><div id="framed" hidden>Call us</div></footer>
      <div popover style="display: none"><h3>Tips</h3><div id="closed" hidden>Allow</div></div>
      <h3>Share</h3><div id="popover" popover style="display: none">Copy link</div>
      <main><p>Text</p><div id="no-heading" hidden>Spare</div></main></body>`, null);
    openCollapsedPanels(document.body);
    for (const id of ['framed', 'closed', 'no-heading']) expect(document.getElementById(id)!.hasAttribute('hidden')).toBe(true);
    expect(document.getElementById('popover')!.getAttribute('style')).toContain('none');
  });

  it('keeps each question above its answer: the button that is all of a heading becomes its text', () => {
    const article = extractArticle(faq((answer, i) => `<div id="answer-${i}" hidden><p>${answer}</p></div>`), { url: 'https://example.org/faq' });
    ANSWERS.forEach((answer, i) => {
      expect(article.contentHtml).toMatch(new RegExp(`<h3[^>]*>Question ${i + 1}</h3>`));
      expect(article.text.indexOf(`Question ${i + 1}`)).toBeLessThan(article.text.indexOf(answer));
    });
    expect(article.contentHtml).not.toContain('<button');
  });

  it('keeps the question however the accordion marks its header up', () => {
    const headers = [
      // The heading in the button, and the heading's class naming the accordion's header (Readability's "unlikely").
      (i: number) => `<button aria-expanded="false" aria-controls="answer-${i}"><div class="label"><h3 class="accordion__header">Question ${i + 1}</h3></div></button>`,
      // The chevron beside the heading names itself for a screen reader: its title is not the button's text.
      (i: number) => `<button aria-expanded="false" aria-controls="answer-${i}"><h3>Question ${i + 1}</h3><svg role="img"><title>Open accordion</title><path d="M0 0"/></svg></button>`,
      (i: number) => `<h3 class="cdr-accordion__header"><button aria-expanded="false" aria-controls="answer-${i}"><span>Question ${i + 1}</span></button></h3>`,
      // No ARIA at all: the script finds the panel itself, and the answer is what follows the question.
      (i: number) => `<h3 class="rc-accordion-header"><button class="rc-accordion-button">Question ${i + 1}</button></h3>`,
    ];
    for (const header of headers) {
      const article = extractArticle(faq((answer, i) => `<div id="answer-${i}"><p>${answer}</p></div>`, header), { url: 'https://example.org/faq' });
      ANSWERS.forEach((answer, i) => {
        expect(article.contentHtml).toMatch(new RegExp(`<h3[^>]*>(<span>)?Question ${i + 1}(</span>)?</h3>`));
        expect(article.text.indexOf(`Question ${i + 1}`)).toBeLessThan(article.text.indexOf(answer));
      });
    }
  });

  it('unwraps no button that names no panel where a question follows it rather than an answer', () => {
    const document = parseDocument(`<body><div id="tabs">
      <h2><button>Specs and compatibility</button></h2><h2><button>In the box</button></h2><h2><button>Support</button></h2>
      </div><h3 id="last"><button>Materials</button></h3></body>`, null);
    openCollapsedPanels(document.body);
    expect(document.querySelectorAll('#tabs button')).toHaveLength(3);
    expect(document.querySelector('#last button')).not.toBeNull();
  });

  it('unwraps no button beside a heading, nor one whose panel a script has not filled', () => {
    const document = parseDocument(`<body>
      <h3 id="beside">Delivery <button aria-expanded="false" aria-controls="p1">Show</button></h3><div id="p1" hidden><p>Two days.</p></div>
      <h3 id="empty"><button aria-expanded="false" aria-controls="p2">Can I return it?</button></h3><div id="p2" hidden></div>
      <h3 id="whole"><button aria-expanded="false" aria-controls="p3">Is there a warranty?</button></h3><div id="p3" hidden><p>Five years.</p></div>
      </body>`, null);
    openCollapsedPanels(document.body);
    expect(document.querySelector('#beside button')).not.toBeNull();
    expect(document.querySelector('#empty button')).not.toBeNull();
    expect(document.querySelector('#whole button')).toBeNull();
    expect(document.getElementById('whole')!.textContent).toBe('Is there a warranty?');
    expect(document.getElementById('p1')!.hasAttribute('hidden')).toBe(false);
  });

  it("opens a tab set's hidden tabs", () => {
    const document = parseDocument(`<body><div role="tablist"><button role="tab" aria-controls="t1">One</button></div>
      <div role="tabpanel" id="t1" hidden>First</div><div role="tabpanel" aria-hidden="true">Second</div></body>`, null);
    openCollapsedPanels(document.body);
    for (const panel of Array.from(document.querySelectorAll('[role=tabpanel]'))) {
      expect(panel.hasAttribute('hidden') || panel.hasAttribute('aria-hidden')).toBe(false);
    }
  });

  it('leaves menus, panels in the frame and what no disclosure names hidden', () => {
    const document = parseDocument(`<body>
      <nav><button aria-expanded="false" aria-controls="mega">Products</button><div id="mega" hidden>Columns</div></nav>
      <button aria-expanded="false" aria-haspopup="true" aria-controls="menu">Account</button><ul id="menu" hidden><li>Sign out</li></ul>
      <button aria-expanded="false" aria-controls="chooser">Language</button><ul id="chooser" role="listbox" hidden><li>English</li></ul>
      <div id="lonely" aria-hidden="true">Decoration</div>
      <div popover id="card"><button role="tab" aria-controls="how">Safari</button><div id="how" role="tabpanel" hidden>Allow</div></div>
      </body>`, null);
    openCollapsedPanels(document.body);
    expect(document.getElementById('mega')!.hasAttribute('hidden')).toBe(true);
    expect(document.getElementById('menu')!.hasAttribute('hidden')).toBe(true);
    expect(document.getElementById('chooser')!.hasAttribute('hidden')).toBe(true);
    expect(document.getElementById('lonely')!.getAttribute('aria-hidden')).toBe('true');
    // A tab set inside a closed popover stays closed with it.
    expect(document.getElementById('how')!.hasAttribute('hidden')).toBe(true);
  });
});
