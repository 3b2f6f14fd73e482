import pino from 'pino';

// Structured JSON logs. Passwords, cookies, tokens and what visitors typed are never logged: request
// logs carry method, path (secrets cut out), status and timing only, and these paths are redacted as
// a second line of defence. Errors keep their message and stack (pino's `err` serializer), so the
// redactions below name only keys that hold secrets or visitors' text, never an error's message.
export const REDACT_PATHS = [
  'password',
  '*.password',
  'newPassword',
  '*.newPassword',
  'cookie',
  '*.cookie',
  'headers.cookie',
  'headers.authorization',
  '*.headers.cookie',
  '*.headers.authorization',
  'token',
  '*.token',
  // A visitor's message or a mail body, logged whole by mistake. Only the top-level key: `*.message`
  // would also hide every error's message.
  'message',
  'body',
  '*.body',
  // PostgreSQL puts the offending values of a failed insert here ("Key (email)=(…) already exists").
  'err.detail',
];

// Path segments after these hold a secret (a reset link's, a newsletter link's or a preview link's
// token): logged as `[token]`, whatever follows (React Router's `.data` address of the same page too).
// Route matching ignores case, so the redaction does; an encoded slash is cut as well.
const SECRET_PATH = /(\/reset-password|\/newsletter\/confirm|\/newsletter\/unsubscribe|\/preview)(?:\/|%2f)[^?#]*/gi;

/** A request path fit for the log: what follows a secret-bearing segment is replaced, and any query dropped. */
export function redactPath(path: string): string {
  const [bare = ''] = path.split(/[?#]/, 1);
  return bare.replace(SECRET_PATH, '$1/[token]');
}

export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    formatters: {
      level: (label) => ({ level: label }),
      // Any line that names a path (request log, render errors) goes through the same redaction.
      log: (entry) => (typeof entry.path === 'string' ? { ...entry, path: redactPath(entry.path) } : entry),
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;

let current: Logger | undefined;

/** The process's logger: the one the site started with, or one at LOG_LEVEL until then. */
export function getLogger(): Logger {
  current ??= createLogger();
  return current;
}

/** Makes `logger` the process's logger (server/app.ts at start; tests that read what was logged). */
export function setLogger(logger: Logger | undefined): void {
  current = logger;
}
