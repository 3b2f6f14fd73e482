// The one pattern a stored row's id matches wherever it comes in from outside (an address, a form, a
// page cursor): slugs and UUIDs, 120 characters at most. Anything else cannot name a row, so it is
// "not found" without a query.

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,120}$/;

export function isId(value: string | undefined): value is string {
  return value !== undefined && ID_PATTERN.test(value);
}
