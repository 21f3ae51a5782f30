import { describe, expect, it } from 'vitest';
import { detectDirection, detectLanguage } from './language.ts';
import { countWords } from './words.ts';

describe('language and direction from text', () => {
  it('tells scripts apart', () => {
    expect(detectLanguage('قالت اللجنة إن الجدار البحري القديم فقد ثلث ارتفاعه وإن السكان يرون الماء يقترب')).toBe('ar');
    expect(detectLanguage('הוועדה אמרה כי חומת הים הישנה איבדה שליש מגובהה וכי התושבים רואים את המים')).toBe('he');
    expect(detectLanguage('Комиссия заявила, что старая морская стена потеряла треть своей высоты за эти годы')).toBe('ru');
    expect(detectLanguage('委员会表示，旧海堤已经失去了三分之一的高度，居民们每年都看到海水越来越近。')).toBe('zh');
    expect(detectLanguage('委員会は、古い防波堤が高さの三分の一を失ったと述べ、住民は毎年水が近づくのを見ている。')).toBe('ja');
    expect(detectLanguage('위원회는 오래된 방파제가 높이의 3분의 1을 잃었다고 밝혔으며 주민들은 매년 물이 다가오는 것을 본다.')).toBe('ko');
  });

  it('tells Latin-script languages apart by their common words, and says nothing when unsure', () => {
    expect(detectLanguage('The commission said that the old sea wall has lost a third of its height, and the residents are worried.')).toBe('en');
    expect(detectLanguage('Die Kommission sagte, dass die alte Mauer ein Drittel ihrer Höhe verloren hat und die Anwohner sind besorgt.')).toBe('de');
    expect(detectLanguage('La commission a dit que le vieux mur a perdu un tiers de sa hauteur et que les habitants sont inquiets.')).toBe('fr');
    expect(detectLanguage('Komisi mengatakan bahwa tembok laut yang lama telah kehilangan sepertiga dari tingginya dan warga khawatir.')).toBe('id');
    expect(detectLanguage('xkcd qwerty zxcvb asdf ghjkl poiuy mnbvc lkjhg trewq yuiop')).toBeNull();
    expect(detectLanguage('')).toBeNull();
  });

  it('gives right-to-left for Arabic and Hebrew text, left-to-right otherwise, and nothing for no text', () => {
    expect(detectDirection('مرحبا بالعالم، هذه مقالة قصيرة')).toBe('rtl');
    expect(detectDirection('שלום עולם, זהו מאמר קצר')).toBe('rtl');
    expect(detectDirection('Hello world, a short article with one word: مرحبا')).toBe('ltr');
    expect(detectDirection('', null)).toBeNull();
    expect(detectDirection('2024 — 42', 'fa')).toBe('rtl');
  });
});

describe('countWords', () => {
  it('counts words, keeps contractions and hyphenated words whole, and counts each CJK character', () => {
    expect(countWords("It's a well-known fact: 3 harbours.")).toBe(6);
    expect(countWords('旧海堤 sea wall')).toBe(5);
    expect(countWords('')).toBe(0);
  });
});
