import { z } from 'zod';
import { STAFF_LANGUAGE_NAMES } from './languages.ts';
import { easyReadSchema } from './easy-read-schema.ts';
import { serviceSchema } from './service-schema.ts';

// Issue 26 item 4, for services: a service's Luganda and Swahili versions (rows of
// service_translations), each with its own title, description, features and easy read, drafted and
// published on its own (decision 033). Shared by the dashboard's form and the server.

export const SERVICE_VERSION_LANGUAGES = ['lg', 'sw'] as const;
export type ServiceVersionLanguage = (typeof SERVICE_VERSION_LANGUAGES)[number];
export const SERVICE_VERSION_NAMES: Readonly<Record<ServiceVersionLanguage, string>> = STAFF_LANGUAGE_NAMES;

export function isServiceVersionLanguage(value: unknown): value is ServiceVersionLanguage {
  return typeof value === 'string' && (SERVICE_VERSION_LANGUAGES as readonly string[]).includes(value);
}

export const SERVICE_VERSION_INTENTS = ['draft', 'publish', 'unpublish'] as const;
export type ServiceVersionIntent = (typeof SERVICE_VERSION_INTENTS)[number];

export const SERVICE_VERSION_MESSAGES = {
  unknownLanguage: 'Versions of a service are in Luganda or Swahili only.',
  noVersion: 'There is no version in this language to unpublish.',
  conflict: 'Someone saved this version after you opened it. Reload to see their text, then make your changes again.',
  saved: (name: string) => `${name} version saved as a draft. It is not on the website.`,
  published: (name: string) => `${name} version published.`,
  unpublished: (name: string) => `${name} version unpublished. The website shows the English text in its place.`,
} as const;

/** The version form's words: the service form's rules for title, description and features, and easy read. */
export const serviceVersionSchema = z.object({
  title: serviceSchema.shape.title,
  description: serviceSchema.shape.description,
  features: serviceSchema.shape.features,
  easyRead: easyReadSchema,
});
export type ServiceVersionInput = z.output<typeof serviceVersionSchema>;

/** The form as posted: the words, the button pressed and the version the form was opened at. */
export const serviceVersionPostSchema = z.object({
  title: z.string().max(10_000).default(''),
  description: z.string().max(10_000).default(''),
  features: z.string().max(10_000).default(''),
  easyRead: z.string().max(20_000).default(''),
  intent: z.enum(SERVICE_VERSION_INTENTS),
  version: z.string().max(20).optional(),
});

/** A version as the dashboard shows it. */
export interface ServiceVersion {
  language: ServiceVersionLanguage;
  title: string;
  description: string;
  features: string[];
  easyRead: string;
  status: 'draft' | 'published';
  version: number;
  updatedAt: string;
}
