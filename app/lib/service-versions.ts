import { z } from 'zod';
import { easyReadSchema } from './easy-read-schema.ts';
import { serviceSchema } from './service-schema.ts';
import { VERSION_INTENTS, versionMessages, type VersionLanguage } from './versions.ts';

// Issue 26 item 4, for services: a service's Luganda and Swahili versions (rows of
// service_translations), each with its own title, description, features and easy read, drafted and
// published on its own (decision 033). Shared by the dashboard's form and the server.

export const SERVICE_VERSION_MESSAGES = versionMessages('a service');

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
  intent: z.enum(VERSION_INTENTS),
  version: z.string().max(20).optional(),
});

/** A version as the dashboard shows it. */
export interface ServiceVersion {
  language: VersionLanguage;
  title: string;
  description: string;
  features: string[];
  easyRead: string;
  status: 'draft' | 'published';
  version: number;
  updatedAt: string;
}
