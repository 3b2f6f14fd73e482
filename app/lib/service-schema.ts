import { z } from 'zod';
import {
  parseFeatures,
  SERVICE_ALT_MAX,
  SERVICE_DESCRIPTION_MAX,
  SERVICE_FEATURE_MAX,
  SERVICE_FEATURES_INPUT_MAX,
  SERVICE_FEATURES_MAX,
  SERVICE_IMAGE_URL_MAX,
  SERVICE_MESSAGES,
  SERVICE_TITLE_MAX,
} from './services.ts';
import { easyReadSchema } from './easy-read-schema.ts';

// The service form's rules, shared by the dashboard's form and the server. Apart from
// app/lib/services.ts so the public services pages do not load zod (24 KB gzipped) for nothing.

/** The pictures a service may show: one uploaded to the services folder, or a built-in service's own. */
function isServiceImageUrl(value: string): boolean {
  if (value.length > SERVICE_IMAGE_URL_MAX) return false;
  return /^\/media\/services\/[A-Za-z0-9._-]+\.webp$/.test(value) || /^\/images\/services\/[a-z0-9-]+\.svg$/.test(value);
}

export const serviceSchema = z
  .object({
    title: z.string().trim().min(1, SERVICE_MESSAGES.titleRequired).max(SERVICE_TITLE_MAX, SERVICE_MESSAGES.titleTooLong),
    description: z
      .string()
      .max(SERVICE_DESCRIPTION_MAX * 2, SERVICE_MESSAGES.descriptionTooLong)
      .transform((v) => v.replace(/\r\n?/g, '\n').trim())
      .pipe(
        z.string().min(1, SERVICE_MESSAGES.descriptionRequired).max(SERVICE_DESCRIPTION_MAX, SERVICE_MESSAGES.descriptionTooLong),
      ),
    features: z
      .string()
      .max(SERVICE_FEATURES_INPUT_MAX, SERVICE_MESSAGES.tooManyFeatures)
      .default('')
      .transform((v) => parseFeatures(v.replace(/\r\n?/g, '\n')))
      .pipe(
        z
          .array(z.string().max(SERVICE_FEATURE_MAX, SERVICE_MESSAGES.featureTooLong))
          .refine((list) => list.length <= SERVICE_FEATURES_MAX, SERVICE_MESSAGES.tooManyFeatures),
      ),
    imageUrl: z
      .string()
      .trim()
      .default('')
      .refine((v) => v === '' || isServiceImageUrl(v), SERVICE_MESSAGES.imageInvalid),
    imageAlt: z.string().trim().max(SERVICE_ALT_MAX, SERVICE_MESSAGES.altTooLong).default(''),
    // Issue 26: the plain-language version (decision 033).
    easyRead: easyReadSchema,
  })
  // Checked even when another field is wrong, so every problem shows at once.
  .refine((value) => !(value.imageUrl && !value.imageAlt), {
    path: ['imageAlt'],
    message: SERVICE_MESSAGES.altRequired,
    when: ({ value }) => {
      const v = value as { imageUrl?: unknown; imageAlt?: unknown };
      return typeof v?.imageUrl === 'string' && (v.imageAlt === undefined || typeof v.imageAlt === 'string');
    },
  });

export type ServiceInput = z.output<typeof serviceSchema>;
