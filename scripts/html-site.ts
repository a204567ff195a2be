/**
 * A markdown corpus rendered as a documentation site serves it, for `npm run eval -- --html LAYOUT`: every
 * page through a markdown renderer (marked) into the page layout of one generator (Sphinx's alabaster, MkDocs
 * Material, Docusaurus, VitePress), with what such a site puts around every page: a header, a sidebar listing
 * every page, the page's table of contents, permalink marks on headings, a pager, a footer. The questions stay
 * the same, their sources renamed `.md` → `.html`. What it measures: whether docent reads a site's HTML as well
 * as the markdown it was built from (the page's content, none of the site's frame).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Marked, type Tokens } from 'marked';
import { findSource } from '../src/docs/ingest.js';

export const LAYOUTS = ['sphinx', 'material', 'docusaurus', 'vitepress'] as const;
export type Layout = (typeof LAYOUTS)[number];

interface Page {
  file: string;
  href: string;
  title: string;
  markdown: string;
}

const MARKDOWN = /\.(md|mdx|markdown)$/i;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Whether every document docent would ingest from the folder (`exclude` as ingest reads it) is markdown, so that
 * a site can be rendered from it.
 */
export async function isMarkdownCorpus(dir: string, exclude: readonly string[] = []): Promise<boolean> {
  const { files } = await findSource(dir, exclude);
  return files.length > 0 && files.every((f) => f.contentType === 'markdown');
}

/** The permalink mark each generator puts after a heading. */
function permalink(layout: Layout, id: string, text: string): string {
  switch (layout) {
    case 'sphinx':
      return `<a class="headerlink" href="#${id}" title="Link to this heading">¶</a>`;
    case 'material':
      return `<a class="headerlink" href="#${id}" title="Permanent link">&para;</a>`;
    case 'docusaurus':
      return `<a href="#${id}" class="hash-link" aria-label="Direct link to ${escape(text)}" title="Direct link to ${escape(text)}">&#8203;</a>`;
    case 'vitepress':
      return ` <a class="header-anchor" href="#${id}" aria-label="Permalink to &quot;${escape(text)}&quot;">&#8203;</a>`;
  }
}

