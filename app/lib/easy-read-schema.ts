import { z } from 'zod';
import { easyReadProblem, normaliseEasyRead } from './easy-read.ts';

// Issue 26 item 6: the easy-read field's rule, shared by the content and service forms (browser and
// server). Apart from easy-read.ts so the public pieces do not load zod.

/** Optional; at most EASY_READ_MAX_WORDS words, drafts included; stored trimmed, with \n line ends. */
export const easyReadSchema = z
  .string()
  .default('')
  .check((ctx) => {
    const message = easyReadProblem(ctx.value);
    if (message) ctx.issues.push({ code: 'custom', message, input: ctx.value });
  })
  .transform(normaliseEasyRead);
