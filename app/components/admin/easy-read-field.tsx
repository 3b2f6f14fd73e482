import { useEffect, useRef, useState } from 'react';
import { STAFF_LANGUAGE_NAMES } from '~/lib/languages';
import { EASY_READ_MAX_WORDS, EASY_READ_TARGET, readabilityOf, readabilitySummary, type Readability } from '~/lib/easy-read';
import { Field, inputClass, useTypedState } from './form';

// Issue 26 item 6: the easy-read text of a story, news item, resource or service, with its
// readability as it is typed (decision 033). The score shown on the server's render is the same
// function's, so it is there after a save made without JavaScript too.

/** How long typing must pause before the live region says the new score (it never speaks per keystroke). */
export const ANNOUNCE_AFTER_MS = 1500;

const LANGUAGE_NAMES: Readonly<Record<string, string>> = STAFF_LANGUAGE_NAMES;

export function EasyReadField({
  initial,
  error,
  language = 'en',
  onChange,
}: {
  initial: string;
  error?: string | undefined;
  /** The language of the text: the Flesch formula is for English only. */
  language?: string;
  onChange?: () => void;
}) {
  const [text, setText, textRef] = useTypedState(initial);
  const result = readabilityOf(text, language);
  const [announced, setAnnounced] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Field
      id="easyRead"
      label="Easy read"
      note={
        <>
          A short version in plain words: short sentences, common words, at most {EASY_READ_MAX_WORDS} words. Leave a blank line
          between paragraphs; start a line with “- ” for a list.
        </>
      }
      noteId="easyRead-hint"
      error={error}
    >
      {(control) => (
        <>
          <textarea
            {...control}
            ref={textRef}
            name="easyRead"
            rows={8}
            value={text}
            onChange={(event) => {
              const value = event.target.value;
              setText(value);
              onChange?.();
              clearTimeout(timer.current);
              timer.current = setTimeout(() => {
                setAnnounced(value.trim() ? readabilitySummary(readabilityOf(value, language)) : '');
              }, ANNOUNCE_AFTER_MS);
            }}
            className={inputClass(Boolean(error))}
          />
          <ReadabilityPanel result={result} language={language} />
          <p aria-live="polite" className="sr-only" data-testid="easy-read-announcement">
            {announced}
          </p>
        </>
      )}
    </Field>
  );
}

/** The score (in a number and in words) against its target, or the counts for Luganda and Swahili. */
export function ReadabilityPanel({ result, language }: { result: Readability; language: string }) {
  const over = result.words > EASY_READ_MAX_WORDS;
  return (
    <div className="mt-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800" data-easy-read-score="">
      {result.words === 0 ? (
        <p>No easy read yet. The reading ease shows here as you type.</p>
      ) : result.score !== null ? (
        <p>
          <span className="font-semibold">Reading ease: {result.score}</span> – {result.verdict}.{' '}
          <span className={result.meetsTarget ? 'font-semibold text-green-800' : 'font-semibold text-amber-900'}>
            {result.meetsTarget
              ? `Meets the target of ${EASY_READ_TARGET} or more.`
              : `Target: ${EASY_READ_TARGET} or more. Use shorter sentences and shorter words.`}
          </span>
        </p>
      ) : (
        <p>
          The reading ease formula (Flesch) is made for English, so no score is given for {LANGUAGE_NAMES[language] ?? language}:
          keep sentences short.
        </p>
      )}
      <p className={`mt-1 ${over ? 'font-semibold text-red-800' : ''}`}>
        {result.words}/{EASY_READ_MAX_WORDS} words · {result.sentences} {result.sentences === 1 ? 'sentence' : 'sentences'} ·{' '}
        {result.averageSentenceLength} words per sentence on average
      </p>
      {result.score !== null && <p className="mt-1 text-slate-600">Flesch reading ease: 100 is very easy, 0 very hard.</p>}
    </div>
  );
}
