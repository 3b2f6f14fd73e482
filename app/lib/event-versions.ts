import { z } from 'zod';
import { eventFormSchema, EVENT_LIMITS } from './events.ts';
import { VERSION_INTENTS, versionMessages, type VersionLanguage } from './versions.ts';

// Decision 051: an event's Luganda and Swahili versions (rows of event_translations), each with its
// own title, summary and description, and a place and picture description where they need words of
// their own; drafted and published on its own, as a service's versions are (decision 033). The
// times, the online link, the places, access and registrations stay the event's. Shared by the
// dashboard's form and the server.

export const EVENT_VERSION_MESSAGES = {
  ...versionMessages('an event'),
  forbidden: 'Your role may not change the versions of events; an editor or admin does.',
} as const;

/** The version form's words: the event form's rules for each. */
export const eventVersionSchema = z.object({
  title: eventFormSchema.shape.title,
  summary: eventFormSchema.shape.summary,
  description: eventFormSchema.shape.description,
  place: eventFormSchema.shape.place,
  imageAlt: eventFormSchema.shape.imageAlt,
});
export type EventVersionInput = z.output<typeof eventVersionSchema>;

/** The form as posted: the words, the button pressed and the version the form was opened at. */
export const eventVersionPostSchema = z.object({
  title: z.string().max(10_000).default(''),
  summary: z.string().max(10_000).default(''),
  description: z
    .string()
    .max(EVENT_LIMITS.description + 10_000)
    .default(''),
  place: z.string().max(10_000).default(''),
  imageAlt: z.string().max(10_000).default(''),
  intent: z.enum(VERSION_INTENTS),
  version: z.string().max(20).optional(),
});

/** A version as the dashboard shows it. */
export interface EventVersion {
  language: VersionLanguage;
  title: string;
  summary: string;
  description: string;
  place: string;
  imageAlt: string;
  status: 'draft' | 'published';
  version: number;
  updatedAt: string;
}
