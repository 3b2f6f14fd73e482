import { registerJobHandler, registerRecurringJob } from '../platform/jobs.server.ts';
import { NEWSLETTER_BATCH_JOB, runNewsletterBatch } from './newsletter-send.server.ts';
import { NEWSLETTER_RECONFIRM_JOB, runReconfirm } from './newsletter-subscribers.server.ts';
import {
  NEWSLETTER_EXPIRE_EVERY_MS,
  NEWSLETTER_EXPIRE_JOB,
  NEWSLETTER_SUBSCRIBE_JOB,
  runPendingExpiry,
  runSubscribeJob,
} from './newsletter.server.ts';

/**
 * The newsletter's background work, registered by `startBackgroundJobs` (bootstrap.server.ts): the
 * subscriptions the box queues, the sending batches, asking the addresses stored before double
 * opt-in, and, once a day across all processes, removing addresses that never confirmed. Returns the
 * functions that take each registration back.
 */
export function registerNewsletterJobs(): (() => void)[] {
  return [
    registerJobHandler(NEWSLETTER_SUBSCRIBE_JOB, runSubscribeJob),
    registerJobHandler(NEWSLETTER_BATCH_JOB, runNewsletterBatch),
    registerJobHandler(NEWSLETTER_RECONFIRM_JOB, runReconfirm),
    registerRecurringJob(NEWSLETTER_EXPIRE_JOB, runPendingExpiry, NEWSLETTER_EXPIRE_EVERY_MS),
  ];
}
