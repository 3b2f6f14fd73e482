// The part of gettext-parser (PO files: docs/decisions/032-translations-screen.md) the Translations
// screen uses; the package ships no types of its own.
declare module 'gettext-parser' {
  export interface GetTextComment {
    translator?: string;
    reference?: string;
    extracted?: string;
    flag?: string;
    previous?: string;
  }
  export interface GetTextTranslation {
    msgctxt?: string;
    msgid: string;
    msgid_plural?: string;
    msgstr: string[];
    comments?: GetTextComment;
  }
  export interface GetTextTranslations {
    charset: string;
    headers: Record<string, string>;
    translations: Record<string, Record<string, GetTextTranslation>>;
  }
  export const po: {
    parse(input: string | Buffer, options?: { defaultCharset?: string; validation?: boolean }): GetTextTranslations;
    compile(table: GetTextTranslations, options?: { foldLength?: number; sort?: boolean; escapeCharacters?: boolean }): Buffer;
  };
}