function frame(layout: Layout, site: string, page: Page, body: string, pages: Page[], toc: string): string {
  const index = pages.indexOf(page);
  const prev = pages[index - 1];
  const next = pages[index + 1];
  const sidebar = `<ul>${pages.map((p) => `<li${p === page ? ' class="current"' : ''}><a href="/${p.href}">${escape(p.title)}</a></li>`).join('\n')}</ul>`;
  const pager = (prevLabel: string, nextLabel: string) =>
    `${prev ? `<a class="prev" href="/${prev.href}"><span>${prevLabel}</span> ${escape(prev.title)}</a>` : ''}${next ? `<a class="next" href="/${next.href}"><span>${nextLabel}</span> ${escape(next.title)}</a>` : ''}`;
  const title = escape(page.title);
  switch (layout) {
    case 'sphinx':
      return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title} &#8212; ${site} documentation</title><script src="_static/documentation_options.js"></script></head><body>
<div class="related" role="navigation" aria-label="Related"><h3>Navigation</h3><ul><li class="right"><a href="/genindex.html">index</a></li><li><a href="/index.html">${site} documentation</a> &#187;</li><li>${title}</li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">${body}</div></div></div>
<div class="sphinxsidebar" role="navigation" aria-label="Main"><div class="sphinxsidebarwrapper"><h3>Table of Contents</h3>${sidebar}<h3>This Page</h3>${toc}<search id="searchbox" role="search"><h3>Quick search</h3><form class="search" action="/search.html"><input type="text" name="q"><input type="submit" value="Go"></form></search></div></div></div>
<div class="footer" role="contentinfo">&#169; Copyright the ${site} authors. Created using <a href="https://www.sphinx-doc.org/">Sphinx</a>.</div></body></html>`;
    case 'material':
      return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - ${site}</title></head><body dir="ltr">
<div data-md-component="skip"><a href="#content" class="md-skip">Skip to content</a></div>
<header class="md-header"><nav class="md-header__inner" aria-label="Header"><a href="/" class="md-logo">${site}</a><div class="md-header__title">${title}</div><div class="md-search" role="dialog"><form class="md-search__form"><input type="text" name="query" placeholder="Search"></form></div></nav></header>
<div class="md-container"><main class="md-main"><div class="md-main__inner">
<div class="md-sidebar md-sidebar--primary"><nav class="md-nav md-nav--primary" aria-label="Navigation"><label class="md-nav__title">${site}</label>${sidebar}</nav></div>
<div class="md-sidebar md-sidebar--secondary"><nav class="md-nav md-nav--secondary" aria-label="Table of contents"><label class="md-nav__title">Table of contents</label>${toc}</nav></div>
<div class="md-content"><article class="md-content__inner md-typeset">${body}</article></div></div></main>
<footer class="md-footer"><nav class="md-footer__inner" aria-label="Footer">${pager('Previous', 'Next')}</nav><div class="md-copyright">Made with Material for MkDocs</div></footer></div></body></html>`;
    case 'docusaurus':
      return `<!doctype html><html lang="en" dir="ltr"><head><meta charset="UTF-8"><title data-rh="true">${title} | ${site}</title></head><body class="navigation-with-keyboard"><div id="__docusaurus">
<div role="region" aria-label="Skip to main content"><a class="skipToContent" href="#__docusaurus_skipToContent_fallback">Skip to main content</a></div>
<nav aria-label="Main" class="navbar navbar--fixed-top"><div class="navbar__inner"><a class="navbar__brand" href="/"><b class="navbar__title">${site}</b></a><a class="navbar__item navbar__link" href="/docs">Docs</a><a class="navbar__item navbar__link" href="/blog">Blog</a></div></nav>
<div id="__docusaurus_skipToContent_fallback" class="main-wrapper"><div class="docsWrapper"><div class="docRoot">
<aside class="theme-doc-sidebar-container"><div class="sidebar"><nav aria-label="Docs sidebar" class="menu thin-scrollbar">${sidebar}</nav></div></aside>
<main class="docMainContainer"><div class="container"><div class="row"><div class="col docItemCol"><div class="docItemContainer"><article><nav class="theme-doc-breadcrumbs" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li><a href="/">Home</a></li><li>${title}</li></ul></nav>
<div class="theme-doc-markdown markdown">${body}</div>
<footer class="theme-doc-footer"><a href="https://github.com/example/${site}/edit/main/docs/${page.file}" class="theme-edit-this-page">Edit this page</a></footer></article>
<nav class="pagination-nav" aria-label="Docs pages">${pager('Previous', 'Next')}</nav></div></div>
<div class="col col--3"><div class="tableOfContents thin-scrollbar theme-doc-toc-desktop">${toc}</div></div></div></div></main></div></div></div>
<footer class="footer footer--dark"><div class="container"><div class="footer__copyright">Copyright © ${site}. Built with Docusaurus.</div></div></footer></div></body></html>`;
    case 'vitepress':
      return `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>${title} | ${site}</title><meta name="description" content="${site} documentation"></head><body><div id="app"><div class="Layout">
<a href="#VPContent" class="VPSkipLink visually-hidden">Skip to content</a>
<header class="VPNav"><div class="VPNavBar"><div class="title"><a class="VPNavBarTitle" href="/"><span>${site}</span></a></div><nav aria-labelledby="main-nav-aria-label" class="VPNavBarMenu"><span id="main-nav-aria-label" class="visually-hidden">Main Navigation</span><a class="VPLink" href="/guide/">Guide</a><a class="VPLink" href="/api/">API</a></nav></div></header>
<aside class="VPSidebar"><nav class="nav" id="VPSidebarNav" aria-labelledby="sidebar-aria-label"><span class="visually-hidden" id="sidebar-aria-label">Sidebar Navigation</span>${sidebar}</nav></aside>
<div class="VPContent has-sidebar" id="VPContent"><div class="VPDoc"><div class="container">
<div class="aside"><div class="aside-content"><nav aria-labelledby="doc-outline-aria-label" class="VPDocAsideOutline"><div class="outline-title" id="doc-outline-aria-label">On this page</div>${toc}</nav></div></div>
<div class="content"><main class="main"><div class="vp-doc"><div>${body}</div></div></main>
<footer class="VPDocFooter"><div class="edit-link"><a class="VPLink edit-link-button" href="https://github.com/example/${site}/edit/main/docs/${page.file}">Edit this page on GitHub</a></div><nav class="prev-next" aria-labelledby="doc-footer-aria-label"><span class="visually-hidden" id="doc-footer-aria-label">Pager</span>${pager('Previous page', 'Next page')}</nav></footer></div></div></div></div>
<footer class="VPFooter"><div class="container"><p class="message">Released under the MIT License.</p></div></footer></div></div></body></html>`;
  }
}

/**
 * Renders every markdown document docent would ingest from `source` (less `exclude`) into `target` as
 * `<name>.html` in the layout, and returns the HTML name of each markdown name.
 */
export async function renderSite(source: string, target: string, layout: Layout, site: string, exclude: readonly string[] = []): Promise<Map<string, string>> {
  const pages: Page[] = [];
  for (const { file: full, title: file } of (await findSource(source, exclude)).files.filter((f) => f.contentType === 'markdown')) {
    const markdown = (await readFile(full, 'utf8')).replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
    const heading = /^#\s+(.+)$/m.exec(markdown)?.[1]?.replace(/[`*_]/g, '').trim();
    pages.push({ file, href: file.replace(MARKDOWN, '.html'), title: heading || path.basename(file).replace(MARKDOWN, ''), markdown });
  }
  for (const page of pages) {
    const headings: { depth: number; text: string; id: string }[] = [];
    const marked = new Marked({
      renderer: {
        heading(this: { parser: { parseInline(tokens: Tokens.Heading['tokens']): string } }, token: Tokens.Heading) {
          const inner = this.parser.parseInline(token.tokens);
          const id = slug(token.text);
          headings.push({ depth: token.depth, text: token.text.replace(/[`*_]/g, ''), id });
          return `<h${token.depth} id="${id}">${inner}${permalink(layout, id, token.text)}</h${token.depth}>\n`;
        },
      },
    });
    const body = await marked.parse(page.markdown);
    const toc = `<ul>${headings
      .filter((h) => h.depth === 2 || h.depth === 3)
      .map((h) => `<li><a href="#${h.id}">${escape(h.text)}</a></li>`)
      .join('')}</ul>`;
    const out = path.join(target, page.href);
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, frame(layout, site, page, body, pages, toc));
  }
  return new Map(pages.map((p) => [p.file, p.href]));
}
