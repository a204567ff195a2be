import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import { jsonMessage, malformed, parseJson, rateLimited, upstreamFailure } from '../src/net/upstream.js';

/** Wikipedia language editions: `en`, `de`, `zh-yue`, `be-tarask`, `simple`, ... */
const LANG = /^(?:[a-z]{2,3}(?:-[a-z]{2,8}){0,2}|simple)$/;

const SUMMARY = z.looseObject({
  type: z.string(),
  title: z.string(),
  extract: z.string().optional(),
  description: z.string().optional(),
  content_urls: z.looseObject({ desktop: z.looseObject({ page: z.string() }) }),
});

const output = z.object({
  title: z.string(),
  extract: z.string().describe('The lead of the article, plain text'),
  description: z.string().nullable().describe('Short description (from Wikidata), when there is one'),
  url: z.string().describe('The article'),
  lang: z.string(),
  disambiguation: z.boolean().describe('True when the title names several things: pick a more precise title'),
});

export const encyclopedia = defineTool({
  name: 'encyclopedia',
  title: 'Encyclopedia summary (Wikipedia)',
  summary: 'Wikipedia page summary by near-exact title',
  description:
    "Returns the Wikipedia summary of a known entity: title, the article's lead as plain text, a short description " +
    'and the article URL. Needs a near-exact page title ("Rust (programming language)", "Ada Lovelace"); redirects ' +
    'are followed. `lang` picks the language edition (default en). Use it for stable background facts about people, ' +
    'places, organisations, technologies and concepts. Not for current events, opinions or unknown titles: use ' +
    'web_search to find the right title or page first.',
  input: z.object({
    title: z.string().trim().min(1).max(255).describe('The page title, as near to exact as possible'),
    lang: z
      .string()
      .regex(LANG, 'a Wikipedia language code such as en, de, pt, zh-yue or simple')
      .default('en')
      .describe('Wikipedia language edition, default en'),
  }),
  output,
  side_effects: 'external',
  cost_class: 'free',
  requires_secret: false,
  hints: ['A disambiguation result means the title is ambiguous: call again with a more precise title.'],
  async handler({ title, lang }, ctx) {
    const wikipedia = (await ctx.services.outbound()).service('wikipedia', { lang });
    // Wikipedia titles use underscores for spaces; the title is one path segment ("AC/DC" included).
    const response = await wikipedia.request(['page', 'summary', title.replace(/ /g, '_')], {
      accept: ['application/json'],
      signal: ctx.signal,
    });
    const detail = () => jsonMessage(response, (b) => b.detail ?? b.title);
    if (response.status === 404) {
      throw new ToolError(
        `Wikipedia (${lang}) has no page titled "${title}". encyclopedia needs a near-exact title: use web_search to find the right one, or for topics without a page.`,
        'not_found',
      );
    }
    if (response.status === 429) throw rateLimited('The Wikipedia API', response, detail());
    if (response.status === 400)
      throw new ToolError(`Wikipedia cannot use "${title}" as a page title (${detail() ?? 'invalid title'}). Give a plain page title.`, 'invalid_arguments');
    if (response.status !== 200) throw upstreamFailure('The Wikipedia API', response, detail());
    const parsed = SUMMARY.safeParse(parseJson('The Wikipedia API', response));
    if (!parsed.success) throw malformed('The Wikipedia API', 'not a page summary');
    const page = parsed.data;
    const value = {
      title: page.title,
      extract: page.extract ?? '',
      description: page.description ?? null,
      url: page.content_urls.desktop.page,
      lang,
      disambiguation: page.type === 'disambiguation',
    };
    const text = value.disambiguation
      ? `"${value.title}" is a disambiguation page: it names several things. Call again with a more precise title.\n${value.extract}\n${value.url}`
      : `${value.title}${value.description ? ` (${value.description})` : ''}\n${value.extract}\n${value.url}`;
    return { value, text };
  },
});
