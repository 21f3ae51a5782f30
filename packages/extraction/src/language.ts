/**
 * Language and direction from the text itself, for pages that do not state them: the script decides direction
 * (Arabic, Hebrew and their relatives are written right to left) and most languages; Latin-script languages are
 * told apart by their most frequent short words. Undecided stays `null` rather than guessing.
 */

const RTL_SCRIPTS = new Set(['Arabic', 'Hebrew', 'Syriac', 'Thaana']);
const RTL_LANGUAGES = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug', 'ku', 'syr', 'arc', 'nqo']);

/** The last text counted: language and direction are asked of the same text one after the other. */
let counted: { text: string; counts: Map<string, number> } | null = null;

/**
 * Letters counted per script in a sample of the text (the first 20,000 characters are plenty), in one pass: ASCII
 * letters are Latin without asking a regular expression, and each other character is matched against the scripts
 * until one claims it.
 */
function scriptCounts(text: string): Map<string, number> {
  if (counted?.text === text) return counted.counts;
  const counts = new Map<string, number>();
  const sample = text.slice(0, 20_000);
  let latin = 0;
  for (const char of sample) {
    const code = char.charCodeAt(0);
    if (code < 128) {
      if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) latin++;
      continue;
    }
    for (const [script, pattern] of SCRIPTS) {
      if (pattern.test(char)) {
        if (script === 'Latin') latin++;
        else counts.set(script, (counts.get(script) ?? 0) + 1);
        break;
      }
    }
  }
  if (latin) counts.set('Latin', latin);
  counted = { text, counts };
  return counts;
}

const SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Tamil', /\p{Script=Tamil}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Syriac', /\p{Script=Syriac}/u],
  ['Thaana', /\p{Script=Thaana}/u],
];

export function detectDirection(text: string, lang: string | null = null): 'ltr' | 'rtl' | null {
  const counts = scriptCounts(text);
  let rtl = 0;
  let total = 0;
  for (const [script, n] of counts) {
    total += n;
    if (RTL_SCRIPTS.has(script)) rtl += n;
  }
  if (total === 0) return lang ? (isRtlLanguage(lang) ? 'rtl' : 'ltr') : null;
  return rtl / total > 0.5 ? 'rtl' : 'ltr';
}

export function isRtlLanguage(lang: string): boolean {
  return RTL_LANGUAGES.has(lang.split('-')[0]!.toLowerCase());
}

export function detectLanguage(text: string): string | null {
  const counts = scriptCounts(text);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total < 20) return null;
  const [script, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const share = n / total;
  if (counts.has('Kana') && (counts.get('Kana')! + (counts.get('Han') ?? 0)) / total > 0.5) return 'ja';
  if (share < 0.5) return null;
  switch (script) {
    case 'Latin':
      return latinLanguage(text);
    case 'Arabic':
      if (/[ٹڈڑںےھ]/u.test(text) && (text.match(/[ٹڈڑںے]/gu)?.length ?? 0) > n * 0.005) return 'ur';
      if ((text.match(/[پچژگکی]/gu)?.length ?? 0) > n * 0.02) return 'fa';
      return 'ar';
    case 'Hebrew':
      return (text.match(/[ײױװ]/gu)?.length ?? 0) > n * 0.005 ? 'yi' : 'he';
    case 'Cyrillic':
      if ((text.match(/[іїєґ]/giu)?.length ?? 0) > n * 0.01) return 'uk';
      if ((text.match(/[ђћџљњј]/giu)?.length ?? 0) > n * 0.005) return 'sr';
      return 'ru';
    case 'Greek':
      return 'el';
    case 'Han':
      return 'zh';
    case 'Kana':
      return 'ja';
    case 'Hangul':
      return 'ko';
    case 'Thai':
      return 'th';
    case 'Devanagari':
      return 'hi';
    case 'Bengali':
      return 'bn';
    case 'Tamil':
      return 'ta';
    case 'Georgian':
      return 'ka';
    case 'Armenian':
      return 'hy';
    default:
      return null;
  }
}

