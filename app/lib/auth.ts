import { z } from 'zod';

// spec §5 and §8: the sign-in rules and messages, shared by the browser (instant feedback) and the
// server (which checks again).

export const SIGN_IN_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordShort: 'Password must be at least 6 characters',
  invalidCredentials: 'Invalid credentials. Please check your email and password.',
  disabled: 'This account has been disabled. Please contact an administrator.',
  tooManyAttempts: 'Too many failed login attempts. Please wait a few minutes before trying again.',
  network: 'Network error. Please check your internet connection and try again.',
  notAuthorized: 'Your account is not authorized to access the admin dashboard. Please contact an administrator.',
  lookupFailed: 'An error occurred while loading your account. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again or contact support.',
  success: 'Login successful! Redirecting to dashboard...',
  passwordChanged: 'Your password was changed. Please sign in again.',
} as const;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;

export const signInSchema = z.object({
  email: z
    .string({ message: SIGN_IN_MESSAGES.emailRequired })
    .trim()
    .min(1, SIGN_IN_MESSAGES.emailRequired)
    .max(254, SIGN_IN_MESSAGES.emailInvalid)
    .pipe(z.email(SIGN_IN_MESSAGES.emailInvalid))
    .transform((v) => v.toLowerCase()),
  password: z
    .string({ message: SIGN_IN_MESSAGES.passwordRequired })
    .min(1, SIGN_IN_MESSAGES.passwordRequired)
    .min(PASSWORD_MIN, SIGN_IN_MESSAGES.passwordShort)
    .max(PASSWORD_MAX, SIGN_IN_MESSAGES.invalidCredentials),
  remember: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
});

/** Why a session was ended for its user, carried to the sign-in page as ?signedOut=… */
export const SIGNED_OUT_REASONS = {
  'account-removed': SIGN_IN_MESSAGES.notAuthorized,
  'password-changed': SIGN_IN_MESSAGES.passwordChanged,
  disabled: SIGN_IN_MESSAGES.disabled,
} as const;
export type SignedOutReason = keyof typeof SIGNED_OUT_REASONS;

export function isSignedOutReason(value: unknown): value is SignedOutReason {
  return typeof value === 'string' && value in SIGNED_OUT_REASONS;
}

/**
 * The addresses the site itself sends people back to (auth.server.ts: a path and its query, percent-
 * encoded) are printable ASCII; a line feed, another control character or a raw non-ASCII letter cannot
 * go in a Location header, so such a redirectTo was made by hand and is ignored.
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** Only paths inside the dashboard are followed after sign-in (no open redirects), else `fallback`. */
export function safeRedirect(to: unknown, fallback: string): string {
  if (typeof to !== 'string' || !to.startsWith('/admin') || to.startsWith('//') || to.includes('\\')) return fallback;
  if (!PRINTABLE_ASCII.test(to)) return fallback;
  return to;
}
