import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { Organisation } from '../../lib/site.ts';
import { PHONE_PATTERN } from '../../lib/site-settings.ts';
import { parseWebConcurrency } from '../../../server/web-concurrency.ts';

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

/**
 * What Express's `trust proxy` is given: off, how many proxies stand in front, or which addresses
 * are proxies. Never `true`: Express would then take the left-most X-Forwarded-For entry, which any
 * client writes itself, and every request could claim a new address past every rate limit.
 */
export type TrustProxy = false | number | string[];

const TRUST_ANY_CLIENT =
  "TRUST_PROXY=true would trust any client's X-Forwarded-For; set the number of proxies in front (usually 1) or their addresses";
const TRUST_PROXY_FORMS =
  'TRUST_PROXY must be false, the number of proxies in front (such as 1), or a comma-separated list of proxy addresses, subnets such as 10.0.0.0/8, loopback, linklocal or uniquelocal';
// Express's own names for address ranges (proxy-addr).
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Why one TRUST_PROXY list entry cannot be used, or undefined when it names a proxy. */
function proxyEntryProblem(entry: string): string | undefined {
  if (PROXY_RANGE_NAMES.has(entry.toLowerCase()) || isIP(entry)) return undefined;
  const slash = entry.indexOf('/');
  const address = entry.slice(0, slash);
  const prefix = entry.slice(slash + 1);
  const family = isIP(address);
  if (slash < 0 || !family || !/^\d{1,3}$/.test(prefix)) return `${TRUST_PROXY_FORMS}; "${entry}" is none of these`;
  // A /0 subnet holds every address: the same as trusting any client.
  if (Number(prefix) === 0)
    return `TRUST_PROXY ${entry} would trust any client's X-Forwarded-For; list only your proxies' addresses`;
  try {
    new BlockList().addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return `TRUST_PROXY ${entry}: the prefix after / must be at most ${family === 4 ? 32 : 128}`;
  }
  return undefined;
}

