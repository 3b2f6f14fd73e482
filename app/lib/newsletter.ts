import { z } from 'zod';

export const NEWSLETTER_MESSAGES = {
  subscribed: 'Thank you for subscribing! We will keep you posted.',
  already: 'You are already subscribed. Thank you for staying with us!',
  invalid: 'Please enter a valid email address.',
  failed: 'Sorry, we could not subscribe you just now. Please try again later.',
} as const;

export type NewsletterResult = { status: keyof typeof NEWSLETTER_MESSAGES; message: string };

export const newsletterSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  source: z.string().trim().max(200).optional(),
});
