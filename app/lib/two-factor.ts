import { z } from 'zod';
// Issue 25: the words of the second sign-in step (docs/decisions/026-two-factor-sign-in.md), shared by
// the screens and the services. Each error says what to do next.

export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
  codeFormat: 'The code is 6 digits. Enter the code your authenticator app shows now.',
  wrongCode: 'That code is not right or has already been used. Wait for the next code in your app and enter it.',
  recoveryRequired: 'Enter one of your recovery codes.',
  wrongRecoveryCode: 'That recovery code is not right or has already been used. Check it and try another.',
  expired: 'Your sign-in took too long, so it was stopped. Please sign in again.',
  wrongEnrolmentCode: 'That code does not match. Check the time on your phone is right, then enter the new code your app shows.',
  alreadyEnrolled: 'An authenticator app is already set up. Remove it first to set up another.',
  noEnrolment: 'Start setting up the authenticator app again.',
  noTotp: 'No authenticator app is set up.',
  noFactor: 'Set up an authenticator app or a passkey first.',
  lastFactorRequired: 'Your role must use a second step to sign in. Add a passkey or another app before removing this one.',
  onlySuperAdmin: 'Only the super admin can do this.',
  notYourOwn: 'You cannot reset your own second factor here. Use the server command in the operations guide.',
  noSuchUser: 'This user no longer exists.',
  nothingToReset: 'This person has no second factor to reset.',
  unknownRole: 'Choose roles from the list.',
  noSuchDevice: 'That device is no longer remembered.',
  noSuchSession: 'That session has already ended.',
  setupRequired: 'Your role must use a second step to sign in. Set one up to continue to the dashboard.',
  recoveryCodeUsed: (left: number) =>
    left === 0
      ? 'You used your last recovery code. Make new ones in My sign-in now.'
      : `You used a recovery code. ${left} ${left === 1 ? 'is' : 'are'} left; you can make new ones in My sign-in.`,
} as const;

export const PASSKEY_MESSAGES = {
  expired: 'That took too long. Please try again.',
  notAdded: 'The passkey could not be added. Please try again, or use another device.',
  nameLength: 'Give the passkey a name of 1 to 60 characters, like "Work laptop".',
  noSuchPasskey: 'That passkey is no longer on your account.',
  refused: 'That passkey was not accepted. Try again, or sign in with your email and password.',
  cancelled: 'The passkey request was cancelled or timed out. Try again when ready.',
  unsupported: 'This browser cannot use passkeys. Sign in with your email and password.',
} as const;

/** The roles the overview recommends two-factor for. */
export const RECOMMENDED_ROLES = ['SUPER_ADMIN', 'ADMIN'] as const;

/** An authenticator app's six-digit code as typed (spaces allowed, as apps show "123 456"). */
export const totpCodeField = z
  .string({ message: TWO_FACTOR_MESSAGES.codeRequired })
  .max(64, TWO_FACTOR_MESSAGES.codeFormat)
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .min(1, TWO_FACTOR_MESSAGES.codeRequired)
      .regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.codeFormat),
  );
