import { z } from 'zod';
import { ASSIGNABLE_ROLES, DEFAULT_ROLE, ROLES } from './permissions';
import { PASSWORD_MAX, PASSWORD_MIN } from './auth';

// spec §5 and §8: the user form's rules and every user-management message, verbatim.
export const USER_MESSAGES = {
  required: 'Please fill in all required fields',
  passwordShort: 'Password must be at least 6 characters',
  emailImmutable: 'Email cannot be changed after creation',
  superAdminUntouchable: 'You cannot modify the super admin account',
  loadFailed: 'Error loading users. Please try again.',
  alreadyExists: 'Email address is already in use.',
  weakPassword: 'Password is too weak. Please use at least 6 characters.',
  commonPassword: 'Password is too weak. Please use a stronger password.',
  invalidEmail: 'Invalid email address.',
  createForbidden: 'You do not have permission to create users.',
  unauthenticated: 'Authentication error. Please refresh the page and try again.',
  createFailed: 'Error creating user. Please try again.',
  notLoggedIn: 'Please log in first.',
  deleteForbidden: 'You do not have permission to delete users.',
  deleteSuperAdmin: 'Cannot delete the super admin account.',
  deleteFailed: 'Error deleting user. Please try again.',
  deleteSelf: 'You cannot delete your own account',
  updateFailed: 'Error updating user. Please try again.',
  updateForbidden: 'You do not have permission to update this user.',
  roleForbidden: 'You cannot change your own role.',
  resetFailed: 'Error sending password reset email',
  onlySuperAdminCreates: 'Access Restricted - Only Super Admin can create new users.',
  deleted: 'User deleted successfully!',
  invalidRole: 'Please choose one of the listed roles.',
  bioTooLong: 'Bio must be at most 500 characters.',
  nameTooLong: 'Name must be at most 100 characters.',
  nameDirection: 'Name contains an invisible mark that changes the direction of the text. Please retype it.',
} as const;

export const userCreated = (name: string) => `User "${name}" created successfully!`;
export const userUpdated = (name: string) => `User "${name}" updated successfully!`;
export const resetSent = (email: string) => `Password reset email sent to ${email}`;
export const deleteConfirmText = (name: string, email: string) =>
  `Are you sure you want to delete ${name} (${email})? This action cannot be undone.`;

export const NAME_MAX = 100;
export const BIO_MAX = 500;

/** The user form's errors: one per field, and one for the whole form (shown by the form, set by the server). */
export type UserFormErrors = Partial<Record<'name' | 'email' | 'role' | 'password' | 'bio' | 'profilePicture' | 'form', string>>;

/**
 * Marks that turn the text after them around (U+202A–U+202E, U+2066–U+2069): a name shown on the
 * site's bylines, the user list and the audit log could read as someone else's.
 */
const DIRECTION_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/;
const name = z
  .string()
  .trim()
  .min(1, USER_MESSAGES.required)
  .max(NAME_MAX, USER_MESSAGES.nameTooLong)
  .refine((value) => !DIRECTION_OVERRIDE.test(value), USER_MESSAGES.nameDirection);
const bio = z.string().trim().max(BIO_MAX, USER_MESSAGES.bioTooLong).default('');
const PICTURE_MAX = 300;
const picture = z
  .string()
  .trim()
  .max(PICTURE_MAX)
  // Zod runs this even after `max` fails, so the length is checked again before the pattern.
  .refine(
    (v) => v === '' || (v.length <= PICTURE_MAX && /^\/media\/profiles\/[A-Za-z0-9._-]+\.webp$/.test(v)),
    'Please upload the picture again.',
  )
  .default('');

export const createUserSchema = z.object({
  name,
  email: z
    .string()
    .trim()
    .min(1, USER_MESSAGES.required)
    .max(254, USER_MESSAGES.invalidEmail)
    .pipe(z.email(USER_MESSAGES.invalidEmail))
    .transform((v) => v.toLowerCase()),
  role: z.enum(ROLES, { message: USER_MESSAGES.invalidRole }).default(DEFAULT_ROLE),
  bio,
  profilePicture: picture,
  password: z
    .string()
    .min(1, USER_MESSAGES.required)
    .min(PASSWORD_MIN, USER_MESSAGES.passwordShort)
    .max(PASSWORD_MAX, USER_MESSAGES.commonPassword),
});

export const updateUserSchema = z.object({
  name,
  /** Sent back unchanged by the form; any change is refused (spec §5). */
  email: z.string().trim().toLowerCase().optional(),
  role: z.enum(ROLES, { message: USER_MESSAGES.invalidRole }).optional(),
  bio,
  profilePicture: picture,
});

export type CreateUserInput = z.infer<typeof createUserSchema>;
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

export { ASSIGNABLE_ROLES };
