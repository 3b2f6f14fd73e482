import path from 'node:path';
import { z } from 'zod';

// Every setting the server reads, checked once at start-up. Defaults make `npm start` work on a
// fresh machine; organisation details are placeholders an operator replaces in the environment.

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

function url(name: string, protocols: string[]) {
  return z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { message: `${name} must be a full URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
    );
}

const webUrl = (name: string) => url(name, ['http:', 'https:']);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z
    .string()
    .default('3000')
    .refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 65535, {
      message: 'PORT must be a whole number from 1 to 65535',
    })
    .transform(Number),
  HOST: z
    .string()
    .trim()
    .default('0.0.0.0')
    .refine((v) => /^[A-Za-z0-9.:-]+$/.test(v), {
      message: 'HOST must be a host name or IP address, such as 0.0.0.0 or 127.0.0.1',
    }),
  DATA_DIR: z.string().trim().min(1, { message: 'DATA_DIR must be a folder path' }).default('./data'),
  DATABASE_URL: optionalText.pipe(url('DATABASE_URL', ['postgres:', 'postgresql:']).optional()),
  PUBLIC_URL: optionalText.pipe(webUrl('PUBLIC_URL').optional()),
  SUPER_ADMIN_EMAIL: z
    .string()
    .trim()
    .toLowerCase()
    .default('admin@tdg-uganda.example')
    .pipe(z.email({ message: 'SUPER_ADMIN_EMAIL must be an email address' })),
  SUPER_ADMIN_PASSWORD: optionalText.pipe(
    z.string().min(6, { message: 'SUPER_ADMIN_PASSWORD must be at least 6 characters' }).optional(),
  ),
  SMTP_URL: optionalText.pipe(url('SMTP_URL', ['smtp:', 'smtps:']).optional()),
  MAIL_FROM: optionalText,
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''], { message: 'TRUST_PROXY must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  ORG_NAME: z.string().trim().min(1).default('TDG Uganda'),
  ORG_EMAIL: z
    .string()
    .trim()
    .default('info@tdg-uganda.example')
    .pipe(z.email({ message: 'ORG_EMAIL must be an email address' })),
  ORG_PHONE: z
    .string()
    .trim()
    .default('+256 700 123 456')
    .refine((v) => /^\+?[\d\s()-]{6,20}$/.test(v), { message: 'ORG_PHONE must be a phone number, such as +256 700 123 456' }),
  ORG_LOCATION: z.string().trim().min(1).default('Mukono, Central Region, Uganda'),
  SOCIAL_X_URL: webUrl('SOCIAL_X_URL').default('https://x.com/tdguganda'),
  SOCIAL_INSTAGRAM_URL: webUrl('SOCIAL_INSTAGRAM_URL').default('https://www.instagram.com/tdguganda'),
  SOCIAL_LINKEDIN_URL: webUrl('SOCIAL_LINKEDIN_URL').default('https://www.linkedin.com/company/tdguganda'),
  SOCIAL_YOUTUBE_URL: webUrl('SOCIAL_YOUTUBE_URL').default('https://www.youtube.com/@tdguganda'),
  DONATION_URL: webUrl('DONATION_URL').default('https://donate.tdg-uganda.example/'),
  COURSE_URL: webUrl('COURSE_URL').default('https://learn.tdg-uganda.example/deaf-awareness'),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  https: boolean;
  superAdminEmail: string;
  superAdminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  trustProxy: boolean;
  logLevel: string;
  organisation: Organisation;
};

export type Organisation = {
  name: string;
  email: string;
  phone: string;
  location: string;
  social: { x: string; instagram: string; linkedin: string; youtube: string };
  donationUrl: string;
  courseUrl: string;
};

/** A problem the operator can fix; start-up prints only its message. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws ConfigError with one readable line on the first bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'A setting');
    const message = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    throw new ConfigError(message);
  }
  const s = result.data;
  const publicUrl = (s.PUBLIC_URL ?? `http://localhost:${s.PORT}`).replace(/\/+$/, '');
  return {
    env: s.NODE_ENV,
    port: s.PORT,
    host: s.HOST,
    dataDir: path.resolve(s.DATA_DIR),
    databaseUrl: s.DATABASE_URL,
    publicUrl,
    https: publicUrl.startsWith('https:'),
    superAdminEmail: s.SUPER_ADMIN_EMAIL,
    superAdminPassword: s.SUPER_ADMIN_PASSWORD,
    smtpUrl: s.SMTP_URL,
    mailFrom: s.MAIL_FROM ?? `${s.ORG_NAME} <${s.ORG_EMAIL}>`,
    trustProxy: s.TRUST_PROXY,
    logLevel: s.LOG_LEVEL,
    organisation: {
      name: s.ORG_NAME,
      email: s.ORG_EMAIL,
      phone: s.ORG_PHONE,
      location: s.ORG_LOCATION,
      social: {
        x: s.SOCIAL_X_URL,
        instagram: s.SOCIAL_INSTAGRAM_URL,
        linkedin: s.SOCIAL_LINKEDIN_URL,
        youtube: s.SOCIAL_YOUTUBE_URL,
      },
      donationUrl: s.DONATION_URL,
      courseUrl: s.COURSE_URL,
    },
  };
}

let cached: Config | undefined;

/** The settings of this process (parsed once; server.ts has already refused bad values). */
export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}

/**
 * Ends a failed start with one clear line and exit code 1. Known problems (bad settings, an
 * unreachable database, a busy port) print only their message; anything else its first line.
 */
export function bootstrapFailure(error: unknown, logger?: { error(obj: object, msg: string): void }): never {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const known = error instanceof Error && (error.name === 'ConfigError' || error.name === 'DatabaseOpenError');
  if (!known && logger) logger.error({ err: error }, 'start-up failed');
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}