/** Parses TRUST_PROXY into a value for Express's `trust proxy`; throws a readable line when it cannot. */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  const lower = value.toLowerCase();
  if (lower === '' || lower === 'false') return false;
  if (lower === 'true') throw new ConfigError(TRUST_ANY_CLIENT);
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (!Number.isSafeInteger(hops)) throw new ConfigError(TRUST_PROXY_FORMS);
    return hops === 0 ? false : hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new ConfigError(TRUST_PROXY_FORMS);
  for (const entry of entries) {
    const problem = proxyEntryProblem(entry);
    if (problem) throw new ConfigError(problem);
  }
  return entries;
}

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
  // Issue 29: /metrics and /healthz?detail answer only `Authorization: Bearer <METRICS_TOKEN>`; off without it.
  METRICS_TOKEN: optionalText.pipe(
    z
      .string()
      .min(24, { message: 'METRICS_TOKEN must be at least 24 characters (for example: openssl rand -hex 24)' })
      .max(200, { message: 'METRICS_TOKEN must be at most 200 characters' })
      .refine((v) => /^[\x21-\x7e]+$/.test(v), { message: 'METRICS_TOKEN must be printable characters without spaces' })
      .optional(),
  ),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx): TrustProxy => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  // Worker threads (issue 15, decision 040): server.ts reads it before anything starts; checked here with the rest.
  WEB_CONCURRENCY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseWebConcurrency(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  DEMO_CONTENT: z
    .enum(['true', 'false'], { message: 'DEMO_CONTENT must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
  // The nightly backup (docs/decisions/019-backups.md); unset, it is on for SQLite and off for PostgreSQL.
  BACKUPS: optionalText.pipe(z.enum(['on', 'off'], { message: 'BACKUPS must be on or off' }).optional()),
  BACKUP_KEEP_DAYS: z
    .string()
    .default('14')
    .refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 3650, {
      message: 'BACKUP_KEEP_DAYS must be a whole number of days from 1 to 3650',
    })
    .transform(Number),
  BACKUP_DIR: optionalText,
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
    .refine((v) => PHONE_PATTERN.test(v), { message: 'ORG_PHONE must be a phone number, such as +256 700 123 456' }),
  ORG_LOCATION: z.string().trim().min(1).default('Mukono, Central Region, Uganda'),
  SOCIAL_X_URL: webUrl('SOCIAL_X_URL').default('https://x.com/tdguganda'),
  SOCIAL_INSTAGRAM_URL: webUrl('SOCIAL_INSTAGRAM_URL').default('https://www.instagram.com/tdguganda'),
  SOCIAL_LINKEDIN_URL: webUrl('SOCIAL_LINKEDIN_URL').default('https://www.linkedin.com/company/tdguganda'),
  SOCIAL_YOUTUBE_URL: webUrl('SOCIAL_YOUTUBE_URL').default('https://www.youtube.com/@tdguganda'),
  DONATION_URL: webUrl('DONATION_URL').default('https://donate.tdg-uganda.example/'),
  COURSE_URL: webUrl('COURSE_URL').default('https://learn.tdg-uganda.example/deaf-awareness'),
  // Uploads in an S3-compatible bucket (storageSettings below checks them together).
  STORAGE_URL: optionalText,
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  AWS_SESSION_TOKEN: optionalText,
  AWS_REGION: optionalText,
  AWS_ENDPOINT_URL_S3: optionalText,
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
  trustProxy: TrustProxy;
  /** The bearer token of /metrics and /healthz?detail; undefined: both are off. */
  metricsToken: string | undefined;
  logLevel: string;
  /** How many worker threads serve the site (1: the process's main thread alone; decision 040). */
  webConcurrency: number;
  /** Whether the first start on an empty database adds the demo stories, news and staff. */
  demoContent: boolean;
  /** Where uploads live: DATA_DIR/uploads, or an S3-compatible bucket when STORAGE_URL is set. */
  storage: StorageSettings;
  /** The nightly backup: whether it runs, how many days of backups it keeps, and where it writes them. */
  backups: { nightly: boolean; keepDays: number; dir: string };
  /** First-start defaults of the organisation's details; staff edits in Site settings win. */
  organisation: Organisation;
};

export interface S3StorageSettings {
  kind: 's3';
  bucket: string;
  /** Put before every key: empty, or folders ending in a slash (`site-a/`). */
  prefix: string;
  region: string;
  /** AWS_ENDPOINT_URL_S3, for stores other than AWS (MinIO, Garage, R2…). */
  endpoint: string | undefined;
  /** From AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; without them the SDK's own chain (an instance role…). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

export type StorageSettings = { kind: 'disk' } | S3StorageSettings;

const STORAGE_URL_FORM =
  'STORAGE_URL must look like s3://bucket or s3://bucket/prefix (a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens)';

/** STORAGE_URL and the standard AWS variables, checked together; the AWS ones are read only with STORAGE_URL. */
function storageSettings(s: {
  STORAGE_URL?: string | undefined;
  AWS_ACCESS_KEY_ID?: string | undefined;
  AWS_SECRET_ACCESS_KEY?: string | undefined;
  AWS_SESSION_TOKEN?: string | undefined;
  AWS_REGION?: string | undefined;
  AWS_ENDPOINT_URL_S3?: string | undefined;
}): StorageSettings {
  if (!s.STORAGE_URL) return { kind: 'disk' };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(s.STORAGE_URL);
  if (!match) throw new ConfigError(STORAGE_URL_FORM);
  const folders = (match[2] ?? '').split('/').filter(Boolean);
  if (folders.some((f) => f === '.' || f === '..' || !/^[A-Za-z0-9._-]+$/.test(f)))
    throw new ConfigError(
      'STORAGE_URL: the prefix after the bucket may hold only letters, digits, dots, hyphens, underscores and slashes',
    );
  if (Boolean(s.AWS_ACCESS_KEY_ID) !== Boolean(s.AWS_SECRET_ACCESS_KEY))
    throw new ConfigError(
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both (or neither, to use the machine's own AWS role)",
    );
  if (s.AWS_REGION && !/^[a-z0-9-]{1,40}$/.test(s.AWS_REGION))
    throw new ConfigError('AWS_REGION must be a region name such as eu-west-1 (any name for stores other than AWS)');
  let endpoint: string | undefined;
  if (s.AWS_ENDPOINT_URL_S3) {
    try {
      const parsed = new URL(s.AWS_ENDPOINT_URL_S3);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') endpoint = s.AWS_ENDPOINT_URL_S3;
    } catch {
      endpoint = undefined;
    }
    if (!endpoint) throw new ConfigError('AWS_ENDPOINT_URL_S3 must be a full URL starting with http:// or https://');
  }
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: folders.length ? `${folders.join('/')}/` : '',
    // Stores other than AWS ignore the region, but the SDK needs one to sign requests.
    region: s.AWS_REGION ?? 'us-east-1',
    endpoint,
    credentials:
      s.AWS_ACCESS_KEY_ID && s.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: s.AWS_ACCESS_KEY_ID,
            secretAccessKey: s.AWS_SECRET_ACCESS_KEY,
            ...(s.AWS_SESSION_TOKEN ? { sessionToken: s.AWS_SESSION_TOKEN } : {}),
          }
        : undefined,
  };
}

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
  const publicUrl = (s.PUBLIC_URL ?? `http://localhost:${s.PORT}`).replace(/(?<!\/)\/+$/, '');
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
    metricsToken: s.METRICS_TOKEN,
    logLevel: s.LOG_LEVEL,
    webConcurrency: s.WEB_CONCURRENCY,
    demoContent: s.DEMO_CONTENT,
    storage: storageSettings(s),
    backups: {
      // On by default where the database is a file beside the site; a PostgreSQL server has its own backups.
      nightly: s.BACKUPS ? s.BACKUPS === 'on' : !s.DATABASE_URL,
      keepDays: s.BACKUP_KEEP_DAYS,
      dir: path.resolve(s.BACKUP_DIR ?? path.join(s.DATA_DIR, 'backups')),
    },
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

/** The settings of this process, parsed once (server/app.ts reads them first and refuses bad values). */
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
  const known = error instanceof ConfigError;
  if (!known && logger) logger.error({ err: error }, 'start-up failed');
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}
