import { randomBytes, randomUUID } from 'node:crypto';

export function newId(): string {
  return randomUUID();
}

/** A readable, URL-safe id for public content: the title's words plus a random suffix. */
export function newContentId(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|(?<!-)-+$/g, '')
    .slice(0, 60)
    .replace(/(?<!-)-+$/g, '');
  const suffix = randomBytes(4).toString('hex').slice(0, 6);
  return slug ? `${slug}-${suffix}` : suffix;
}

export function nowIso(): string {
  return new Date().toISOString();
}
