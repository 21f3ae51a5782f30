/**
 * Whether a short line is a date or time stamp ("November 19, 2019 | 4:20am", "19.11.2019, 08:57",
 * "Posted: Fri 6:45 PM, Feb 16, 2018") rather than a sentence that mentions a date.
 */
const MONTH = /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro)\b\.?/i;
const NUMERIC_DATE = /\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/;
const TIME = /\b\d{1,2}[:.h]\d{2}\s*(?:[ap]\.?m\.?)?(?:\b|$)/i;
const YEAR = /\b(?:19|20)\d{2}\b/;
const MAX_WORDS = 20;

export function isDateline(text: string, words: number): boolean {
  if (words > MAX_WORDS || endsAsSentence(text)) return false;
  const hasDate = (MONTH.test(text) && (YEAR.test(text) || /\b\d{1,2}\b/.test(text))) || NUMERIC_DATE.test(text);
  return hasDate && (YEAR.test(text) || TIME.test(text) || NUMERIC_DATE.test(text));
}

/** A sentence ends with a full stop, question or exclamation mark ("… at 11:08 a.m." is still a stamp). */
export function endsAsSentence(text: string): boolean {
  return /[.!?]["”’)]?$/.test(text.replace(/\b[ap]\.m\.$/i, '').trim());
}
