/**
 * Parts of speech of a question's words, from compromise's English tagger (a lexicon and rules, loaded on
 * first use: about 0.3–0.6 s once, then 2–3 ms a question on this project's machine, so it runs only when a
 * question word is missing from the documentation). The refusal evidence uses them to tell what a missing
 * word says: a noun the documentation never uses (a product, a feature, a thing) says more about whether it
 * can answer than a verb, adjective or adverb it happens not to use ("supposedly", "cheap", "lingering").
 */
type Tagger = (text: string) => { terms(): { json(): { terms: { normal: string; tags: string[] }[] }[] } };

let tagger: Promise<Tagger> | undefined;

function load(): Promise<Tagger> {
  tagger ??= import('compromise/two').then((m) => m.default as unknown as Tagger);
  tagger.catch(() => (tagger = undefined));
  return tagger;
}

const NOUN_TAGS = new Set(['Noun', 'ProperNoun', 'Acronym', 'Value']);
/** Tags that say a word is not a noun (whatever else it may also be tagged). */
const OTHER_TAGS = new Set([
  'Verb',
  'Adjective',
  'Adverb',
  'Pronoun',
  'Determiner',
  'Preposition',
  'Conjunction',
  'QuestionWord',
  'Particle',
  'Negative',
  'Modal',
  'Copula',
]);

export interface TaggedQuestion {
  /**
   * The question's words (lower-cased, as written) that are not nouns: tagged as verb, adjective, adverb or a
   * function word and not as a noun. Words the tagger does not know count as nouns (unknown names).
   */
  nonNouns: Set<string>;
  /** Per occurrence of the word "like" in the question, in order: whether it is a preposition ("flags like --verbose"). */
  likeIsPreposition: boolean[];
}

/** One pass of the tagger over the question: its words that are not nouns, and what each "like" in it is. */
export async function tagQuestion(question: string): Promise<TaggedQuestion> {
  const nlp = await load();
  const nonNouns = new Set<string>();
  const likeIsPreposition: boolean[] = [];
  for (const phrase of nlp(question).terms().json()) {
    for (const term of phrase.terms) {
      const tags = new Set(term.tags);
      if (term.normal.toLowerCase() === 'like') likeIsPreposition.push(tags.has('Preposition'));
      if ([...tags].some((t) => NOUN_TAGS.has(t))) continue;
      if ([...tags].some((t) => OTHER_TAGS.has(t))) nonNouns.add(term.normal.toLowerCase());
    }
  }
  return { nonNouns, likeIsPreposition };
}
