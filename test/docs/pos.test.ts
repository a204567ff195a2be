import { describe, expect, it } from 'vitest';
import { tagQuestion } from '../../src/docs/pos.js';
import { asideTerms } from '../../src/docs/question.js';

describe('parts of speech of a question', () => {
  it('tells the words that are not nouns (adverbs, adjectives, verbs) from names and things', async () => {
    const words = (await tagQuestion('Why does pnpm supposedly keep one cheap store while winston lingers, and how do I configure Django?')).nonNouns;
    for (const w of ['supposedly', 'cheap', 'lingers', 'configure']) expect(words).toContain(w);
    for (const w of ['pnpm', 'store', 'winston', 'django']) expect(words).not.toContain(w);
  });
});

describe('asides of a question', () => {
  const asides = async (question: string, context = true) => {
    const tagged = await tagQuestion(question);
    return [...asideTerms(question, 'none', tagged.likeIsPreposition, { context })].sort();
  };

  it('are the examples it gives, each up to the next clause break', async () => {
    expect(await asides('How do I switch a plugin off, e.g. only run a linter in CI?')).toEqual(['ci', 'linter', 'run']);
    expect(await asides('Can I add a value such as a counter, or the request id, to every line?')).toEqual(['counter']);
    expect(await asides('Is there something for parsing command line flags like --verbose?')).toEqual(['--verbose', 'verbose']);
    expect(await asides('Can I add a value, like an incrementing counter, to every line?')).toEqual(['counter', 'incrementing']);
  });

  it('are not a verb "like", parentheses, or a word the question also uses where it asks', async () => {
    expect(await asides('I would like logs in JSON. Which option?')).toEqual(['json', 'logs']);
    expect(await asides('I would like logs in JSON?')).toEqual([]);
    expect(await asides('Can it make requests over HTTP/3 (QUIC)?')).toEqual([]);
    expect(await asides('Which plugin, e.g. a linter, runs a linter in CI?')).toEqual([]);
  });

  it('are the sentences that do not ask, only with context and only when another sentence asks', async () => {
    expect(await asides('My store has grown to 40GB. How do I clean it?')).toEqual(['40gb', 'grown', 'store']);
    expect(await asides('My store has grown to 40GB. How do I clean it?', false)).toEqual([]);
    expect(await asides('My store has grown to 40GB. Cleaning it.')).toEqual([]);
    // Typed in lower case, the sentences are still two; an abbreviation still ends none.
    expect(await asides('my store has grown to 40GB. how do I clean it?')).toEqual(['40gb', 'grown', 'store']);
    expect(await asides('how do I clean my store, i.e. the cache folder?')).toEqual([]);
  });
});