/** The most frequent short words of Latin-script languages (articles, prepositions, pronouns, conjunctions). */
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'in', 'is', 'that', 'it', 'for', 'was', 'with', 'on', 'as', 'are', 'this', 'be', 'at', 'by', 'have', 'from', 'not', 'but', 'they', 'which', 'you', 'he', 'she', 'we', 'has', 'were'],
  de: ['der', 'die', 'und', 'in', 'den', 'von', 'zu', 'das', 'mit', 'sich', 'des', 'auf', 'für', 'ist', 'im', 'dem', 'nicht', 'ein', 'eine', 'als', 'auch', 'es', 'an', 'werden', 'aus', 'er', 'hat', 'dass', 'sie', 'nach'],
  fr: ['le', 'de', 'la', 'et', 'les', 'des', 'en', 'un', 'du', 'une', 'que', 'est', 'pour', 'qui', 'dans', 'par', 'plus', 'pas', 'au', 'sur', 'ne', 'se', 'ce', 'il', 'sont', 'avec', 'aux', 'elle', 'nous', 'vous'],
  es: ['de', 'la', 'que', 'el', 'en', 'y', 'los', 'del', 'se', 'las', 'por', 'un', 'para', 'con', 'no', 'una', 'su', 'al', 'es', 'lo', 'como', 'más', 'pero', 'sus', 'le', 'ya', 'o', 'fue', 'este', 'ha'],
  pt: ['de', 'a', 'o', 'que', 'e', 'do', 'da', 'em', 'um', 'para', 'é', 'com', 'não', 'uma', 'os', 'no', 'se', 'na', 'por', 'mais', 'as', 'dos', 'como', 'mas', 'foi', 'ao', 'ele', 'das', 'tem', 'seu'],
  it: ['di', 'e', 'il', 'la', 'che', 'a', 'per', 'un', 'in', 'è', 'del', 'non', 'una', 'della', 'le', 'i', 'con', 'si', 'da', 'sono', 'al', 'gli', 'anche', 'più', 'nel', 'dei', 'alla', 'lo', 'come', 'questo'],
  nl: ['de', 'en', 'van', 'het', 'een', 'in', 'is', 'dat', 'op', 'te', 'zijn', 'voor', 'met', 'die', 'niet', 'aan', 'er', 'om', 'ook', 'als', 'bij', 'of', 'door', 'maar', 'naar', 'wordt', 'dan', 'nog', 'uit', 'worden'],
  id: ['yang', 'dan', 'di', 'ini', 'itu', 'dengan', 'untuk', 'tidak', 'dari', 'dalam', 'akan', 'pada', 'juga', 'saya', 'ke', 'karena', 'ada', 'bisa', 'mereka', 'oleh', 'kami', 'atau', 'sudah', 'adalah', 'kita', 'telah', 'seperti', 'hanya', 'bahwa', 'lebih'],
  tr: ['ve', 'bir', 'bu', 'da', 'de', 'için', 'ile', 'çok', 'daha', 'olarak', 'gibi', 'en', 'kadar', 'ne', 'olan', 'sonra', 'ama', 'her', 'ya', 'o', 'değil', 'mi', 'ise', 'şey', 'var', 'olduğu', 'ben', 'yok', 'onun', 'tüm'],
  pl: ['i', 'w', 'na', 'z', 'się', 'nie', 'do', 'to', 'że', 'jest', 'o', 'jak', 'po', 'co', 'ale', 'od', 'za', 'jego', 'tak', 'przez', 'dla', 'już', 'czy', 'są', 'jej', 'tym', 'oraz', 'może', 'być', 'także'],
  sv: ['och', 'i', 'att', 'det', 'som', 'en', 'på', 'är', 'av', 'för', 'med', 'till', 'den', 'har', 'de', 'inte', 'om', 'ett', 'han', 'men', 'var', 'jag', 'sig', 'från', 'vi', 'så', 'kan', 'när', 'hon', 'efter'],
  ro: ['și', 'de', 'în', 'a', 'la', 'cu', 'pe', 'că', 'din', 'nu', 'se', 'mai', 'o', 'un', 'pentru', 'este', 'care', 'au', 'sau', 'fost', 'ca', 'lui', 'sunt', 'ce', 'dar', 'prin', 'această', 'am', 'îi', 'însă'],
  vi: ['và', 'của', 'là', 'có', 'không', 'những', 'được', 'một', 'các', 'cho', 'trong', 'với', 'người', 'này', 'đã', 'khi', 'để', 'từ', 'cũng', 'như', 'đến', 'năm', 'về', 'sẽ', 'ra', 'thì', 'nhưng', 'lại', 'theo', 'đó'],
};

const STOPWORD_LANGUAGES = Object.keys(STOPWORDS);
/** Each stop word with the languages (indices into STOPWORD_LANGUAGES) it is one of. */
const STOPWORD_INDEX = new Map<string, number[]>();
STOPWORD_LANGUAGES.forEach((lang, index) => {
  for (const word of new Set(STOPWORDS[lang])) {
    const languages = STOPWORD_INDEX.get(word) ?? [];
    languages.push(index);
    STOPWORD_INDEX.set(word, languages);
  }
});

function latinLanguage(text: string): string | null {
  const words = text.slice(0, 20_000).toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 8) return null;
  // One lookup a word (its languages), rather than a pass over the words for each language.
  const hits = new Array<number>(STOPWORD_LANGUAGES.length).fill(0);
  for (const word of words) {
    const languages = STOPWORD_INDEX.get(word);
    if (languages) for (const index of languages) hits[index]!++;
  }
  const scores = STOPWORD_LANGUAGES.map((lang, index) => [lang, hits[index]!] as const).sort((a, b) => b[1] - a[1]);
  const [best, second] = scores;
  if (!best || best[1] / words.length < 0.08) return null;
  if (second && best[1] < second[1] * 1.25) return null;
  return best[0];
}
