import { describe, expect, it } from 'vitest';
import { bodyText, compareVersions, compareWords, hasChanges, MAX_WORD_EDITS } from './word-diff.server';

describe('compareWords', () => {
  it('marks the words deleted since the revision and the words inserted since', () => {
    const comparison = compareWords('Deaf students follow every lesson.', 'Deaf pupils follow every recorded lesson.');
    expect(comparison).toEqual([
      { type: 'same', text: 'Deaf ' },
      { type: 'deleted', text: 'students' },
      { type: 'inserted', text: 'pupils' },
      { type: 'same', text: ' follow every ' },
      { type: 'inserted', text: 'recorded ' },
      { type: 'same', text: 'lesson.' },
    ]);
    expect(hasChanges(comparison)).toBe(true);
  });

  it('says when nothing changed', () => {
    expect(compareWords('Same words.', 'Same words.')).toEqual([{ type: 'same', text: 'Same words.' }]);
    expect(hasChanges(compareWords('Same words.', 'Same words.'))).toBe(false);
    expect(compareWords('', '')).toEqual([]);
  });

  it('gives up on texts that differ too much to compare word by word', () => {
    const words = (prefix: string) => Array.from({ length: MAX_WORD_EDITS + 10 }, (_, i) => `${prefix}${i}`).join(' ');
    const comparison = compareWords(words('a'), words('b'));
    expect(comparison).toBeNull();
    expect(hasChanges(comparison)).toBe(true);
  });
});

describe('bodyText', () => {
  it('keeps one paragraph a line, without markup', () => {
    expect(
      bodyText('<h2>Captions</h2><p>Deaf <strong>students</strong> follow.</p><ul><li>One</li><li>Two &amp; three</li></ul>'),
    ).toBe('Captions\nDeaf students follow.\nOne\nTwo & three');
  });
});

describe('compareVersions', () => {
  const version = {
    title: 'Captioned lessons',
    summary: 'For everyone.',
    category: 'education',
    tags: ['deaf', 'school'],
    imageAlt: 'A classroom',
    content: '<p>Lessons with captions.</p><p>Every week.</p>',
  };

  it('names only the fields that differ, in the form’s order, word by word', () => {
    const changes = compareVersions(version, { ...version, title: 'Captioned classes', category: 'advocacy' }, 'Summary');
    expect(changes.map((change) => change.label)).toEqual(['Title', 'Category']);
    expect(changes[0]!.comparison).toEqual([
      { type: 'same', text: 'Captioned ' },
      { type: 'deleted', text: 'lessons' },
      { type: 'inserted', text: 'classes' },
    ]);
  });

  it('finds nothing between a version and itself', () => {
    expect(compareVersions(version, { ...version }, 'Excerpt')).toEqual([]);
  });
});
