import { z } from 'zod';

// The newsletter (issue 12, docs/decisions/505-newsletter.md): the public box's answers, the
// subscribers' statuses, the screens' words and the limits of every input, shared by the pages and
// the services. Zod is built inside `/* @__PURE__ */` calls, so a page that imports only texts does
// not ship it.

/**
 * What the box answers. Every valid address gets the same words, whatever the address's state
 * (new, waiting, confirmed, unsubscribed): the answer tells nobody who is on the list.
 */
export const NEWSLETTER_MESSAGES = {
  received: 'Check your inbox to confirm your subscription',
  invalid: 'Please enter a valid email address.',
  failed: 'Sorry, we could not subscribe you just now. Please try again later.',
} as const;

export type NewsletterResult = { status: keyof typeof NEWSLETTER_MESSAGES; message: string };

export const newsletterSchema = /* @__PURE__ */ z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  source: z.string().trim().max(200).optional(),
});

/** How long a confirmation link works; a waiting address whose link is older is removed. */
export const CONFIRM_LINK_DAYS = 7;

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const SUBSCRIBER_STATUS_LABELS: Record<SubscriberStatus, string> = {
  pending: 'Waiting for confirmation',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
};

/** The list's filter: one status, or everyone. */
export const SUBSCRIBER_VIEWS = ['all', ...SUBSCRIBER_STATUSES] as const;
export type SubscriberView = (typeof SUBSCRIBER_VIEWS)[number];

export const SUBSCRIBER_VIEW_LABELS: Record<SubscriberView, string> = {
  all: 'Everyone',
  pending: 'Waiting for confirmation',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
};

export function isSubscriberView(value: unknown): value is SubscriberView {
  return typeof value === 'string' && (SUBSCRIBER_VIEWS as readonly string[]).includes(value);
}

/** Subscribers on one page of the list. */
export const SUBSCRIBERS_PAGE = 25;
/** The longest search the list accepts (a longer one is cut). */
export const SUBSCRIBER_SEARCH_MAX = 100;

/** Sending speed, in emails a minute: what most small SMTP services accept without complaint. */
export const SEND_RATE = { default: 60, min: 1, max: 1_000 } as const;

export const sendRateSchema = /* @__PURE__ */ z.object({
  rate: z.coerce
    .number({ message: `Please enter a whole number from ${SEND_RATE.min} to ${SEND_RATE.max}.` })
    .int(`Please enter a whole number from ${SEND_RATE.min} to ${SEND_RATE.max}.`)
    .min(SEND_RATE.min, `Please enter a whole number from ${SEND_RATE.min} to ${SEND_RATE.max}.`)
    .max(SEND_RATE.max, `Please enter a whole number from ${SEND_RATE.min} to ${SEND_RATE.max}.`),
});

/** A delivery of one item to one subscriber. */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const SEND_STATUSES = ['sending', 'finished', 'stopped'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "1 subscriber", "1,234 subscribers". */
export function subscriberCount(n: number): string {
  return count(n, 'subscriber', 'subscribers');
}

export const NEWSLETTER_TEXT = {
  subscribersTitle: 'Subscribers',
  empty: 'Nobody has subscribed yet. Addresses typed into the newsletter boxes of the website appear here.',
  noMatches: 'No subscribers match your search or filter.',
  notFound: 'This subscriber was not found. They may have been deleted already.',
  forbidden: 'You do not have permission to manage subscribers.',
  deleted: 'Subscriber deleted. Their address is gone from the list.',
  deleteFailed: 'The subscriber could not be deleted. Please try again.',
  deleteConfirm: (email: string) =>
    `Are you sure you want to delete ${email}? Their address and everything we sent them is removed. This action cannot be undone.`,
  askedToConfirm: (n: number) =>
    `Asking ${count(n, 'earlier subscriber', 'earlier subscribers')} to confirm. The emails go out in the background.`,
  nothingToAsk: 'Every earlier subscriber has been asked already.',
  sendTitle: 'Send to subscribers',
  sendForbidden: 'You do not have permission to send newsletters.',
  itemNotFound: 'This story or news item was not found. It may have been deleted.',
  itemNotSendable: 'Only published stories and news can be sent to subscribers.',
  nobodyToSend: 'Every confirmed subscriber has received this item already, or there are no confirmed subscribers yet.',
  alreadySending: 'This item is being sent now. Wait for it to finish before sending it again.',
  noMailServer: 'Emails cannot be sent: the server has no mail server set (SMTP_URL). Ask whoever runs the website to set it.',
  testSent: (email: string) => `A test email is on its way to ${email}.`,
  testFailed: 'The test email could not be sent. Please try again.',
  started: (n: number) => `Sending to ${subscriberCount(n)} has started. You can leave this page; sending goes on.`,
  stopped: 'Sending stopped. Nobody else will receive this item from this send.',
  notSending: 'This item is not being sent now.',
  resumed: 'Sending resumed.',
  rateSaved: (rate: number) => `Sending speed saved: ${rate.toLocaleString('en-US')} emails a minute.`,
  confirmMismatch: 'The number of subscribers changed while you were deciding. Please check the number and confirm again.',
} as const;

/** The public token pages' words. */
export const SUBSCRIPTION_PAGE_TEXT = {
  confirmTitle: 'Confirm your subscription',
  confirmIntro: 'Press the button to start receiving our newsletter: new stories, news and training dates, a few times a year.',
  confirmButton: 'Confirm my subscription',
  confirmedTitle: 'You are subscribed',
  confirmed: 'Thank you! Your subscription is confirmed. Every email we send has a link to unsubscribe.',
  confirmInvalidTitle: 'This link does not work any more',
  confirmInvalid:
    'This confirmation link has expired or has already been used. If you confirmed already, you are subscribed. If not, please subscribe again.',
  unsubscribeTitle: 'Unsubscribe from our newsletter',
  unsubscribeIntro: 'Press the button and we will stop sending our newsletter to this address.',
  unsubscribeButton: 'Unsubscribe',
  unsubscribedTitle: 'You are unsubscribed',
  unsubscribed: 'We will not send our newsletter to this address again. You can subscribe again at any time.',
  unsubscribeInvalidTitle: 'This link does not work',
  unsubscribeInvalid:
    'This unsubscribe link is not complete. Please open it again from the email, or write to us and we will remove your address.',
} as const;
