import { describe, expect, it } from 'vitest';
import { createUserSchema, updateUserSchema, USER_MESSAGES } from './users';

describe('a staff member’s name', () => {
  const valid = {
    name: 'Grace',
    email: 'grace@example.org',
    role: 'AUTHOR',
    bio: '',
    profilePicture: '',
    password: 'long-enough-1',
  };
  const nameErrors = (name: string) =>
    [createUserSchema, updateUserSchema].map(
      (schema) =>
        schema
          .safeParse({ ...valid, name })
          .error?.issues.filter((i) => i.path[0] === 'name')
          .map((i) => i.message) ?? [],
    );

  it('refuses marks that turn the text around, which could make one name read as another', () => {
    for (const mark of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'])
      expect(nameErrors(`Grace${mark}nilaM`)).toEqual([[USER_MESSAGES.nameDirection], [USER_MESSAGES.nameDirection]]);
  });

  it('takes names in any script, with the joiners some of them need', () => {
    for (const name of ['Nakato Grace', 'Ssebuliba-Kato', 'José Ñúñez', 'Ama\u200DAmina', 'عائشة', 'Wanjiru wa Kĩmani'])
      expect(nameErrors(name)).toEqual([[], []]);
  });
});
