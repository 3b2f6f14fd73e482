import pino from 'pino';

// Structured JSON logs. Passwords, cookies, tokens and message bodies are never logged: request logs
// carry method, path, status and timing only, and these paths are redacted as a second line of defence.
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
  'token',
  '*.token',
  'message',
  '*.message',
  'body',
  '*.body',
];

export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info') {
  return pino({
    level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

export type Logger = ReturnType<typeof createLogger>;

const LOGGER = Symbol.for('tdg.logger');
type Global = typeof globalThis & { [LOGGER]?: Logger };

/** The process's logger, shared by the server and the React Router bundle. */
export function getLogger(): Logger {
  const g = globalThis as Global;
  g[LOGGER] ??= createLogger();
  return g[LOGGER];
}
